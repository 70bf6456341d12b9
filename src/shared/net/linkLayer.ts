/**
 * The reliable-message layer of a client protocol: one {@link ReliableLink}
 * per node we exchange game packets with (each peer in p2p and slotserver
 * games, the server in a gameserver game), keyed by wire address. It rides on
 * the membership's own datagrams:
 *
 * - `envelopes` gives, for a GameState or NodeAlive going to a node, the
 *   acknowledgements we owe it and its due reliable messages, as far as they
 *   fit the room the datagram has left (the session's outgoing path fills
 *   one byte budget per target with them and the game events);
 * - `owed` names the nodes owed something no regular datagram carried, each
 *   to get a Reliable packet (acknowledgements should not wait long);
 * - `incoming` takes the acknowledgements and reliable messages out of a
 *   received datagram (in a Relay packet, out of each relayed player's inner
 *   packet too), hands back each message seen for the first time with the
 *   slot it is from, and leaves the rest of the packet for the membership.
 *
 * Reliable messages are taken from late datagrams too, on purpose (the
 * connection below drops only duplicates; the membership takes state only
 * from the newest): an overtaken packet's state is old news, but the chat
 * line in it is not.
 * Pure; the protocol supplies time, slots and the transport.
 */
import { giveUpAfterMs, ReliableLink, type ReliableConfig } from './reliable';
import { eventSize } from '../wire/codec';
import { addrKey } from '../wire/addr';
import { NO_SLOT, PacketType, RELIABLE_EVENT_TYPES, type AckEvent, type Packet, type PacketHeader, type ReliableGameEvent, type RemoteEvent, type WireAddr } from '../wire/types';
import { isRelayMessage, type LinkMessage } from '../wire/channels';

/** Bytes each regular game packet leaves free for acknowledgements and reliable messages (the game-code interface fills the rest). */
export const LINK_RESERVE_BYTES = 96;

/** Whether game code's `event` travels as a reliable message. */
export function isReliableEvent(event: RemoteEvent): event is ReliableGameEvent {
  return (RELIABLE_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** Bytes of an ack event listing `n` ids. */
export function ackSize(n: number): number {
  return 3 + 1 + 2 * n;
}

/** A reliable message delivered from `slot`; `stamp`: the common game time of the GameState that carried it (ages it like a state). */
export interface Delivered {
  slot: number;
  event: ReliableGameEvent;
  stamp?: number;
}

/** Acknowledgements and reliable messages for one datagram, and the bytes they add. */
export interface Envelopes {
  events: LinkMessage[];
  size: number;
}

const NO_ENVELOPES: Envelopes = Object.freeze({ events: [], size: 0 }) as Envelopes;

/** What `incoming` leaves: the packet without envelopes (null when nothing is left for the membership) and the new messages. */
export interface Incoming {
  packet: Packet | null;
  delivered: Delivered[];
}

const sizeOf = (m: ReliableGameEvent) => eventSize({ type: 'reliable', id: 0, event: m });

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
      if (!this.links.has(key) && !this.gone.has(key)) this.links.set(key, { addr: Uint8Array.from(addr), link: new ReliableLink(sizeOf, this.firstId(), this.config) });
    }
    for (const key of [...this.links.keys()]) if (!keep.has(key)) this.links.delete(key);
    for (const key of [...this.gone]) if (!keep.has(key)) this.gone.delete(key);
  }

  /** Queues a reliable message for every linked node; names supersede older names. */
  queueAll(event: ReliableGameEvent, now: number): void {
    for (const { link } of this.links.values()) link.queue(event, now, event.type === 'playerName' ? 'name' : undefined);
  }

  /**
   * The envelopes a datagram of type `type` to `to` carries, within `room`
   * bytes: the acknowledgements we owe that node, then its due reliable
   * messages, with their total size (each measured once: acks by count,
   * messages when they were queued). None for other packet types or nodes
   * without a link.
   */
  envelopes(to: WireAddr, type: PacketType, room: number, now: number): Envelopes {
    if (type !== PacketType.GameState && type !== PacketType.NodeAlive && type !== PacketType.Reliable) return NO_ENVELOPES;
    const entry = this.links.get(this.keyOf(to));
    if (!entry) return NO_ENVELOPES;
    const take = entry.link.take(now, room, ackSize);
    if (take.acks.length === 0 && take.messages.length === 0) return NO_ENVELOPES;
    const events: LinkMessage[] = [];
    let size = 0;
    if (take.acks.length > 0) {
      events.push({ type: 'ack', ids: take.acks });
      size += ackSize(take.acks.length);
    }
    for (const m of take.messages) {
      events.push({ type: 'reliable', id: m.id, event: m.message });
      size += m.size;
    }
    return { events, size };
  }

  /** Nodes owed acknowledgements or due messages that no regular datagram carried: each gets a Reliable packet. */
  owed(now: number): WireAddr[] {
    const out: WireAddr[] = [];
    for (const { addr, link } of this.links.values()) if (link.wantsSend(now)) out.push(addr);
    return out;
  }

  /**
   * A decoded datagram from `from`: acknowledgements applied, reliable
   * messages acknowledged and — the first time — returned with their slot
   * (`slotOf(from)` for a direct sender; the relayed slot inside a Relay).
   * Envelopes from a node without a link are ignored (not acknowledged).
   */
  incoming(from: WireAddr, packet: Packet, now: number, slotOf: () => number | null): Incoming {
    const entry = this.links.get(this.keyOf(from));
    const delivered: Delivered[] = [];
    const strip = (events: RemoteEvent[], slot: () => number | null, carrier: PacketHeader): RemoteEvent[] => {
      const stamp = carrier.type === PacketType.GameState && carrier.gameTime !== undefined ? { stamp: carrier.gameTime } : {};
      const rest: RemoteEvent[] = [];
      for (const ev of events) {
        if (ev.type === 'ack') entry?.link.onAcks(ev.ids, now);
        else if (ev.type === 'reliable') {
          if (!entry) continue;
          const s = slot();
          if (s !== null && entry.link.onMessage(ev.id, now)) delivered.push({ slot: s, event: ev.event, ...stamp });
        } else rest.push(ev);
      }
      return rest;
    };
    if (packet.header.type === PacketType.Relay) {
      // Outside the relayed packets: the server's own messages (the match state), from no player's slot.
      const events = strip(packet.events, () => NO_SLOT, packet.header).map((ev) =>
        isRelayMessage(ev) ? { ...ev, packet: { header: ev.packet.header, events: strip(ev.packet.events, () => ev.slot, ev.packet.header) } } : ev,
      );
      return { packet: { header: packet.header, events }, delivered };
    }
    const events = strip(packet.events, slotOf, packet.header);
    return { packet: packet.header.type === PacketType.Reliable ? null : { header: packet.header, events }, delivered };
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

export type { AckEvent };
