/**
 * The text-line protocol between a client and a slotserver (Parsec §2.3.2)
 * or a gameserver (§2.3.3: the same lines, plus two fields in the accept). Pure parse and format, one pair
 * of functions per message; the fields they are made of (addresses, endpoints, names, message lines)
 * and their checks are in joinFields.ts. Parsers never throw: they return `null` (or a
 * refusal) for anything that is not exactly a valid line. Formatters throw a
 * RangeError naming the field when given a value no parser would accept, so
 * whatever we send, a peer can read back unchanged.
 *
 * Grammar (one line each, single spaces, lower-case keywords, `\n` ends a line):
 *
 *   join      = "version: " D "." D " join me: " NAME " os: " OS [ " port: " PORT ] [ " ticket: " TICKET ]
 *               (the ticket: Starlane 1.2 universes, a jump's arrival; base64url and dots)
 *   remove    = "remove me" [ ": " REASON ]                 (the reason: Starlane 1.1)
 *   rename    = "my new name: " NAME
 *   accepted  = "join from " NAME " accepted, slot: " SLOT ", server name: " SERVER
 *               [ ", udp: " PORT ", token: " TOKEN ]       (gameserver only)
 *               [ ", time: " PORT ]                         (slotserver: time-sync UDP port)
 *   add       = "add ip: " EP " name: " NAME " in " SLOT
 *   removed   = "remove ip: " EP [ " left: " REASON ]      (the reason: to 1.1 clients only)
 *   renamed   = "name ip: " EP " name: " NAME
 *   closing   = "server closing: " MESSAGE                  (Starlane extension)
 *   my ship / ship = the ship-look lines of version 1.2 (shipLines.ts)
 *   replies   = the constants below; after `accepted` exactly four MESSAGE lines follow.
 *
 *   NAME   = 1..16 printable ASCII, no space at either end (validatePlayerName);
 *            it may contain spaces, even " os: ": in a join the name runs up
 *            to the LAST " os: " of the line, which is unambiguous because OS
 *            may not contain ':'.
 *   OS     = 1..31 printable ASCII except ':', no space at either end.
 *   SERVER = 1..31 printable ASCII, no space at either end.
 *   SLOT   = 0..254 in canonical decimal.  PORT = 1..65535 in canonical decimal.
 *   TOKEN  = exactly 8 lower-case hex digits (a u32).
 *   REASON = 1..60 printable ASCII, no space at either end (why a player left:
 *            "left", "switched to netgame", "timed out", "removed: …").
 *   MESSAGE= any text of at most 160 UTF-8 bytes without control characters (may be empty).
 *
 * Version: Starlane speaks 1.0. Any `d.d` with major 1 is compatible; another
 * major is refused with VERSION_INCOMPATIBLE whatever follows (a future major
 * may change the rest of the line); a malformed line gets INVALID_REQUEST.
 *
 * Starlane extension — UDP game ports. The 1998 protocol assumed one client
 * per machine on a fixed port. A join may end with " port: <n>", the UDP port
 * the client's game packets use. Client-list lines then name the endpoint
 * (EP) as `ip: 192.0.2.7:6527` or, for IPv6, `ip: [2001:db8::7]:6527`; a
 * plain address (`ip: 192.0.2.7`, `ip: 2001:db8::7`) means the default port
 * 6526. The port is written only when it is not 6526, so the canonical form is
 * unique and 1998-style lines stay valid.
 *
 * Starlane extension — why a player left (version 1.1). A 1.1 client may
 * say why it leaves (`remove me: switched to netgame`); the server tells the
 * other 1.1 clients with the removal (`remove ip: 192.0.2.7 left: switched to
 * netgame`, or `left`, `lost connection`, `removed: <why>` as the server saw
 * it), and 1.0 clients the plain 1998 line. So players read "bravo left
 * (switched to netgame)" instead of "bravo disconnected".
 *
 * Starlane extension — closing (version 1.1). A server that shuts down
 * tells its 1.1 clients why in one line, `server closing: <reason>`, before
 * the `removing you` every client gets, so its players read "the gameserver
 * closed: shut down by its admin" rather than "the server removed you".
 *
 * Starlane extension — gameserver sessions. A gameserver's accept ends with
 * ", udp: <port>, token: <8 hex digits>": the server's UDP game port (same
 * address as the TCP connection) and the session token the client must put
 * in every datagram it sends there. A slotserver's accept has neither. The
 * pair is read only at the very end of the line, so a server name that
 * itself ends like it cannot be formatted (formatJoinAccepted refuses it).
 */
import { isLeaveReason } from '../net/leaveReason';
import { checkField, formatEndpoint, isMessageLine, isOsName, isPort, isProtocolName, isServerName, isSlot, MAX_MESSAGE_BYTES, parseEndpoint, parsePort, type Endpoint } from './joinFields';

export { isLeaveReason, leaveReason, MAX_REASON_LENGTH } from '../net/leaveReason';

/** Version string Starlane sends, and the major it accepts. */
export const PROTOCOL_VERSION = '1.2';
/** The first minor whose clients read `remove ip: … left: <reason>`. */
export const LEAVE_REASON_MINOR = 1;
export const PROTOCOL_MAJOR = 1;
/** Slotserver TCP port (Parsec: 6582). */
export const SLOTSERVER_PORT = 6582;
/** Gameserver TCP port (Parsec: 6581). */
export const GAMESERVER_PORT = 6581;
/** Gameserver UDP port for game packets (Parsec: 6522). */
export const GAMESERVER_UDP_PORT = 6522;
/** Slotserver UDP port: LAN discovery requests (and later time sync); not a Parsec port. */
export const SLOTSERVER_UDP_PORT = 6523;
/** Netgame server UDP port for game packets and LAN discovery (Starlane's choice: beside the others). */
export const NETGAME_UDP_PORT = 6524;
/** Netgame server TCP join port. */
export const NETGAME_PORT = 6583;
/** Longest line either side may send, in bytes; a server closes a connection that exceeds it. */
export const MAX_LINE_BYTES = 256;
/** Message lines that follow every accepted join. */
export const MESSAGE_LINES = 4;

export const SERVER_FULL = 'server full';
export const INVALID_REQUEST = 'you sent an invalid request';
export const VERSION_INCOMPATIBLE = 'server version incompatible';
export const BANNED = "you're banned from this server";
export const REMOVE_ME = 'remove me';
export const REMOVING_YOU = 'removing you';
export const NOT_JOINED = "you're not even joined";
export const NEW_NAME_ACCEPTED = 'new name accepted';
export const NAME_TAKEN = 'name already taken';
/** A spectate line at a server whose spectator seats are all taken (Starlane 1.2). */
export const SPECTATORS_FULL = 'spectators full';

/** Every fixed reply a server sends. */
export const REPLIES = [SERVER_FULL, INVALID_REQUEST, VERSION_INCOMPATIBLE, BANNED, REMOVING_YOU, NOT_JOINED, NEW_NAME_ACCEPTED, NAME_TAKEN, SPECTATORS_FULL] as const;
export type Reply = (typeof REPLIES)[number];

export interface JoinRequest {
  /** `d.d`, major PROTOCOL_MAJOR. */
  version: string;
  name: string;
  os: string;
  /** The client's UDP game port (extension); absent = DEFAULT_CLIENT_PORT. */
  port?: number;
  /** `spectate:` instead of `join me:` (Starlane 1.2): a seat apart from the players', watching without a ship. */
  spectate?: true;
  /** A jump ticket (Starlane 1.2 universes, `ticket:` at the end): the player arrives through a stargate (jumpTicket.ts). */
  ticket?: string;
}

/** A ticket's text on a join line: base64url and a dot, no spaces or colons. */
const TICKET = /^[A-Za-z0-9_.-]{1,400}$/;
/** The start of the line a server refuses a jump's join with (then it closes): `jump refused: <why>`. */
export const JUMP_REFUSED = 'jump refused: ';

/** `spectate from … accepted`: a game- or netgame server's spectator seat, with its UDP port and session token. */
export type SpectateAccepted = { name: string; serverName: string; udp: number; token: number };
/**
 * `join from … accepted`. A gameserver adds `udp` (its UDP game port) and
 * `token` (the u32 session token); both are present or both absent. A
 * slotserver adds `time`: the UDP port answering time-sync requests (a
 * gameserver answers them on its game port).
 */
export type JoinAccepted = { name: string; slot: number; serverName: string; udp?: number; token?: number; time?: number };
/** `add ip: …`: a player joined (or was already there when you joined). */
export type ListAdd = { endpoint: Endpoint; name: string; slot: number };
/** `name ip: …`: a player renamed. */
export type ListRename = { endpoint: Endpoint; name: string };

const SLOT_TEXT = '(0|[1-9]\\d{0,2})';
/** The gameserver suffix of an accept line, anchored at its end. */
const SESSION_SUFFIX = /, udp: ([1-9]\d{0,4}), token: ([0-9a-f]{8})$/;
/** The slotserver's time-sync port suffix of an accept line, anchored at its end. */
const TIME_SUFFIX = /, time: ([1-9]\d{0,4})$/;

export type JoinParse = { ok: true; join: JoinRequest } | { ok: false; reply: typeof INVALID_REQUEST | typeof VERSION_INCOMPATIBLE };

/** Reads a join line; refusals carry the reply the server sends. */
export function parseJoin(line: string): JoinParse {
  const invalid = { ok: false, reply: INVALID_REQUEST } as const;
  const version = /^version: (\d)\.(\d)(?: |$)/.exec(line);
  if (!version) return invalid;
  if (Number(version[1]) !== PROTOCOL_MAJOR) return { ok: false, reply: VERSION_INCOMPATIBLE };
  const rest = line.slice(version[0].length);
  const verb = rest.startsWith('join me: ') ? 'join me: ' : rest.startsWith('spectate: ') ? 'spectate: ' : null;
  if (verb === null) return invalid;
  let body = rest.slice(verb.length);
  let ticket: string | undefined;
  // A ticket follows the OS (and port): " ticket: " inside a name is part of the name.
  const ticketAt = body.lastIndexOf(' ticket: ');
  if (ticketAt >= 0 && ticketAt > body.lastIndexOf(' os: ') && verb === 'join me: ') {
    ticket = body.slice(ticketAt + ' ticket: '.length);
    if (!TICKET.test(ticket)) return invalid;
    body = body.slice(0, ticketAt);
  }
  const split = body.lastIndexOf(' os: ');
  if (split < 0) return invalid;
  const name = body.slice(0, split);
  let os = body.slice(split + ' os: '.length);
  let port: number | undefined;
  if (os.includes(':')) {
    // OS has no ':', so a colon can only belong to the port suffix.
    const suffix = /^([^:]*) port: (\d+)$/.exec(os);
    const parsed = suffix ? parsePort(suffix[2] ?? '') : null;
    if (!suffix || parsed === null) return invalid;
    os = suffix[1] ?? '';
    port = parsed;
  }
  if (!isProtocolName(name) || !isOsName(os)) return invalid;
  const join: JoinRequest = { version: `${version[1]}.${version[2]}`, name, os };
  if (port !== undefined) join.port = port;
  if (verb === 'spectate: ') join.spectate = true;
  if (ticket !== undefined) join.ticket = ticket;
  return { ok: true, join };
}

/** The join line for `join` (throws RangeError on an invalid field). */
export function formatJoin(join: JoinRequest): string {
  checkField(/^\d\.\d$/.test(join.version) && Number(join.version[0]) === PROTOCOL_MAJOR, 'version', join.version);
  checkField(isProtocolName(join.name), 'name', join.name);
  checkField(isOsName(join.os), 'os', join.os);
  if (join.port !== undefined) checkField(isPort(join.port), 'port', join.port);
  if (join.ticket !== undefined) checkField(!join.spectate && TICKET.test(join.ticket), 'ticket', join.ticket);
  return `version: ${join.version} ${join.spectate ? 'spectate:' : 'join me:'} ${join.name} os: ${join.os}${join.port === undefined ? '' : ` port: ${join.port}`}${join.ticket === undefined ? '' : ` ticket: ${join.ticket}`}`;
}

/** True when the line is exactly `remove me`. */
export function parseRemoveMe(line: string): boolean {
  return line === REMOVE_ME;
}

/** `remove me`, or with a reason `remove me: <reason>` (throws RangeError on an invalid reason). */
export function formatRemoveMe(reason?: string): string {
  if (reason === undefined) return REMOVE_ME;
  checkField(isLeaveReason(reason), 'reason', reason);
  return `${REMOVE_ME}: ${reason}`;
}

/** A leave: `remove me` (reason undefined) or `remove me: <reason>`; null for anything else. */
export function parseLeave(line: string): { reason?: string } | null {
  if (line === REMOVE_ME) return {};
  if (!line.startsWith(`${REMOVE_ME}: `)) return null;
  const reason = line.slice(REMOVE_ME.length + 2);
  return isLeaveReason(reason) ? { reason } : null;
}

/** The name requested by a `my new name:` line, or `null`. */
export function parseNewName(line: string): string | null {
  const prefix = 'my new name: ';
  if (!line.startsWith(prefix)) return null;
  const name = line.slice(prefix.length);
  return isProtocolName(name) ? name : null;
}

export function formatNewName(name: string): string {
  checkField(isProtocolName(name), 'name', name);
  return `my new name: ${name}`;
}

/** Reads an accept line, with the gameserver's `udp:`/`token:` pair when the line ends with it; `null` for anything else. */
export function parseJoinAccepted(whole: string): JoinAccepted | null {
  const timed = TIME_SUFFIX.exec(whole);
  const time = timed ? parsePort(timed[1] ?? '') : undefined;
  if (time === null) return null;
  const line = timed ? whole.slice(0, timed.index) : whole;
  const accepted = parseAcceptedBody(line);
  return accepted && time !== undefined ? { ...accepted, time } : accepted;
}

function parseAcceptedBody(line: string): JoinAccepted | null {
  const session = SESSION_SUFFIX.exec(line);
  const body = session ? line.slice(0, session.index) : line;
  const m = new RegExp(`^join from (.+) accepted, slot: ${SLOT_TEXT}, server name: (.+)$`).exec(body);
  if (!m) return null;
  const [, name = '', slotText = '', serverName = ''] = m;
  const slot = Number(slotText);
  if (!isProtocolName(name) || !isSlot(slot) || !isServerName(serverName)) return null;
  if (!session) return { name, slot, serverName };
  const udp = parsePort(session[1] ?? '');
  return udp === null ? null : { name, slot, serverName, udp, token: Number.parseInt(session[2] ?? '', 16) };
}

/** The accept line; with `udp` and `token` (both or neither) it is a gameserver's. Throws RangeError on an invalid field. */
export function formatJoinAccepted(a: JoinAccepted): string {
  checkField(isProtocolName(a.name), 'name', a.name);
  checkField(isSlot(a.slot), 'slot', a.slot);
  checkField(isServerName(a.serverName), 'server name', a.serverName);
  // A name ending like the suffix would be read back as a gameserver accept with a shorter name.
  checkField(!SESSION_SUFFIX.test(a.serverName), 'server name (ends like ", udp: …, token: …")', a.serverName);
  checkField((a.udp === undefined) === (a.token === undefined), 'udp/token (both or neither)', { udp: a.udp, token: a.token });
  checkField(!TIME_SUFFIX.test(a.serverName), 'server name (ends like ", time: …")', a.serverName);
  let line = `join from ${a.name} accepted, slot: ${a.slot}, server name: ${a.serverName}`;
  if (a.udp !== undefined && a.token !== undefined) {
    checkField(isPort(a.udp), 'udp port', a.udp);
    checkField(Number.isInteger(a.token) && a.token >= 0 && a.token <= 0xffffffff, 'token', a.token);
    line += `, udp: ${a.udp}, token: ${formatToken(a.token)}`;
  }
  if (a.time !== undefined) {
    checkField(isPort(a.time), 'time port', a.time);
    line += `, time: ${a.time}`;
  }
  return line;
}

/** The spectator's accept line (throws RangeError on an invalid field). */
export function formatSpectateAccepted(a: SpectateAccepted): string {
  checkField(isProtocolName(a.name), 'name', a.name);
  checkField(isServerName(a.serverName) && !SESSION_SUFFIX.test(a.serverName), 'server name', a.serverName);
  checkField(isPort(a.udp), 'udp port', a.udp);
  checkField(Number.isInteger(a.token) && a.token >= 0 && a.token <= 0xffffffff, 'token', a.token);
  return `spectate from ${a.name} accepted, server name: ${a.serverName}, udp: ${a.udp}, token: ${formatToken(a.token)}`;
}

/** Reads a spectator's accept line; null for anything else. */
export function parseSpectateAccepted(line: string): SpectateAccepted | null {
  const session = SESSION_SUFFIX.exec(line);
  if (!session) return null;
  const m = /^spectate from (.+) accepted, server name: (.+)$/.exec(line.slice(0, session.index));
  if (!m) return null;
  const [, name = '', serverName = ''] = m;
  const udp = parsePort(session[1] ?? '');
  if (!isProtocolName(name) || !isServerName(serverName) || udp === null) return null;
  return { name, serverName, udp, token: Number.parseInt(session[2] ?? '', 16) };
}

/** A session token as the accept line writes it: 8 lower-case hex digits. */
export function formatToken(token: number): string {
  return (token >>> 0).toString(16).padStart(8, '0');
}

export function parseAdd(line: string): ListAdd | null {
  // The name is greedy: the slot is the last " in <digits>", so a name may itself contain " in 3".
  const m = new RegExp(`^add ip: (\\S+) name: (.+) in ${SLOT_TEXT}$`).exec(line);
  if (!m) return null;
  const [, token = '', name = '', slotText = ''] = m;
  const endpoint = parseEndpoint(token);
  const slot = Number(slotText);
  return endpoint && isProtocolName(name) && isSlot(slot) ? { endpoint, name, slot } : null;
}

export function formatAdd(a: ListAdd): string {
  checkField(isProtocolName(a.name), 'name', a.name);
  checkField(isSlot(a.slot), 'slot', a.slot);
  return `add ip: ${formatEndpoint(a.endpoint)} name: ${a.name} in ${a.slot}`;
}

export function parseRemove(line: string): Endpoint | null {
  return parseRemoval(line)?.endpoint ?? null;
}

/** A removal with its reason when it has one (`remove ip: EP left: <reason>`), or null. */
export function parseRemoval(line: string): { endpoint: Endpoint; reason?: string } | null {
  const m = /^remove ip: (\S+)(?: left: (.+))?$/.exec(line);
  const endpoint = m ? parseEndpoint(m[1] ?? '') : null;
  if (!m || !endpoint) return null;
  const reason = m[2];
  if (reason === undefined) return { endpoint };
  return isLeaveReason(reason) ? { endpoint, reason } : null;
}

export function formatRemove(endpoint: Endpoint, reason?: string): string {
  if (reason !== undefined) checkField(isLeaveReason(reason), 'reason', reason);
  return `remove ip: ${formatEndpoint(endpoint)}${reason === undefined ? '' : ` left: ${reason}`}`;
}

export function parseNameUpdate(line: string): ListRename | null {
  const m = /^name ip: (\S+) name: (.+)$/.exec(line);
  if (!m) return null;
  const endpoint = parseEndpoint(m[1] ?? '');
  const name = m[2] ?? '';
  return endpoint && isProtocolName(name) ? { endpoint, name } : null;
}

export function formatNameUpdate(r: ListRename): string {
  checkField(isProtocolName(r.name), 'name', r.name);
  return `name ip: ${formatEndpoint(r.endpoint)} name: ${r.name}`;
}

/** What a server makes of one client line. */
export type ClientRequest =
  | { kind: 'join'; join: JoinRequest }
  | { kind: 'remove'; reason?: string }
  | { kind: 'rename'; name: string }
  | { kind: 'refused'; reply: typeof INVALID_REQUEST | typeof VERSION_INCOMPATIBLE };

/** Classifies a line a client sent; never throws. */
export function parseClientLine(line: string): ClientRequest {
  if (line.startsWith('version:')) {
    const j = parseJoin(line);
    return j.ok ? { kind: 'join', join: j.join } : { kind: 'refused', reply: j.reply };
  }
  const leave = parseLeave(line);
  if (leave) return { kind: 'remove', ...leave };
  const name = parseNewName(line);
  return name === null ? { kind: 'refused', reply: INVALID_REQUEST } : { kind: 'rename', name };
}

/** What a client makes of one server line; `text` is anything else (the message lines after a join). */
export type ServerLine =
  | { kind: 'accepted'; accepted: JoinAccepted }
  | { kind: 'spectating'; accepted: SpectateAccepted }
  | { kind: 'add'; add: ListAdd }
  | { kind: 'remove'; endpoint: Endpoint; reason?: string }
  | { kind: 'name'; rename: ListRename }
  | { kind: 'reply'; reply: Reply }
  | { kind: 'closing'; reason: string }
  | { kind: 'text'; text: string };

const CLOSING = 'server closing: ';

/** `server closing: <reason>` (the reason made one safe message line: control characters blanked, cut to fit). */
export function formatServerClosing(reason: string): string {
  const line = `${CLOSING}${reason.replace(/[\x00-\x1f\x7f]/g, ' ').trim()}`.slice(0, MAX_MESSAGE_BYTES);
  return isMessageLine(line) && parseServerClosing(line) !== null ? line : `${CLOSING}shutting down`;
}

/** The reason of a `server closing:` line, or null. */
export function parseServerClosing(line: string): string | null {
  if (!line.startsWith(CLOSING) || !isMessageLine(line)) return null;
  const reason = line.slice(CLOSING.length).trim();
  return reason === '' ? null : reason;
}

/** Classifies a line a server sent; never throws. The four lines after an accept are messages whatever they look like: read them as text by position, not with this. */
export function parseServerLine(line: string): ServerLine {
  const reply = REPLIES.find((r) => r === line);
  if (reply !== undefined) return { kind: 'reply', reply };
  const accepted = parseJoinAccepted(line);
  if (accepted) return { kind: 'accepted', accepted };
  const spectating = parseSpectateAccepted(line);
  if (spectating) return { kind: 'spectating', accepted: spectating };
  const add = parseAdd(line);
  if (add) return { kind: 'add', add };
  const removal = parseRemoval(line);
  if (removal) return { kind: 'remove', ...removal };
  const rename = parseNameUpdate(line);
  if (rename) return { kind: 'name', rename };
  const closing = parseServerClosing(line);
  return closing === null ? { kind: 'text', text: line } : { kind: 'closing', reason: closing };
}
