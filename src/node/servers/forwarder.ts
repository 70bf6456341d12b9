/**
 * The gameserver's forwarding core, without sockets: the joined players'
 * seats, what each one's GameState packets mean for the others (state
 * kept, events queued by priority and distance), and, per client, packing
 * what is due into Relay packets within its datagram budget. The caller
 * encodes and sends them (gameserver.ts).
 */
import { eventSize, HEADER_SIZE, TOKEN_SIZE } from '../../shared/wire/codec';
import { ackSize } from '../../shared/net/linkLayer';
import { PacketType, type Packet, type PacketHeader, type RemoteEvent } from '../../shared/wire/types';
import { ClientSeat } from './seat';
import { ownedBy, reachesEveryone, tierOf, TIERS, withinRadius } from './interest';
import { planRelays, relayPacket, type PendingEvent, type RelayItem } from './relay';

/** Tunables of a {@link Forwarder} (validated by the gameserver). */
export interface ForwarderConfig {
  /** Distance filter in units. */
  radius: number;
  /** Lasers and missiles older than this when their turn comes are dropped. */
  outdatedMs: number;
  /** Relay datagrams per client per tick. */
  budget: number;
  /** Events queued per client and tier. */
  queueCap: number;
}

/** Dropped events by reason. */
export interface EventDrops {
  /** Time-critical events that waited longer than `outdatedMs`. */
  outdated: number;
  /** Events pushed out of a full queue. */
  overflow: number;
  /** Events a client may not send (slot tables, connect queues, other players' objects). */
  foreign: number;
}

/** Bytes of the server's own header on a Relay: the fixed header and the client's token. */
const OUTER_HEADER = HEADER_SIZE + TOKEN_SIZE;
/** Bytes of reliable messages one flush takes from a client's link (what is not placed is resent later). */
const RELIABLE_CHUNK = 360;
/** Stream of reliable items in the relay plan (after the event tiers and states). */
const RELIABLE_STREAM = TIERS + 1;

type Item = RelayItem & { pending?: PendingEvent; of?: ClientSeat };

/** Seats and forwarding for one gameserver. */
export class Forwarder {
  /** Joined players by slot. */
  readonly clients = new Map<number, ClientSeat>();
  readonly byToken = new Map<number, ClientSeat>();
  readonly eventDrops: EventDrops = { outdated: 0, overflow: 0, foreign: 0 };
  private nextId = 1;

  constructor(private readonly cfg: ForwarderConfig) {}

  /** A new seat for a player seated in `slot` at `address`, with a token no other seat has. */
  add(slot: number, address: string, newToken: () => number, now: number): ClientSeat {
    let token: number;
    do token = newToken();
    while (this.byToken.has(token));
    const s = new ClientSeat(this.nextId++, slot, address, token, now, this.cfg.queueCap, this.cfg.budget, newToken() & 0xffff);
    this.clients.set(slot, s);
    this.byToken.set(token, s);
    return s;
  }

  /** Ends the seat in `slot`: its token stops working, and what the others still had queued from it is forgotten. */
  remove(slot: number): void {
    const s = this.clients.get(slot);
    if (!s) return;
    this.clients.delete(slot);
    this.byToken.delete(s.token);
    for (const c of this.clients.values()) {
      c.outbox.remove((p) => p.from === s.slot);
      c.sent.delete(s.id);
    }
  }

  /**
   * A GameState accepted from `s` (`newest`: its id is the highest so far, so its state counts); its events are queued for the others.
   * Returns how many of its events were not the client's to send (dropped as `foreign`), so the server can count strikes.
   */
  onGameState(s: ClientSeat, packet: Packet, newest: boolean, now: number): number {
    if (newest) s.setState(packet.header);
    let foreign = 0;
    for (const event of packet.events) {
      const tier = tierOf(event);
      if (tier === null || !ownedBy(event, s.slot)) {
        this.eventDrops.foreign += 1;
        foreign += 1;
        continue;
      }
      const pending: PendingEvent = { from: s.slot, event, at: now, size: eventSize(event) };
      const everyone = reachesEveryone(event);
      for (const c of this.clients.values()) {
        if (c === s) continue;
        if (!everyone && !withinRadius(s.pos, c.pos, this.cfg.radius)) c.counters.eventsFiltered += 1;
        else this.eventDrops.overflow += c.outbox.push(tier, pending);
      }
    }
    return foreign;
  }

  /**
   * The reliable-message envelopes of a datagram accepted from `s`:
   * acknowledgements settle what the server sent it; each reliable message
   * is acknowledged and, the first time, queued on every other client's link
   * (a name, or a match state, supersedes the same player's older one still in flight). A
   * message the client may not send (another player's object) is dropped and
   * counted as foreign; one `refuse` returns true for (the rules guard's
   * verdict) is acknowledged and dropped. Returns the packet without
   * envelopes, and how many messages were foreign.
   */
  takeLinkEvents(s: ClientSeat, packet: Packet, now: number, refuse?: (event: RemoteEvent) => boolean): { packet: Packet; foreign: number } {
    let foreign = 0;
    const rest: RemoteEvent[] = [];
    for (const ev of packet.events) {
      if (ev.type === 'ack') s.link.onAcks(ev.ids, now);
      else if (ev.type === 'reliable') {
        if (!s.link.onMessage(ev.id, now)) continue;
        if (!ownedBy(ev.event, s.slot)) {
          this.eventDrops.foreign += 1;
          foreign += 1;
          continue;
        }
        if (refuse?.(ev.event)) continue;
        const supersede = ev.event.type === 'playerName' ? `name:${s.slot}` : ev.event.type === 'matchState' ? `match:${s.slot}` : undefined;
        for (const c of this.clients.values()) if (c !== s) c.link.queue({ from: s.slot, event: ev.event }, now, supersede);
      } else rest.push(ev);
    }
    return { packet: rest.length === packet.events.length ? packet : { header: packet.header, events: rest }, foreign };
  }

  /**
   * Everything due for client `c` (bound, with budget left) as Relay packets
   * under `header()`: time-critical events, then the new states of players in
   * range (once each; those out of range are counted and skipped), then world
   * changes, then chat and names. What does not fit the budget waits.
   */
  flush(c: ClientSeat, now: number, header: () => PacketHeader): Packet[] {
    if (!c.udp || c.budget <= 0) return [];
    this.eventDrops.outdated += c.outbox.dropOutdated(now, this.cfg.outdatedMs);
    const items: Item[] = [];
    const linkDue = c.link.wantsSend(now);
    const events = (tier: number) => {
      for (const p of c.outbox.queues[tier] ?? []) items.push({ from: p.from, event: p.event, size: p.size, stream: tier, pending: p });
    };
    events(0);
    for (const p of this.clients.values()) {
      if (p === c || !c.stateDue(p)) continue;
      if (withinRadius(p.pos, c.pos, this.cfg.radius)) items.push({ from: p.slot, event: null, size: 0, stream: TIERS, of: p });
      else {
        c.sent.set(p.id, p.seq);
        c.counters.statesFiltered += 1;
      }
    }
    for (let tier = 1; tier < TIERS; tier++) events(tier);
    if (items.length === 0 && !linkDue) return [];
    // Reliable messages go first (resends and new ones, about a datagram's worth); acknowledgements ride in the first outer header.
    const reliable = c.link.take(now, RELIABLE_CHUNK, ackSize);
    items.unshift(
      ...reliable.messages.map((m): Item => {
        const event: RemoteEvent = { type: 'reliable', id: m.id, event: m.message.event };
        return { from: m.message.from, event, size: eventSize(event), stream: RELIABLE_STREAM };
      }),
    );
    const acks: RemoteEvent[] = reliable.acks.length > 0 ? [{ type: 'ack', ids: reliable.acks }] : [];
    if (items.length === 0) return acks.length > 0 ? [{ header: { ...header(), type: PacketType.Reliable }, events: acks }] : [];
    const plan = planRelays(items, OUTER_HEADER + (acks.length > 0 ? ackSize(reliable.acks.length) : 0), c.budget);
    const sent = new Set<PendingEvent>();
    items.forEach((item, i) => {
      if (!plan.placed[i]) return;
      if (item.pending) sent.add(item.pending);
      else if (item.of) {
        c.sent.set(item.of.id, item.of.seq);
        c.counters.statesSent += 1;
      }
    });
    if (sent.size > 0) c.outbox.remove((p) => sent.has(p));
    c.counters.eventsSent += sent.size;
    c.budget -= plan.datagrams.length;
    const packets = plan.datagrams.map((inners) => relayPacket(header(), inners, (slot) => this.clients.get(slot)?.header ?? null));
    const first = packets[0];
    if (first) first.events.unshift(...acks);
    else if (acks.length > 0) packets.push({ header: { ...header(), type: PacketType.Reliable }, events: acks });
    return packets;
  }
}
