/**
 * World views of a bolt duel for the hit tests (shotWatch, hitLedger): our
 * ship (slot 0) at the origin, ship 1 100 units ahead along −Z, and bolts
 * flying −Z at 600 u/s (15 units a tick) towards it.
 */
import type { ObjectView, ShipView, WorldView } from '../../src/shared/game/view';
import type { Vec3 } from '../../src/shared/sim/types';

export const shipView = (slot: number, pos: Vec3): ShipView => ({ slot, pos, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, energy: 100, shield: 40, damage: 0, missiles: 3, mines: 2, laserLevel: 1, invulnerable: 0 });

/** A bolt of `owner` flying −Z at 600 u/s from z. */
export const boltView = (owner: number, id: number, z: number): ObjectView => ({ kind: 'laser', id, owner, pos: { x: 0, y: 0, z }, vel: { x: 0, y: 0, z: -600 } });

/** Tick `tick`'s view with `objects` (and anything of `extra` in place of the defaults). */
export const duelView = (tick: number, objects: ObjectView[], extra: Partial<WorldView> = {}): WorldView => ({
  tick,
  localSlot: 0,
  respawnSeconds: null,
  ships: [shipView(0, { x: 0, y: 0, z: 0 }), shipView(1, { x: 0, y: 0, z: -100 })],
  objects,
  asteroids: [],
  scores: [],
  match: { phase: 0, secondsLeft: null, killLimit: 0, timeLimitS: 0, round: 0 },
  lockedBy: [],
  bots: [],
  pings: [],
  ...extra,
});
