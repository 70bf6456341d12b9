/**
 * The laser bolt: fired from a ship's nose (one bolt per laser level, side by
 * side), flies straight for LASER_TTL_TICKS, stops on the first asteroid or
 * ship it touches (swept test, so it cannot tunnel through). A hit on a ship
 * this world decides hits on does LASER_DAMAGE through the rules module
 * (shield first, the shooter remembered); a hit on an asteroid wears it down
 * (it breaks in the step, see asteroid.ts) and gives it a random spin kick.
 * Created on other nodes by the `createLaser` remote event.
 */
import { STEP_S, TICK_HZ, ticksIn } from '../../sim/types';
import { nextRange } from '../../sim/prng';
import { addScaled, copyVec, forwardOf, rightOf } from '../../sim/vec';
import type { GameCodeInterface } from '../../net/gameCode';
import type { RemoteEvent } from '../../wire/types';
import type { Hasher } from '../hasher';
import type { EntityKind, ObjectView, StepContext } from '../registry';
import { firstContact } from '../sweep';
import type { Laser, Ship } from '../types';
import { wireVec } from './ship';
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

/** The bolts `ship` fires this tick (one per laser level, spaced across the nose), with ids from `firstId` on. */
export function fireLasers(ship: Ship, firstId: number): Laser[] {
  const nose = forwardOf(ship.rot);
  const right = rightOf(ship.rot);
  const n = Math.max(1, Math.min(RULES.laser.maxLevel, ship.laserLevel));
  const out: Laser[] = [];
  for (let i = 0; i < n; i++) {
    const side = (i - (n - 1) / 2) * RULES.laser.boltSpacing;
    out.push({
      kind: 'laser',
      id: firstId + i,
      owner: ship.slot,
      pos: addScaled(addScaled(ship.pos, nose, NOSE_OFFSET), right, side),
      vel: addScaled(ship.vel, nose, LASER_SPEED),
      ttl: LASER_TTL_TICKS,
    });
  }
  return out;
}

function stepLaser(l: Laser, ctx: StepContext): Laser | null {
  const pos = addScaled(l.pos, l.vel, STEP_S);
  const contact = firstContact(ctx, l.pos, pos, 0, l.owner);
  if (contact && contact.ship >= 0) {
    ctx.hit(contact.ship, LASER_DAMAGE, l.owner, 'laser', l.id);
    return null;
  }
  if (contact) {
    const { asteroids } = ctx;
    const a = asteroids[contact.asteroid]!;
    const kick = ASTEROID_HIT_SPIN_KICK / a.radius;
    const spin = { x: 0, y: 0, z: 0 };
    for (const k of ['x', 'y', 'z'] as const) {
      const [d, next] = nextRange(ctx.rng, -kick, kick);
      ctx.rng = next;
      spin[k] = clampAbs(a.spin[k] + d, ASTEROID_KICKED_SPIN);
    }
    asteroids[contact.asteroid] = { ...a, spin, wear: a.wear + LASER_DAMAGE };
    ctx.events.push({ type: 'chipped', id: a.id, by: l.owner });
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
    const ttl = Math.min(MAX_REMOTE_LASER_TTL, Math.floor(ev.ttl)) - ticksIn(ageMs);
    if (ttl < 1) return null;
    return { kind: 'laser', id, owner, pos: addScaled(ev.pos, ev.vel, ageMs / 1000), vel: copyVec(ev.vel), ttl };
  },
  view(l: Laser): ObjectView {
    return { kind: 'laser', id: l.id, owner: l.owner, pos: l.pos, vel: l.vel };
  },
};
