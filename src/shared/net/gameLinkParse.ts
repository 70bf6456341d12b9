/**
 * Validation of {@link LocalGameUpdate}s arriving from the game view (a
 * renderer is a separate process and its messages are untrusted like any
 * other input). Returns a drop reason instead of throwing.
 */
import type { Vec3 } from '../sim/types';
import { NO_SLOT, MAX_WIRE_SLOTS, type ShipState } from '../wire/types';
import { MAX_LOCAL_EVENTS, type LocalGameEvent, type LocalGameUpdate } from './gameLink';

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Largest coordinate the game accepts (the wire format's limit). */
export const MAX_COORD = 1e6;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
const int = (v: unknown, lo: number, hi: number): v is number => num(v, lo, hi) && Number.isInteger(v);

function vec(v: unknown, limit = MAX_COORD): Vec3 | null {
  if (!isObj(v) || !num(v.x, -limit, limit) || !num(v.y, -limit, limit) || !num(v.z, -limit, limit)) return null;
  return { x: v.x, y: v.y, z: v.z };
}

/** Validates and copies a ship state (only known fields survive). */
export function parseShipState(raw: unknown): ShipState | null {
  if (!isObj(raw)) return null;
  const pos = vec(raw.pos);
  const vel = vec(raw.vel, 1e4);
  const angVel = vec(raw.angVel, 100);
  const r = raw.rot;
  if (!pos || !vel || !angVel || !isObj(r) || ![r.x, r.y, r.z, r.w].every((c) => num(c, -1.001, 1.001))) return null;
  if (!num(raw.energy, 0, 100) || !num(raw.damage, 0, 100)) return null;
  return { pos, vel, angVel, rot: { x: r.x as number, y: r.y as number, z: r.z as number, w: r.w as number }, energy: raw.energy, damage: raw.damage };
}

function parseEvent(raw: unknown): LocalGameEvent | null {
  if (!isObj(raw)) return null;
  if (raw.type === 'laser') {
    const pos = vec(raw.pos);
    const vel = vec(raw.vel, 1e4);
    if (!pos || !vel || !int(raw.localId, 0, 0xffff) || !int(raw.ttl, 1, 0xffff)) return null;
    return { type: 'laser', localId: raw.localId, pos, vel, ttl: raw.ttl };
  }
  if (raw.type === 'destroyed') {
    if (!(int(raw.killerSlot, 0, MAX_WIRE_SLOTS - 1) || raw.killerSlot === NO_SLOT)) return null;
    return { type: 'destroyed', killerSlot: raw.killerSlot as number };
  }
  return null;
}

/** Validates one frame's game report. */
export function parseLocalGameUpdate(raw: unknown): Parsed<LocalGameUpdate> {
  if (!isObj(raw) || !int(raw.tick, 0, Number.MAX_SAFE_INTEGER)) return { ok: false, reason: 'game-bad-update' };
  let ship: ShipState | null = null;
  if (raw.ship !== null) {
    ship = parseShipState(raw.ship);
    if (!ship) return { ok: false, reason: 'game-bad-ship' };
  }
  if (!Array.isArray(raw.events) || raw.events.length > MAX_LOCAL_EVENTS) return { ok: false, reason: 'game-bad-events' };
  const events: LocalGameEvent[] = [];
  for (const e of raw.events) {
    const parsed = parseEvent(e);
    if (!parsed) return { ok: false, reason: 'game-bad-event' };
    events.push(parsed);
  }
  return { ok: true, value: { tick: raw.tick, ship, events } };
}
