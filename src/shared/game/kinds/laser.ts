/**
 * The laser bolt: fired from a ship's nose, flies straight for
 * LASER_TTL_TICKS, stops on the first asteroid or ship it touches (swept
 * test, so it cannot tunnel through). A hit on a ship this world decides
 * hits on adds LASER_DAMAGE and remembers the shooter's slot; a hit on an
 * asteroid gives it a random spin kick. Created on other nodes by the
 * `createLaser` remote event.
 */
import { STEP_MS, STEP_S, TICK_HZ } from '../../sim/types';
import { nextRange } from '../../sim/prng';
import { addScaled, copyVec, forwardOf } from '../../sim/vec';
import type { GameCodeInterface } from '../../net/gameCode';
import type { RemoteEvent } from '../../wire/types';
import type { Hasher } from '../hasher';
import type { EntityKind, ObjectView, StepContext } from '../registry';
import { sweepMoving } from '../sweep';
import type { Laser, Ship } from '../types';
import { SHIP_RADIUS, wireVec } from './ship';
import { RULES } from '../rules';

/** Laser muzzle speed (units/s), added to the ship's velocity. */
export const LASER_SPEED = RULES.laser.speed;
/** Ticks a laser lives. */
export const LASER_TTL_TICKS = RULES.laser.ttlTicks;
/** Ticks between two shots of one ship. */
export const FIRE_COOLDOWN_TICKS = RULES.laser.cooldownTicks;
/** Energy one shot costs; a ship cannot fire with less. */
export const LASER_ENERGY_COST = RULES.laser.energyCost;
/** Damage one laser hit adds to a ship. */
export const LASER_DAMAGE = RULES.laser.damage;
/** Distance ahead of the ship's centre (along the nose) where lasers spawn. */
export const NOSE_OFFSET = 8;
/** Largest random spin change per axis (rad/s) a hit gives an asteroid of radius 1 (divided by the radius). */
export const ASTEROID_HIT_SPIN_KICK = 3;
/** Largest spin per axis (rad/s) laser kicks can give an asteroid. */
export const ASTEROID_KICKED_SPIN = 1;
/** Longest ttl (ticks) a replicated laser gets, whatever its creator claims. */
export const MAX_REMOTE_LASER_TTL = 4 * TICK_HZ;

const clampAbs = (v: number, max: number): number => (v > max ? max : v < -max ? -max : v);

/** The laser `ship` fires this tick, with object id `id`. */
export function fireLaser(ship: Ship, id: number): Laser {
  const nose = forwardOf(ship.rot);
  return {
    kind: 'laser',
    id,
    owner: ship.slot,
    pos: addScaled(ship.pos, nose, NOSE_OFFSET),
    vel: addScaled(ship.vel, nose, LASER_SPEED),
    ttl: LASER_TTL_TICKS,
  };
}

function stepLaser(l: Laser, ctx: StepContext): Laser | null {
  const pos = addScaled(l.pos, l.vel, STEP_S);
  const { before, ships, asteroids } = ctx;
  let best = 2;
  let hitAsteroid = -1;
  let hitShip = -1;
  for (let j = 0; j < asteroids.length; j++) {
    const after = asteroids[j]!;
    const s = sweepMoving(l.pos, pos, before.asteroids[j]!.pos, after.pos, after.radius);
    if (s >= 0 && s < best) {
      best = s;
      hitAsteroid = j;
      hitShip = -1;
    }
  }
  for (let j = 0; j < ships.length; j++) {
    const after = ships[j]!;
    if (after.slot === l.owner || !ctx.decidesHitsOn(after.slot)) continue;
    const s = sweepMoving(l.pos, pos, before.ships[j]!.pos, after.pos, SHIP_RADIUS);
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
    return null;
  }
  if (hitAsteroid >= 0) {
    const a = asteroids[hitAsteroid]!;
    const kick = ASTEROID_HIT_SPIN_KICK / a.radius;
    const spin = { x: 0, y: 0, z: 0 };
    for (const k of ['x', 'y', 'z'] as const) {
      const [d, next] = nextRange(ctx.rng, -kick, kick);
      ctx.rng = next;
      spin[k] = clampAbs(a.spin[k] + d, ASTEROID_KICKED_SPIN);
    }
    asteroids[hitAsteroid] = { ...a, spin };
    return null;
  }
  const ttl = l.ttl - 1;
  if (ttl <= 0) return null;
  return { kind: 'laser', id: l.id, owner: l.owner, pos, vel: copyVec(l.vel), ttl };
}

export const laserKind: EntityKind<Laser> = {
  kind: 'laser',
  createdBy: 'createLaser',
  step: stepLaser,
  hash(h: Hasher, l: Laser): void {
    h.num(l.id);
    h.num(l.owner);
    h.vec(l.pos);
    h.vec(l.vel);
    h.num(l.ttl);
  },
  send(l: Laser, events: GameCodeInterface, at: number): void {
    events.createLaser(l.id & 0xffff, wireVec(l.pos), l.vel, l.ttl, at);
  },
  fromEvent(ev: RemoteEvent, owner: number, id: number, ageMs: number): Laser | null {
    if (ev.type !== 'createLaser' || !(ev.ttl >= 1)) return null;
    const age = ageMs > 0 && Number.isFinite(ageMs) ? ageMs : 0;
    const ttl = Math.min(MAX_REMOTE_LASER_TTL, Math.floor(ev.ttl)) - Math.round(age / STEP_MS);
    if (ttl < 1) return null;
    return { kind: 'laser', id, owner, pos: addScaled(ev.pos, ev.vel, age / 1000), vel: copyVec(ev.vel), ttl };
  },
  view(l: Laser): ObjectView {
    return { kind: 'laser', id: l.id, owner: l.owner, pos: l.pos, vel: l.vel };
  },
};
