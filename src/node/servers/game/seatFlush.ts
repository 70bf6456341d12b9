/**
 * What one gameserver client gets at a flush: everything due for it, packed
 * into Relay datagrams within its per-tick budget and encoded.
 *
 * The usual flush of a busy server carries states alone (no event queued
 * for the client, nothing on its reliable link): then each in-range
 * player's newest state, encoded once as the `relayed` event that carries it
 * (ClientSeat.relayedState), is copied into the datagram being filled
 * (wire/relayBundle.ts): no object per state. Anything else (events by
 * priority, reliable messages, acknowledgements) goes through the general
 * packer (relay.ts planRelays) and the codec.
 */
import { encodePacket, HEADER_SIZE, TOKEN_SIZE } from '../../../shared/wire/codec';
import { RelayBundle } from '../../../shared/wire/relayBundle';
import { ackSize, LINK_SECTION_OVERHEAD, sectionOf } from '../../../shared/net/linkLayer';
import { NO_SLOT, PacketType, type LinkSection, type Packet, type PacketHeader, type ReliableGameEvent } from '../../../shared/wire/types';
import type { ClientSeat } from './seat';
import { TIERS } from './interest';
import { planRelays, relayPacket, type PendingEvent, type RelayItem } from './relay';
import type { StateInterest } from './stateInterest';

/** Bytes of the server's own header on a Relay: the fixed header and the client's token. */
const OUTER_HEADER = HEADER_SIZE + TOKEN_SIZE;
/** Bytes of reliable messages one flush takes from a client's link (what is not placed is resent later). */
const RELIABLE_CHUNK = 360;
/** Stream of reliable items in the relay plan (after the event tiers and states). */
const RELIABLE_STREAM = TIERS + 1;

type Item = RelayItem & { pending?: PendingEvent; of?: ClientSeat };

export class SeatFlush {
  /** The buffer a flush of states alone writes its datagrams in. */
  private readonly bundle = new RelayBundle();

  constructor(
    private readonly interest: StateInterest,
    /** Joined players by slot (a relayed player's newest header). */
    private readonly clients: ReadonlyMap<number, ClientSeat>,
    /** Where events too old to send are counted. */
    private readonly drops: { outdated: number },
    /** Lasers and missiles older than this when their turn comes are dropped. */
    private readonly outdatedMs: number,
  ) {}

  /**
   * Everything due for client `c` (bound, with budget left) as encoded Relay
   * datagrams under `header()`: time-critical events, then the new states of
   * players in range (once each; those out of range are counted and skipped),
   * then world changes, then chat and names. What does not fit the budget
   * waits. Throws WireEncodeError only on a server bug (an invalid packet).
   */
  flush(c: ClientSeat, now: number, header: () => PacketHeader): Uint8Array[] {
    if (!c.udp || c.budget <= 0) return [];
    this.drops.outdated += c.outbox.dropOutdated(now, this.outdatedMs);
    // The usual flush of a busy server: states alone (no event queued, nothing on the link), copied as encoded.
    if (c.outbox.size === 0 && c.link.quiet(now)) return this.states(c, now, header);
    return this.packets(c, now, header).map(encodePacket);
  }

  /**
   * A flush of new states alone: each in-range state's `relayed` event,
   * encoded once when it first went anywhere (ClientSeat.relayedState), is
   * copied into the Relay datagram being filled. No object per state; the
   * same datagrams the general packer makes of states alone.
   */
  private states(c: ClientSeat, now: number, header: () => PacketHeader): Uint8Array[] {
    const out: Uint8Array[] = [];
    const bundle = this.bundle;
    c.due.visit((p) => {
      const bytes = c.stateDue(p) ? p.relayedState() : null;
      if (bytes === null) {
        c.due.delete(p);
        return true;
      }
      if (!this.interest.inRange(c, p, now)) {
        c.sent.set(p.id, p.seq);
        c.filteredJudged += 1;
        c.due.delete(p);
        return true;
      }
      if (!bundle.fits(bytes.length)) {
        if (bundle.open) out.push(bundle.finish());
        // Out of budget: the rest stays due for the next flush.
        if (out.length >= c.budget) return false;
        const h = header();
        bundle.begin(h.messageId, h.gameTime ?? 0, h.token ?? 0);
      }
      bundle.add(bytes);
      c.sent.set(p.id, p.seq);
      c.due.delete(p);
      c.detail.sent(p, now);
      c.counters.statesSent += 1;
      return true;
    });
    if (bundle.open) out.push(bundle.finish());
    c.budget -= out.length;
    return out;
  }

  /** The general flush: events, states and reliable messages planned into Relay packets (planRelays), then encoded by the caller. */
  private packets(c: ClientSeat, now: number, header: () => PacketHeader): Packet[] {
    const items: Item[] = [];
    const linkDue = c.link.wantsSend(now);
    const events = (tier: number) => {
      for (const p of c.outbox.queues[tier] ?? []) items.push({ from: p.from, event: p.event, size: p.size, stream: tier, pending: p });
    };
    events(0);
    c.due.visit((p) => {
      if (!c.stateDue(p)) c.due.delete(p);
      else if (this.interest.inRange(c, p, now)) items.push({ from: p.slot, event: null, size: 0, stream: TIERS, of: p });
      else {
        c.sent.set(p.id, p.seq);
        c.filteredJudged += 1;
        c.due.delete(p);
      }
      return true;
    });
    for (let tier = 1; tier < TIERS; tier++) events(tier);
    if (items.length === 0 && !linkDue) return [];
    // Reliable messages go first (resends and new ones, about a datagram's worth); acknowledgements ride in the first outer header.
    const reliable = c.link.take(now, RELIABLE_CHUNK - LINK_SECTION_OVERHEAD, ackSize);
    // The server's own messages ride in the Relay's link section (they come from no player); the players' in their relayed packets' sections.
    const own: { id: number; event: ReliableGameEvent; size: number }[] = [];
    for (const m of reliable.messages) {
      const message = { id: m.id, event: m.message.event };
      if (m.message.from === NO_SLOT) own.push({ ...message, size: m.size });
      else items.push({ from: m.message.from, event: null, message, size: m.size, stream: RELIABLE_STREAM });
    }
    // (Reliable items go first.)
    items.unshift(...items.splice(items.length - (reliable.messages.length - own.length)));
    const outer = sectionOf(reliable.acks, own);
    const acks: LinkSection | null = outer?.link ?? null;
    // A packet of acknowledgements alone is a Reliable one; with the server's own messages it is a Relay (their only home on the client).
    const bare = own.length > 0 ? PacketType.Relay : PacketType.Reliable;
    if (items.length === 0) return acks ? [{ header: { ...header(), type: bare }, events: [], link: acks }] : [];
    const plan = planRelays(items, OUTER_HEADER + (outer?.size ?? 0), c.budget);
    const sent = new Set<PendingEvent>();
    items.forEach((item, i) => {
      if (!plan.placed[i]) return;
      if (item.pending) sent.add(item.pending);
      else if (item.of) {
        c.sent.set(item.of.id, item.of.seq);
        c.due.delete(item.of);
        c.detail.sent(item.of, now);
        c.counters.statesSent += 1;
      }
    });
    if (sent.size > 0) c.outbox.remove((p) => sent.has(p));
    c.counters.eventsSent += sent.size;
    c.budget -= plan.datagrams.length;
    const packets = plan.datagrams.map((inners) => relayPacket(header(), inners, (slot) => this.clients.get(slot)?.header ?? null));
    const first = packets[0];
    if (first && acks) first.link = acks;
    else if (acks) packets.push({ header: { ...header(), type: bare }, events: [], link: acks });
    return packets;
  }
}
