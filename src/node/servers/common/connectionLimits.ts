/**
 * Per-source fairness for TCP connections, shared by the line servers
 * (masterserver, slotserver, gameserver) and the status pages.
 *
 * - A source is an IPv4 address, or an IPv6 /64 (one host usually owns a whole
 *   /64, so counting single IPv6 addresses would let it open connections
 *   without limit).
 * - One source may hold at most `perSource` connections.
 * - The global cap keeps `reserve` places for sources holding few connections
 *   (fewer than `smallSource`: {@link SMALL_SOURCE} for the line servers, where
 *   a player needs one; {@link HTTP_SMALL_SOURCE} for the status pages, which a
 *   browser fetches over up to 6 connections at once): once the table is that
 *   full, only such sources get in, so a handful of busy sources can never
 *   take every place.
 *
 * The caps are plain numbers; counts are kept only for sources with open
 * connections, so the table never outgrows `max` entries.
 */

import { addressKey } from './addressKey';
/** Options of a {@link ConnectionTable}. */
export interface ConnectionCaps {
  /** Most simultaneous connections overall. */
  max: number;
  /** Most simultaneous connections from one source (IPv4 address or IPv6 /64). */
  perSource: number;
  /** A source holding fewer than this may take the places kept for newcomers (default SMALL_SOURCE). */
  smallSource?: number;
}

/** Connections a source may hold and still count as "new" for the reserved places (line servers). */
export const SMALL_SOURCE = 4;
/**
 * The same for the status pages: a browser opens up to 6 connections to a
 * host at once, and a page asks for itself and its JSON, so a newcomer may
 * hold up to 12 while busy sources fill the rest (CI once met four busy
 * addresses holding 196 of 256 places: a fifth got 4 of its 10 pages).
 */
export const HTTP_SMALL_SOURCE = 12;

/** Default caps of the TCP line servers: room for a LAN party of 8 behind one address many times over. */
export const DEFAULT_LINE_CAPS: ConnectionCaps = { max: 1024, perSource: 64 };
/** Default caps of the status pages (a browser opens up to 6 connections per page; 8 players watching fit easily). */
export const DEFAULT_HTTP_CAPS: ConnectionCaps = { max: 256, perSource: 64, smallSource: HTTP_SMALL_SOURCE };


/** Checks caps given by an option, with its name for the error. */
export function checkCaps(caps: ConnectionCaps, what: string): void {
  if (!Number.isInteger(caps.max) || caps.max < 1) throw new Error(`${what}: the connection cap must be an integer ≥ 1`);
  if (!Number.isInteger(caps.perSource) || caps.perSource < 1) throw new Error(`${what}: the per-address cap must be an integer ≥ 1`);
  if (caps.smallSource !== undefined && (!Number.isInteger(caps.smallSource) || caps.smallSource < 1)) throw new Error(`${what}: the newcomer's share must be an integer ≥ 1`);
}

/**
 * Open connections by source. `admit` says whether one more from `address`
 * fits (and if so counts it: call `release` once it closes).
 */
export class ConnectionTable {
  private readonly bySource = new Map<string, number>();
  private total = 0;
  /** Places only small sources may take: a quarter of the cap, at least 1 (none if the cap is 1). */
  readonly reserve: number;

  constructor(readonly caps: ConnectionCaps) {
    checkCaps(caps, 'connections');
    this.reserve = caps.max > 1 ? Math.max(1, Math.floor(caps.max / 4)) : 0;
  }

  /** Null if a connection from `address` is admitted (and counted), else why not. */
  admit(address: string): 'too-many-connections' | 'too-many-from-address' | null {
    const key = addressKey(address);
    const held = this.bySource.get(key) ?? 0;
    if (held >= this.caps.perSource) return 'too-many-from-address';
    if (this.total >= this.caps.max) return 'too-many-connections';
    if (this.total >= this.caps.max - this.reserve && held >= (this.caps.smallSource ?? SMALL_SOURCE)) return 'too-many-connections';
    this.bySource.set(key, held + 1);
    this.total += 1;
    return null;
  }

  /** A connection admitted for `address` has closed. */
  release(address: string): void {
    const key = addressKey(address);
    const held = this.bySource.get(key);
    if (held === undefined) return;
    this.total -= 1;
    if (held <= 1) this.bySource.delete(key);
    else this.bySource.set(key, held - 1);
  }

  /** Connections counted now, overall and from `address`'s source. */
  count(address?: string): number {
    return address === undefined ? this.total : (this.bySource.get(addressKey(address)) ?? 0);
  }
}

/**
 * The TCP limits every server takes (CLI: --max-connections,
 * --max-connections-per-address, --line-timeout-seconds, --max-unread-kib,
 * --http-max-connections, --http-max-connections-per-address); each unset one
 * keeps its default.
 */
export interface ServerLimits {
  /** Line protocol: most connections overall (default 1024). */
  maxConnections?: number;
  /** Line protocol: most connections per IPv4 address or IPv6 /64 (default 64). */
  maxConnectionsPerAddress?: number;
  /** Line protocol: new connections per IPv4 address or IPv6 /64 per minute (default 30). */
  connectsPerMinute?: number;
  /** Line protocol: a begun line must end within this long (default 10,000 ms). */
  lineTimeoutMs?: number;
  /** Line protocol: unsent reply bytes that close a connection (default 256 KiB). */
  maxOutputBytes?: number;
  /** Status page: most connections overall (default 256). */
  httpMaxConnections?: number;
  /** Status page: most connections per IPv4 address or IPv6 /64 (default 64). */
  httpMaxConnectionsPerAddress?: number;
}

/** The line-server part of `limits` (unset fields left out). */
export function lineLimits(limits: ServerLimits | undefined): Pick<ServerLimits, 'maxConnections' | 'maxConnectionsPerAddress' | 'connectsPerMinute' | 'lineTimeoutMs' | 'maxOutputBytes'> {
  const { maxConnections, maxConnectionsPerAddress, connectsPerMinute, lineTimeoutMs, maxOutputBytes } = limits ?? {};
  return Object.fromEntries(Object.entries({ maxConnections, maxConnectionsPerAddress, connectsPerMinute, lineTimeoutMs, maxOutputBytes }).filter(([, v]) => v !== undefined));
}

/** The status-page part of `limits`, as {@link ConnectionCaps} with defaults filled in. */
export function httpCaps(limits: ServerLimits | undefined): ConnectionCaps {
  return { max: limits?.httpMaxConnections ?? DEFAULT_HTTP_CAPS.max, perSource: limits?.httpMaxConnectionsPerAddress ?? DEFAULT_HTTP_CAPS.perSource, smallSource: HTTP_SMALL_SOURCE };
}
