/**
 * The ship: flight model, firing decision, hash, and its wire shape (the
 * ShipState every game packet's header carries). Ships are not registry
 * objects: they are keyed by slot and every World has them.
 */
import { NO_INPUT, STEP_S } from '../../sim/types';
import type { ShipInput } from '../../sim/types';
import { addScaled, forwardOf, identityQuat, integrateRotation, lengthSq } from '../../sim/vec';
import { spawnPoint } from '../../sim/spawn';
import type { ShipState } from '../../wire/types';
import { MAX_COORD } from '../../wire/fields';
import type { Hasher } from '../hasher';
import { NO_ATTACKER, type Ship, type Vec3 } from '../types';
import { RULES } from '../rules';

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
/** Full energy of a ship. */
export const ENERGY_MAX = RULES.energy.max;
/** Energy regained per tick (20/s), up to ENERGY_MAX. */
export const ENERGY_REGEN_PER_TICK = RULES.energy.regenPerTick;
/** Damage at which a ship is destroyed. */
export const DESTROYED_DAMAGE = RULES.hull.destroyedAt;

const DRAG_FACTOR = 1 - DRAG_PER_S * STEP_S;

function axis(v: unknown): number {
  if (typeof v !== 'number' || v !== v) return 0;
  return v > 1 ? 1 : v < -1 ? -1 : v;
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

/** A fresh ship of `slot` at `pos` (default: the slot's spawn point), at rest, facing -Z, full energy, no damage, never hit. */
export function createShip(slot: number, pos: Vec3 = spawnPoint(slot)): Ship {
  return {
    slot,
    pos: { x: pos.x, y: pos.y, z: pos.z },
    vel: { x: 0, y: 0, z: 0 },
    rot: identityQuat(),
    angVel: { x: 0, y: 0, z: 0 },
    energy: ENERGY_MAX,
    damage: 0,
    fireCooldown: 0,
    lastHitBy: NO_ATTACKER,
  };
}

/**
 * One ship's tick: angular velocity eases towards input × max rate; rotate;
 * thrust along the nose, drag, speed cap; move; cooldown and energy
 * regeneration. `fireCost` and `fireCooldown` come from the weapon the ship
 * fires (the laser kind): it fires when the input asks, the cooldown is over
 * and it has the energy. Returns a fresh ship and whether it fired.
 */
export function stepShip(s: Ship, input: ShipInput, fireCost: number, fireCooldownTicks: number): { ship: Ship; fired: boolean } {
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
  const fired = input.fire && fireCooldown === 0 && energy >= fireCost;
  if (fired) {
    fireCooldown = fireCooldownTicks;
    energy -= fireCost;
  }
  const ship: Ship = { slot: s.slot, pos, vel, rot, angVel, energy, damage: s.damage, fireCooldown, lastHitBy: s.lastHitBy };
  return { ship, fired };
}

/** Feeds every field of `s` to the hash, in declaration order. */
export function hashShip(h: Hasher, s: Ship): void {
  h.num(s.slot);
  h.vec(s.pos);
  h.vec(s.vel);
  h.quat(s.rot);
  h.vec(s.angVel);
  h.num(s.energy);
  h.num(s.damage);
  h.num(s.fireCooldown);
  h.num(s.lastHitBy);
}

/** `v` inside the wire's coordinate range (a ship far out is clamped there rather than unsendable). */
export function wireVec(v: Vec3): Vec3 {
  const c = (x: number): number => (x > MAX_COORD ? MAX_COORD : x < -MAX_COORD ? -MAX_COORD : x);
  return { x: c(v.x), y: c(v.y), z: c(v.z) };
}

/** The ship as a game packet's header carries it (position in the wire's range, damage capped at DESTROYED_DAMAGE). */
export function shipToState(s: Ship): ShipState {
  return { pos: wireVec(s.pos), rot: s.rot, vel: s.vel, angVel: s.angVel, energy: s.energy, damage: Math.min(DESTROYED_DAMAGE, s.damage) };
}

/** A remote player's ship as its latest state puts it, placed at `pos`/`rot` (where smoothing shows it). */
export function shipFromState(slot: number, state: ShipState, pos: Vec3, rot: ShipState['rot']): Ship {
  return {
    slot,
    pos: { x: pos.x, y: pos.y, z: pos.z },
    vel: { x: state.vel.x, y: state.vel.y, z: state.vel.z },
    rot: { x: rot.x, y: rot.y, z: rot.z, w: rot.w },
    angVel: { x: state.angVel.x, y: state.angVel.y, z: state.angVel.z },
    energy: state.energy,
    damage: state.damage,
    fireCooldown: 0,
    lastHitBy: NO_ATTACKER,
  };
}
