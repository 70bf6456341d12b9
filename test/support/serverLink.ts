/**
 * The reliable-message link of a test or bench client to its gameserver,
 * built on the real client's link layer (src/shared/net/linkLayer.ts, the
 * same `LinkLayer` a SessionPipeline holds) rather than on an acknowledgement
 * scheme of its own:
 *
 * - `incoming` hands it a decoded datagram from the server: the server's
 *   acknowledgements are applied, and every reliable message (the server's
 *   own in the Relay's link section, the players' in their relayed
 *   packets' sections) is noted to be acknowledged;
 * - `withEnvelopes` adds what the link owes (acknowledgements first) as the link section of a
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
import { BASE_HEADER_SIZE, fixedHeaderSize, FLAG_INPUTS, FLAG_LINK, packetSize, RELAYED_EVENT_CODE } from '../../src/shared/wire/codec';
import { MAX_ACK_IDS, NO_SLOT, type Packet, type WireAddr } from '../../src/shared/wire/types';

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

  /** `packet` with the acknowledgements and messages the link owes the server as its link section (as many as fit the datagram). */
  withEnvelopes(packet: Packet, now: number): Packet {
    const env = this.links.envelopes(SERVER, packet.header.type, MAX_DATAGRAM_BYTES - packetSize(packet), now);
    if (env.link === null) return packet;
    // A packet built with a section of its own (a test's hand-made message) keeps it, the link's parts first.
    const own = packet.link ?? {};
    const acks = [...(env.link.acks ?? []), ...(own.acks ?? [])].slice(0, MAX_ACK_IDS);
    const messages = [...(env.link.messages ?? []), ...(own.messages ?? [])];
    // Its state and relay acknowledgements stay as they were.
    const { stateAck, relayAck } = own;
    return { header: packet.header, events: packet.events, link: { ...(stateAck === undefined ? {} : { stateAck }), ...(relayAck === undefined ? {} : { relayAck }), ...(acks.length > 0 ? { acks } : {}), ...(messages.length > 0 ? { messages } : {}) } };
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
 * Whether an event list starting at `at` (ending by `end`) holds a relayed
 * packet with a link section. A list that runs past `end` or has no
 * terminator answers true: malformed.
 */
function listCarries(b: Uint8Array, at: number, end: number): boolean {
  for (;;) {
    if (at >= end) return true;
    const code = b[at] as number;
    if (code === 0) return false;
    if (at + 3 > end) return true;
    const next = at + 3 + (((b[at + 1] as number) << 8) | (b[at + 2] as number));
    if (next > end) return true;
    if (code === RELAYED_EVENT_CODE) {
      // [slot u8][inner length u16][inner packet: header (its link section last), events, terminator]
      const inner = at + 6;
      const innerEnd = inner + (((b[at + 4] as number) << 8) | (b[at + 5] as number));
      if (innerEnd > next || inner + BASE_HEADER_SIZE > innerEnd) return true;
      if (((b[inner + 5] as number) & FLAG_LINK) !== 0) return true;
    }
    at = next;
  }
}

/**
 * Whether a datagram from the server carries acknowledgements or reliable
 * messages (scanned, not decoded): a link section in its header (wire v11:
 * flags bit 6) or in a relayed packet's. Malformed bytes (and a frame
 * section, which a server never sends) answer true, so the decoder, not the
 * scan, decides what they are.
 */
export function carriesLinkEvents(b: Uint8Array): boolean {
  if (b.length < BASE_HEADER_SIZE) return false;
  const flags = b[5] as number;
  if ((flags & (FLAG_LINK | FLAG_INPUTS)) !== 0) return true;
  const at = fixedHeaderSize(b);
  return at < 0 || listCarries(b, at, b.length);
}
