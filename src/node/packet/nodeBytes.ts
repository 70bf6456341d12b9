/**
 * Node address ⇄ bytes for packets: [family 4|6][address][port u16 BE].
 * Only the dgram packet APIs use this; everything else sees opaque bytes.
 */
import net from 'node:net';

/** Serialises an IPv4 or IPv6 address text (scope ids are dropped) and a port. */
export function addressToBytes(address: string, port: number): Uint8Array | null {
  const text = address.split('%')[0] ?? '';
  if (net.isIPv4(text)) {
    const out = new Uint8Array(7);
    out[0] = 4;
    text.split('.').forEach((part, i) => (out[1 + i] = Number(part)));
    out[5] = port >> 8;
    out[6] = port & 0xff;
    return out;
  }
  const groups = ipv6Groups(text);
  if (!groups) return null;
  const out = new Uint8Array(19);
  out[0] = 6;
  groups.forEach((g, i) => {
    out[1 + i * 2] = g >> 8;
    out[2 + i * 2] = g & 0xff;
  });
  out[17] = port >> 8;
  out[18] = port & 0xff;
  return out;
}

/** Parses bytes made by {@link addressToBytes}; null when the length or family byte is wrong. */
export function bytesToAddress(bytes: Uint8Array): { family: 4 | 6; address: string; port: number } | null {
  if (bytes.length === 7 && bytes[0] === 4) {
    return { family: 4, address: Array.from(bytes.subarray(1, 5)).join('.'), port: ((bytes[5] as number) << 8) | (bytes[6] as number) };
  }
  if (bytes.length === 19 && bytes[0] === 6) {
    const groups: string[] = [];
    for (let i = 0; i < 8; i++) groups.push((((bytes[1 + i * 2] as number) << 8) | (bytes[2 + i * 2] as number)).toString(16));
    return { family: 6, address: groups.join(':'), port: ((bytes[17] as number) << 8) | (bytes[18] as number) };
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address text (with `::` and a dotted IPv4 tail), or null. */
function ipv6Groups(text: string): number[] | null {
  if (!net.isIPv6(text)) return null;
  let head = text;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const [a, b, c, d] = v4[1].split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    head = text.slice(0, -v4[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const [left, right] = head.includes('::') ? (head.split('::') as [string, string]) : [head, null];
  const l = parse(left);
  const r = right === null ? [] : parse(right);
  const missing = 8 - tail.length - l.length - r.length;
  if (right === null ? missing !== 0 : missing < 0) return null;
  return [...l, ...Array(right === null ? 0 : missing).fill(0), ...r, ...tail];
}
