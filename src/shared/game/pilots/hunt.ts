/**
 * The `hunt` pilot: a computer opponent that fights like a player. Every
 * `reactionTicks` (skill.ts) it looks round and decides: flee to the nearest
 * energy field when its energy or shield runs low (until both are back up),
 * fight the nearest living enemy when one is close, else collect the
 * nearest extra, else fight the nearest enemy wherever it is, else roam
 * back to the middle. Between decisions it flies the plan with the world as
 * it is now: it aims at the target (with lead and a seeded aim error, as its
 * skill says), fires the laser when the aim is good, launches homing
 * missiles when it may lock on, drops mines on an enemy chasing close
 * behind, sets off an EMP when several enemies are near and its energy is
 * high, uses the afterburner to close in or to flee, and steers round an
 * asteroid in its way whatever it is doing.
 *
 * Pure and deterministic: the input depends only on the world, the slot,
 * the skill and the pilot's own memory (which holds its PRNG state and its
 * plan, and which this function updates). No clock, no Math.random, no trig.
 */
import { nextFloat, seedRng } from '../../sim/prng';
import { NO_INPUT, NO_TARGET, type ShipInput } from '../../sim/types';
import { dot, forwardOf } from '../../sim/vec';
import { LASER_SPEED } from '../kinds/laser';
import { MAX_SPEED } from '../kinds/ship';
import { lockOn } from '../kinds/missile';
import { RULES } from '../rules';
import type { Ship, Vec3, World } from '../types';
import { asteroidInTheWay, pointBeside } from './avoid';
import { skillOf, type Skill } from './skill';
import { bodyPoint, flyTo, leadPoint, offNose, stickTowards, type Flight } from './steer';

/** What a hunt pilot is doing. */
export type HuntMode = 'fight' | 'flee' | 'collect' | 'roam';

/** A hunt pilot's memory: its PRNG state and its plan until the next decision. One per pilot; huntInput updates it. */
export interface HuntMemory {
  /** PRNG state (sim/prng.ts) for the aim error. */
  rng: number;
  /** World tick of the next decision. */
  nextDecision: number;
  mode: HuntMode;
  /** The slot hunted (NO_TARGET for none). */
  target: number;
  /** Aim error of this decision: a factor in [-1, 1) per axis, times the skill's aimError and the distance. */
  aim: Vec3;
  /** Fleeing to a field until energy and shield are back up. */
  low: boolean;
}

/** An enemy closer than this is fought rather than extras collected. */
export const ENGAGE_RANGE = 350;
/** Extras farther than this are not worth the trip. */
export const COLLECT_RANGE = 600;
/** Below this energy or shield a pilot flees to a field… */
export const LOW_ENERGY = 20;
export const LOW_SHIELD = 8;
/** …until both are back above these. */
export const RECOVERED_ENERGY = 85;
export const RECOVERED_SHIELD = 30;
/** A pilot fires its laser within this range (a little short of a bolt's reach). */
export const LASER_RANGE = (LASER_SPEED * RULES.laser.ttlTicks * 0.8) / 40;
/** It launches a missile within this range. */
export const MISSILE_RANGE = 500;
/** An enemy this close behind, nose on us, gets a mine. */
export const MINE_RANGE = 160;
/** Enemies within this range count for an EMP… */
export const EMP_RANGE = 180;
/** …when there are at least this many and the energy is at least EMP_ENERGY. */
export const EMP_CROWD = 2;
export const EMP_ENERGY = 90;

/** A fresh memory; `seed` seeds the pilot's aim error (give each pilot its own). */
export function createHuntMemory(seed = 0): HuntMemory {
  return { rng: seedRng(seed), nextDecision: 0, mode: 'roam', target: NO_TARGET, aim: { x: 0, y: 0, z: 0 }, low: false };
}

const dist2 = (a: Vec3, b: Vec3): number => {
  const x = a.x - b.x;
  const y = a.y - b.y;
  const z = a.z - b.z;
  return x * x + y * y + z * z;
};

/** Living ships of other slots. */
function enemiesOf(world: World, self: Ship): Ship[] {
  return world.ships.filter((s) => s.slot !== self.slot && s.respawnIn === 0);
}

/** The nearest of `points` to `from` (within `range`), or null. */
function nearest<T extends { pos: Vec3 }>(from: Vec3, points: readonly T[], range = Infinity): T | null {
  let best: T | null = null;
  let bestD = range * range;
  for (const p of points) {
    const d = dist2(from, p.pos);
    if (d < bestD) {
      best = p;
      bestD = d;
    }
  }
  return best;
}

function extrasOf(world: World): { pos: Vec3 }[] {
  return world.objects.filter((o) => o.kind === 'extra');
}

function fieldsOf(world: World): { pos: Vec3; radius: number }[] {
  return world.objects.filter((o) => o.kind === 'field');
}

/** Looks round and sets the plan in `memory`. */
function decide(world: World, self: Ship, memory: HuntMemory, skill: Skill): void {
  if (self.energy < LOW_ENERGY || self.shield < LOW_SHIELD) memory.low = true;
  else if (self.energy >= RECOVERED_ENERGY && self.shield >= RECOVERED_SHIELD) memory.low = false;
  const enemy = nearest(self.pos, enemiesOf(world, self));
  const near = enemy !== null && dist2(enemy.pos, self.pos) < ENGAGE_RANGE * ENGAGE_RANGE;
  memory.target = enemy ? enemy.slot : NO_TARGET;
  if (memory.low && fieldsOf(world).length > 0) memory.mode = 'flee';
  else if (near) memory.mode = 'fight';
  else if (nearest(self.pos, extrasOf(world), COLLECT_RANGE)) memory.mode = 'collect';
  else memory.mode = enemy ? 'fight' : 'roam';
  const draw = (): number => {
    const [f, next] = nextFloat(memory.rng);
    memory.rng = next;
    return f * 2 - 1;
  };
  memory.aim = { x: draw(), y: draw(), z: draw() };
  memory.nextDecision = world.tick + skill.reactionTicks;
}

/** The input of the ship of `slot` for the next tick, flown by a hunt pilot of `skill` (1–5) with `memory`. */
export function huntInput(world: World, slot: number, memory: HuntMemory, skill: number): ShipInput {
  const sk = skillOf(skill);
  const self = world.ships.find((s) => s.slot === slot);
  if (!self || self.respawnIn > 0) return { thrust: 0, yaw: 0, pitch: 0, roll: 0, fire: false, target: NO_TARGET };
  // A new world (tick went back) or a due decision: look round.
  if (world.tick >= memory.nextDecision || memory.nextDecision - world.tick > sk.reactionTicks) decide(world, self, memory, sk);

  const enemies = enemiesOf(world, self);
  const target = enemies.find((s) => s.slot === memory.target) ?? null;
  const input: Required<ShipInput> = { ...NO_INPUT, target: target ? target.slot : NO_TARGET };
  let flight: Flight;
  const mode = memory.mode === 'fight' && !target ? 'roam' : memory.mode;
  if (mode === 'fight' && target) flight = fight(self, target, world, memory, sk, input);
  else if (mode === 'flee') flight = flee(self, world, enemies, sk, input);
  else if (mode === 'collect') {
    const extra = nearest(self.pos, extrasOf(world), COLLECT_RANGE);
    // Through the extra at speed: its pickup radius is small, a ship coming to a stop might stop short.
    flight = extra ? flyTo(self, extra.pos, MAX_SPEED, 40) : flyTo(self, { x: 0, y: 0, z: 0 }, 60);
  } else flight = flyTo(self, { x: 0, y: 0, z: 0 }, 60);

  const rock = asteroidInTheWay(self, world.asteroids);
  if (rock) {
    const p = bodyPoint(self, pointBeside(self, rock));
    flight = { ...stickTowards(p), thrust: offNose(p) < 0.6 ? 1 : 0 };
    input.afterburner = false;
  }
  input.thrust = flight.thrust;
  input.yaw = flight.yaw;
  input.pitch = flight.pitch;
  if (sk.mines && self.mines > 0 && self.mineCooldown === 0) input.mine = enemies.some((e) => chasing(e, self));
  if (sk.emp && self.empCooldown === 0 && self.energy >= Math.max(EMP_ENERGY, RULES.emp.energyCost)) {
    input.emp = enemies.filter((e) => e.invulnerable === 0 && dist2(e.pos, self.pos) < EMP_RANGE * EMP_RANGE).length >= EMP_CROWD;
  }
  return input;
}

/** Whether `e` flies close behind `self` with its nose on it. */
function chasing(e: Ship, self: Ship): boolean {
  const p = bodyPoint(self, e.pos);
  if (p.dist > MINE_RANGE || p.dist < 1e-6 || p.ahead > -0.5 * p.dist) return false;
  const back = { x: (self.pos.x - e.pos.x) / p.dist, y: (self.pos.y - e.pos.y) / p.dist, z: (self.pos.z - e.pos.z) / p.dist };
  return dot(forwardOf(e.rot), back) > 0.8;
}

/** Flies at `target`: aims (lead and aim error by skill), keeps a fighting distance, fires when on target. */
function fight(self: Ship, target: Ship, world: World, memory: HuntMemory, sk: Skill, input: Required<ShipInput>): Flight {
  const at = sk.lead ? leadPoint(self, target, LASER_SPEED) : target.pos;
  const range = Math.sqrt(dist2(at, self.pos));
  const err = sk.aimError * range;
  const aim = bodyPoint(self, { x: at.x + memory.aim.x * err, y: at.y + memory.aim.y * err, z: at.z + memory.aim.z * err });
  const stick = stickTowards(aim);
  const off = offNose(aim);
  const dist = Math.sqrt(dist2(target.pos, self.pos));
  // Close in when far, hold off when close (a ship on top of us is hard to keep on the nose).
  const thrust = dist > 250 ? 1 : dist < 90 ? -0.5 : 0.3;
  const worthIt = target.invulnerable === 0 || !sk.afterburner;
  const miss = aim.ahead > 0 ? Math.sqrt(aim.right * aim.right + aim.up * aim.up) : Infinity;
  input.fire = worthIt && dist < LASER_RANGE && (off < sk.fireCone || miss < sk.fireWithin) && (!sk.mines || self.energy >= 12);
  input.afterburner = sk.afterburner && dist > 450 && off < 0.3 && self.energy > 60;
  if (sk.missiles && self.missiles > 0 && self.missileCooldown === 0 && target.invulnerable === 0 && dist < MISSILE_RANGE) {
    input.missile = offNose(bodyPoint(self, target.pos)) < 0.25 && lockOn(self, target.slot, world.ships) === target.slot;
  }
  return { ...stick, thrust };
}

/** Flies to the nearest energy field and stays in it; the afterburner when an enemy is close and energy allows. */
function flee(self: Ship, world: World, enemies: readonly Ship[], sk: Skill, input: Required<ShipInput>): Flight {
  const field = nearest(self.pos, fieldsOf(world));
  if (!field) return flyTo(self, { x: 0, y: 0, z: 0 }, 60);
  const flight = flyTo(self, field.pos, MAX_SPEED);
  const hunted = enemies.some((e) => dist2(e.pos, self.pos) < 300 * 300);
  input.afterburner = sk.afterburner && hunted && self.energy > 40 && flight.thrust > 0.9 && dist2(field.pos, self.pos) > 150 * 150;
  return flight;
}
