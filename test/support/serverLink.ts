/**
 * The reliable-message link of a test or bench client to its gameserver,
 * built on the real client's link layer (src/shared/net/linkLayer.ts, the
 * same `LinkLayer` a SessionPipeline holds) rather than on an acknowledgement
 * scheme of its own:
 *
 * - `incoming` hands it a decoded datagram from the server: the server's
 *   acknowledgements are applied, and every reliable message (the server's
 *   own in the Relay's outer event list, the players' inside their relayed
 *   packets) is noted to be acknowledged;
 * - `withEnvelopes` adds what the link owes (acknowledgements first) to a
 *   GameState, NodeAlive or Reliable packet the client is about to send,
 *   within the room the datagram has left, exactly as the session's sender
 *   does;
 * - `owed` says a Reliable packet of its own should go now (an
 *   acknowledgement waited `ackDelayMs` without a datagram to ride on), as
 *   the session's tick asks the link layer.
 *
 * `carriesLinkEvents` lets a client that scans datagrams as raw bytes (the
 * load benchmark) decode only those the link must see.
 */
import { LinkLayer } from '../../src/shared/net/linkLayer';
import { MAX_DATAGRAM_BYTES } from '../../src/shared/net/packetApi';
import { ACK_EVENT_CODE, BASE_HEADER_SIZE, fixedHeaderSize, FLAG_INPUTS, packetSize, RELAYED_EVENT_CODE, RELIABLE_EVENT_CODE } from '../../src/shared/wire/codec';
import { NO_SLOT, type Packet, type WireAddr } from '../../src/shared/wire/types';

/** The link's only node, the gameserver (the link layer keys nodes by wire address; any fixed bytes do for one node). */
const SERVER: WireAddr = Uint8Array.of(0);

export class ServerLink {
  private readonly links: LinkLayer;

  constructor(random: () => number = Math.random) {
    this.links = new LinkLayer(() => Math.floor(random() * 0x10000) & 0xffff);
    this.links.retain([SERVER]);
  }

  /** A decoded datagram from the server at `now` (ms): acknowledgements applied, reliable messages to acknowledge noted. Returns how many were new. */
  incoming(packet: Packet, now: number): number {
    return this.links.incoming(SERVER, packet, now, () => NO_SLOT).delivered.length;
  }

  /** `packet` with the acknowledgements and messages the link owes the server in front of its events (as many as fit the datagram). */
  withEnvelopes(packet: Packet, now: number): Packet {
    const env = this.links.envelopes(SERVER, packet.header.type, MAX_DATAGRAM_BYTES - packetSize(packet), now);
    return env.events.length === 0 ? packet : { header: packet.header, events: [...env.events, ...packet.events] };
  }

  /** True when the link owes the server something no regular datagram carried (send a Reliable packet through `withEnvelopes`). */
  owed(now: number): boolean {
    return this.links.owed(now).length > 0;
  }

  /** The link layer's counters (delivered, duplicates, ...). */
  counters(): Record<string, number> {
    return this.links.counters();
  }
}

/**
 * Whether an event list starting at `at` (ending by `end`) holds an ack or
 * reliable event; in a Relay's outer list, inside relayed packets too. A list
 * that runs past `end` or has no terminator answers true: malformed.
 */
function listCarries(b: Uint8Array, at: number, end: number, outer: boolean): boolean {
  for (;;) {
    if (at >= end) return true;
    const code = b[at] as number;
    if (code === 0) return false;
    if (code === RELIABLE_EVENT_CODE || code === ACK_EVENT_CODE) return true;
    if (at + 3 > end) return true;
    const next = at + 3 + (((b[at + 1] as number) << 8) | (b[at + 2] as number));
    if (next > end) return true;
    if (outer && code === RELAYED_EVENT_CODE) {
      // [slot u8][inner length u16][inner packet: header, events, terminator]
      const inner = at + 6;
      const innerEnd = inner + (((b[at + 4] as number) << 8) | (b[at + 5] as number));
      if (innerEnd > next || inner + BASE_HEADER_SIZE > innerEnd) return true;
      const events = headerEnd(b, inner);
      if (events === null || events > innerEnd) return true;
      if (listCarries(b, events, innerEnd, false)) return true;
    }
    at = next;
  }
}

/**
 * Whether a datagram from the server carries acknowledgements or reliable
 * messages (scanned, not decoded). Malformed bytes answer true, so the
 * decoder, not the scan, decides what they are.
 */
export function carriesLinkEvents(b: Uint8Array): boolean {
  if (b.length < BASE_HEADER_SIZE) return false;
  const events = headerEnd(b, 0);
  return events === null || listCarries(b, events, b.length, true);
}

/** Where the event list of the header at `at` starts (wire v10: the base and what its flags add); null for a frame section, which a server never sends. */
function headerEnd(b: Uint8Array, at: number): number | null {
  const flags = b[at + 5] as number;
  return (flags & FLAG_INPUTS) !== 0 ? null : at + fixedHeaderSize(flags);
}
