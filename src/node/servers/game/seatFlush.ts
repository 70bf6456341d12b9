/**
 * What one gameserver client gets at a flush: everything due for it, packed
 * into Relay datagrams within its per-tick budget and encoded.
 *
 * States never become objects on the way: each in-range player's newest
 * state, encoded once as the `relayed` event that carries it, full or
 * partial against each base a client acknowledged
 * (ClientSeat.relayedStateFor), is copied into the datagram being filled
 * (wire/relayBundle.ts), and the Relay's log notes it (relayLog.ts). Queued events and reliable messages (the usual
 * flush of a busy server has none) are planned first by the general packer
 * (relay.ts planRelays) and encoded; a player whose events go carries its
 * new state in the same inner packet, and the other states continue the
 * last datagram.
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
/** Stream of reliable items in the relay plan (after the event tiers). */
const RELIABLE_STREAM = TIERS + 1;

type Item = RelayItem & { pending?: PendingEvent };

export class SeatFlush {
  /** Where a flush writes the datagrams that carry states. */
  private readonly bundle = new RelayBundle();

  constructor(
    /** Whether a state due is still in range when its turn comes (a spectator's flush: always). */
    private readonly interest: Pick<StateInterest, 'inRange'>,
    /** Joined players by slot (a relayed player's newest header). */
    private readonly clients: ReadonlyMap<number, ClientSeat>,
    /** Where events too old to send are counted. */
    private readonly drops: { outdated: number },
    /** Lasers and missiles older than this when their turn comes are dropped. */
    private readonly outdatedMs: number,
  ) {}

  /**
   * Everything due for client `c` (bound, with budget left) as encoded Relay
   * datagrams under `header()`: queued events by priority (time-critical
   * first, then world changes, then chat and names) and reliable messages,
   * then the new states of players in range (once each; those out of range
   * are counted and skipped), continuing the last datagram. What does not
   * fit the budget waits. Throws WireEncodeError only on a server bug.
   */
  flush(c: ClientSeat, now: number, header: () => PacketHeader): Uint8Array[] {
    if (!c.udp || c.budget <= 0) return [];
    this.drops.outdated += c.outbox.dropOutdated(now, this.outdatedMs);
    // The usual flush of a busy server has no event queued and nothing on the link: states alone.
    const out = c.outbox.size === 0 && c.link.quiet(now) ? [] : this.packets(c, now, header).map(encodePacket);
    if (c.due.size > 0) this.states(c, now, header, out);
    return out;
  }

  /**
   * The new states due to `c`, after what `out` holds: each in-range state's
   * `relayed` event, encoded once when it first went anywhere
   * (ClientSeat.relayedState), is copied into the Relay datagram being
   * filled (the last one of `out` first, when it is a Relay). No object per
   * state.
   */
  private states(c: ClientSeat, now: number, header: () => PacketHeader, out: Uint8Array[]): void {
    const bundle = this.bundle;
    const log = c.relayLog;
    const last = out[out.length - 1];
    if (last !== undefined && bundle.resume(last)) {
      out.pop();
      log.begin(bundle.messageId);
    }
    let fresh = 0;
    c.due.visit((p) => {
      // Partial against the newest of p's states in a Relay c acknowledged, when there is one (relayLog.ts); else full.
      const bytes = c.stateDue(p) ? p.relayedStateFor(log.ackedOf(p.slot, p.id)) : null;
      if (bytes === null) {
        c.due.delete(p);
        return true;
      }
      if (!this.interest.inRange(c, p, now)) {
        c.stateTaken(p);
        c.filteredJudged += 1;
        c.due.delete(p);
        return true;
      }
      if (!bundle.fits(bytes.length)) {
        if (bundle.open) out.push(bundle.finish());
        // Out of budget: the rest stays due for the next flush.
        if (fresh >= c.budget) return false;
        const h = header();
        bundle.begin(h.messageId, h.gameTime ?? 0, h.token ?? 0);
        log.begin(h.messageId);
        fresh += 1;
      }
      bundle.add(bytes);
      log.add(p.slot, p.id, (p.header as PacketHeader).messageId);
      if (p.isPartial(bytes)) c.counters.statesPartial += 1;
      this.stateSent(c, p, now);
      return true;
    });
    if (bundle.open) out.push(bundle.finish());
    log.end();
    c.budget -= fresh;
  }

  /** `p`'s newest state went to `c`. */
  private stateSent(c: ClientSeat, p: ClientSeat, now: number): void {
    c.stateTaken(p);
    c.due.delete(p);
    c.detail.sent(p, now);
    c.counters.statesSent += 1;
  }

  /**
   * Queued events and reliable messages planned into Relay packets
   * (planRelays); a player whose events go carries its new state with them
   * when that is due and in range. The caller encodes them.
   */
  private packets(c: ClientSeat, now: number, header: () => PacketHeader): Packet[] {
    const items: Item[] = [];
    const linkDue = c.link.wantsSend(now);
    for (let tier = 0; tier < TIERS; tier++) {
      for (const p of c.outbox.queues[tier] ?? []) items.push({ from: p.from, event: p.event, size: p.size, stream: tier, pending: p });
    }
    if (items.length === 0 && !linkDue) return [];
    // Reliable messages go first (resends and new ones, about a datagram's worth); acknowledgements ride in the first outer header.
    const reliable = c.link.take(now, RELIABLE_CHUNK - LINK_SECTION_OVERHEAD, ackSize);
    // The server's own messages ride in the Relay's link section (they come from no player); the players' in their relayed packets' sections.
    const own: { id: number; event: ReliableGameEvent; size: number }[] = [];
    const theirs: Item[] = [];
    for (const m of reliable.messages) {
      const message = { id: m.id, event: m.message.event };
      if (m.message.from === NO_SLOT) own.push({ ...message, size: m.size });
      else theirs.push({ from: m.message.from, event: null, message, size: m.size, stream: RELIABLE_STREAM });
    }
    items.unshift(...theirs);
    const outer = sectionOf(reliable.acks, own);
    const acks: LinkSection | null = outer?.link ?? null;
    // A packet of acknowledgements alone is a Reliable one; with the server's own messages, or states to follow, a Relay (their only home on the client).
    const bare = own.length > 0 || c.due.size > 0 ? PacketType.Relay : PacketType.Reliable;
    if (items.length === 0) return acks ? [{ header: { ...header(), type: bare }, events: [], link: acks }] : [];
    const plan = planRelays(items, OUTER_HEADER + (outer?.size ?? 0), c.budget);
    const sent = new Set<PendingEvent>();
    items.forEach((item, i) => {
      if (plan.placed[i] && item.pending) sent.add(item.pending);
    });
    if (sent.size > 0) c.outbox.remove((p) => sent.has(p));
    c.counters.eventsSent += sent.size;
    c.budget -= plan.datagrams.length;
    // A player's new state rides with its events (their inner header has room for it: INNER_BASE counts a full state).
    for (const inners of plan.datagrams) {
      for (const inner of inners) {
        const p = this.clients.get(inner.from);
        if (p === undefined || !c.due.has(p) || !c.stateDue(p) || !this.interest.inRange(c, p, now)) continue;
        inner.state = true;
        this.stateSent(c, p, now);
      }
    }
    const packets = plan.datagrams.map((inners) => relayPacket(header(), inners, (slot) => this.clients.get(slot)?.header ?? null));
    const first = packets[0];
    if (first && acks) first.link = acks;
    else if (acks) packets.push({ header: { ...header(), type: bare }, events: [], link: acks });
    return packets;
  }
}
