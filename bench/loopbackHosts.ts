/**
 * Where load-bench clients join from: each binds its TCP and UDP sockets to
 * a loopback address of its own host group, 127.0.0.2 to 127.0.0.254 (Linux
 * routes all of 127/8 to the loopback interface), at most as many clients
 * per address as a server seats per host by default (DEFAULT_MAX_PER_ADDRESS,
 * 8). So a benchmark runs against a server with every default limit in
 * force, as that many households of a LAN party would.
 */
import { DEFAULT_MAX_PER_ADDRESS } from '../src/node/servers/join/joinOptions';

/** First and last loopback host number used (127.0.0.1 stays the server's). */
const FIRST_HOST = 2;
const LAST_HOST = 254;

/** Clients the loopback addresses can hold: 253 addresses × the per-host seat limit. */
export const MAX_LOOPBACK_CLIENTS = (LAST_HOST - FIRST_HOST + 1) * DEFAULT_MAX_PER_ADDRESS;

/** The local address of client `i` (0-based): 127.0.0.2 for the first 8, 127.0.0.3 for the next 8, ... */
export function loopbackHost(i: number, perAddress = DEFAULT_MAX_PER_ADDRESS): string {
  const host = FIRST_HOST + Math.floor(i / perAddress);
  if (!Number.isInteger(i) || i < 0 || host > LAST_HOST) throw new RangeError(`no loopback address for client ${i} at ${perAddress} per address`);
  return `127.0.0.${host}`;
}
