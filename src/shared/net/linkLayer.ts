/**
 * The reliable-message layer of a client protocol: one {@link ReliableLink}
 * per node we exchange game packets with (each peer in p2p and slotserver
 * games, the server in a gameserver game), keyed by wire address. It rides on
 * the membership's own datagrams:
 *
 * - `envelopes` gives, for a GameState or NodeAlive going to a node, the
 *   link section (wire v11) of the acknowledgements we owe it and its due
 *   reliable messages, as far as they fit the room the datagram has left
 *   (the session's outgoing path fills one byte budget per target with them
 *   and the game events);
 * - `owed` names the nodes owed something no regular datagram carried, each
 *   to get a Reliable packet (acknowledgements should not wait long);
 * - `incoming` takes the link section out of a received datagram (in a
 *   Relay packet, out of each relayed player's inner packet too: a
 *   gameserver relays the players' messages there, with its own ids), hands
 *   back each message seen for the first time with the slot it is from, and
 *   leaves the rest of the packet for the membership.
 *
 * Reliable messages are taken from late datagrams too, on purpose (the
 * connection below drops only duplicates; the membership takes state only
 * from the newest): an overtaken packet's state is old news, but the chat
 * line in it is not.
 * Pure; the protocol supplies time, slots and the transport.
 */
import { giveUpAfterMs, ReliableLink, type ReliableConfig } from './reliable';
import { ACK_ID_SIZE, eventSize, linkSectionBytes, LINK_BYTE_SIZE, MESSAGE_COUNT_SIZE, MESSAGE_ID_SIZE } from '../wire/codec';
import { addrKey } from '../wire/addr';
import { NO_SLOT, PacketType, RELIABLE_EVENT_TYPES, type LinkSection, type Packet, type PacketHeader, type ReliableGameEvent, type RemoteEvent, type WireAddr } from '../wire/types';
import { isRelayMessage } from '../wire/channels';

/** Bytes each regular game packet leaves free for acknowledgements and reliable messages (the game-code interface fills the rest). */
export const LINK_RESERVE_BYTES = 96;

/** Whether game code's `event` travels as a reliable message. */
export function isReliableEvent(event: RemoteEvent): event is ReliableGameEvent {
  return (RELIABLE_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** Bytes `n` acknowledged ids add to a link section (ReliableLink.take's `ackSize`). */
export function ackSize(n: number): number {
  return ACK_ID_SIZE * n;
}

/** Bytes a reliable message adds to a link section: its id and its world event (type, length, body). */
export function messageSize(event: ReliableGameEvent): number {
  return MESSAGE_ID_SIZE + eventSize(event);
}

/** What a link section costs besides its ids and messages, at most (the link byte and the message count): take it off the room before ReliableLink.take. */
export const LINK_SECTION_OVERHEAD = LINK_BYTE_SIZE + MESSAGE_COUNT_SIZE;

/**
 * The link section of what a ReliableLink's `take` gave (`messages` mapped
 * to their world events), with its size; null when it gave nothing.
 */
export function sectionOf(acks: number[], messages: readonly { id: number; event: ReliableGameEvent; size: number }[]): { link: LinkSection; size: number } | null {
  if (acks.length === 0 && messages.length === 0) return null;
  const link: LinkSection = {};
  if (acks.length > 0) link.acks = acks;
  let bytes = 0;
  if (messages.length > 0) {
    link.messages = messages.map((m) => {
      bytes += m.size;
      return { id: m.id, event: m.event };
    });
  }
  return { link, size: linkSectionBytes(acks.length, messages.length, bytes) };
}

/** A reliable message delivered from `slot`; `stamp`: the common game time of the GameState that carried it (ages it like a state). */
export interface Delivered {
  slot: number;
  event: ReliableGameEvent;
  stamp?: number;
}

/** Acknowledgements and reliable messages for one datagram (its link section; null: none), and the bytes they add. */
export interface Envelopes {
  link: LinkSection | null;
  size: number;
}

const NO_ENVELOPES: Envelopes = Object.freeze({ link: null, size: 0 });

/** What `incoming` leaves: the packet without its link section (null when nothing is left for the membership) and the new messages. */
export interface Incoming {
  packet: Packet | null;
  delivered: Delivered[];
}

export class LinkLayer {
  private readonly links = new Map<string, { addr: WireAddr; link: ReliableLink<ReliableGameEvent> }>();
  /** Nodes whose link failed: no new link while they stay in the targets. */
  private readonly gone = new Set<string>();

  constructor(
    /** First message id of a new link (u16); random in production so a restarted node is not mistaken for its predecessor. */
    private readonly firstId: () => number,
    private readonly config: Partial<ReliableConfig> = {},
    /** A node's identity from its wire address (the session's: the packet API's key of the node). */
    private readonly keyOf: (addr: WireAddr) => string = addrKey,
  ) {}

  /**
   * The nodes we have links with: links to nodes not in `targets` are
   * dropped (the player left; nothing is owed any more), new ones created.
   */
  retain(targets: readonly WireAddr[]): void {
    const keep = new Set<string>();
    for (const addr of targets) {
      const key = this.keyOf(addr);
      keep.add(key);
      if (!this.links.has(key) && !this.gone.has(key)) this.links.set(key, { addr: Uint8Array.from(addr), link: new ReliableLink(messageSize, this.firstId(), this.config) });
    }
    for (const key of [...this.links.keys()]) if (!keep.has(key)) this.links.delete(key);
    for (const key of [...this.gone]) if (!keep.has(key)) this.gone.delete(key);
  }

  /** Queues a reliable message for every linked node; names supersede older names. */
  queueAll(event: ReliableGameEvent, now: number): void {
    for (const { link } of this.links.values()) link.queue(event, now, event.type === 'playerName' ? 'name' : undefined);
  }

  /**
   * The link section a datagram of type `type` to `to` carries, within
   * `room` bytes: the acknowledgements we owe that node, then its due
   * reliable messages, with its size (each part measured once: acks by
   * count, messages when they were queued). None for other packet types or
   * nodes without a link.
   */
  envelopes(to: WireAddr, type: PacketType, room: number, now: number): Envelopes {
    if (type !== PacketType.GameState && type !== PacketType.NodeAlive && type !== PacketType.Reliable) return NO_ENVELOPES;
    const entry = this.links.get(this.keyOf(to));
    if (!entry) return NO_ENVELOPES;
    const take = entry.link.take(now, room - LINK_SECTION_OVERHEAD, ackSize);
    return sectionOf(take.acks, take.messages.map((m) => ({ id: m.id, event: m.message, size: m.size }))) ?? NO_ENVELOPES;
  }

  /** Nodes owed acknowledgements or due messages that no regular datagram carried: each gets a Reliable packet. */
  owed(now: number): WireAddr[] {
    const out: WireAddr[] = [];
    for (const { addr, link } of this.links.values()) if (link.wantsSend(now)) out.push(addr);
    return out;
  }

  /**
   * A decoded datagram from `from`: its link section's acknowledgements
   * applied, its reliable messages acknowledged and — the first time —
   * returned with their slot (`slotOf(from)` for a direct sender; the
   * relayed slot inside a Relay). A section from a node without a link is
   * ignored (not acknowledged).
   */
  incoming(from: WireAddr, packet: Packet, now: number, slotOf: () => number | null): Incoming {
    const entry = this.links.get(this.keyOf(from));
    const delivered: Delivered[] = [];
    const take = (link: LinkSection | undefined, slot: () => number | null, carrier: PacketHeader): void => {
      if (!link) return;
      if (link.acks) entry?.link.onAcks(link.acks, now);
      if (!link.messages || !entry) return;
      const stamp = carrier.type === PacketType.GameState && carrier.gameTime !== undefined ? { stamp: carrier.gameTime } : {};
      for (const m of link.messages) {
        const s = slot();
        if (s !== null && entry.link.onMessage(m.id, now)) delivered.push({ slot: s, event: m.event, ...stamp });
      }
    };
    // Outside the relayed packets: the server's own messages (the match state), from no player's slot.
    const relay = packet.header.type === PacketType.Relay;
    take(packet.link, relay ? () => NO_SLOT : slotOf, packet.header);
    if (relay) {
      const events = packet.events.map((ev): RemoteEvent => {
        if (!isRelayMessage(ev) || !ev.packet.link) return ev;
        take(ev.packet.link, () => ev.slot, ev.packet.header);
        return { ...ev, packet: { header: ev.packet.header, events: ev.packet.events } };
      });
      return { packet: { header: packet.header, events }, delivered };
    }
    return { packet: packet.header.type === PacketType.Reliable ? null : { header: packet.header, events: packet.events }, delivered };
  }

  /** Links whose messages went unacknowledged through every resend: the node is gone. Each is reported once, then dropped. */
  failures(now: number): { addr: WireAddr; reason: string }[] {
    const out: { addr: WireAddr; reason: string }[] = [];
    for (const [key, { addr, link }] of this.links) {
      const reason = link.check(now);
      if (reason !== null) {
        out.push({ addr, reason });
        this.links.delete(key);
        this.gone.add(key);
      }
    }
    return out;
  }

  /** Messages not yet acknowledged, over all links. */
  get pending(): number {
    let n = 0;
    for (const { link } of this.links.values()) n += link.pending;
    return n;
  }

  /** Sums of every link's counters, for `stats`. */
  counters(): Record<string, number> {
    const sum: Record<string, number> = {};
    for (const { link } of this.links.values()) for (const [k, v] of Object.entries(link.counters)) sum[k] = (sum[k] ?? 0) + v;
    return sum;
  }

  clear(): void {
    this.links.clear();
    this.gone.clear();
  }
}

/** How long after its first send an unacknowledged message makes its node count as gone (documented figure). */
export const LINK_GIVE_UP_MS = giveUpAfterMs();
