/**
 * LAN server discovery datagrams (Retro Tank's "Server Discovery"): a client
 * broadcasts (udp) or multicasts (udp6) a request that nothing but Starlane
 * would send; every slot- or gameserver that hears it answers the requester
 * directly with an announcement that nothing but a Starlane server would send.
 * Anything else either side receives is ignored with a reason, never trusted.
 *
 * Both datagrams are binary, big-endian, of exact lengths:
 *
 *   request (80 bytes):
 *     0  17  magic "STARLANE-DISCOVER"
 *    17   1  DISCOVERY_VERSION (1)
 *    18   4  nonce (u32, random per request; the answer must echo it)
 *    22  58  zero padding
 *
 *   announcement (33 + N + V bytes, at most 80):
 *     0  17  magic "STARLANE-ANNOUNCE"
 *    17   1  DISCOVERY_VERSION (1)
 *    18   4  nonce echoed from the request
 *    22   4  instance (u32, random per server start: merges answers that reach a client twice)
 *    26   1  kind: 1 = slotserver, 2 = gameserver, 3 = netgame
 *    27   2  TCP join port (1..65535)
 *    29   1  players (0..maxPlayers)
 *    30   1  max players (1..255)
 *    31   1  N = name length (1..31), then N bytes of server name (printable ASCII, no space at either end)
 *  32+N   1  V = version length (1..16), then V bytes of server version (printable ASCII, no spaces)
 *
 * The request is padded to the longest possible announcement so a server never
 * sends more bytes than it received: a forged source address gains an
 * attacker no amplification.
 *
 * Pure: no Node builtins; the caller supplies nonces and instance ids.
 */
import { GAMESERVER_UDP_PORT, NETGAME_UDP_PORT, SLOTSERVER_UDP_PORT } from './joinProtocol';
import { MAX_SERVER_NAME_LENGTH, isServerName } from './joinFields';

export const DISCOVERY_REQUEST_MAGIC = 'STARLANE-DISCOVER';
export const DISCOVERY_REPLY_MAGIC = 'STARLANE-ANNOUNCE';
/** Layout version of both datagrams; anything else is ignored. */
export const DISCOVERY_VERSION = 1;
/** UDP ports a client asks: the gameserver's and the slotserver's defaults. */
export const DISCOVERY_PORTS: readonly number[] = [GAMESERVER_UDP_PORT, SLOTSERVER_UDP_PORT, NETGAME_UDP_PORT];
/** Longest server version string an announcement carries. */
export const MAX_DISCOVERY_VERSION_LENGTH = 16;

const MAGIC_BYTES = DISCOVERY_REQUEST_MAGIC.length;
const FIXED_REPLY_BYTES = 33;
/** Longest announcement, and therefore the request's exact length. */
export const MAX_ANNOUNCEMENT_BYTES = FIXED_REPLY_BYTES + MAX_SERVER_NAME_LENGTH + MAX_DISCOVERY_VERSION_LENGTH;
export const DISCOVERY_REQUEST_BYTES = MAX_ANNOUNCEMENT_BYTES;

export type DiscoveryServerKind = 'slotserver' | 'gameserver' | 'netgame';
const KIND_CODES: Record<DiscoveryServerKind, number> = { slotserver: 1, gameserver: 2, netgame: 3 };

/** What a server tells a client that asked. */
export interface ServerAnnouncement {
  nonce: number;
  instance: number;
  kind: DiscoveryServerKind;
  name: string;
  /** TCP port to join on. */
  port: number;
  players: number;
  maxPlayers: number;
  version: string;
}

/** Why a datagram was not accepted as a request or an announcement. */
export type DiscoveryDrop =
  | 'not-starlane'
  | 'wrong-version'
  | 'wrong-length'
  | 'bad-padding'
  | 'bad-kind'
  | 'bad-port'
  | 'bad-players'
  | 'bad-name'
  | 'bad-version-text';

export type DiscoveryParse<T> = { ok: true; value: T } | { ok: false; reason: DiscoveryDrop };

const ASCII = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const REQUEST_MAGIC = ASCII(DISCOVERY_REQUEST_MAGIC);
const REPLY_MAGIC = ASCII(DISCOVERY_REPLY_MAGIC);
const VERSION_TEXT = /^[\x21-\x7e]{1,16}$/;

function startsWith(bytes: Uint8Array, magic: Uint8Array): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic[i]) return false;
  return true;
}

const isU32 = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff;

/** True when `bytes` begins with the request magic: the datagram is discovery's to judge (a server dispatches on this). */
export function isDiscoveryRequest(bytes: Uint8Array): boolean {
  return startsWith(bytes, REQUEST_MAGIC);
}

/** The request datagram for `nonce` (a u32; throws RangeError otherwise). */
export function encodeDiscoveryRequest(nonce: number): Uint8Array {
  if (!isU32(nonce)) throw new RangeError(`lanDiscovery: nonce must be a u32, got ${nonce}`);
  const out = new Uint8Array(DISCOVERY_REQUEST_BYTES);
  out.set(REQUEST_MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint8(MAGIC_BYTES, DISCOVERY_VERSION);
  view.setUint32(MAGIC_BYTES + 1, nonce);
  return out;
}

/** Reads a request; never throws. Only the exact layout with zero padding passes. */
export function parseDiscoveryRequest(bytes: Uint8Array): DiscoveryParse<{ nonce: number }> {
  if (!startsWith(bytes, REQUEST_MAGIC)) return { ok: false, reason: 'not-starlane' };
  if (bytes.length !== DISCOVERY_REQUEST_BYTES) return { ok: false, reason: 'wrong-length' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(MAGIC_BYTES) !== DISCOVERY_VERSION) return { ok: false, reason: 'wrong-version' };
  for (let i = MAGIC_BYTES + 5; i < bytes.length; i++) if (bytes[i] !== 0) return { ok: false, reason: 'bad-padding' };
  return { ok: true, value: { nonce: view.getUint32(MAGIC_BYTES + 1) } };
}

/**
 * A server name as an announcement can carry it: characters outside printable
 * ASCII become '?', cut to 31, trimmed; an empty result becomes "unnamed".
 */
export function sanitizeAnnouncedName(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_SERVER_NAME_LENGTH).trim();
  return printable === '' ? 'unnamed' : printable;
}

/** A version string as an announcement can carry it: printable ASCII without spaces, at most 16; "?" if nothing is left. */
export function sanitizeAnnouncedVersion(version: string): string {
  const clean = version.replace(/[^\x21-\x7e]/g, '').slice(0, MAX_DISCOVERY_VERSION_LENGTH);
  return clean === '' ? '?' : clean;
}

/**
 * The announcement datagram. Name and version are sanitised (a server's own
 * configuration should never stop it from answering); numbers out of range
 * are programming errors and throw RangeError.
 */
export function encodeAnnouncement(a: ServerAnnouncement): Uint8Array {
  if (!isU32(a.nonce) || !isU32(a.instance)) throw new RangeError('lanDiscovery: nonce and instance must be u32');
  if (!Number.isInteger(a.port) || a.port < 1 || a.port > 65535) throw new RangeError(`lanDiscovery: bad TCP port ${a.port}`);
  if (!Number.isInteger(a.maxPlayers) || a.maxPlayers < 1 || a.maxPlayers > 255) throw new RangeError(`lanDiscovery: bad max players ${a.maxPlayers}`);
  if (!Number.isInteger(a.players) || a.players < 0 || a.players > a.maxPlayers) throw new RangeError(`lanDiscovery: bad player count ${a.players}`);
  const kind = KIND_CODES[a.kind];
  if (kind === undefined) throw new RangeError(`lanDiscovery: bad server kind ${String(a.kind)}`);
  const name = ASCII(sanitizeAnnouncedName(a.name));
  const version = ASCII(sanitizeAnnouncedVersion(a.version));
  const out = new Uint8Array(FIXED_REPLY_BYTES + name.length + version.length);
  const view = new DataView(out.buffer);
  out.set(REPLY_MAGIC, 0);
  view.setUint8(17, DISCOVERY_VERSION);
  view.setUint32(18, a.nonce);
  view.setUint32(22, a.instance);
  view.setUint8(26, kind);
  view.setUint16(27, a.port);
  view.setUint8(29, a.players);
  view.setUint8(30, a.maxPlayers);
  view.setUint8(31, name.length);
  out.set(name, 32);
  view.setUint8(32 + name.length, version.length);
  out.set(version, 33 + name.length);
  return out;
}

/** Reads an announcement; never throws. Every field must be in range and the length exact. */
export function parseAnnouncement(bytes: Uint8Array): DiscoveryParse<ServerAnnouncement> {
  if (!startsWith(bytes, REPLY_MAGIC)) return { ok: false, reason: 'not-starlane' };
  if (bytes.length < FIXED_REPLY_BYTES + 2 || bytes.length > MAX_ANNOUNCEMENT_BYTES) return { ok: false, reason: 'wrong-length' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(17) !== DISCOVERY_VERSION) return { ok: false, reason: 'wrong-version' };
  const kindCode = view.getUint8(26);
  const kind = kindCode === 1 ? 'slotserver' : kindCode === 2 ? 'gameserver' : kindCode === 3 ? 'netgame' : null;
  if (kind === null) return { ok: false, reason: 'bad-kind' };
  const port = view.getUint16(27);
  if (port === 0) return { ok: false, reason: 'bad-port' };
  const players = view.getUint8(29);
  const maxPlayers = view.getUint8(30);
  if (maxPlayers === 0 || players > maxPlayers) return { ok: false, reason: 'bad-players' };
  const nameLength = view.getUint8(31);
  // The version length byte sits right after the name; both must fit exactly.
  if (nameLength < 1 || nameLength > MAX_SERVER_NAME_LENGTH || 33 + nameLength > bytes.length) return { ok: false, reason: 'wrong-length' };
  const versionLength = view.getUint8(32 + nameLength);
  if (FIXED_REPLY_BYTES + nameLength + versionLength !== bytes.length) return { ok: false, reason: 'wrong-length' };
  const text = (from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));
  const name = text(32, nameLength);
  if (!isServerName(name)) return { ok: false, reason: 'bad-name' };
  const version = text(33 + nameLength, versionLength);
  if (!VERSION_TEXT.test(version)) return { ok: false, reason: 'bad-version-text' };
  return {
    ok: true,
    value: { nonce: view.getUint32(18), instance: view.getUint32(22), kind, name, port, players, maxPlayers, version },
  };
}
