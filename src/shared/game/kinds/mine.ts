/**
 * The proximity mine: dropped behind the ship with a quarter of its velocity,
 * it drifts to a stop, is armed after RULES.mine.armTicks, and then goes off
 * when a flying ship other than its layer's (this world deciding hits on it)
 * comes within RULES.mine.triggerRadius, doing RULES.mine.damage (credited to
 * the layer). A pilot never trips their own mines: dropping one while
 * standing still must not be suicide. Online, the victim's game tells
 * everyone the mine went off (a killObject of it naming the victim), so it
 * vanishes from every screen. It lies in wait for
 * RULES.mine.ttlTicks. Created elsewhere by `createObject` with kind MINE_CODE.
 */
import { STEP_S, ticksIn } from '../../sim/types';
import { addScaled, forwardOf, identityQuat, scale } from '../../sim/vec';
import type { GameCodeInterface } from '../../net/gameCode';
import type { RemoteEvent } from '../../wire/types';
import type { Hasher } from '../hasher';
import type { EntityKind, ObjectView, StepContext } from '../registry';
import { RULES } from '../rules';
import type { Mine, Ship } from '../types';
import { AFTERBURNER_MAX_SPEED, SHIP_RADIUS, wireVec } from './ship';

/** The `kind` byte of a createObject event that creates a mine. */
export const MINE_CODE = 1;
/** Share of a mine's velocity kept per tick while it drifts to a stop. */
export const MINE_DRAG = 0.95;
/** Farthest a mine drifts from where it was laid: a ship's top speed × RULES.mine.dropVelocityFactor, summed over the drag's ticks. */
export const MINE_DRIFT = (AFTERBURNER_MAX_SPEED * RULES.mine.dropVelocityFactor * STEP_S) / (1 - MINE_DRAG);
/** Distance behind the ship's centre where a mine is dropped. */
export const MINE_DROP_OFFSET = 10;

const R = RULES.mine;

/** The mine `ship` drops this tick, with id `id`. */
export function dropMine(ship: Ship, id: number): Mine {
  return {
    kind: 'mine',
    id,
    owner: ship.slot,
    pos: addScaled(ship.pos, forwardOf(ship.rot), -MINE_DROP_OFFSET),
    vel: scale(ship.vel, R.dropVelocityFactor),
    arm: R.armTicks,
    ttl: R.ttlTicks,
  };
}

function stepMine(m: Mine, ctx: StepContext): Mine | null {
  const pos = addScaled(m.pos, m.vel, STEP_S);
  if (m.arm === 0) {
    const reach = R.triggerRadius + SHIP_RADIUS;
    for (let j = 0; j < ctx.ships.length; j++) {
      const s = ctx.ships[j]!;
      if (s.slot === m.owner || s.respawnIn > 0 || !ctx.decidesHitsOn(s.slot)) continue;
      const dx = s.pos.x - pos.x;
      const dy = s.pos.y - pos.y;
      const dz = s.pos.z - pos.z;
      if (dx * dx + dy * dy + dz * dz > reach * reach) continue;
      ctx.hit(j, R.damage, m.owner, 'mine', m.id);
      return null;
    }
  }
  const ttl = m.ttl - 1;
  if (ttl <= 0) return null;
  return { kind: 'mine', id: m.id, owner: m.owner, pos, vel: scale(m.vel, MINE_DRAG), arm: m.arm > 0 ? m.arm - 1 : 0, ttl };
}

export const mineKind: EntityKind<Mine> = {
  kind: 'mine',
  createdBy: 'createObject',
  wireCode: MINE_CODE,
  step: stepMine,
  hash(h: Hasher, m: Mine): void {
    h.num(m.id);
    h.num(m.owner);
    h.vec(m.pos);
    h.vec(m.vel);
    h.num(m.arm);
    h.num(m.ttl);
  },
  send(m: Mine, events: GameCodeInterface, at: number): void {
    events.createObject(m.id & 0xffff, MINE_CODE, wireVec(m.pos), identityQuat(), m.vel, at);
  },
  fromEvent(ev: RemoteEvent, owner: number, id: number, ageMs: number): Mine | null {
    if (ev.type !== 'createObject' || ev.kind !== MINE_CODE) return null;
    const ticks = ticksIn(ageMs);
    const ttl = R.ttlTicks - ticks;
    if (ttl < 1) return null;
    return { kind: 'mine', id, owner, pos: { ...ev.pos }, vel: { ...ev.vel }, arm: Math.max(0, R.armTicks - ticks), ttl };
  },
  view(m: Mine): ObjectView {
    return { kind: 'mine', id: m.id, owner: m.owner, pos: m.pos, vel: m.vel };
  },
};
