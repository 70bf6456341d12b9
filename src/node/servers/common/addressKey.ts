/**
 * Which addresses count as one host for per-address limits (seats on the
 * slot- and gameserver, registrations on the masterserver): an IPv4 address
 * is one host (an IPv4-mapped IPv6 address is its IPv4 address), and an IPv6
 * address counts by its /64, since one home or one cloud machine is usually
 * handed a whole /64 and can pick any address in it.
 */
import { isIPv4, isIPv6, SocketAddress } from 'node:net';

/** The key one host's addresses share: `192.0.2.7` or `2001:db8:0:1::/64`. Anything that is not an IP address is its own key. */
export function addressKey(address: string): string {
  const bare = address.split('%')[0] ?? '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(bare) || !isIPv6(bare)) return bare;
  const words = expandIPv6(bare);
  if (!words) return bare;
  const prefix = words.slice(0, 4).map((w) => w.toString(16));
  return `${prefix.join(':')}::/64`;
}

/** The eight 16-bit words of a valid IPv6 address (with an embedded IPv4 tail allowed), or null. */
function expandIPv6(address: string): number[] | null {
  // SocketAddress validates; the parsing below only has to handle valid text.
  if (!SocketAddress.parse(`[${address}]:1`)) return null;
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((w) => parseInt(w, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return null;
  const words = [...left, ...Array<number>(fill).fill(0), ...right];
  return words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** Counts per host key; `add` refuses once a key holds `limit`. */
export class PerAddress {
  private readonly counts = new Map<string, number>();
  constructor(readonly limit: number) {}
  /** How many `address`'s host holds now. */
  count(address: string): number {
    return this.counts.get(addressKey(address)) ?? 0;
  }
  /** Whether one more from `address` would go over the limit. */
  full(address: string): boolean {
    return this.count(address) >= this.limit;
  }
  add(address: string): void {
    const key = addressKey(address);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  remove(address: string): void {
    const key = addressKey(address);
    const n = (this.counts.get(key) ?? 0) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
  }
  clear(): void {
    this.counts.clear();
  }
}
