import type { WireAddr } from './types';

/**
 * Total order on serialised node addresses (bytewise, shorter first on a
 * common prefix). The peer-to-peer start-up uses it to settle conflicts: the
 * higher address wins.
 */
export function compareAddr(a: WireAddr, b: WireAddr): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** A string key for maps and sets (equal keys ⇔ equal addresses). */
export function addrKey(a: WireAddr): string {
  let s = '';
  for (const byte of a) s += byte.toString(16).padStart(2, '0');
  return s;
}

export function addrEquals(a: WireAddr, b: WireAddr): boolean {
  return compareAddr(a, b) === 0;
}
