/**
 * Game datagram codec, wire format v1 (byte tables in docs/PROTOCOL.md).
 *
 * A datagram is the header (with its optional sections, the link section
 * last), then the remote-event list, then a 0 byte, and nothing after it. One codec definition
 * per message (see `fields.ts`) gives encoding, decoding and size.
 *
 * - `encodePacket` takes trusted local data and throws {@link WireEncodeError}
 *   on a programmer mistake (over-long name, NaN, more than 512 bytes...).
 * - `decodePacket` takes untrusted bytes, never throws, and returns either a
 *   fully validated packet or the reason it was dropped.
 *
 * Lossy fields: the header's ship state (quantised: shipStateCodec.ts),
 * events' rotations (4×i16, each component within ~3e-5 after the decoder
 * renormalises), angular rates (i16 milli-rad/s, ±0.0005 rad/s, clamped to
 * ±32.767), energy/damage (rounded to whole percent) and every float (sent
 * as f32). Everything else round-trips exactly. A ship state may be written
 * partial against a base (`encodeMeasured`'s `base`) and is completed from
 * the receiver's bases when read (`decodePacket`'s `bases`).
 */
import { MAX_DATAGRAM_BYTES, MAX_RELAY_BYTES, maxDatagramBytes, PacketType } from './types';
import { eventListFor, linkSection, packetHead, readingRelays, remoteEvent, TERMINATOR_SIZE } from './events';
import { measure } from './fields';
import type { Codec } from './fields';
import { headerSize, type StateBase, type StateBases } from './header';
import { ByteWriter, DecodeFailure, DROP_REASONS, Reader, WireEncodeError } from './stream';
import type { DropReason, Sink } from './stream';
import type { LinkSection, Packet, PacketHeader, RemoteEvent } from './types';

export { DROP_REASONS, WireEncodeError } from './stream';
export type { DropReason } from './stream';
export { EVENT_CODES, EVENT_HEADER_SIZE, EVENT_LIST_END, MAX_EVENT_PAYLOAD, RELAYED_EVENT_CODE, RELAYED_OVERHEAD, TERMINATOR_SIZE } from './events';
export { ACK_ID_SIZE, LINK_BYTE_SIZE, linkSectionBytes, MESSAGE_COUNT_SIZE, MESSAGE_ID_SIZE, RELAY_ACK_SIZE, STATE_ACK_SIZE } from './linkSection';
export type { StateBase, StateBases } from './header';
export { BASE_HEADER_SIZE, fixedHeaderSize, FLAG_INPUTS, FLAG_JOINED, FLAG_LINK, FLAG_STATE, FLAG_TIME, FLAG_TOKEN, HEADER_SIZE, headerSize, messageIdOf, SERVER_HEADER_SIZE, STATE_SIZE, TIME_SIZE, TOKEN_SIZE, wireVersionOf, writeServerHeader } from './header';
export { MAX_ANGULAR_RATE, MAX_COORD, QUAT_SCALE } from './fields';

/**
 * The whole datagram. The packet type decides the event list: only a Relay
 * packet may carry `relayed` events. Anything after the terminator fails
 * `trailing-bytes` (checked in decodePacket).
 */
const packetCodec: Codec<Packet> = {
  write: (s, p) => writePacket(s, p),
  read: (r) => readPacket(r),
};

/** Writes `p`; its ship state partial against `base` when given. */
function writePacket(s: Sink, p: Packet, base?: StateBase): void {
  if (typeof p !== 'object' || p === null) throw new WireEncodeError(`${String(p)} is not a packet`);
  for (const key of ['header', 'events'] as const) {
    try {
      if (key === 'header') packetHead.write(s, { header: p.header, ...(p.link === undefined ? {} : { link: p.link }), ...(base === undefined ? {} : { base }) });
      else eventListFor(p.header.type).write(s, p.events);
    } catch (e) {
      throw e instanceof WireEncodeError ? e.within(key) : e;
    }
  }
}

/** Reads a packet, completing a partial ship state from `bases`. */
function readPacket(r: Reader, bases?: StateBases): Packet {
  const head = packetHead.read(r, bases);
  // A Relay's relayed players' partial states are completed from the bases kept for each of them (bases.relayed).
  const events = head.header.type === PacketType.Relay ? readingRelays(bases, () => eventListFor(PacketType.Relay).read(r)) : eventListFor(head.header.type).read(r);
  return head.link === undefined ? { header: head.header, events } : { header: head.header, events, link: head.link };
}

/**
 * Bytes `packet` encodes to (header, events, terminator). Validates like
 * encodePacket, so it throws {@link WireEncodeError} on invalid data, but not
 * for a size above MAX_DATAGRAM_BYTES (that is what callers use it to check).
 */
export function packetSize(packet: Packet): number {
  return measure(packetCodec, packet);
}

/** Bytes one event adds to a packet (type, length and payload); throws {@link WireEncodeError} on invalid data. */
export function eventSize(event: RemoteEvent): number {
  return measure(remoteEvent, event);
}

/** Bytes a link section adds to a packet (throws {@link WireEncodeError} on invalid data, an empty section included). */
export function linkSize(link: LinkSection): number {
  return measure(linkSection, link);
}

/**
 * Encodes a packet of trusted local data into a fresh Uint8Array of exactly
 * packetSize(packet) bytes. Throws {@link WireEncodeError} naming the field
 * for invalid data, or if the result would exceed MAX_DATAGRAM_BYTES
 * (MAX_RELAY_BYTES for a Relay).
 */
export function encodePacket(packet: Packet): Uint8Array {
  const size = packetSize(packet);
  checkSize(packet, size, '; build it with fillPacket');
  const w = new ByteWriter(size);
  packetCodec.write(w, packet);
  if (w.pos !== size) throw new Error(`wire codec bug: wrote ${w.pos} bytes, measured ${size}`);
  return w.buf;
}

/**
 * Encodes a packet whose size the caller already knows (it summed the
 * header's and each event's measured size while filling a byte budget), so
 * the datagram is measured once and written once. Throws like encodePacket;
 * a `size` that disagrees with what the codec writes is a caller bug.
 */
export function encodeMeasured(packet: Packet, size: number, base?: StateBase): Uint8Array {
  checkSize(packet, size, '');
  const w = new ByteWriter(size);
  if (base === undefined) packetCodec.write(w, packet);
  else writePacket(w, packet, base);
  if (w.pos !== size) throw new Error(`wire codec bug: wrote ${w.pos} bytes, measured ${size}`);
  return w.buf;
}

/** Throws when `size` is more than a datagram of `packet`'s type may be. */
function checkSize(packet: Packet, size: number, hint: string): void {
  const max = maxDatagramBytes(packet.header?.type);
  if (size > max) throw new WireEncodeError(`packet is ${size} bytes, more than ${max === MAX_RELAY_BYTES ? 'MAX_RELAY_BYTES' : 'MAX_DATAGRAM_BYTES'} (${max})${hint}`);
}

/** Result of {@link decodePacket}. */
export type DecodeResult = { ok: true; packet: Packet } | { ok: false; reason: DropReason };

/**
 * Decodes one received datagram. Never throws, and its work is linear in
 * the datagram's length (≤ 512 bytes, a Relay ≤ 1,200; no field is read twice). Accepted
 * packets satisfy every limit encodePacket checks (so they re-encode), share
 * no memory with `bytes`, and have unit-length rotations.
 */
export function decodePacket(bytes: Uint8Array, bases?: StateBases): DecodeResult {
  // Only a Relay (packet type at offset 3) may be longer than 512 bytes, up to MAX_RELAY_BYTES.
  if (bytes.length > MAX_DATAGRAM_BYTES && (bytes.length > MAX_RELAY_BYTES || bytes[3] !== PacketType.Relay)) return { ok: false, reason: 'too-large' };
  const r = new Reader(bytes);
  try {
    const packet = readPacket(r, bases);
    if (r.remaining() > 0) return { ok: false, reason: 'trailing-bytes' };
    return { ok: true, packet };
  } catch (e) {
    // Only decode failures are expected here; anything else is a codec bug and must surface in tests.
    if (e instanceof DecodeFailure) return { ok: false, reason: e.reason };
    throw e;
  }
}

/**
 * The game-code interface's packet builder: takes events from the front of
 * `queue`, in order, while they fit in `maxBytes` (capped at
 * MAX_DATAGRAM_BYTES) together with the header and terminator. Stops at the
 * first event that does not fit, so order is kept; the caller removes the
 * first `taken` events and sends the rest later. Any single valid event fits
 * an empty 512-byte packet (see MAX_EVENT_PAYLOAD; a header with a token
 * leaves 4 bytes less, still more than any valid event needs), so with the
 * default `maxBytes` a non-empty queue always makes progress.
 * Throws {@link WireEncodeError} for an invalid event or a `maxBytes` below
 * the header (with its token) + TERMINATOR_SIZE; the header is validated when encoded.
 */
export function fillPacket(header: PacketHeader, queue: readonly RemoteEvent[], maxBytes: number = MAX_DATAGRAM_BYTES): { packet: Packet; taken: number } {
  const limit = Math.min(maxBytes, MAX_DATAGRAM_BYTES);
  let size = headerSize(header) + TERMINATOR_SIZE;
  if (!(limit >= size)) throw new WireEncodeError(`maxBytes ${maxBytes} leaves no room for the ${size}-byte header and terminator`);
  const events: RemoteEvent[] = [];
  for (const event of queue) {
    const s = eventSize(event);
    if (size + s > limit) break;
    size += s;
    events.push(event);
  }
  return { packet: { header, events }, taken: events.length };
}

/**
 * Counts dropped datagrams per reason for stats and the console.
 * `count(reason)` adds one; `snapshot()` returns a copy of the non-zero
 * counters; `total` is the sum.
 */
export class DropCounters {
  private readonly counts = new Map<DropReason, number>();
  private sum = 0;

  count(reason: DropReason): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    this.sum++;
  }

  /** Non-zero counters keyed by reason, in DROP_REASONS order. */
  snapshot(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const reason of DROP_REASONS) {
      const n = this.counts.get(reason);
      if (n !== undefined) out[reason] = n;
    }
    return out;
  }

  /** Drops counted since construction or the last reset. */
  get total(): number {
    return this.sum;
  }

  reset(): void {
    this.counts.clear();
    this.sum = 0;
  }
}
