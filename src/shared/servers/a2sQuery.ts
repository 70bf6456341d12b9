/**
 * Valve's server query protocol (A2S), as server browsers and monitoring
 * tools speak it (GameDig, qstat, Steam's browser), for Starlane's servers
 * to answer on their UDP port (issue 30). Little-endian; strings are UTF-8
 * ending in a zero byte; every datagram here is a single packet (header
 * 0xFFFFFFFF), never split.
 *
 * Requests:
 *   A2S_INFO    FF FF FF FF 'T' "Source Engine Query\0" [challenge i32]
 *   A2S_PLAYER  FF FF FF FF 'U' challenge i32 (−1: asks for one)
 *   A2S_RULES   FF FF FF FF 'V' challenge i32 (−1: asks for one)
 * A request without a valid challenge is answered with S2C_CHALLENGE
 * (FF FF FF FF 'A' challenge i32: 9 bytes, never more than the request);
 * with one, with the answer:
 *   S2A_INFO    'I' protocol u8, name, map, folder, game, app id i16,
 *               players u8, max players u8, bots u8, server type 'd',
 *               environment 'l'|'w'|'m', visibility u8, VAC u8, version,
 *               extra data flags u8 (0x80: game port i16 follows)
 *   S2A_PLAYER  'D' count u8, then per player: index u8, name, score i32, duration f32 (s)
 *   S2A_RULES   'E' count i16, then name and value strings
 * Pure: reading a request never throws; an answer is cut to fit one
 * datagram (players and rules dropped from the end, strings shortened).
 */

/** The single-packet header every A2S datagram starts with. */
const SINGLE = 0xffffffff;
export const A2S_INFO = 0x54;
export const A2S_PLAYER = 0x55;
export const A2S_RULES = 0x56;
export const S2C_CHALLENGE = 0x41;
export const S2A_INFO = 0x49;
export const S2A_PLAYER = 0x44;
export const S2A_RULES = 0x45;
/** A2S_INFO's payload string. */
export const INFO_QUERY = 'Source Engine Query';
/** The challenge a client sends to ask for one. */
export const NO_CHALLENGE = -1;
/** The longest answer in one datagram (Source servers' 1,400-byte limit less headroom). */
export const MAX_A2S_REPLY = 1400;
/** The S2A_INFO protocol version Source servers answer with. */
export const A2S_PROTOCOL = 17;

export type A2sRequest =
  | { kind: 'info'; challenge: number | null }
  | { kind: 'players'; challenge: number }
  | { kind: 'rules'; challenge: number };

export type A2sParse = { ok: true; request: A2sRequest } | { ok: false; reason: 'a2s-truncated' | 'a2s-unknown' | 'a2s-bad-info' | 'a2s-oversized' };

/** Whether a datagram is an A2S request's (its single-packet header and a request byte): the others are no business of this. */
export function isA2sDatagram(msg: Uint8Array): boolean {
  return msg.length >= 5 && msg[0] === 0xff && msg[1] === 0xff && msg[2] === 0xff && msg[3] === 0xff;
}

const view = (msg: Uint8Array) => new DataView(msg.buffer, msg.byteOffset, msg.byteLength);

/** Reads an A2S request. Never throws. */
export function parseA2sRequest(msg: Uint8Array): A2sParse {
  if (!isA2sDatagram(msg)) return { ok: false, reason: 'a2s-truncated' };
  if (msg.length > 64) return { ok: false, reason: 'a2s-oversized' };
  const kind = msg[4];
  const v = view(msg);
  if (kind === A2S_INFO) {
    const end = 5 + INFO_QUERY.length;
    if (msg.length < end + 1) return { ok: false, reason: 'a2s-truncated' };
    for (let i = 0; i < INFO_QUERY.length; i++) if (msg[5 + i] !== INFO_QUERY.charCodeAt(i)) return { ok: false, reason: 'a2s-bad-info' };
    if (msg[end] !== 0) return { ok: false, reason: 'a2s-bad-info' };
    if (msg.length === end + 1) return { ok: true, request: { kind: 'info', challenge: null } };
    if (msg.length !== end + 5) return { ok: false, reason: 'a2s-bad-info' };
    return { ok: true, request: { kind: 'info', challenge: v.getInt32(end + 1, true) } };
  }
  if (kind === A2S_PLAYER || kind === A2S_RULES) {
    if (msg.length !== 9) return { ok: false, reason: 'a2s-truncated' };
    return { ok: true, request: { kind: kind === A2S_PLAYER ? 'players' : 'rules', challenge: v.getInt32(5, true) } };
  }
  return { ok: false, reason: 'a2s-unknown' };
}

/** A little-endian writer into one datagram's worth of bytes. */
class Writer {
  private readonly bytes = new Uint8Array(MAX_A2S_REPLY);
  private readonly v = new DataView(this.bytes.buffer);
  at = 0;
  u8(n: number): this {
    this.bytes[this.at++] = n & 0xff;
    return this;
  }
  i16(n: number): this {
    this.v.setInt16(this.at, n, true);
    this.at += 2;
    return this;
  }
  i32(n: number): this {
    this.v.setInt32(this.at, n | 0, true);
    this.at += 4;
    return this;
  }
  f32(n: number): this {
    this.v.setFloat32(this.at, n, true);
    this.at += 4;
    return this;
  }
  /** A string cut to `max` bytes of UTF-8 (never inside a character), then its zero byte. */
  str(s: string, max = 255): this {
    const b = utf8(s, max);
    this.bytes.set(b, this.at);
    this.at += b.length;
    return this.u8(0);
  }
  room(): number {
    return MAX_A2S_REPLY - this.at;
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.at);
  }
}

const encoder = new TextEncoder();

/** `s` as UTF-8 without zero bytes, at most `max` bytes, never cut inside a character. */
function utf8(s: string, max: number): Uint8Array {
  let b = encoder.encode(s.replace(/\0/g, ''));
  if (b.length <= max) return b;
  let end = max;
  while (end > 0 && ((b[end] as number) & 0xc0) === 0x80) end--;
  b = b.slice(0, end);
  return b;
}

const head = (w: Writer, kind: number) => w.i32(SINGLE).u8(kind);

/** S2C_CHALLENGE: the challenge to send back (9 bytes). */
export function encodeA2sChallenge(challenge: number): Uint8Array {
  return head(new Writer(), S2C_CHALLENGE).i32(challenge).done();
}

/** What S2A_INFO says of a server. */
export interface A2sInfo {
  name: string;
  /** The map: a Starlane server's galaxy or arena. */
  map: string;
  /** The game's folder and its name. */
  folder: string;
  game: string;
  players: number;
  maxPlayers: number;
  bots: number;
  /** 'l' Linux, 'w' Windows, 'm' macOS. */
  environment: 'l' | 'w' | 'm';
  /** A password is needed (Starlane: never). */
  private: boolean;
  version: string;
  /** The port a player joins at (the extra data's game port). */
  gamePort: number;
}

const byte = (n: number) => Math.max(0, Math.min(255, Math.floor(n)));

export function encodeA2sInfo(i: A2sInfo): Uint8Array {
  const w = head(new Writer(), S2A_INFO).u8(A2S_PROTOCOL).str(i.name).str(i.map).str(i.folder).str(i.game).i16(0);
  w.u8(byte(i.players)).u8(byte(i.maxPlayers)).u8(byte(i.bots)).u8(0x64).u8(i.environment.charCodeAt(0)).u8(i.private ? 1 : 0).u8(0).str(i.version);
  return w.u8(0x80).i16(i.gamePort > 0x7fff ? i.gamePort - 0x10000 : i.gamePort).done();
}

export interface A2sPlayer {
  name: string;
  score: number;
  /** Seconds on the server. */
  seconds: number;
}

/** S2A_PLAYER: as many players as fit one datagram (the rest left out). */
export function encodeA2sPlayers(players: readonly A2sPlayer[]): Uint8Array {
  const w = head(new Writer(), S2A_PLAYER);
  const countAt = w.at;
  w.u8(0);
  let n = 0;
  for (const p of players) {
    if (n >= 255 || w.room() < 1 + 32 + 1 + 8) break;
    w.u8(n).str(p.name, 31).i32(Math.round(p.score)).f32(p.seconds);
    n += 1;
  }
  const out = w.done();
  out[countAt] = n;
  return out;
}

/** S2A_RULES: as many name/value pairs as fit one datagram. */
export function encodeA2sRules(rules: readonly (readonly [string, string])[]): Uint8Array {
  const w = head(new Writer(), S2A_RULES);
  const countAt = w.at;
  w.i16(0);
  let n = 0;
  for (const [name, value] of rules) {
    if (w.room() < 64 + 64 + 2) break;
    w.str(name, 63).str(value, 63);
    n += 1;
  }
  const out = w.done();
  new DataView(out.buffer).setInt16(countAt, n, true);
  return out;
}
