/**
 * The masterserver's text protocol (Parsec design, docs/PROTOCOL.md
 * "Masterserver protocol"): one newline-terminated ASCII line per request or
 * reply over a TCP connection the slot- or gameserver keeps open.
 *
 * Requests (whitespace-separated tokens; a token is 1+ printable ASCII
 * characters without spaces, so a name with spaces cannot be expressed):
 *
 *   version: <d.d> join me: <name> os: <os> maxplayers: <n> url: <url> [port: <p>] [type: <t>] [udp: <u>]
 *   players: <n> max: <m>
 *   fleet state: <ready|reserved|allocated>
 *   remove me
 *
 * Starlane extension: after the url, a join line may carry `port: <1..65535>`
 * (the TCP port players join the server on) and `type: slotserver|gameserver|netgame`,
 * each at most once, in either order, so a game client reading the list can
 * connect without guessing. Both are optional; a 1998-style join line without
 * them is still accepted. Version 1.1 adds `udp: <1..65535>`, the UDP port the
 * server answers discovery requests on (a client measures its ping there);
 * a line carrying it says `version: 1.1`, so a 1.0 masterserver ignores the
 * field instead of refusing the join. A join line with a newer minor version
 * (1.2…) may carry further `key: value` pairs, which are ignored, so later 1.x
 * extensions stay compatible with this masterserver. A url whose host is
 * `0.0.0.0` or `[::]` is listed with the address the join came from
 * ({@link resolveServerUrl}).
 *
 * Pure: no I/O, never throws while parsing; formatting refuses invalid values.
 */

/** The masterserver protocol version Starlane speaks. Another major version is incompatible. */
export const MASTER_PROTOCOL_VERSION: Readonly<MasterVersion> = { major: 1, minor: 1 };
/** The version a join line without 1.1's fields says, as in 1998. */
export const MASTER_PROTOCOL_1_0: Readonly<MasterVersion> = { major: 1, minor: 0 };
/** TCP port a masterserver listens on unless told otherwise. */
export const DEFAULT_MASTER_PORT = 6502;
/** How many servers a masterserver lists at most unless told otherwise. */
export const DEFAULT_MAX_SERVERS = 256;
/** Longest server name or OS token. */
export const MAX_TOKEN_CHARS = 31;
/** Longest URL. */
export const MAX_URL_CHARS = 127;
/** Largest `maxplayers` / `max:` a server may announce. */
export const MAX_PLAYERS_LIMIT = 256;

/** Reply: the join was accepted and the server is listed. */
export const JOIN_ACCEPTED = 'join accepted';
/** Reply: the list is at its limit; the server should try again later. */
export const MASTERSERVER_FULL = 'masterserver full';
/** Reply: the request could not be parsed or failed validation. */
export const ILLEGAL_REQUEST = 'illegal request not processed';
/** Reply: the join line's major protocol version differs from the masterserver's. */
export const VERSION_INCOMPATIBLE = 'masterserver version incompatible';
/** Reply to `remove me`: the server was taken off the list. */
export const REMOVING_YOU = 'removing you';
/** Reply to `remove me` (and, in Starlane, to `players:`) from a connection that has not joined. */
export const NOT_JOINED = "you're not even joined";
/** Reply to a valid `players:` update. */
export const PLAYERS_ACKNOWLEDGED = 'players acknowledged.';

/** Reply to a valid `fleet state:` line (masterserver 1.3). */
export const FLEET_ACKNOWLEDGED = 'fleet state acknowledged';

/** Every reply a masterserver sends. */
export const MASTER_REPLIES = [
  JOIN_ACCEPTED,
  MASTERSERVER_FULL,
  ILLEGAL_REQUEST,
  VERSION_INCOMPATIBLE,
  REMOVING_YOU,
  NOT_JOINED,
  PLAYERS_ACKNOWLEDGED,
  FLEET_ACKNOWLEDGED,
] as const;
/** One of {@link MASTER_REPLIES}. */
export type MasterReply = (typeof MASTER_REPLIES)[number];

/** A protocol version `major.minor`, each a single digit. */
export interface MasterVersion {
  major: number;
  minor: number;
}

/** What kind of server registers (Starlane extension field `type:`). */
export type MasterServerType = 'slotserver' | 'gameserver' | 'netgame';
/** Every {@link MasterServerType}. */
export const MASTER_SERVER_TYPES: readonly MasterServerType[] = ['slotserver', 'gameserver', 'netgame'];

/** `version: … join me: …`: a server announcing itself. `port`, `type` and (1.1) `udp` are the Starlane extension. */
export interface JoinRequest {
  kind: 'join';
  version: MasterVersion;
  name: string;
  os: string;
  maxPlayers: number;
  url: string;
  port?: number;
  type?: MasterServerType;
  /** The UDP port that answers discovery requests (version 1.1 on). */
  udp?: number;
}

/** `players: n max: m`: the current player count; also the heartbeat. */
export interface PlayersUpdate {
  kind: 'players';
  players: number;
  maxPlayers: number;
}

/** `remove me`: the server is shutting down. */
export interface RemoveRequest {
  kind: 'remove';
}

/**
 * Where an orchestrator (Agones) has the server, masterserver 1.3: `ready`
 * (waiting for a match), `reserved` (held back for a while), `allocated`
 * (a matchmaker gave it to a match).
 */
export type FleetState = 'ready' | 'reserved' | 'allocated';
/** Every {@link FleetState}. */
export const FLEET_STATES: readonly FleetState[] = ['ready', 'reserved', 'allocated'];

/** `fleet state: <state>`: the server's state in its fleet changed (and again after each join). */
export interface FleetStateUpdate {
  kind: 'fleet';
  state: FleetState;
}

/** Any request a masterserver understands. */
export type MasterRequest = JoinRequest | PlayersUpdate | FleetStateUpdate | RemoveRequest;

/** A parse outcome: the value, or the reply to send and a reason for logs. */
export type MasterParse<T> =
  | { ok: true; value: T }
  | { ok: false; reply: typeof ILLEGAL_REQUEST | typeof VERSION_INCOMPATIBLE; error: string };

const illegal = (error: string): { ok: false; reply: typeof ILLEGAL_REQUEST; error: string } => ({ ok: false, reply: ILLEGAL_REQUEST, error });

/** Splits a line into tokens, or undefined if it holds anything but printable ASCII, spaces and tabs. */
function tokenize(line: string): string[] | undefined {
  if (!/^[\x20-\x7e\t]*$/.test(line)) return undefined;
  const trimmed = line.trim();
  return trimmed === '' ? [] : trimmed.split(/[ \t]+/);
}

/** A decimal integer lo..hi without sign or leading zeros (so each value has one spelling). */
function parseInteger(text: string | undefined, lo: number, hi: number): number | undefined {
  if (text === undefined || !/^(0|[1-9][0-9]{0,5})$/.test(text)) return undefined;
  const n = Number(text);
  return n >= lo && n <= hi ? n : undefined;
}

/** Why `text` is not a valid server name or OS token (1–31 printable ASCII, no spaces), or undefined if it is. */
export function validateServerToken(text: string): string | undefined {
  if (text.length === 0) return 'must not be empty';
  if (text.length > MAX_TOKEN_CHARS) return `must be at most ${MAX_TOKEN_CHARS} characters`;
  if (!/^[\x21-\x7e]+$/.test(text)) return 'must be printable ASCII without spaces (use _ instead of a space)';
  return undefined;
}

/** Why `url` is not acceptable in a join line (absolute http(s), ≤ 127 printable characters), or undefined. */
export function validateServerUrl(url: string): string | undefined {
  if (url.length === 0 || url.length > MAX_URL_CHARS) return `must be 1 to ${MAX_URL_CHARS} characters`;
  if (!/^[\x21-\x7e]+$/.test(url)) return 'must be printable ASCII without spaces';
  if (!/^https?:\/\//i.test(url)) return 'must be an http:// or https:// URL';
  try {
    const u = new URL(url);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') return 'must be an http:// or https:// URL with a host';
  } catch {
    return 'is not a valid URL';
  }
  return undefined;
}

/**
 * Starlane extension: a join line's url whose host is the unspecified address
 * `0.0.0.0` or `[::]` (which no browser can reach) stands for the address the
 * masterserver sees the join come from. A server listening on every
 * interface cannot know the address others reach it by; the masterserver
 * can. The url as a visitor of the list should follow it: `url` with that
 * host replaced by `peerAddress` (the connection's remote IP; an IPv6 zone
 * is dropped), or `url` unchanged when it names a host of its own.
 */
export function resolveServerUrl(url: string, peerAddress: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.hostname !== '0.0.0.0' && u.hostname !== '[::]') return url;
  const unspecified = u.hostname;
  const ip = peerAddress.split('%')[0] ?? '';
  // The setter ignores what it cannot parse; then the url stays as the server gave it.
  u.hostname = ip.includes(':') ? `[${ip}]` : ip;
  return u.hostname === unspecified ? url : u.href;
}

/** Parses `d.d` (one digit each side), or undefined. */
export function parseVersion(text: string | undefined): MasterVersion | undefined {
  const m = text === undefined ? null : /^([0-9])\.([0-9])$/.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/** Parses a join line. A different major version yields {@link VERSION_INCOMPATIBLE} before the rest is read, since a newer grammar may differ. */
export function parseJoin(line: string): MasterParse<JoinRequest> {
  const t = tokenize(line);
  if (!t) return illegal('non-printable characters');
  if (t[0] !== 'version:') return illegal('not a join line');
  const version = parseVersion(t[1]);
  if (!version) return illegal('bad version');
  if (version.major !== MASTER_PROTOCOL_VERSION.major) return { ok: false, reply: VERSION_INCOMPATIBLE, error: `version ${version.major}.${version.minor}` };
  if (t[2] !== 'join' || t[3] !== 'me:' || t[5] !== 'os:' || t[7] !== 'maxplayers:' || t[9] !== 'url:') return illegal('join line keywords');
  const [name, os, url] = [t[4] ?? '', t[6] ?? '', t[10] ?? ''];
  if (validateServerToken(name)) return illegal('bad server name');
  if (validateServerToken(os)) return illegal('bad os');
  const maxPlayers = parseInteger(t[8], 1, MAX_PLAYERS_LIMIT);
  if (maxPlayers === undefined) return illegal('bad maxplayers');
  if (validateServerUrl(url)) return illegal('bad url');
  const join: JoinRequest = { kind: 'join', version, name, os, maxPlayers, url };
  const rest = t.slice(11);
  if (rest.length % 2 !== 0) return illegal('extension field without a value');
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i] ?? '';
    const value = rest[i + 1];
    if (key === 'port:' && join.port === undefined) {
      const port = parseInteger(value, 1, 65535);
      if (port === undefined) return illegal('bad port');
      join.port = port;
    } else if (key === 'type:' && join.type === undefined) {
      const type = MASTER_SERVER_TYPES.find((x) => x === value);
      if (!type) return illegal('bad type');
      join.type = type;
    } else if (key === 'udp:' && join.udp === undefined && version.minor >= 1) {
      const udp = parseInteger(value, 1, 65535);
      if (udp === undefined) return illegal('bad udp port');
      join.udp = udp;
    } else if (!(version.minor > MASTER_PROTOCOL_VERSION.minor && /^[a-z][a-z0-9_-]*:$/.test(key) && !['port:', 'type:', 'udp:'].includes(key))) {
      // Unknown (or repeated) fields are only tolerated from newer minor versions.
      return illegal(`unexpected field ${key}`);
    }
  }
  return { ok: true, value: join };
}

/**
 * The canonical join line for `join`, saying `version: 1.0` unless told
 * otherwise or it carries `udp:` (then 1.1, the first version with that
 * field). Throws a RangeError naming the field if a value is invalid.
 */
export function formatJoin(join: Omit<JoinRequest, 'kind' | 'version'> & { version?: MasterVersion }): string {
  const version = join.version ?? (join.udp !== undefined ? MASTER_PROTOCOL_VERSION : MASTER_PROTOCOL_1_0);
  const bad = (field: string, why: string) => new RangeError(`join line: ${field} ${why}`);
  if (parseVersion(`${version.major}.${version.minor}`) === undefined) throw bad('version', 'must be two digits d.d');
  const nameError = validateServerToken(join.name);
  if (nameError) throw bad('name', nameError);
  const osError = validateServerToken(join.os);
  if (osError) throw bad('os', osError);
  if (!Number.isInteger(join.maxPlayers) || join.maxPlayers < 1 || join.maxPlayers > MAX_PLAYERS_LIMIT) throw bad('maxPlayers', `must be 1..${MAX_PLAYERS_LIMIT}`);
  const urlError = validateServerUrl(join.url);
  if (urlError) throw bad('url', urlError);
  let line = `version: ${version.major}.${version.minor} join me: ${join.name} os: ${join.os} maxplayers: ${join.maxPlayers} url: ${join.url}`;
  if (join.port !== undefined) {
    if (!Number.isInteger(join.port) || join.port < 1 || join.port > 65535) throw bad('port', 'must be 1..65535');
    line += ` port: ${join.port}`;
  }
  if (join.type !== undefined) {
    if (!MASTER_SERVER_TYPES.includes(join.type)) throw bad('type', `must be ${MASTER_SERVER_TYPES.join(' or ')}`);
    line += ` type: ${join.type}`;
  }
  if (join.udp !== undefined) {
    if (!Number.isInteger(join.udp) || join.udp < 1 || join.udp > 65535) throw bad('udp', 'must be 1..65535');
    if (version.minor < 1) throw bad('udp', 'needs version 1.1 or later');
    line += ` udp: ${join.udp}`;
  }
  return line;
}

/** Parses `players: n max: m` (0 ≤ n ≤ m, 1 ≤ m ≤ 256). */
export function parsePlayers(line: string): MasterParse<PlayersUpdate> {
  const t = tokenize(line);
  if (!t || t.length !== 4 || t[0] !== 'players:' || t[2] !== 'max:') return illegal('not a players line');
  const maxPlayers = parseInteger(t[3], 1, MAX_PLAYERS_LIMIT);
  const players = parseInteger(t[1], 0, MAX_PLAYERS_LIMIT);
  if (maxPlayers === undefined || players === undefined || players > maxPlayers) return illegal('bad player counts');
  return { ok: true, value: { kind: 'players', players, maxPlayers } };
}

/** The canonical players line. Throws a RangeError if the counts are invalid. */
export function formatPlayers(players: number, maxPlayers: number): string {
  if (!Number.isInteger(maxPlayers) || maxPlayers < 1 || maxPlayers > MAX_PLAYERS_LIMIT) throw new RangeError(`players line: max must be 1..${MAX_PLAYERS_LIMIT}`);
  if (!Number.isInteger(players) || players < 0 || players > maxPlayers) throw new RangeError('players line: players must be 0..max');
  return `players: ${players} max: ${maxPlayers}`;
}

/** Parses `fleet state: <ready|reserved|allocated>`. */
export function parseFleetState(line: string): MasterParse<FleetStateUpdate> {
  const t = tokenize(line);
  if (!t || t.length !== 3 || t[0] !== 'fleet' || t[1] !== 'state:') return illegal('not a fleet state line');
  const state = FLEET_STATES.find((f) => f === t[2]);
  return state ? { ok: true, value: { kind: 'fleet', state } } : illegal('bad fleet state');
}

/** The fleet state line. Throws a RangeError for an unknown state. */
export function formatFleetState(state: FleetState): string {
  if (!FLEET_STATES.includes(state)) throw new RangeError(`fleet state line: state must be ${FLEET_STATES.join(', ')}`);
  return `fleet state: ${state}`;
}

/** Parses `remove me`. */
export function parseRemove(line: string): MasterParse<RemoveRequest> {
  const t = tokenize(line);
  return t && t.length === 2 && t[0] === 'remove' && t[1] === 'me' ? { ok: true, value: { kind: 'remove' } } : illegal('not a remove line');
}

/** The remove line. */
export function formatRemove(): string {
  return 'remove me';
}

/** Parses any request, choosing the message by its first token. Never throws. */
export function parseRequest(line: string): MasterParse<MasterRequest> {
  const first = tokenize(line)?.[0];
  if (first === 'version:') return parseJoin(line);
  if (first === 'players:') return parsePlayers(line);
  if (first === 'fleet') return parseFleetState(line);
  if (first === 'remove') return parseRemove(line);
  return illegal('unknown request');
}

/** The canonical line for any request. Throws a RangeError if a value is invalid. */
export function formatRequest(request: MasterRequest): string {
  if (request.kind === 'join') return formatJoin(request);
  if (request.kind === 'players') return formatPlayers(request.players, request.maxPlayers);
  if (request.kind === 'fleet') return formatFleetState(request.state);
  return formatRemove();
}

/** The reply `line` is (surrounding whitespace ignored), or undefined for anything else. */
export function parseReply(line: string): MasterReply | undefined {
  const trimmed = line.trim();
  return MASTER_REPLIES.find((r) => r === trimmed);
}

/**
 * Starlane extension for game clients (the `servers` console command): the
 * request `list servers` on the masterserver port, answered by one line per
 * listed server and a closing `end of list`:
 *
 *     server: <name> type: <slotserver|gameserver|netgame|?> host: <ip> port: <n|?> players: <n> max: <m> [udp: <u>] [systems: <a,b,…>]
 *
 * `udp:` (masterserver 1.1) is the server's discovery UDP port, present when
 * its join line gave one: a client pings the server there by a unicast
 * discovery request. Lines without it (older masterservers, or servers that
 * did not say) still parse, with `udp` null. `systems:` (masterserver 1.2) names
 * the solar systems a gameserver hosts (its `system:` lines), at most 16;
 * absent, `systems` is empty.
 */
export const LIST_SERVERS = 'list servers';
export const END_OF_LIST = 'end of list';

/** One server as the masterserver lists it to clients. */
export interface ListedServer {
  name: string;
  type: MasterServerType | null;
  host: string;
  port: number | null;
  players: number;
  maxPlayers: number;
  /** Its discovery UDP port, or null when the line did not give one. */
  udp: number | null;
  /** The solar systems it hosts (a gameserver of a galaxy or universe); empty when the line named none. */
  systems: string[];
}

/** Most solar systems a `server:` line names (galaxyMap.ts MAX_SYSTEMS). */
export const MAX_LISTED_SYSTEMS = 16;
const SYSTEM_NAME = '[A-Za-z0-9._-]{1,31}';
const LISTED = new RegExp(
  `^server: (\\S+) type: (slotserver|gameserver|netgame|\\?) host: ([0-9A-Fa-f.:]+) port: (\\d{1,5}|\\?) players: (\\d{1,3}) max: (\\d{1,3})(?: udp: (\\d{1,5}))?(?: systems: (${SYSTEM_NAME}(?:,${SYSTEM_NAME}){0,${MAX_LISTED_SYSTEMS - 1}}))?$`,
);

/** The `server:` line for `s` (` udp: <u>` only when known, ` systems: …` only when it hosts any). */
export function formatListedServer(s: ListedServer): string {
  const udp = s.udp === null ? '' : ` udp: ${s.udp}`;
  const systems = s.systems.length === 0 ? '' : ` systems: ${s.systems.slice(0, MAX_LISTED_SYSTEMS).join(',')}`;
  return `server: ${s.name} type: ${s.type ?? '?'} host: ${s.host} port: ${s.port ?? '?'} players: ${s.players} max: ${s.maxPlayers}${udp}${systems}`;
}

/** Parses a `server:` line; null for anything else (a client distrusts the master's lines too). */
export function parseListedServer(line: string): ListedServer | null {
  const m = LISTED.exec(line);
  if (!m) return null;
  const [, name, type, host, port, players, max, udp, systems] = m as unknown as [string, string, string, string, string, string, string, string | undefined, string | undefined];
  const portNumber = port === '?' ? null : Number(port);
  const udpNumber = udp === undefined ? null : Number(udp);
  const inRange = (p: number | null) => p === null || (p >= 1 && p <= 65535);
  if (validateServerToken(name) !== undefined || !inRange(portNumber) || !inRange(udpNumber)) return null;
  if (Number(players) > Number(max) || Number(max) < 1 || Number(max) > MAX_PLAYERS_LIMIT) return null;
  return { name, type: type === '?' ? null : (type as MasterServerType), host, port: portNumber, players: Number(players), maxPlayers: Number(max), udp: udpNumber, systems: systems === undefined ? [] : systems.split(',') };
}
