/**
 * Relay datagrams written straight into bytes: a gameserver's forwarding of
 * states without an object per state. Each player's newest state is encoded
 * once as the `relayed` event that carries it alone (`relayedStateBytes`);
 * a {@link RelayBundle} writes the server's Relay header and then copies those events
 * in, one after another, in place in a shared buffer, and hands each
 * finished datagram out as a view of exactly its bytes. The
 * bytes are the ones encodePacket writes for the same Relay packet (the
 * codec writes the headers and the events; the bundle only places them).
 */
import { EVENT_LIST_END, packetHead, RELAYED_EVENT_CODE, remoteEvent, TERMINATOR_SIZE } from './events';
import { messageIdOf, SERVER_HEADER_SIZE, writeServerHeader, type StateBase } from './header';
import { measure } from './fields';
import { ByteWriter } from './stream';
import { MAX_RELAY_BYTES, PacketType, type PacketHeader, type RelayedEvent } from './types';

/**
 * The `relayed` event carrying `header` alone (a player's newest GameState
 * header without its token, no events, no link section): its event code,
 * length, slot and inner datagram. Throws {@link WireEncodeError} for a
 * header a relayed packet may not have.
 */
export function relayedStateBytes(header: PacketHeader): Uint8Array {
  const event: RelayedEvent = { type: 'relayed', slot: header.senderSlot, packet: { header, events: [] } };
  const w = new ByteWriter(measure(remoteEvent, event));
  remoteEvent.write(w, event);
  return w.buf;
}

/**
 * The same `relayed` event with its ship state partial against `base` (wire
 * v14): what a gameserver sends a client that acknowledged a Relay holding
 * the base (the state `base.distance` of the player's own message ids back).
 * Throws {@link WireEncodeError} as relayedStateBytes does, and for a state
 * that cannot go partial against `base`.
 */
export function relayedPartialBytes(header: PacketHeader, base: StateBase): Uint8Array {
  if (header.token !== undefined || header.type !== PacketType.GameState) return relayedStateBytes(header);
  const head = { header, base };
  const inner = measure(packetHead, head) + TERMINATOR_SIZE;
  // Event code and payload length, then the slot and the inner datagram's length.
  const w = new ByteWriter(3 + 1 + 2 + inner);
  w.u8(RELAYED_EVENT_CODE);
  w.u16(1 + 2 + inner);
  w.u8(header.senderSlot);
  w.u16(inner);
  packetHead.write(w, head);
  w.u8(EVENT_LIST_END);
  return w.buf;
}

/** Where a datagram's packet type sits (after the magic and the version). */
const PACKET_TYPE_AT = 3;

/** Bytes of each buffer datagrams are written in: many datagrams a buffer, a new one when the rest could not hold a whole datagram. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Builds Relay datagrams of pre-encoded events, one at a time, each written
 * in place in a shared buffer and handed out as a view of exactly its bytes
 * (no copy, no buffer per datagram). Bytes handed out are never written
 * again: the next datagram starts after them, and a full buffer is left to
 * the views still holding it.
 */
export class RelayBundle {
  private chunk = new Uint8Array(CHUNK_BYTES);
  /** Where the datagram begun starts in `chunk`. */
  private start = 0;
  /** Bytes written of the datagram begun; 0: none begun. */
  private at = 0;
  /** Events added to the datagram begun (a resumed one's own not counted). */
  private count = 0;
  /** The message id of the datagram begun. */
  private id = 0;

  /** The message id of the datagram begun (or of the last one finished). */
  get messageId(): number {
    return this.id;
  }

  /** Whether a datagram is begun and not finished. */
  get open(): boolean {
    return this.at > 0;
  }

  /** Events added to the datagram begun. */
  get events(): number {
    return this.count;
  }

  /** Makes sure a whole datagram fits after `start` (a fresh buffer if not). */
  private room(): void {
    if (this.start + MAX_RELAY_BYTES <= CHUNK_BYTES) return;
    this.chunk = new Uint8Array(CHUNK_BYTES);
    this.start = 0;
  }

  /** Begins a Relay datagram under the server's header to one client (writeServerHeader), dropping one begun and not finished. */
  begin(messageId: number, gameTime: number, token: number): void {
    this.room();
    this.at = writeServerHeader(this.chunk, PacketType.Relay, messageId, gameTime, token, this.start);
    this.count = 0;
    this.id = messageId >>> 0;
  }

  /**
   * Continues `datagram` when it is an encoded Relay (the codec's, ending
   * with the event list's terminator): its bytes are taken up to the
   * terminator, events added go after its own, and true is returned. Its
   * header says its link section, if any. Any other datagram: false, and
   * nothing is begun.
   */
  resume(datagram: Uint8Array): boolean {
    const end = datagram.length - TERMINATOR_SIZE;
    if (end < SERVER_HEADER_SIZE || datagram.length > MAX_RELAY_BYTES || datagram[end] !== EVENT_LIST_END || datagram[PACKET_TYPE_AT] !== PacketType.Relay) return false;
    this.room();
    this.chunk.set(datagram.subarray(0, end), this.start);
    this.at = end;
    this.count = 0;
    this.id = messageIdOf(datagram);
    return true;
  }

  /** Whether an event of `n` bytes still fits the datagram begun (with the terminator after it). */
  fits(n: number): boolean {
    return this.at > 0 && this.at + n + TERMINATOR_SIZE <= MAX_RELAY_BYTES;
  }

  /** Adds one encoded event (a caller checks `fits` first; one that does not fit is a bug). */
  add(event: Uint8Array): void {
    if (!this.fits(event.length)) throw new Error(`relay bundle bug: a ${event.length}-byte event does not fit`);
    this.chunk.set(event, this.start + this.at);
    this.at += event.length;
    this.count += 1;
  }

  /** Ends the datagram begun: its terminator, and a view of exactly its bytes to send (never written again). */
  finish(): Uint8Array {
    if (this.at === 0) throw new Error('relay bundle bug: no datagram begun');
    const end = this.start + this.at;
    this.chunk[end] = EVENT_LIST_END;
    const out = this.chunk.subarray(this.start, end + TERMINATOR_SIZE);
    this.start = end + TERMINATOR_SIZE;
    this.at = 0;
    this.count = 0;
    return out;
  }
}
