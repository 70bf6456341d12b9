/**
 * The servers a player keeps (issue 24): favourites, chosen with the
 * `favourite` command or the browser's star, and the servers joined lately,
 * newest first. Saved in settings.json under `servers`; read back like every
 * other field, as untrusted text. Pure.
 */
import type { MasterServerType } from './masterProtocol';
import { MASTER_SERVER_TYPES } from './masterProtocol';

/** One kept server: where `connect` reaches it, which protocol it needs, what it was called, where it answers a ping. */
export interface SavedServer {
  /** `host:port` (`[v6]:port`), as {@link savedAddress} writes it. */
  address: string;
  kind: MasterServerType;
  /** Its name when last seen ('' when never seen). */
  name: string;
  /** Its discovery UDP port, when a masterserver listed it (so the browser can ping it when it is not listed). */
  udp: number | null;
}

export interface SavedServers {
  favourites: SavedServer[];
  /** Newest first. */
  recent: SavedServer[];
}

export const MAX_FAVOURITES = 50;
export const MAX_RECENT = 10;
/** A server name's longest form (joinFields.ts's MAX_SERVER_NAME_LENGTH). */
export const SAVED_NAME_MAX = 31;

export function emptySavedServers(): SavedServers {
  return { favourites: [], recent: [] };
}

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}(?:%[A-Za-z0-9_.-]{1,32})?$/;

/**
 * `text` as a kept address — `host:port`, or `[v6]:port` — with the host in
 * lower case; without a port, `defaultPort` (null: a port is required).
 * Null when it is not such an address.
 */
export function savedAddress(text: string, defaultPort: number | null = null): string | null {
  const m = /^\[([^\]]*)\](?::(\d{1,5}))?$/.exec(text) ?? /^([^:[\]]*)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return null;
  const host = (m[1] ?? '').toLowerCase();
  const v6 = text.startsWith('[');
  if (v6 ? !IPV6.test(host) || !host.includes(':') : !HOST_NAME.test(host)) return null;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (port === null || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return `${v6 ? `[${host}]` : host}:${port}`;
}

/** A name as kept: printable ASCII only, trimmed, at most {@link SAVED_NAME_MAX} characters. */
export function savedName(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '').trim().slice(0, SAVED_NAME_MAX);
}

const isKind = (v: unknown): v is MasterServerType => typeof v === 'string' && (MASTER_SERVER_TYPES as readonly string[]).includes(v);

/** One untrusted entry as a kept server, or null when it cannot be one. */
function sanitizeEntry(raw: unknown): SavedServer | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const address = typeof r.address === 'string' && r.address.length <= 300 ? savedAddress(r.address) : null;
  if (address === null || !isKind(r.kind)) return null;
  const name = typeof r.name === 'string' ? savedName(r.name.slice(0, 256)) : '';
  const udp = typeof r.udp === 'number' && Number.isInteger(r.udp) && r.udp >= 1 && r.udp <= 65535 ? r.udp : null;
  return { address, kind: r.kind, name, udp };
}

/** A list of untrusted entries: each good one once (by address, the first kept), at most `max`; whether anything was dropped. */
function sanitizeList(raw: unknown, max: number): { list: SavedServer[]; dropped: boolean } {
  if (!Array.isArray(raw)) return { list: [], dropped: raw !== undefined };
  const list: SavedServer[] = [];
  let dropped = raw.length > max;
  for (const item of raw.slice(0, max)) {
    const entry = sanitizeEntry(item);
    if (entry === null || list.some((s) => s.address === entry.address)) dropped = true;
    else list.push(entry);
  }
  return { list, dropped };
}

/** Untrusted parsed JSON as kept servers; what was wrong is named in `issues` (`servers.favourites`, `servers.recent`, `servers`). */
export function sanitizeSavedServers(raw: unknown): { servers: SavedServers; issues: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { servers: emptySavedServers(), issues: ['servers'] };
  const r = raw as Record<string, unknown>;
  const favourites = sanitizeList(r.favourites, MAX_FAVOURITES);
  const recent = sanitizeList(r.recent, MAX_RECENT);
  const issues = [...(favourites.dropped ? ['servers.favourites'] : []), ...(recent.dropped ? ['servers.recent'] : [])];
  return { servers: { favourites: favourites.list, recent: recent.list }, issues };
}

/** `saved` with `server` a favourite (one already there is updated in place); null when the list is full. */
export function withFavourite(saved: SavedServers, server: SavedServer): SavedServers | null {
  const at = saved.favourites.findIndex((s) => s.address === server.address);
  if (at < 0 && saved.favourites.length >= MAX_FAVOURITES) return null;
  const favourites = at < 0 ? [...saved.favourites, server] : saved.favourites.map((s, i) => (i === at ? server : s));
  return { ...saved, favourites };
}

/** `saved` without the favourite at `address` (unchanged when it is none). */
export function withoutFavourite(saved: SavedServers, address: string): SavedServers {
  return { ...saved, favourites: saved.favourites.filter((s) => s.address !== address) };
}

/** `saved` with `server` the newest recent one (moved to the front if there already), the oldest past {@link MAX_RECENT} dropped. */
export function withRecent(saved: SavedServers, server: SavedServer): SavedServers {
  return { ...saved, recent: [server, ...saved.recent.filter((s) => s.address !== server.address)].slice(0, MAX_RECENT) };
}

/** The kept server at `address`, a favourite or a recent one, if any. */
export function findSaved(saved: SavedServers, address: string): SavedServer | null {
  return saved.favourites.find((s) => s.address === address) ?? saved.recent.find((s) => s.address === address) ?? null;
}
