/**
 * The extra: a power-up lying in the arena until a ship flies through it
 * (its centre passing within RULES.extras.pickupRadius) or its time is up.
 * What it gives is the rules module's business (combat.ts, applyExtra). The
 * match spawns them (step.ts, spawnExtra) and a destroyed ship drops some;
 * a pickup is decided by the world that decides the picking ship's fate, the
 * first ship in slot order winning. Created elsewhere by `createExtra`,
 * whose `kind` byte is the extra's type.
 */
import type { GameCodeInterface } from '../../net/gameCode';
import { ticksIn } from '../../sim/types';
import type { RemoteEvent } from '../../wire/types';
import { applyExtra, EXTRA_KINDS } from '../combat';
import type { Hasher } from '../hasher';
import type { EntityKind, ObjectView, StepContext } from '../registry';
import { RULES } from '../rules';
import { sweepMoving } from '../sweep';
import type { Extra } from '../types';
import { wireVec } from './ship';

const X = RULES.extras;
const STILL = Object.freeze({ x: 0, y: 0, z: 0 });

function stepExtra(x: Extra, ctx: StepContext): Extra | null {
  for (let j = 0; j < ctx.ships.length; j++) {
    const s = ctx.ships[j]!;
    const was = ctx.before.ships[j]!;
    if (s.respawnIn > 0 || was.respawnIn > 0 || !ctx.decidesHitsOn(s.slot)) continue;
    if (sweepMoving(was.pos, s.pos, x.pos, x.pos, X.pickupRadius) < 0) continue;
    ctx.ships[j] = applyExtra(s, x.type);
    ctx.events.push({ type: 'pickup', slot: s.slot, id: x.id, owner: x.owner, extra: x.type });
    return null;
  }
  const ttl = x.ttl - 1;
  if (ttl <= 0) return null;
  return { kind: 'extra', id: x.id, owner: x.owner, type: x.type, pos: x.pos, ttl };
}

export const extraKind: EntityKind<Extra> = {
  kind: 'extra',
  createdBy: 'createExtra',
  step: stepExtra,
  hash(h: Hasher, x: Extra): void {
    h.num(x.id);
    h.num(x.owner);
    h.num(x.type);
    h.vec(x.pos);
    h.num(x.ttl);
  },
  send(x: Extra, events: GameCodeInterface, at: number): void {
    events.createExtra(x.id & 0xffff, x.type, wireVec(x.pos), at);
  },
  fromEvent(ev: RemoteEvent, owner: number, id: number, ageMs: number): Extra | null {
    if (ev.type !== 'createExtra' || !(ev.kind >= 0 && ev.kind < EXTRA_KINDS.length)) return null;
    const ticks = ticksIn(ageMs);
    const ttl = X.ttlTicks - ticks;
    if (ttl < 1) return null;
    return { kind: 'extra', id, owner, type: ev.kind, pos: { ...ev.pos }, ttl };
  },
  view(x: Extra): ObjectView {
    return { kind: 'extra', id: x.id, owner: x.owner, pos: x.pos, vel: STILL, type: x.type };
  },
};
