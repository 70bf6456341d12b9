/**
 * The energy field: a sphere of the arena, there for the whole match, in
 * which every flying ship (whose fate this world decides) regains
 * RULES.fields.energyPerTick energy on top of its own regeneration. The
 * match places them (world.ts). Created elsewhere by `particleObject` with
 * kind FIELD_CODE and ttl 0 (for ever).
 */
import type { GameCodeInterface } from '../../net/gameCode';
import type { RemoteEvent } from '../../wire/types';
import type { Hasher } from '../hasher';
import type { EntityKind, ObjectView, StepContext } from '../registry';
import { RULES } from '../rules';
import type { EnergyField } from '../types';
import { wireVec } from './ship';

/** The `kind` byte of a particleObject event that creates an energy field. */
export const FIELD_CODE = 1;
/** Largest radius a replicated field may claim. */
export const MAX_REMOTE_FIELD_RADIUS = 200;

const F = RULES.fields;
const STILL = Object.freeze({ x: 0, y: 0, z: 0 });

function stepField(f: EnergyField, ctx: StepContext): EnergyField {
  const r2 = f.radius * f.radius;
  for (let j = 0; j < ctx.ships.length; j++) {
    const s = ctx.ships[j]!;
    if (s.respawnIn > 0 || s.energy >= RULES.energy.max || !ctx.decidesHitsOn(s.slot)) continue;
    const dx = s.pos.x - f.pos.x;
    const dy = s.pos.y - f.pos.y;
    const dz = s.pos.z - f.pos.z;
    if (dx * dx + dy * dy + dz * dz > r2) continue;
    ctx.ships[j] = { ...s, energy: Math.min(RULES.energy.max, s.energy + F.energyPerTick) };
  }
  return f;
}

export const fieldKind: EntityKind<EnergyField> = {
  kind: 'field',
  createdBy: 'particleObject',
  wireCode: FIELD_CODE,
  step: stepField,
  hash(h: Hasher, f: EnergyField): void {
    h.num(f.id);
    h.num(f.owner);
    h.vec(f.pos);
    h.num(f.radius);
  },
  send(f: EnergyField, events: GameCodeInterface, at: number): void {
    events.particleObject(f.id & 0xffff, FIELD_CODE, wireVec(f.pos), f.radius, 0, at);
  },
  fromEvent(ev: RemoteEvent, owner: number, id: number): EnergyField | null {
    if (ev.type !== 'particleObject' || ev.kind !== FIELD_CODE || !(ev.radius > 0 && ev.radius <= MAX_REMOTE_FIELD_RADIUS)) return null;
    return { kind: 'field', id, owner, pos: { ...ev.pos }, radius: ev.radius };
  },
  view(f: EnergyField): ObjectView {
    return { kind: 'field', id: f.id, owner: f.owner, pos: f.pos, vel: STILL, radius: f.radius };
  },
};
