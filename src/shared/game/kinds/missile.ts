/**
 * The missile: launched from the nose with RULES.missile.launchSpeed on top
 * of the ship's velocity, it speeds up to its top speed along its heading.
 * A homing missile (`target` a slot) turns towards that ship by at most
 * RULES.missile.turnPerTick of its speed per tick; a dumb one (or one whose
 * target is gone) flies straight. It stops on the first asteroid or ship it
 * touches, burns out after its ttl, and does RULES.missile.damage to a ship
 * this world decides hits on. Created elsewhere by `createMissile`, whose
 * `targetSlot` carries the lock (so the target's game can warn its pilot).
 */
import { NO_TARGET, STEP_S, ticksIn, type CleanInput } from '../../sim/types';
import { addScaled, dot, forwardOf, lengthSq, sub } from '../../sim/vec';
import type { GameCodeInterface } from '../../net/gameCode';
import { NO_SLOT, type RemoteEvent } from '../../wire/types';
import type { Hasher } from '../hasher';
import type { EntityKind, ObjectView, StepContext } from '../registry';
import { RULES } from '../rules';
import { firstContact } from '../sweep';
import type { Missile, Ship } from '../types';
import { wireVec } from './ship';
import { NOSE_OFFSET } from './laser';

const M = RULES.missile;

/**
 * The slot a missile launched by `ship` now locks on to: `wanted` when that
 * ship flies, is not `ship` itself, and lies in front of its nose within
 * RULES.missile.lockRange (a ship its pilot can see); else NO_TARGET.
 */
export function lockOn(ship: Ship, wanted: number, ships: readonly Ship[]): number {
  if (wanted === NO_TARGET || wanted === ship.slot) return NO_TARGET;
  const t = ships.find((s) => s.slot === wanted);
  if (!t || t.respawnIn > 0) return NO_TARGET;
  const d = sub(t.pos, ship.pos);
  if (lengthSq(d) > M.lockRange * M.lockRange || dot(d, forwardOf(ship.rot)) <= 0) return NO_TARGET;
  return wanted;
}

/** The missile `ship` launches this tick with id `id`, homing on `input.target` if it may lock on. */
export function launchMissile(ship: Ship, input: CleanInput, ships: readonly Ship[], id: number): Missile {
  const nose = forwardOf(ship.rot);
  return {
    kind: 'missile',
    id,
    owner: ship.slot,
    pos: addScaled(ship.pos, nose, NOSE_OFFSET),
    vel: addScaled(ship.vel, nose, M.launchSpeed),
    target: lockOn(ship, input.target, ships),
    ttl: M.ttlTicks,
  };
}

/** Heading and speed after one tick: turn towards `to` (if any) within the turn limit, speed up to the top speed. */
function steer(m: Missile, to: Ship | undefined): Missile['vel'] {
  const v = m.vel;
  const speed = Math.sqrt(lengthSq(v));
  const newSpeed = Math.min(M.maxSpeed, speed + M.accel * STEP_S);
  if (speed < 1e-9) return { x: 0, y: 0, z: -newSpeed };
  let dx = v.x / speed;
  let dy = v.y / speed;
  let dz = v.z / speed;
  if (to) {
    const wx = to.pos.x - m.pos.x;
    const wy = to.pos.y - m.pos.y;
    const wz = to.pos.z - m.pos.z;
    const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
    if (wl > 1e-9) {
      // The part of the wanted direction across the heading, added at most turnPerTick long.
      const along = (wx * dx + wy * dy + wz * dz) / wl;
      const px = wx / wl - dx * along;
      const py = wy / wl - dy * along;
      const pz = wz / wl - dz * along;
      const pl = Math.sqrt(px * px + py * py + pz * pz);
      if (pl > 1e-9) {
        const k = Math.min(1, M.turnPerTick / pl);
        dx += px * k;
        dy += py * k;
        dz += pz * k;
        const dl = Math.sqrt(dx * dx + dy * dy + dz * dz);
        dx /= dl;
        dy /= dl;
        dz /= dl;
      }
    }
  }
  return { x: dx * newSpeed, y: dy * newSpeed, z: dz * newSpeed };
}

function stepMissile(m: Missile, ctx: StepContext): Missile | null {
  const to = m.target === NO_TARGET ? undefined : ctx.ships.find((s) => s.slot === m.target && s.respawnIn === 0);
  const vel = steer(m, to);
  const pos = addScaled(m.pos, vel, STEP_S);
  const contact = firstContact(ctx, m.pos, pos, M.hitRadius, m.owner);
  if (contact && contact.ship >= 0) ctx.hit(contact.ship, M.damage, m.owner, 'missile', m.id);
  if (contact) return null;
  const ttl = m.ttl - 1;
  if (ttl <= 0) return null;
  return { kind: 'missile', id: m.id, owner: m.owner, pos, vel, target: m.target, ttl };
}

export const missileKind: EntityKind<Missile> = {
  kind: 'missile',
  createdBy: 'createMissile',
  step: stepMissile,
  hash(h: Hasher, m: Missile): void {
    h.num(m.id);
    h.num(m.owner);
    h.vec(m.pos);
    h.vec(m.vel);
    h.num(m.target);
    h.num(m.ttl);
  },
  send(m: Missile, events: GameCodeInterface, at: number): void {
    events.createMissile(m.id & 0xffff, wireVec(m.pos), m.vel, m.target === NO_TARGET ? NO_SLOT : m.target, m.ttl, at);
  },
  fromEvent(ev: RemoteEvent, owner: number, id: number, ageMs: number): Missile | null {
    if (ev.type !== 'createMissile' || !(ev.ttl >= 1)) return null;
    const ttl = Math.min(M.ttlTicks, Math.floor(ev.ttl)) - ticksIn(ageMs);
    if (ttl < 1) return null;
    const target = ev.targetSlot === NO_SLOT ? NO_TARGET : ev.targetSlot;
    return { kind: 'missile', id, owner, pos: addScaled(ev.pos, ev.vel, ageMs / 1000), vel: { ...ev.vel }, target, ttl };
  },
  view(m: Missile): ObjectView {
    return { kind: 'missile', id: m.id, owner: m.owner, pos: m.pos, vel: m.vel, type: m.target };
  },
};
