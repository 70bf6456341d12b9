/**
 * The player's kept servers (favourites, joined lately) in the browser's
 * table: a listed server that is one is marked so, and one nothing listed
 * gets a row of its own — players not known, pinged at the UDP port last
 * seen when there is one — so it can be joined even when it did not answer.
 * Pure.
 */
import { canonicalHost, formatAddress, sortRows, type BrowserRow } from './browserModel';
import type { SavedServer, SavedServers } from './savedServers';

/** Host and port of `host:port` / `[v6]:port` as a comparable key (no zone, lower case), or null. */
export function addressKey(address: string): string | null {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(address) ?? /^([^:[\]]+):(\d+)$/.exec(address);
  return m ? `${canonicalHost(m[1] ?? '')} ${Number(m[2])}` : null;
}

const rowKey = (r: BrowserRow): string | null => (r.port === null ? null : `${canonicalHost(r.host)} ${r.port}`);

/** The row of a kept server nothing has listed. */
function savedRow(s: SavedServer): BrowserRow {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(s.address) ?? /^([^:[\]]+):(\d+)$/.exec(s.address);
  const host = m?.[1] ?? s.address;
  const port = m ? Number(m[2]) : null;
  return {
    name: s.name || s.address,
    kind: s.kind,
    players: 0,
    maxPlayers: 0,
    pingMs: null,
    ping: s.udp === null ? 'unknown' : 'unreachable',
    host,
    port,
    udp: s.udp,
    systems: [],
    address: formatAddress(host, port),
    fromMaster: false,
    fromLan: false,
  };
}

/**
 * `rows` with the kept servers of `saved` marked (`favourite`, `recent`), a
 * row added for each kept server not among them, and the rows of servers no
 * longer kept that only their keeping listed taken out; in list order.
 * Idempotent: the host applies it again whenever the lists change.
 */
export function markSaved(rows: readonly BrowserRow[], saved: SavedServers): BrowserRow[] {
  const favourites = new Set(saved.favourites.map((s) => addressKey(s.address)));
  const recent = new Set(saved.recent.map((s) => addressKey(s.address)));
  const out: BrowserRow[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const key = rowKey(r);
    const favourite = key !== null && favourites.has(key);
    const lately = key !== null && recent.has(key);
    if (!r.fromMaster && !r.fromLan && !favourite && !lately) continue;
    if (key !== null) seen.add(key);
    const row: BrowserRow = { ...r };
    delete row.favourite;
    delete row.recent;
    out.push({ ...row, ...(favourite ? { favourite: true } : {}), ...(lately ? { recent: true } : {}) });
  }
  for (const s of [...saved.favourites, ...saved.recent]) {
    const key = addressKey(s.address);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    const row = savedRow(s);
    out.push({ ...row, ...(favourites.has(key) ? { favourite: true } : {}), ...(recent.has(key) ? { recent: true } : {}) });
  }
  return sortRows(out);
}

/** The browser row at `address` (compared as {@link addressKey}), if any. */
export function rowAt(rows: readonly BrowserRow[], address: string): BrowserRow | null {
  const key = addressKey(address);
  return key === null ? null : (rows.find((r) => rowKey(r) === key) ?? null);
}
