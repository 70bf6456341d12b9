/**
 * The two time-synchronisation datagrams: TimeRequest (client → responder)
 * and TimeReply (responder → client).
 *
 * They begin like every game datagram (magic 'S''L', version, type byte) so
 * they can share the game socket, but the game codec in `src/shared/wire`
 * does not know types 12 and 13 and would drop them as `unknown-type`:
 * receivers ask {@link isTimeDatagram} first and hand matching datagrams here.
 *
 * Layouts, all big-endian:
 *
 *   TimeRequest (24 bytes): [magic u16][version u8][type u8 = 12][seq u32][clientTime f64][8 zero bytes]
 *   TimeReply   (24 bytes): [magic u16][version u8][type u8 = 13][seq u32][clientTime f64][serverTime f64]
 *
 * `clientTime` is the requester's local clock when it sent the request, echoed
 * unchanged in the reply; `serverTime` is the responder's common game time when
 * it answered. Times are milliseconds as float64 so sub-millisecond clocks
 * (`performance.now()`) survive the trip.
 *
 * Amplification: none. A request is padded to the size of its reply (24 bytes
 * each, factor 1.0), so a spoofed request can never make a responder send a
 * victim more than the attacker sent; responders still rate limit per source.
 * A request that is not padded with zeros is refused (`bad-padding`).
 *
 * Decoding never throws, accepts only the exact length of each type, and
 * refuses NaN, ±Infinity and negative times.
 */
import { WIRE_MAGIC, WIRE_VERSION } from '../wire/types';

/** Type byte of the two time datagrams (after the game packet types 1..11). */
export const TimePacketType = {
  /** Client → responder: "what time is it?", stamped with the client's clock. */
  TimeRequest: 12,
  /** Responder → client: the request's seq and clientTime echoed, plus the responder's common time. */
  TimeReply: 13,
} as const;
export type TimePacketType = (typeof TimePacketType)[keyof typeof TimePacketType];

/** Exact size of a TimeRequest datagram in bytes. */
export const TIME_REQUEST_SIZE = 24;
/** Exact size of a TimeReply datagram in bytes. */
export const TIME_REPLY_SIZE = 24;

/** Largest sequence number (u32). */
const MAX_SEQ = 0xffff_ffff;

export interface TimeRequest {
  type: typeof TimePacketType.TimeRequest;
  /** Request number chosen by the client (u32); the reply carries it back. */
  seq: number;
  /** The client's local clock when sending, ms. */
  clientTime: number;
}

export interface TimeReply {
  type: typeof TimePacketType.TimeReply;
  seq: number;
  /** The request's clientTime, echoed unchanged. */
  clientTime: number;
  /** The responder's common game time when answering, ms. */
  serverTime: number;
}

export type TimeMessage = TimeRequest | TimeReply;

/**
 * Every reason a time datagram can be refused for, in the order the decoder
 * meets them.
 */
export const TIME_WIRE_DROP_REASONS = [
  /** Shorter than the 4-byte prefix (magic, version, type). */
  'truncated',
  'bad-magic',
  'bad-version',
  /** A request whose padding is not zero (or too short to be padded). */
  'bad-padding',
  /** A type byte other than 12 or 13 (for example a game packet). */
  'unknown-type',
  /** Not exactly 16 bytes for a request or 24 for a reply. */
  'bad-length',
  /** A time that is NaN or infinite. */
  'non-finite',
  /** A time below zero: clocks in this protocol start at zero and only go forward. */
  'negative-time',
] as const;
export type TimeWireDropReason = (typeof TIME_WIRE_DROP_REASONS)[number];

export type TimeDecodeResult = { ok: true; msg: TimeMessage } | { ok: false; reason: TimeWireDropReason };

/**
 * True when `bytes` claims to be a time datagram: the game magic and type 12
 * or 13, whatever the rest holds. Receivers route such datagrams to
 * {@link decodeTimeDatagram} (which also checks version and length) instead of
 * the game codec. Never throws.
 */
export function isTimeDatagram(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  if ((((bytes[0] as number) << 8) | (bytes[1] as number)) !== WIRE_MAGIC) return false;
  const type = bytes[3];
  return type === TimePacketType.TimeRequest || type === TimePacketType.TimeReply;
}

/** Encodes a TimeRequest. Throws a RangeError naming the field for a bad seq or time (a local bug, never input). */
export function encodeTimeRequest(seq: number, clientTime: number): Uint8Array {
  checkSeq(seq);
  checkTime('clientTime', clientTime);
  const bytes = new Uint8Array(TIME_REQUEST_SIZE);
  const view = writePrefix(bytes, TimePacketType.TimeRequest, seq);
  view.setFloat64(8, clientTime);
  return bytes;
}

/** Encodes a TimeReply. Throws a RangeError naming the field for a bad seq or time. */
export function encodeTimeReply(seq: number, clientTime: number, serverTime: number): Uint8Array {
  checkSeq(seq);
  checkTime('clientTime', clientTime);
  checkTime('serverTime', serverTime);
  const bytes = new Uint8Array(TIME_REPLY_SIZE);
  const view = writePrefix(bytes, TimePacketType.TimeReply, seq);
  view.setFloat64(8, clientTime);
  view.setFloat64(16, serverTime);
  return bytes;
}

/**
 * Decodes a time datagram, or says why it is refused. Never throws; the first
 * problem found decides the reason.
 */
export function decodeTimeDatagram(bytes: Uint8Array): TimeDecodeResult {
  if (bytes.length < 4) return { ok: false, reason: 'truncated' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint16(0) !== WIRE_MAGIC) return { ok: false, reason: 'bad-magic' };
  if (view.getUint8(2) !== WIRE_VERSION) return { ok: false, reason: 'bad-version' };
  const type = view.getUint8(3);
  if (type === TimePacketType.TimeRequest) {
    if (bytes.length !== TIME_REQUEST_SIZE) return { ok: false, reason: 'bad-length' };
    for (let i = 16; i < TIME_REQUEST_SIZE; i++) if (bytes[i] !== 0) return { ok: false, reason: 'bad-padding' };
    const clientTime = view.getFloat64(8);
    const bad = timeProblem(clientTime);
    if (bad !== null) return { ok: false, reason: bad };
    return { ok: true, msg: { type, seq: view.getUint32(4), clientTime } };
  }
  if (type === TimePacketType.TimeReply) {
    if (bytes.length !== TIME_REPLY_SIZE) return { ok: false, reason: 'bad-length' };
    const clientTime = view.getFloat64(8);
    const serverTime = view.getFloat64(16);
    const bad = timeProblem(clientTime) ?? timeProblem(serverTime);
    if (bad !== null) return { ok: false, reason: bad };
    return { ok: true, msg: { type, seq: view.getUint32(4), clientTime, serverTime } };
  }
  return { ok: false, reason: 'unknown-type' };
}

function writePrefix(bytes: Uint8Array, type: TimePacketType, seq: number): DataView {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint16(0, WIRE_MAGIC);
  view.setUint8(2, WIRE_VERSION);
  view.setUint8(3, type);
  view.setUint32(4, seq);
  return view;
}

function timeProblem(t: number): TimeWireDropReason | null {
  if (!Number.isFinite(t)) return 'non-finite';
  if (t < 0) return 'negative-time';
  return null;
}

function checkSeq(seq: number): void {
  if (!Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) {
    throw new RangeError(`time datagram: seq must be an integer in 0..${MAX_SEQ}, got ${seq}`);
  }
}

function checkTime(field: string, t: number): void {
  if (timeProblem(t) !== null) throw new RangeError(`time datagram: ${field} must be a finite time ≥ 0 ms, got ${t}`);
}
