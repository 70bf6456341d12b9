/**
 * The server browser's table (issue 24): the masterserver's list and the
 * LAN's answers merged into one row per server, with the pings measured by
 * unicast discovery, sortable by any column and filtered. Pure: no I/O, no
 * Node builtins, so the console's `servers` and a renderer page use it alike.
 *
 * A server is its address: the host it is reached at and its TCP join port.
 * A LAN answer and a master entry with the same address are one server; the
 * LAN's figures win (the server said them itself, just now), and the row
 * notes both sources. A master entry without a port cannot be matched and
 * stays a row of its own.
 */
import { compareListed } from './listOrder';
import type { ListedServer, MasterServerType } from './masterProtocol';

/** A LAN answer as the browser needs it (lanQuery's LanServer fits). */
export interface LanAnswer {
  kind: MasterServerType;
  name: string;
  /** The answering IP (an IPv6 link-local one with its `%scope`). */
  address: string;
  /** TCP join port. */
  port: number;
  players: number;
  maxPlayers: number;
  /** Round trip of the discovery that found it. */
  pingMs: number;
}

/** One row of the table. */
export interface BrowserRow {
  name: string;
  kind: MasterServerType | null;
  players: number;
  /** 0 with `players` 0: not known (a kept server nothing has listed and that has not answered). */
  maxPlayers: number;
  /** Round trip in ms; null when not measured or unreachable (see `ping`). */
  pingMs: number | null;
  /** `measured`, `unreachable` (asked, never answered) or `unknown` (no UDP port to ask). */
  ping: 'measured' | 'unreachable' | 'unknown';
  host: string;
  /** TCP join port, null when the masterserver did not know it. */
  port: number | null;
  /** Discovery UDP port from the masterserver's list, null when not given. */
  udp: number | null;
  /** The solar systems it hosts, as the masterserver lists them (empty: none named, or not listed there). */
  systems: string[];
  /** `host:port` as `connect` takes it (`[v6]:port`); just the host without a port. */
  address: string;
  /** Where the row came from. */
  fromMaster: boolean;
  fromLan: boolean;
  /** A favourite of the player's (savedRows.ts). */
  favourite?: boolean;
  /** One of the servers the player joined lately. */
  recent?: boolean;
}

/** A sortable column. */
export type BrowserColumn = 'name' | 'kind' | 'systems' | 'players' | 'ping' | 'address';

/** Which rows to hide. */
export interface BrowserFilter {
  /** Hide servers known to be full (a row whose count is not known is neither full nor empty). */
  hideFull?: boolean;
  hideEmpty?: boolean;
  /** Show only the favourites, or only the servers joined lately. */
  only?: 'favourites' | 'recent';
  /** Show only these kinds (rows of unknown kind are shown only when this is absent). */
  kinds?: readonly MasterServerType[];
}

/** An address as datagrams report it: no IPv6 zone, lower case, IPv4-mapped IPv6 as plain IPv4. */
export function canonicalHost(host: string): string {
  const bare = (host.split('%')[0] ?? '').toLowerCase();
  return bare.startsWith('::ffff:') && bare.includes('.') ? bare.slice(7) : bare;
}

/** `host:port` (`[v6]:port`), or the host alone when the port is unknown. */
export function formatAddress(host: string, port: number | null): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return port === null ? h : `${h}:${port}`;
}

const keyOf = (host: string, port: number | null) => (port === null ? null : `${canonicalHost(host)} ${port}`);

/** The rows of the master list and the LAN answers merged, in list order (listOrder.ts). */
export function mergeServers(master: readonly ListedServer[], lan: readonly LanAnswer[]): BrowserRow[] {
  const rows: BrowserRow[] = [];
  const byKey = new Map<string, BrowserRow>();
  for (const s of master) {
    const row: BrowserRow = {
      name: s.name,
      kind: s.type,
      players: s.players,
      maxPlayers: s.maxPlayers,
      pingMs: null,
      ping: s.udp === null ? 'unknown' : 'unreachable',
      host: s.host,
      port: s.port,
      udp: s.udp,
      systems: [...s.systems],
      address: formatAddress(s.host, s.port),
      fromMaster: true,
      fromLan: false,
    };
    const key = keyOf(s.host, s.port);
    // A masterserver listing one address twice gets one row.
    if (key !== null && byKey.has(key)) continue;
    if (key !== null) byKey.set(key, row);
    rows.push(row);
  }
  for (const a of lan) {
    const key = keyOf(a.address, a.port) as string;
    const known = byKey.get(key);
    const fresh = { name: a.name, kind: a.kind, players: a.players, maxPlayers: a.maxPlayers, pingMs: a.pingMs, ping: 'measured' as const, fromLan: true };
    if (known) {
      Object.assign(known, fresh);
      continue;
    }
    const row: BrowserRow = { ...fresh, host: a.address, port: a.port, udp: null, systems: [], address: formatAddress(a.address, a.port), fromMaster: false };
    byKey.set(key, row);
    rows.push(row);
  }
  return sortRows(rows);
}

/** One measured ping: the host and discovery UDP port asked, and the round trip (null: no answer). */
export interface PingMeasure {
  host: string;
  udp: number;
  pingMs: number | null;
  /**
   * What the server announced in its answer (already parsed and checked): it
   * replaces the row's name, kind and figures, as a LAN answer does, when it
   * names the row's join port (else it is some other server's answer).
   */
  answer?: { name: string; kind: MasterServerType; port: number; players: number; maxPlayers: number };
}

/**
 * `rows` with `pings` applied to the rows they belong to (same host and UDP
 * port). A row the LAN already measured keeps its ping; a new measure
 * replaces an older one. New rows; the input is not changed.
 */
export function applyPings(rows: readonly BrowserRow[], pings: readonly PingMeasure[]): BrowserRow[] {
  const byTarget = new Map(pings.map((p) => [`${canonicalHost(p.host)} ${p.udp}`, p]));
  return rows.map((r) => {
    if (r.fromLan || r.udp === null) return { ...r };
    const measure = byTarget.get(`${canonicalHost(r.host)} ${r.udp}`);
    if (!measure) return { ...r };
    const pingMs = measure.pingMs;
    const a = pingMs !== null && measure.answer?.port === r.port ? measure.answer : null;
    const figures = a ? { name: a.name, kind: a.kind, players: a.players, maxPlayers: a.maxPlayers } : {};
    return { ...r, ...figures, pingMs, ping: pingMs === null ? 'unreachable' : 'measured' };
  });
}

/** The rows whose ping a client should measure by unicast discovery: not heard on the LAN, with a UDP port. */
export function pingTargets(rows: readonly BrowserRow[]): { host: string; udp: number }[] {
  return rows.flatMap((r) => (r.fromLan || r.udp === null ? [] : [{ host: r.host, udp: r.udp }]));
}

const defaultOrder = (a: BrowserRow, b: BrowserRow) => compareListed(a, b);

const byColumn: Record<BrowserColumn, (a: BrowserRow, b: BrowserRow) => number> = {
  name: (a, b) => compareListed({ name: a.name, address: '' }, { name: b.name, address: '' }),
  kind: (a, b) => (a.kind ?? '\uffff').localeCompare(b.kind ?? '\uffff'),
  // By the first system's name; servers naming none come after those that do.
  systems: (a, b) => (a.systems.join(',') || '\uffff').localeCompare(b.systems.join(',') || '\uffff'),
  players: (a, b) => a.players - b.players || a.maxPlayers - b.maxPlayers,
  // Unmeasured pings are handled in sortRows: last either way.
  ping: (a, b) => (a.pingMs ?? 0) - (b.pingMs ?? 0),
  // By host (numbers as numbers, so 192.… before 198.… before 2001:…), then port.
  address: (a, b) => compareListed({ name: a.host, address: '' }, { name: b.host, address: '' }) || (a.port ?? 0) - (b.port ?? 0),
};

/**
 * `rows` sorted by `column` (default: list order, as numbered by `servers`),
 * `descending` reversing it; ties fall back to list order, so the sort is
 * stable and total. Rows without a ping come last whatever the direction.
 * A new array.
 */
export function sortRows(rows: readonly BrowserRow[], column?: BrowserColumn, descending = false): BrowserRow[] {
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    if (column === 'ping' && (a.pingMs === null) !== (b.pingMs === null)) return a.pingMs === null ? 1 : -1;
    const primary = column === undefined ? 0 : sign * byColumn[column](a, b);
    return primary || defaultOrder(a, b);
  });
}

/** `rows` without those `filter` hides (full: players ≥ max; empty: no players; kinds; only favourites or recent ones). */
export function filterRows(rows: readonly BrowserRow[], filter: BrowserFilter): BrowserRow[] {
  const known = (r: BrowserRow) => r.maxPlayers > 0;
  return rows.filter(
    (r) =>
      !(filter.hideFull && known(r) && r.players >= r.maxPlayers) &&
      !(filter.hideEmpty && known(r) && r.players === 0) &&
      !(filter.only === 'favourites' && !r.favourite) &&
      !(filter.only === 'recent' && !r.recent) &&
      (filter.kinds === undefined || (r.kind !== null && filter.kinds.includes(r.kind))),
  );
}
