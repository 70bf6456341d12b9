/**
 * The simulation's units and math shapes (the game's entities are in
 * src/shared/game/types.ts).
 *
 * Coordinate convention (same as three.js cameras): right-handed, body axes
 * right = +X, up = +Y, forward (the ship's nose) = -Z. Distances are in
 * "units", times in seconds unless a name says otherwise, angles in radians.
 */

/** A 3-vector. Treated as immutable by the simulation: it always builds new ones. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** A rotation quaternion (unit length), Hamilton convention, `w` the scalar part. Body → world. */
export interface Quat {
  x: number;
  y: number;
  z: number;
  w: number;
}

/**
 * Per-tick control input of one ship. Axes are clamped to [-1, 1] by the step;
 * NaN and non-numbers count as 0, `fire` counts only when it is exactly `true`.
 * - `thrust` +1 = full forward thrust along the nose, -1 = reverse thrust (at half strength);
 * - `yaw` +1 = nose turns right (towards the body +X axis);
 * - `pitch` +1 = nose turns up (towards the body +Y axis);
 * - `roll` +1 = roll right (right wing goes down, clockwise seen from behind);
 * - `fire` true = fire the laser when the cooldown and energy allow it;
 * - `afterburner` true = burn energy for more thrust and speed;
 * - `missile` true = launch a missile (homing on `target` when it may lock on, else dumb);
 * - `mine` true = drop a proximity mine; `emp` true = set off an EMP pulse;
 * - `target` = the slot of the ship targeted for homing missiles, NO_TARGET for none.
 * The triggers count only when exactly `true` (missing = not pressed); a
 * missing `target`, or one that is not a slot, counts as NO_TARGET.
 */
export interface ShipInput {
  thrust: number;
  yaw: number;
  pitch: number;
  roll: number;
  fire: boolean;
  afterburner?: boolean;
  missile?: boolean;
  mine?: boolean;
  emp?: boolean;
  target?: number;
}

/** A ShipInput with every field present and in range: what the step works with (kinds/ship.ts, sanitiseInput). */
export type CleanInput = Required<ShipInput>;

/** `ShipInput.target` when nothing is targeted. */
export const NO_TARGET = -1;

/** Length of one simulation step in milliseconds. */
export const STEP_MS = 25;
/** Length of one simulation step in seconds (STEP_MS / 1000). */
export const STEP_S = 0.025;
/** Whole ticks in `ms` of game time, rounded (an incoming event's age in ticks). */
export function ticksIn(ms: number): number {
  return Math.round(ms / STEP_MS);
}
/** Simulation steps per second (1000 / STEP_MS). */
export const TICK_HZ = 40;

/** The neutral input: no thrust, no turning, no firing. Frozen; used for ships without input. */
export const NO_INPUT: Readonly<CleanInput> = Object.freeze({
  thrust: 0,
  yaw: 0,
  pitch: 0,
  roll: 0,
  fire: false,
  afterburner: false,
  missile: false,
  mine: false,
  emp: false,
  target: NO_TARGET,
});
