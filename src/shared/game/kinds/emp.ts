/**
 * The EMP pulse: a sphere growing from where its ship set it off by
 * RULES.emp.growPerTick a tick up to RULES.emp.maxRadius. Every other flying
 * ship it reaches (this world deciding its fate) loses its whole shield and
 * RULES.emp.energyDrain energy, once. It does no hull damage. Created
 * elsewhere by `particleObject` with kind EMP_CODE.
 */
import type { GameCodeInterface } from '../../net/gameCode';
import { ticksIn } from '../../sim/types';
import type { RemoteEvent } from '../../wire/types';
import { drainShip } from '../combat';
import type { Hasher } from '../hasher';
import type { EntityKind, ObjectView, StepContext } from '../registry';
import { RULES } from '../rules';
import type { Emp, Ship } from '../types';
import { SHIP_RADIUS, wireVec } from './ship';

/** The `kind` byte of a particleObject event that creates an EMP pulse. */
export const EMP_CODE = 2;

const E = RULES.emp;
const STILL = Object.freeze({ x: 0, y: 0, z: 0 });

/** The pulse `ship` sets off this tick, with id `id`. */
export function fireEmp(ship: Ship, id: number): Emp {
  return { kind: 'emp', id, owner: ship.slot, pos: { ...ship.pos }, radius: 0, reached: [] };
}

function stepEmp(e: Emp, ctx: StepContext): Emp | null {
  if (e.radius >= E.maxRadius) return null;
  const radius = Math.min(E.maxRadius, e.radius + E.growPerTick);
  let reached = e.reached;
  const reach = radius + SHIP_RADIUS;
  for (let j = 0; j < ctx.ships.length; j++) {
    const s = ctx.ships[j]!;
    if (s.slot === e.owner || s.respawnIn > 0 || reached.includes(s.slot) || !ctx.decidesHitsOn(s.slot)) continue;
    const dx = s.pos.x - e.pos.x;
    const dy = s.pos.y - e.pos.y;
    const dz = s.pos.z - e.pos.z;
    if (dx * dx + dy * dy + dz * dz > reach * reach) continue;
    ctx.ships[j] = drainShip(s);
    ctx.events.push({ type: 'drained', slot: s.slot, by: e.owner });
    reached = [...reached, s.slot].sort((a, b) => a - b);
  }
  return { kind: 'emp', id: e.id, owner: e.owner, pos: e.pos, radius, reached };
}

export const empKind: EntityKind<Emp> = {
  kind: 'emp',
  createdBy: 'particleObject',
  wireCode: EMP_CODE,
  step: stepEmp,
  hash(h: Hasher, e: Emp): void {
    h.num(e.id);
    h.num(e.owner);
    h.vec(e.pos);
    h.num(e.radius);
    h.num(e.reached.length);
    for (const s of e.reached) h.num(s);
  },
  send(e: Emp, events: GameCodeInterface, at: number): void {
    events.particleObject(e.id & 0xffff, EMP_CODE, wireVec(e.pos), e.radius, Math.ceil((E.maxRadius - e.radius) / E.growPerTick), at);
  },
  fromEvent(ev: RemoteEvent, owner: number, id: number, ageMs: number): Emp | null {
    if (ev.type !== 'particleObject' || ev.kind !== EMP_CODE) return null;
    const ticks = ticksIn(ageMs);
    const radius = Math.min(E.maxRadius, Math.max(0, ev.radius) + ticks * E.growPerTick);
    if (radius >= E.maxRadius) return null;
    return { kind: 'emp', id, owner, pos: { ...ev.pos }, radius, reached: [] };
  },
  view(e: Emp): ObjectView {
    return { kind: 'emp', id: e.id, owner: e.owner, pos: e.pos, vel: STILL, radius: e.radius };
  },
};
