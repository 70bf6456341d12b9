/**
 * The outgoing datagram's byte budget: every part of a datagram is measured
 * once — the header when the datagram is started, each game event once for
 * all targets (sizes are remembered per event object), the link section
 * when the link layer fills it — and the sum is handed to the encoder, which
 * writes the bytes once and checks they came to that size. Before this, one
 * game packet was measured by `fillPacket`, again by the link layer and again
 * by `encodePacket`.
 *
 * The codec is injected so tests can count what a send costs.
 */
import { MAX_DATAGRAM_BYTES } from '../net/packetApi';
import { LINK_RESERVE_BYTES } from '../net/linkLayer';
import { encodeMeasured, eventSize, HEADER_SIZE, headerSize, TERMINATOR_SIZE, TOKEN_SIZE } from '../wire/codec';
import type { UnnumberedHeader } from '../net/connection';
import type { StateBase } from '../wire/shipStateCodec';
import type { Packet, PacketHeader, RemoteEvent } from '../wire/types';

/** The three codec operations an outgoing datagram needs. */
export interface DatagramCodec {
  /** Bytes of `header` plus the event-list terminator: an empty datagram (measured before the connection numbers it: the number is a fixed u32). */
  baseSize(header: UnnumberedHeader): number;
  /** Bytes one event adds. */
  eventSize(event: RemoteEvent): number;
  /** The bytes of `packet`, whose size the caller measured as `size`; its ship state partial against `base` when given. */
  encode(packet: Packet, size: number, base?: StateBase): Uint8Array;
}

/** The real wire codec. */
export const wireDatagramCodec: DatagramCodec = {
  // headerSize reads which optional sections the header has, never the number (a fixed u32 of the base).
  baseSize: (header) => headerSize(header as PacketHeader) + TERMINATOR_SIZE,
  eventSize,
  encode: encodeMeasured,
};

/** `codec` with every datagram marked as a lockstep game's (header flag bit 2; the flag adds no byte). */
export function lockstepDatagramCodec(codec: DatagramCodec): DatagramCodec {
  return { ...codec, encode: (packet, size, base) => codec.encode({ ...packet, header: { ...packet.header, lockstep: true } }, size, base) };
}

/**
 * Event sizes measured once per event object. Game events go to every target
 * in the same objects, so a p2p game state to five peers measures its events
 * once, not five times. Weakly held: nothing is kept after the send.
 */
export class EventSizes {
  private readonly known = new WeakMap<RemoteEvent, number>();

  constructor(private readonly codec: DatagramCodec) {}

  of(event: RemoteEvent): number {
    let size = this.known.get(event);
    if (size === undefined) {
      size = this.codec.eventSize(event);
      this.known.set(event, size);
    }
    return size;
  }

  /** Sum of the sizes of `events`. */
  sum(events: readonly RemoteEvent[]): number {
    let n = 0;
    for (const event of events) n += this.of(event);
    return n;
  }
}

/**
 * Bytes of game events one game state may carry: a datagram less the largest
 * header (with a session token), the terminator and the link layer's reserve
 * for acknowledgements and reliable messages. A constant, so the budget costs
 * no measurement.
 */
export const GAME_EVENT_BUDGET = MAX_DATAGRAM_BYTES - LINK_RESERVE_BYTES - (HEADER_SIZE + TOKEN_SIZE + TERMINATOR_SIZE);
