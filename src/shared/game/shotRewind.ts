/**
 * The victim's game decides hits (Parsec's model), but another player's
 * laser reaches it late: created where it was fired, moved on by its age in
 * common game time, it would skip the stretch of its path it flew while on
 * the way — and with it any meeting with our ship there. At 150 ms one way
 * that stretch is some 90 units, so a shot the shooter's screen saw hit
 * flew past us in our game half the time (`npm run bench:hits`).
 *
 * So when such a laser arrives, its skipped path is swept against where our
 * ship was during that time (ShipTrail: our positions of the last
 * MAX_REWIND_TICKS ticks) with the simulation's own swept-sphere test; a
 * meeting there is a hit now. Bounded: only the last REWIND_MS of the path
 * are looked at, so a ship that has flown behind cover is not hit from
 * further back than that. Looks at lasers only: a missile's path bends and
 * speeds up, and it is slow enough to be seen and dodged.
 *
 * Pure, and only in a game that decides hits on its own ship from other
 * players' events (a Parsec network game): the golden run and the shared
 * worlds (lockstep, netgame) never take this path.
 */
import { SHIP_RADIUS } from './kinds/ship';
import { sweepMoving } from './sweep';
import { STEP_S } from '../sim/types';
import type { Vec3 } from './types';

/** How far back a late laser's path is swept against our ship, ms (Source engines reach 1 s; a shorter window keeps "shot behind cover" rare). */
export const REWIND_MS = 250;
export const MAX_REWIND_TICKS = Math.ceil(REWIND_MS / (STEP_S * 1000));

/** Our ship's positions, newest first: one per tick, at the end of that tick. */
export class ShipTrail {
  private readonly positions: Vec3[] = [];

  /** The tick's end: where our ship is (null while it is destroyed or absent, which forgets the trail). */
  record(pos: Vec3 | null): void {
    if (!pos) {
      this.positions.length = 0;
      return;
    }
    this.positions.unshift({ x: pos.x, y: pos.y, z: pos.z });
    if (this.positions.length > MAX_REWIND_TICKS + 1) this.positions.length = MAX_REWIND_TICKS + 1;
  }

  /** Where our ship was `k` ticks ago (0: now), or undefined beyond what is kept. */
  at(k: number): Vec3 | undefined {
    return this.positions[k];
  }

  get length(): number {
    return this.positions.length;
  }
}

const along = (p: Vec3, v: Vec3, s: number): Vec3 => ({ x: p.x + v.x * s, y: p.y + v.y * s, z: p.z + v.z * s });

/**
 * Whether a laser fired at `pos` with `vel`, `ageMs` ago, met our ship on
 * the part of its path it skipped (at most the last REWIND_MS of it), the
 * ship's radius grown by `reach`. Tick by tick, newest last: the laser's
 * segment of each past tick against our ship's movement in that tick.
 */
export function skippedHit(pos: Vec3, vel: Vec3, ageMs: number, trail: ShipTrail, reach = 0): boolean {
  const ageS = ageMs / 1000;
  const ticks = Math.min(Math.floor(ageS / STEP_S), trail.length - 1, MAX_REWIND_TICKS);
  if (ticks < 1) return false;
  const r = SHIP_RADIUS + reach;
  for (let k = ticks; k >= 1; k--) {
    const from = trail.at(k);
    const to = trail.at(k - 1);
    if (!from || !to) return false;
    // The laser k and k − 1 ticks before it arrived (never before it was fired).
    const l0 = along(pos, vel, Math.max(0, ageS - k * STEP_S));
    const l1 = along(pos, vel, Math.max(0, ageS - (k - 1) * STEP_S));
    if (sweepMoving(l0, l1, from, to, r) >= 0) return true;
  }
  return false;
}
