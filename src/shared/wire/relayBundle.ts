/**
 * Relay datagrams written straight into bytes: a gameserver's forwarding of
 * states without an object per state. Each player's newest state is encoded
 * once as the `relayed` event that carries it alone (`relayedStateBytes`);
 * a {@link RelayBundle} writes the server's Relay header and then copies those events
 * in, one after another, into one reused buffer of MAX_RELAY_BYTES, and
 * hands each finished datagram out as a copy of exactly its length. The
 * bytes are the ones encodePacket writes for the same Relay packet (the
 * codec writes the headers and the events; the bundle only places them).
 */
import { EVENT_LIST_END, remoteEvent, TERMINATOR_SIZE } from './events';
import { SERVER_HEADER_SIZE, writeServerHeader } from './header';
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

/** Builds Relay datagrams of pre-encoded events, one at a time, in one reused buffer. */
export class RelayBundle {
  private readonly scratch = new Uint8Array(MAX_RELAY_BYTES);
  /** Bytes written of the datagram begun; 0: none begun. */
  private at = 0;
  /** Events added to the datagram begun (a resumed one's own not counted). */
  private count = 0;

  /** Whether a datagram is begun and not finished. */
  get open(): boolean {
    return this.at > 0;
  }

  /** Events added to the datagram begun. */
  get events(): number {
    return this.count;
  }

  /** Begins a Relay datagram under the server's header to one client (writeServerHeader), dropping one begun and not finished. */
  begin(messageId: number, gameTime: number, token: number): void {
    this.at = writeServerHeader(this.scratch, PacketType.Relay, messageId, gameTime, token);
    this.count = 0;
  }

  /**
   * Continues `datagram`, an encoded Relay (the codec's, ending with the
   * event list's terminator): its bytes are taken up to the terminator, and
   * events added go after its own. Its header says its link section, if any.
   */
  resume(datagram: Uint8Array): void {
    const end = datagram.length - TERMINATOR_SIZE;
    if (end < SERVER_HEADER_SIZE || datagram.length > MAX_RELAY_BYTES || datagram[end] !== EVENT_LIST_END || datagram[3] !== PacketType.Relay) {
      throw new Error('relay bundle bug: only an encoded Relay datagram can be continued');
    }
    this.scratch.set(datagram.subarray(0, end));
    this.at = end;
    this.count = 0;
  }

  /** Whether an event of `n` bytes still fits the datagram begun (with the terminator after it). */
  fits(n: number): boolean {
    return this.at > 0 && this.at + n + TERMINATOR_SIZE <= MAX_RELAY_BYTES;
  }

  /** Adds one encoded event (a caller checks `fits` first; one that does not fit is a bug). */
  add(event: Uint8Array): void {
    if (!this.fits(event.length)) throw new Error(`relay bundle bug: a ${event.length}-byte event does not fit`);
    this.scratch.set(event, this.at);
    this.at += event.length;
    this.count += 1;
  }

  /** Ends the datagram begun: its terminator, and a copy of exactly its bytes to send. */
  finish(): Uint8Array {
    if (this.at === 0) throw new Error('relay bundle bug: no datagram begun');
    this.scratch[this.at] = EVENT_LIST_END;
    const out = this.scratch.slice(0, this.at + TERMINATOR_SIZE);
    this.at = 0;
    this.count = 0;
    return out;
  }
}
