/**
 * Plain-data shapes of the Starlane simulation.
 *
 * Everything here is JSON-serialisable data (numbers, booleans, arrays,
 * plain objects): no classes, no methods, no references between objects
 * other than numeric ids. That keeps a {@link World} copyable, hashable
 * (see `hashWorld`) and sendable over the wire.
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
 * - `fire` true = fire a laser when the cooldown and energy allow it.
 */
export interface ShipInput {
  thrust: number;
  yaw: number;
  pitch: number;
  roll: number;
  fire: boolean;
}

/**
 * One ship. `slot` is the player slot (index in `World.ships` at creation).
 * `angVel` is the body-frame angular velocity in rad/s (x = pitch rate,
 * y = yaw rate, z = roll rate, right-hand rule about the body axes).
 * `energy` in [0, 100]; `damage` accumulates laser hits; `fireCooldown` is
 * ticks until the next shot is allowed (0 = ready); `lastHitBy` is the
 * `owner` of the laser that hit the ship last (0 = never hit), so the game
 * can tell who shot it down.
 */
export interface Ship {
  id: number;
  slot: number;
  pos: Vec3;
  vel: Vec3;
  rot: Quat;
  angVel: Vec3;
  energy: number;
  damage: number;
  fireCooldown: number;
  lastHitBy: number;
}

/** A laser bolt. `owner` is the firing ship's id; `ttl` is ticks left to live (removed when it reaches 0). */
export interface Laser {
  id: number;
  owner: number;
  pos: Vec3;
  vel: Vec3;
  ttl: number;
}

/** A spherical asteroid of `radius` units; `spin` is its body-frame angular velocity in rad/s. */
export interface Asteroid {
  id: number;
  pos: Vec3;
  vel: Vec3;
  rot: Quat;
  spin: Vec3;
  radius: number;
}

/**
 * The whole simulation state. `tick` counts steps taken; `rng` is the PRNG
 * state (a uint32, see `prng.ts`); `nextId` is the next free entity id
 * (ids are unique across ships, lasers and asteroids and never reused).
 */
export interface World {
  tick: number;
  rng: number;
  nextId: number;
  ships: Ship[];
  lasers: Laser[];
  asteroids: Asteroid[];
}

/** Length of one simulation step in milliseconds. */
export const STEP_MS = 25;
/** Length of one simulation step in seconds (STEP_MS / 1000). */
export const STEP_S = 0.025;
/** Simulation steps per second (1000 / STEP_MS). */
export const TICK_HZ = 40;

/** The neutral input: no thrust, no turning, no firing. Frozen; used for ships without input. */
export const NO_INPUT: Readonly<ShipInput> = Object.freeze({
  thrust: 0,
  yaw: 0,
  pitch: 0,
  roll: 0,
  fire: false,
});
