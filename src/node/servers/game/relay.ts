/**
 * The gameserver's outgoing side for one client: the queued events of the
 * other players (one queue per priority tier), and the packing of states and
 * events into as few Relay datagrams of at most 1,200 bytes (MAX_RELAY_BYTES) as possible.
 *
 * A Relay datagram is a header (the server's, with the client's token) and
 * `relayed` events, one per other player it carries something of; each holds
 * that player's GameState datagram: its newest header and the events packed
 * for it, and the reliable messages from it in its header's link section
 * (with the server's ids for this client). A player with events but no
 * state due (out of range, or already sent) travels in a *carrier*: its
 * header with `joined` cleared and a zero ship state, which receivers must
 * not use as a position.
 */
import { MAX_RELAY_BYTES } from '../../../shared/wire/types';
import { EVENT_HEADER_SIZE, HEADER_SIZE, LINK_BYTE_SIZE, MAX_EVENT_PAYLOAD, MESSAGE_COUNT_SIZE, RELAYED_OVERHEAD, TERMINATOR_SIZE } from '../../../shared/wire/codec';
import { NO_SLOT, PacketType, type LinkedMessage, type Packet, type PacketHeader, type RemoteEvent } from '../../../shared/wire/types';
import type { RelayMessage, WorldMessage } from '../../../shared/wire/channels';
import { TIERS, URGENT, type Tier } from './interest';

/** An event waiting to be relayed to one client. */
export interface PendingEvent {
  /** Sender's slot. */
  from: number;
  /** A world message: the only channel a gameserver relays from player to player. */
  event: WorldMessage;
  /** Server clock (ms) when it arrived. */
  at: number;
  /** eventSize(event): bytes it adds to an inner packet. */
  size: number;
}

/**
 * One client's queued events, a FIFO per tier. Each tier holds at most `cap`
 * events; pushing onto a full tier drops its oldest (a flooding sender only
 * loses its own backlog's oldest).
 */
export class Outbox {
  readonly queues: PendingEvent[][] = Array.from({ length: TIERS }, () => []);

  constructor(private readonly cap: number) {}

  /** Queues `p` in `tier`; returns the number of events dropped to make room (0 or 1). */
  push(tier: Tier, p: PendingEvent): number {
    const q = this.queues[tier] as PendingEvent[];
    q.push(p);
    if (q.length <= this.cap) return 0;
    q.shift();
    return 1;
  }

  /** Drops time-critical events that arrived more than `maxAgeMs` before `now`; returns how many. */
  dropOutdated(now: number, maxAgeMs: number): number {
    const q = this.queues[URGENT] as PendingEvent[];
    // The queue is in arrival order: when its oldest is young enough, nothing goes (and nothing is copied).
    const oldest = q[0];
    if (oldest === undefined || now - oldest.at <= maxAgeMs) return 0;
    const keep = q.filter((p) => now - p.at <= maxAgeMs);
    const dropped = q.length - keep.length;
    this.queues[URGENT] = keep;
    return dropped;
  }

  /** Forgets every event from `slot` (the player left) or, with `sent`, the events that went out. */
  remove(test: (p: PendingEvent) => boolean): void {
    for (let t = 0; t < TIERS; t++) this.queues[t] = (this.queues[t] as PendingEvent[]).filter((p) => !test(p));
  }

  /** Events queued over all tiers. */
  get size(): number {
    return this.queues.reduce((n, q) => n + q.length, 0);
  }
}

/** One thing to relay: a player's newest state (`event` null, no `message`), one of its world messages, or one of its reliable messages (`message`, for the inner packet's link section). */
export interface RelayItem {
  from: number;
  event: RemoteEvent | null;
  /** A reliable message from the player (with `event` null): it goes into the inner packet's link section. */
  message?: LinkedMessage;
  /** Bytes the event (or the message: id and event) adds to an inner packet; 0 for a state. */
  size: number;
  /**
   * Order is kept within one (from, stream): once an item cannot be placed,
   * later items of its stream wait too, and placed ones never go into an
   * earlier datagram than their predecessors.
   */
  stream: number;
}

/** What one relayed player gets in one datagram. */
export interface InnerPlan {
  from: number;
  /** Its newest state is carried (else the inner header is a carrier). */
  state: boolean;
  events: RemoteEvent[];
  /** Its reliable messages (the inner packet's link section). */
  messages: LinkedMessage[];
}

/** The result of {@link planRelays}. */
export interface RelayPlan {
  /** Datagrams in send order, each a list of relayed players. */
  datagrams: InnerPlan[][];
  /** placed[i]: items[i] went into one of them. */
  placed: boolean[];
}

/** Bytes a relayed player adds to a datagram before any events: relayed envelope + inner header + terminator. */
export const INNER_BASE = RELAYED_OVERHEAD + HEADER_SIZE + TERMINATOR_SIZE;
/** Bytes an inner packet's link section of messages takes besides them: its link byte and message count. */
const INNER_LINK_BASE = LINK_BYTE_SIZE + MESSAGE_COUNT_SIZE;
/**
 * Most bytes one relayed player may take in a datagram (its `relayed` event
 * whole): an event's payload stays within MAX_EVENT_PAYLOAD like any event's,
 * so a player's inner packet is never longer than a datagram of its own.
 * Within a 1,200-byte Relay one player's many events go into several.
 */
const MAX_RELAYED_EVENT = EVENT_HEADER_SIZE + MAX_EVENT_PAYLOAD;

interface Draft {
  size: number;
  inners: Map<number, InnerPlan>;
  /** Bytes of each relayed player's event so far (INNER_BASE and what was added). */
  innerSizes: Map<number, number>;
  order: InnerPlan[];
}

/**
 * Packs `items`, taken in the given (priority) order, into at most
 * `maxDatagrams` datagrams whose encoded size never exceeds MAX_RELAY_BYTES, given
 * the outer header's size. Each item goes where it costs least (a datagram
 * that already carries its player), else into the first with room, else into
 * a new datagram while the budget allows; what does not fit stays unplaced
 * (with the rest of its stream). Pure; sizes are exact for valid events.
 * (A gameserver's flush gives it events and reliable messages; states are
 * copied in as bytes after them, seatFlush.ts.)
 */
export function planRelays(items: readonly RelayItem[], outerHeaderBytes: number, maxDatagrams: number): RelayPlan {
  const drafts: Draft[] = [];
  const placed = items.map(() => false);
  // Keyed by player and stream: from × STREAM_KEYS + stream (no string per item).
  const floor = new Map<number, number>();
  const blocked = new Set<number>();
  const empty = outerHeaderBytes + TERMINATOR_SIZE;
  const cost = (d: Draft, item: RelayItem): number => {
    const inner = d.inners.get(item.from);
    const section = item.message !== undefined && !(inner && inner.messages.length > 0) ? INNER_LINK_BASE : 0;
    const c = item.size + section + (inner ? 0 : INNER_BASE);
    // The player's relayed event would outgrow an event's payload: not in this datagram.
    return (d.innerSizes.get(item.from) ?? 0) + c > MAX_RELAYED_EVENT ? Infinity : c;
  };

  items.forEach((item, i) => {
    const key = item.from * STREAM_KEYS + item.stream;
    if (blocked.has(key)) return;
    let best = -1;
    let bestCost = Infinity;
    for (let d = floor.get(key) ?? 0; d < drafts.length; d++) {
      const draft = drafts[d] as Draft;
      const c = cost(draft, item);
      if (c < bestCost && draft.size + c <= MAX_RELAY_BYTES) {
        best = d;
        bestCost = c;
        if (c === item.size) break;
      }
    }
    if (best < 0 && drafts.length < maxDatagrams) {
      // A new datagram, made only when the item goes into it.
      const alone = freshCost(item);
      if (empty + alone <= MAX_RELAY_BYTES) {
        drafts.push({ size: empty, inners: new Map(), innerSizes: new Map(), order: [] });
        best = drafts.length - 1;
        bestCost = alone;
      }
    }
    if (best < 0) {
      blocked.add(key);
      return;
    }
    const draft = drafts[best] as Draft;
    let inner = draft.inners.get(item.from);
    if (!inner) {
      inner = { from: item.from, state: false, events: [], messages: [] };
      draft.inners.set(item.from, inner);
      draft.order.push(inner);
    }
    if (item.message !== undefined) inner.messages.push(item.message);
    else if (item.event === null) inner.state = true;
    else inner.events.push(item.event);
    draft.size += bestCost;
    draft.innerSizes.set(item.from, (draft.innerSizes.get(item.from) ?? 0) + bestCost);
    floor.set(key, best);
    placed[i] = true;
  });
  return { datagrams: drafts.map((d) => d.order), placed };
}

/** What `item` costs in a datagram of its own (planRelays' cost for a datagram carrying nothing of its player). */
function freshCost(item: RelayItem): number {
  const c = item.size + (item.message !== undefined ? INNER_LINK_BASE : 0) + INNER_BASE;
  return c > MAX_RELAYED_EVENT ? Infinity : c;
}

/** Streams per player in planRelays' keys (the forwarder's: the tiers, states, reliable messages; more than enough). */
const STREAM_KEYS = 16;

/** The header of a carrier for `newest`: same slot, id and time, `joined` cleared, no ship state, no token. */
export function carrierHeader(newest: PacketHeader): PacketHeader {
  const { senderSlot, messageId, gameTime } = newest;
  return { type: PacketType.GameState, senderSlot, messageId, ...(gameTime === undefined ? {} : { gameTime }), joined: false };
}

/** A carrier for a player with no state yet: its slot, no id, not joined, no ship state. */
function emptyCarrier(slot: number, gameTime: number | undefined): PacketHeader {
  return { type: PacketType.GameState, senderSlot: slot, messageId: 0, ...(gameTime === undefined ? {} : { gameTime }), joined: false };
}

/** The server's own header for a datagram to one client: `type`, no slot, the client's token. */
export function serverHeader(type: PacketType, messageId: number, gameTime: number, token: number): PacketHeader {
  return { type, senderSlot: NO_SLOT, messageId: messageId >>> 0, gameTime: gameTime >>> 0, joined: false, token };
}

/**
 * Turns one planned datagram into a Relay packet. `newest(slot)` is the
 * player's newest header (without a token); a player without one is skipped.
 */
export function relayPacket(header: PacketHeader, inners: readonly InnerPlan[], newest: (slot: number) => PacketHeader | null): Packet {
  const events: RelayMessage[] = [];
  for (const inner of inners) {
    // A player who has sent no state yet (chatting before joining) still has its events relayed, in an empty carrier.
    const h = newest(inner.from) ?? (inner.events.length > 0 || inner.messages.length > 0 ? emptyCarrier(inner.from, header.gameTime) : null);
    if (!h) continue;
    const packet: Packet = { header: inner.state ? h : carrierHeader(h), events: inner.events };
    if (inner.messages.length > 0) packet.link = { messages: inner.messages };
    events.push({ type: 'relayed', slot: inner.from, packet });
  }
  return { header, events };
}
