/**
 * The ship: flight model (with afterburner), energy and shield upkeep,
 * firing decisions, hash, and its wire shape (the ShipState every game
 * packet's header carries). Ships are not registry objects: they are keyed
 * by slot and every World has them.
 */
import { MAX_WIRE_SLOTS } from '../../wire/types';
import { NO_INPUT, NO_TARGET, STEP_S } from '../../sim/types';
import type { CleanInput, ShipInput } from '../../sim/types';
import { addScaled, forwardOf, identityQuat, integrateRotation, lengthSq } from '../../sim/vec';
import { spawnPoint } from '../../sim/spawn';
import type { ShipState } from '../../wire/types';
import { MAX_COORD } from '../../wire/fields';
import { MAX_WIRE_SPEED } from '../../wire/shipStateCodec';
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
/** Full shield of a ship. */
export const SHIELD_MAX = RULES.shield.max;
/** Speed cap while the afterburner burns (units/s): the most any ship flies. */
export const AFTERBURNER_MAX_SPEED = RULES.afterburner.maxSpeed;
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
 * ±Infinity → ±1), each trigger true only if exactly `true`, a `target` that
 * is not a wire slot → NO_TARGET. A missing or non-object input gives the
 * neutral input.
 */
export function sanitiseInput(input: ShipInput | null | undefined): CleanInput {
  if (typeof input !== 'object' || input === null) return { ...NO_INPUT };
  const t = input.target ?? NO_TARGET;
  return {
    thrust: axis(input.thrust),
    yaw: axis(input.yaw),
    pitch: axis(input.pitch),
    roll: axis(input.roll),
    fire: input.fire === true,
    afterburner: input.afterburner === true,
    missile: input.missile === true,
    mine: input.mine === true,
    emp: input.emp === true,
    target: Number.isInteger(t) && t >= 0 && t < MAX_WIRE_SLOTS ? t : NO_TARGET,
  };
}

/**
 * A fresh ship of `slot` at `pos` (default: the slot's spawn point), at rest,
 * facing -Z, full energy and shield, no damage, starting ammunition, laser
 * level 1, never hit, invulnerable for `invulnerable` ticks (default none).
 */
export function createShip(slot: number, pos: Vec3 = spawnPoint(slot), invulnerable = 0): Ship {
  return {
    slot,
    pos: { x: pos.x, y: pos.y, z: pos.z },
    vel: { x: 0, y: 0, z: 0 },
    rot: identityQuat(),
    angVel: { x: 0, y: 0, z: 0 },
    energy: ENERGY_MAX,
    shield: SHIELD_MAX,
    damage: 0,
    fireCooldown: 0,
    missileCooldown: 0,
    mineCooldown: 0,
    empCooldown: 0,
    missiles: RULES.missile.startAmmo,
    mines: RULES.mine.startAmmo,
    laserLevel: 1,
    invulnerable,
    lastHitBy: NO_ATTACKER,
    respawnIn: 0,
  };
}

/** The weapons a ship set off in one tick. */
export interface Fired {
  laser: boolean;
  missile: boolean;
  mine: boolean;
  emp: boolean;
}

const NONE_FIRED: Fired = Object.freeze({ laser: false, missile: false, mine: false, emp: false });

/**
 * One flying ship's tick: angular velocity eases towards input × max rate;
 * rotate; thrust along the nose (times RULES.afterburner.thrustFactor while
 * the afterburner burns, which costs energy), drag, speed cap; move. Then the
 * upkeep: cooldowns run down, energy regenerates, the shield recharges from
 * energy, invulnerability runs out. Last, each weapon fires when the input
 * asks, its cooldown is over and the ship has the energy or the ammunition
 * (which is spent here). Returns a fresh ship and what it fired.
 */
export function stepShip(s: Ship, input: CleanInput): { ship: Ship; fired: Fired } {
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
  let energy = s.energy;
  const ab = RULES.afterburner;
  const burning = input.afterburner && input.thrust > 0 && energy >= ab.energyPerTick;
  if (burning) energy -= ab.energyPerTick;
  const accel = input.thrust >= 0 ? input.thrust * THRUST_ACCEL * (burning ? ab.thrustFactor : 1) : input.thrust * THRUST_ACCEL * REVERSE_THRUST_FACTOR;
  let vel = addScaled(s.vel, nose, accel * STEP_S);
  vel = { x: vel.x * DRAG_FACTOR, y: vel.y * DRAG_FACTOR, z: vel.z * DRAG_FACTOR };
  const cap = burning ? ab.maxSpeed : MAX_SPEED;
  const speedSq = lengthSq(vel);
  if (speedSq > cap * cap) {
    const k = cap / Math.sqrt(speedSq);
    vel = { x: vel.x * k, y: vel.y * k, z: vel.z * k };
  }
  const pos = addScaled(s.pos, vel, STEP_S);

  energy = Math.min(ENERGY_MAX, energy + ENERGY_REGEN_PER_TICK);
  let shield = s.shield;
  const sh = RULES.shield;
  if (shield < SHIELD_MAX) {
    const add = Math.min(sh.rechargePerTick, SHIELD_MAX - shield, energy / sh.energyPerPoint);
    shield += add;
    energy -= add * sh.energyPerPoint;
  }
  const down = (c: number): number => (c > 0 ? c - 1 : 0);
  const ship: Ship = {
    ...s,
    pos,
    vel,
    rot,
    angVel,
    energy,
    shield,
    fireCooldown: down(s.fireCooldown),
    missileCooldown: down(s.missileCooldown),
    mineCooldown: down(s.mineCooldown),
    empCooldown: down(s.empCooldown),
    invulnerable: down(s.invulnerable),
  };
  if (!input.fire && !input.missile && !input.mine && !input.emp) return { ship, fired: NONE_FIRED };
  const fired: Fired = { laser: false, missile: false, mine: false, emp: false };
  if (input.emp && ship.empCooldown === 0 && ship.energy >= RULES.emp.energyCost) {
    fired.emp = true;
    ship.empCooldown = RULES.emp.cooldownTicks;
    ship.energy = RULES.emp.energyLeft;
  }
  if (input.fire && ship.fireCooldown === 0 && ship.energy >= RULES.laser.energyCost) {
    fired.laser = true;
    ship.fireCooldown = RULES.laser.cooldownTicks;
    ship.energy -= RULES.laser.energyCost;
  }
  if (input.missile && ship.missileCooldown === 0 && ship.missiles > 0) {
    fired.missile = true;
    ship.missileCooldown = RULES.missile.cooldownTicks;
    ship.missiles -= 1;
  }
  if (input.mine && ship.mineCooldown === 0 && ship.mines > 0) {
    fired.mine = true;
    ship.mineCooldown = RULES.mine.cooldownTicks;
    ship.mines -= 1;
  }
  return { ship, fired };
}

/** `ships` with `ship` in its slot's place (slot order kept). */
export function withShip(ships: readonly Ship[], ship: Ship): Ship[] {
  const out = ships.filter((s) => s.slot !== ship.slot);
  out.push(ship);
  return out.sort((a, b) => a.slot - b.slot);
}

/** Feeds every field of `s` to the hash, in declaration order. */
export function hashShip(h: Hasher, s: Ship): void {
  h.num(s.slot);
  h.vec(s.pos);
  h.vec(s.vel);
  h.quat(s.rot);
  h.vec(s.angVel);
  h.num(s.energy);
  h.num(s.shield);
  h.num(s.damage);
  h.num(s.fireCooldown);
  h.num(s.missileCooldown);
  h.num(s.mineCooldown);
  h.num(s.empCooldown);
  h.num(s.missiles);
  h.num(s.mines);
  h.num(s.laserLevel);
  h.num(s.invulnerable);
  h.num(s.lastHitBy);
  h.num(s.respawnIn);
}

/** `v` inside the wire's coordinate range (a ship far out is clamped there rather than unsendable). */
export function wireVec(v: Vec3): Vec3 {
  const c = (x: number): number => (x > MAX_COORD ? MAX_COORD : x < -MAX_COORD ? -MAX_COORD : x);
  return { x: c(v.x), y: c(v.y), z: c(v.z) };
}

/** `v` inside the compact state's velocity range (far above any ship's top speed; a ship flung faster is clamped rather than unsendable). */
function wireVel(v: Vec3): Vec3 {
  const c = (x: number): number => (x > MAX_WIRE_SPEED ? MAX_WIRE_SPEED : x < -MAX_WIRE_SPEED ? -MAX_WIRE_SPEED : x);
  return { x: c(v.x), y: c(v.y), z: c(v.z) };
}

/** The ship as a game packet's header carries it (position and velocity in the wire's ranges, damage capped at DESTROYED_DAMAGE). */
export function shipToState(s: Ship): ShipState {
  return { pos: wireVec(s.pos), rot: s.rot, vel: wireVel(s.vel), angVel: s.angVel, energy: s.energy, damage: Math.min(DESTROYED_DAMAGE, s.damage) };
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
    // The wire does not carry these: a remote ship's game decides its own fate (the victim decides).
    shield: 0,
    damage: state.damage,
    fireCooldown: 0,
    missileCooldown: 0,
    mineCooldown: 0,
    empCooldown: 0,
    missiles: 0,
    mines: 0,
    laserLevel: 1,
    invulnerable: 0,
    lastHitBy: NO_ATTACKER,
    respawnIn: 0,
  };
}
