/**
 * A client's distrust of its peers: each remote ship state is checked against
 * the simulation's limits and that ship's previous states (the same checks a
 * gameserver makes). A mild violation — speed or spin a little over the limit
 * — is clamped; a blatant one is not shown at all, and the next state starts
 * a fresh track, so an honest jump (a respawn) cannot freeze a ship.
 * States are judged at the common game time stamped in their headers, so a
 * burst after a stall (the sender's, the server's or ours) is as far apart as
 * the ship flew it.
 */
import { checkShipState, newShipTrack, stateTime, type ShipTrack } from '../game/shipValidation';
import { spawnPoints } from '../sim/spawn';
import type { ShipState } from '../wire/types';

/** Where a respawned peer may reappear (it takes a free spawn point, not necessarily its slot's). */
const SPAWN_POINTS = spawnPoints();

export class PeerPlausibility {
  /** Remote ship states that broke the simulation's limits: clamped, or not shown. */
  readonly counts = { corrected: 0, ignored: 0 };
  /** Per remote slot: what its ship did so far. */
  private readonly tracks = new Map<number, ShipTrack>();

  /**
   * `state` from `slot`, stamped `stamp` (its header's game time), received
   * at our common game time `now`: as far as the simulation allows, or null
   * when it is not to be shown.
   */
  check(slot: number, state: ShipState, stamp: number, now: number): ShipState | null {
    const sentAt = stateTime(stamp, now);
    let track = this.tracks.get(slot);
    if (!track) this.tracks.set(slot, (track = newShipTrack(sentAt)));
    const check = checkShipState(state, track, sentAt, SPAWN_POINTS);
    if (check.violations.length === 0) return state;
    if (check.violations.some((v) => v.severity === 'blatant')) {
      this.counts.ignored += 1;
      this.tracks.delete(slot);
      return null;
    }
    this.counts.corrected += 1;
    return check.state;
  }

  /** A slot's next occupant starts a fresh track: tracks of slots not in `present` are dropped. */
  retain(present: ReadonlySet<number>): void {
    for (const slot of [...this.tracks.keys()]) if (!present.has(slot)) this.tracks.delete(slot);
  }

  clear(): void {
    this.tracks.clear();
  }
}
