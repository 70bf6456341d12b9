/**
 * The challenge datagram: how two nodes prove to each other that each
 * receives at the address it sends from (a cookie exchange, as netcode.io's
 * challenge or DTLS's HelloVerifyRequest).
 *
 * It begins like every game datagram (magic 'S''L', version, type byte) so it
 * shares the game socket, but has a layout of its own, like the time-sync
 * datagrams, and never reaches the game codec:
 *
 *   Challenge (12 bytes): [magic u16][version u8][type u8 = 15][echo u32][cookie u32]
 *
 * `cookie` is the sender's cookie for the receiver's address; `echo` is the
 * receiver's cookie for the sender's address as the sender last saw it (0:
 * none yet). Cookies are never 0. Twelve bytes is less than any game
 * datagram (55 or more), so a challenge sent in answer to one is always
 * smaller than what it answers (factor ≤ 0.22), and a challenge answered
 * with a challenge is exactly its size (factor 1.0).
 *
 * Decoding never throws and accepts only the exact length.
 */
import { WIRE_MAGIC, WIRE_VERSION } from '../wire/types';

/** Type byte of the challenge datagram (after the game packet types and time sync's 12 and 13). */
export const CHALLENGE_TYPE = 15;
/** Exact size of a challenge datagram in bytes. */
export const CHALLENGE_SIZE = 12;

export interface Challenge {
  /** The receiver's cookie for the sender, as the sender last saw it; 0 when it has none. */
  echo: number;
  /** The sender's cookie for the receiver (never 0). */
  cookie: number;
}

/** Whether `bytes` claims to be a challenge (magic and type; the version and length are checked by decodeChallenge). */
export function isChallengeDatagram(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ((bytes[0] as number) << 8 | (bytes[1] as number)) === WIRE_MAGIC && bytes[3] === CHALLENGE_TYPE;
}

/** Encodes a challenge. Throws a RangeError for a cookie that is not a non-zero u32 or an echo that is not a u32 (a local bug, never input). */
export function encodeChallenge(c: Challenge): Uint8Array {
  if (!Number.isInteger(c.cookie) || c.cookie <= 0 || c.cookie > 0xffff_ffff) throw new RangeError(`challenge cookie ${c.cookie} is not a non-zero u32`);
  if (!Number.isInteger(c.echo) || c.echo < 0 || c.echo > 0xffff_ffff) throw new RangeError(`challenge echo ${c.echo} is not a u32`);
  const bytes = new Uint8Array(CHALLENGE_SIZE);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, WIRE_MAGIC);
  view.setUint8(2, WIRE_VERSION);
  view.setUint8(3, CHALLENGE_TYPE);
  view.setUint32(4, c.echo);
  view.setUint32(8, c.cookie);
  return bytes;
}

/** Why a challenge datagram was refused. */
export type ChallengeDrop = 'bad-version' | 'bad-length' | 'bad-cookie';

/** Decodes a datagram for which isChallengeDatagram is true. Never throws. */
export function decodeChallenge(bytes: Uint8Array): { ok: true; challenge: Challenge } | { ok: false; reason: ChallengeDrop } {
  if (bytes[2] !== WIRE_VERSION) return { ok: false, reason: 'bad-version' };
  if (bytes.length !== CHALLENGE_SIZE) return { ok: false, reason: 'bad-length' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cookie = view.getUint32(8);
  if (cookie === 0) return { ok: false, reason: 'bad-cookie' };
  return { ok: true, challenge: { echo: view.getUint32(4), cookie } };
}
