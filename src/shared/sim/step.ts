/**
 * The fixed-step simulation: `stepWorld` advances a World by one tick of
 * STEP_S seconds. Pure and deterministic to the bit: same world + same inputs
 * → identical result on every run and every engine (only + - * / sqrt, no
 * trig, no clock, randomness only from the PRNG state in `World.rng`).
 *
 * Order inside one tick:
 *  1. ships: sanitise input; angular velocity eases towards input × max rate;
 *     rotate; thrust along the nose, drag, speed cap; move; cooldown and
 *     energy regeneration; decide whether the ship fires;
 *  2. asteroids: drift, spin, bounce back inward beyond ASTEROID_BOUND;
 *  3. lasers: move, ttl - 1; swept sphere test against asteroids and ships
 *     (not the owner) relative to their motion this tick; the earliest hit
 *     wins; a hit removes the laser (ships take LASER_DAMAGE and remember the
 *     laser's owner in `lastHitBy`, asteroids get a random spin kick); a
 *     laser whose ttl reached 0 is removed;
 *  4. new lasers are spawned at the noses of the ships that fired;
 *  5. tick + 1.
 */
import { nextRange } from './prng';
import { NO_INPUT, STEP_S } from './types';
import type { Asteroid, Laser, Ship, ShipInput, Vec3, World } from './types';
import { addScaled, copyVec, dot, forwardOf, integrateRotation, lengthSq } from './vec';
import { ASTEROID_BOUND, ASTEROID_MAX_SPIN, ENERGY_MAX } from './world';

/** Max yaw rate (rad/s) at full input. */
export const MAX_YAW_RATE = 1.6;
/** Max pitch rate (rad/s) at full input. */
export const MAX_PITCH_RATE = 1.6;
/** Max roll rate (rad/s) at full input. */
export const MAX_ROLL_RATE = 2.4;
/** Fraction of the gap to the target angular velocity closed per tick (damping). */
export const ANGULAR_RESPONSE = 0.2;
/** Acceleration at full forward thrust (units/s²). */
export const THRUST_ACCEL = 60;
/** Fraction of THRUST_ACCEL that full reverse thrust (thrust = -1) gives. */
export const REVERSE_THRUST_FACTOR = 0.5;
/** Linear drag per second: each tick velocity is multiplied by 1 - DRAG_PER_S·STEP_S. */
export const DRAG_PER_S = 0.2;
/** Speed cap of a ship (units/s). */
export const MAX_SPEED = 120;
/** Collision radius of a ship. */
export const SHIP_RADIUS = 6;
/** Laser muzzle speed (units/s), added to the ship's velocity. */
export const LASER_SPEED = 600;
/** Ticks a laser lives. */
export const LASER_TTL_TICKS = 40;
/** Ticks between two shots of one ship. */
export const FIRE_COOLDOWN_TICKS = 6;
/** Energy one shot costs; a ship cannot fire with less. */
export const LASER_ENERGY_COST = 10;
/** Energy regained per tick (20/s), up to ENERGY_MAX. */
export const ENERGY_REGEN_PER_TICK = 0.5;
/** Damage one laser hit adds to a ship. */
export const LASER_DAMAGE = 10;
/** Distance ahead of the ship's centre (along the nose) where lasers spawn. */
export const NOSE_OFFSET = 8;
/** Largest random spin change per axis (rad/s) a laser hit gives an asteroid of radius 1 (divided by the radius). */
export const ASTEROID_HIT_SPIN_KICK = 3;

const DRAG_FACTOR = 1 - DRAG_PER_S * STEP_S;

function axis(v: unknown): number {
  if (typeof v !== 'number' || v !== v) return 0;
  return v > 1 ? 1 : v < -1 ? -1 : v;
}

function clampAbs(v: number, max: number): number {
  return v > max ? max : v < -max ? -max : v;
}

/**
 * A clean copy of `input`: axes clamped to [-1, 1] (NaN and non-numbers → 0,
 * ±Infinity → ±1), `fire` true only if exactly `true`. A missing or non-object
 * input gives the neutral input.
 */
export function sanitiseInput(input: ShipInput | null | undefined): ShipInput {
  if (typeof input !== 'object' || input === null) return { ...NO_INPUT };
  return {
    thrust: axis(input.thrust),
    yaw: axis(input.yaw),
    pitch: axis(input.pitch),
    roll: axis(input.roll),
    fire: input.fire === true,
  };
}

/** One ship's tick (step 1 above). Returns a fresh ship and whether it fired this tick. */
function stepShip(s: Ship, input: ShipInput): { ship: Ship; fired: boolean } {
  // Body-frame target rates: yaw right = negative rotation about +Y, pitch up = positive about +X,
  // roll right = negative about +Z (the nose axis is -Z).
  const tx = input.pitch * MAX_PITCH_RATE;
  const ty = -input.yaw * MAX_YAW_RATE;
  const tz = -input.roll * MAX_ROLL_RATE;
  const angVel = {
    x: s.angVel.x + (tx - s.angVel.x) * ANGULAR_RESPONSE,
    y: s.angVel.y + (ty - s.angVel.y) * ANGULAR_RESPONSE,
    z: s.angVel.z + (tz - s.angVel.z) * ANGULAR_RESPONSE,
  };
  const rot = integrateRotation(s.rot, angVel, STEP_S);
  const nose = forwardOf(rot);
  const accel = input.thrust >= 0 ? input.thrust * THRUST_ACCEL : input.thrust * THRUST_ACCEL * REVERSE_THRUST_FACTOR;
  let vel = addScaled(s.vel, nose, accel * STEP_S);
  vel = { x: vel.x * DRAG_FACTOR, y: vel.y * DRAG_FACTOR, z: vel.z * DRAG_FACTOR };
  const speedSq = lengthSq(vel);
  if (speedSq > MAX_SPEED * MAX_SPEED) {
    const k = MAX_SPEED / Math.sqrt(speedSq);
    vel = { x: vel.x * k, y: vel.y * k, z: vel.z * k };
  }
  const pos = addScaled(s.pos, vel, STEP_S);
  let fireCooldown = s.fireCooldown > 0 ? s.fireCooldown - 1 : 0;
  let energy = Math.min(ENERGY_MAX, s.energy + ENERGY_REGEN_PER_TICK);
  const fired = input.fire && fireCooldown === 0 && energy >= LASER_ENERGY_COST;
  if (fired) {
    fireCooldown = FIRE_COOLDOWN_TICKS;
    energy -= LASER_ENERGY_COST;
  }
  const ship: Ship = { id: s.id, slot: s.slot, pos, vel, rot, angVel, energy, damage: s.damage, fireCooldown, lastHitBy: s.lastHitBy };
  return { ship, fired };
}

/** One asteroid's tick (step 2 above). Returns a fresh asteroid. */
function stepAsteroid(a: Asteroid): Asteroid {
  const pos = addScaled(a.pos, a.vel, STEP_S);
  let vel = copyVec(a.vel);
  const d2 = lengthSq(pos);
  const outward = dot(pos, vel);
  if (d2 > ASTEROID_BOUND * ASTEROID_BOUND && outward > 0) {
    const k = (2 * outward) / d2; // v - 2 (v·n) n with n = pos / |pos|
    vel = { x: vel.x - k * pos.x, y: vel.y - k * pos.y, z: vel.z - k * pos.z };
  }
  return { id: a.id, pos, vel, rot: integrateRotation(a.rot, a.spin, STEP_S), spin: copyVec(a.spin), radius: a.radius };
}

/**
 * Earliest fraction s in [0, 1] of a tick at which a point moving linearly
 * from d0 to d1 (relative to a sphere's centre) is inside radius r; -1 if never.
 */
export function sweepSphere(d0: Vec3, d1: Vec3, r: number): number {
  return sweep(d0.x, d0.y, d0.z, d1.x, d1.y, d1.z, r);
}

/** {@link sweepSphere} on scalars (no allocation: it runs lasers × targets times per tick). */
function sweep(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, r: number): number {
  const c = x0 * x0 + y0 * y0 + z0 * z0 - r * r;
  if (c <= 0) return 0;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const dz = z1 - z0;
  const b = x0 * dx + y0 * dy + z0 * dz;
  if (b >= 0) return -1; // not approaching
  const a = dx * dx + dy * dy + dz * dz;
  const disc = b * b - a * c;
  if (disc < 0) return -1;
  const s = (-b - Math.sqrt(disc)) / a;
  return s <= 1 ? s : -1;
}

/** Sweep of laser (p0 → p1) against a sphere moving (c0 → c1) this tick. */
function sweepMoving(p0: Vec3, p1: Vec3, c0: Vec3, c1: Vec3, r: number): number {
  return sweep(p0.x - c0.x, p0.y - c0.y, p0.z - c0.z, p1.x - c1.x, p1.y - c1.y, p1.z - c1.z, r);
}

/**
 * Advance `world` by one tick; `inputs[i]` drives `world.ships[i]` (missing →
 * neutral, extra entries ignored). PURE: never mutates `world` or `inputs`;
 * the returned world is made of fresh objects and arrays throughout and
 * shares nothing with the argument (so either may be frozen or mutated
 * later without affecting the other). See the file comment for the order.
 */
export function stepWorld(world: World, inputs: readonly (ShipInput | undefined)[]): World {
  let rng = world.rng;
  let nextId = world.nextId;

  const ships: Ship[] = [];
  const fired: boolean[] = [];
  for (let i = 0; i < world.ships.length; i++) {
    const r = stepShip(world.ships[i]!, sanitiseInput(inputs[i]));
    ships.push(r.ship);
    fired.push(r.fired);
  }
  const asteroids = world.asteroids.map(stepAsteroid);

  const lasers: Laser[] = [];
  for (const l of world.lasers) {
    const pos = addScaled(l.pos, l.vel, STEP_S);
    let best = 2;
    let hitAsteroid = -1;
    let hitShip = -1;
    for (let j = 0; j < asteroids.length; j++) {
      const after = asteroids[j]!;
      const s = sweepMoving(l.pos, pos, world.asteroids[j]!.pos, after.pos, after.radius);
      if (s >= 0 && s < best) {
        best = s;
        hitAsteroid = j;
        hitShip = -1;
      }
    }
    for (let j = 0; j < ships.length; j++) {
      const after = ships[j]!;
      if (after.id === l.owner) continue;
      const s = sweepMoving(l.pos, pos, world.ships[j]!.pos, after.pos, SHIP_RADIUS);
      if (s >= 0 && s < best) {
        best = s;
        hitAsteroid = -1;
        hitShip = j;
      }
    }
    if (hitShip >= 0) {
      const target = ships[hitShip]!;
      // Remembering the shooter lets the victim's game name its killer (the victim decides it was hit).
      ships[hitShip] = { ...target, damage: target.damage + LASER_DAMAGE, lastHitBy: l.owner };
      continue;
    }
    if (hitAsteroid >= 0) {
      const a = asteroids[hitAsteroid]!;
      const kick = ASTEROID_HIT_SPIN_KICK / a.radius;
      const spin = { x: 0, y: 0, z: 0 };
      for (const k of ['x', 'y', 'z'] as const) {
        const [d, next] = nextRange(rng, -kick, kick);
        rng = next;
        spin[k] = clampAbs(a.spin[k] + d, 2 * ASTEROID_MAX_SPIN);
      }
      asteroids[hitAsteroid] = { ...a, spin };
      continue;
    }
    const ttl = l.ttl - 1;
    if (ttl <= 0) continue;
    lasers.push({ id: l.id, owner: l.owner, pos, vel: copyVec(l.vel), ttl });
  }

  for (let i = 0; i < ships.length; i++) {
    if (!fired[i]) continue;
    const s = ships[i]!;
    const nose = forwardOf(s.rot);
    lasers.push({
      id: nextId++,
      owner: s.id,
      pos: addScaled(s.pos, nose, NOSE_OFFSET),
      vel: addScaled(s.vel, nose, LASER_SPEED),
      ttl: LASER_TTL_TICKS,
    });
  }

  return { tick: world.tick + 1, rng, nextId, ships, lasers, asteroids };
}
