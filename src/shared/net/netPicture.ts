/**
 * The network as a game view last saw it, kept by the host so that a page
 * that attaches late or reloads starts from the same picture instead of an
 * empty one: the slot table with the connection status, and the latest state
 * of every remote ship. Deliveries that describe moments (events, chat) are
 * not kept; a page that was not there did not see them.
 */
import type { NetDelivery } from './gameLink';

type PlayersDelivery = Extract<NetDelivery, { kind: 'players' }>;
type StateDelivery = Extract<NetDelivery, { kind: 'state' }>;

export class NetPicture {
  private players: PlayersDelivery | null = null;
  /** Latest state per slot, with the host time it was delivered. */
  private readonly states = new Map<number, { delivery: StateDelivery; at: number }>();

  /** Takes one delivery made at host time `now` (ms). */
  record(delivery: NetDelivery, now: number): void {
    if (delivery.kind === 'players') {
      this.players = delivery;
      // A slot that left, or is no longer in the game, has no ship to show.
      const shown = new Set(delivery.players.filter((p) => p.joined && !p.local && p.slot !== delivery.localSlot).map((p) => p.slot));
      for (const slot of [...this.states.keys()]) if (!shown.has(slot)) this.states.delete(slot);
    } else if (delivery.kind === 'state') {
      this.states.set(delivery.slot, { delivery, at: now });
    }
  }

  /**
   * What a page needs at host time `now` to draw the network as it stands:
   * the slot table first, then each remote ship's latest state with its age
   * grown by the time since it arrived (the view extrapolates it to now).
   * Empty before anything was delivered.
   */
  replay(now: number): NetDelivery[] {
    if (!this.players) return [];
    const out: NetDelivery[] = [this.players];
    for (const { delivery, at } of this.states.values()) {
      out.push({ ...delivery, ageMs: (delivery.ageMs ?? 0) + Math.max(0, now - at) });
    }
    return out;
  }
}
