/**
 * How status pages show a player: how long it has been joined, and where it plays from: always address and port
 * (the join protocol's canonical endpoint leaves out the default client port
 * 6526, which made a browser-shell player on 6526 look like a bare
 * `127.0.0.1`).
 */
import { isIPv6 } from 'node:net';

/** `192.0.2.7:6526` or `[2001:db8::7]:6526`: the port is always written. */
export function hostPort(address: string, port: number): string {
  return isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
}

/** Where a player plays from and how the server knows it. */
export interface PlaysFrom {
  /** address:port. */
  playsFrom: string;
  /** `udp`: the endpoint its game packets come from (gameserver) or go to (slotserver, peer to peer); `tcp`: its join connection, until a game packet has arrived. */
  via: 'udp' | 'tcp';
}

/**
 * A gameserver player: the UDP endpoint its datagrams come from once the
 * server has bound one, else the TCP connection it joined on.
 */
export function gameserverPlaysFrom(tcp: { address: string; tcpPort: number }, udp: { address: string; port: number } | null): PlaysFrom {
  return udp ? { playsFrom: hostPort(udp.address, udp.port), via: 'udp' } : { playsFrom: hostPort(tcp.address, tcp.tcpPort), via: 'tcp' };
}

/** A slotserver player: its address and the UDP game port it announced (the peers send their game packets there). */
export function slotserverPlaysFrom(p: { address: string; port: number }): PlaysFrom {
  return { playsFrom: hostPort(p.address, p.port), via: 'udp' };
}

/** `1h 02m 03s` / `4m 05s` / `6s`: how long a player has been joined, for status pages. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h ${pad(m)}m ${pad(s % 60)}s` : m > 0 ? `${m}m ${pad(s % 60)}s` : `${s}s`;
}
