/**
 * The hits our shots make as our screen shows them, found from two
 * consecutive world views (no DOM; unit-tested in Node). Each of our lasers
 * and missiles is followed from one tick's view to the next — to where it is
 * now, or, when it is gone, to where its velocity would have taken it — and
 * swept against the other ships (and the asteroids, which stop a shot
 * first) with the simulation's own swept-sphere test and radii. A shot that
 * meets a ship is a hit as the shooter saw it, at once.
 *
 * Offline (and in lockstep) this game decides those hits, so what it shows
 * is what counts. In a Parsec network game the victim's game decides: the
 * hit seen here is the shooter's view only, to be confirmed or withdrawn by
 * the victim's word (SeenHit.key names the shot for that).
 */
import type { ObjectView, WorldView } from './view';
import type { Vec3 } from '../sim/types';
import { STEP_S } from '../sim/types';
import { sweepMoving } from './sweep';
import { SHIP_RADIUS } from './kinds/ship';
import { RULES } from './rules';

/** One hit of ours as the shooter's screen showed it. */
export interface SeenHit {
  /** The shot: `<kind><owner>:<id>`, unique while the shot flies (for a later confirmed or withdrawn). */
  key: string;
  /** The ship hit. */
  slot: number;
  kind: 'laser' | 'missile';
  /** Where the shot met it (world coordinates). */
  pos: Vec3;
  /** The tick of the view that showed it. */
  tick: number;
}

const shotKey = (o: ObjectView): string => `${o.kind}${o.owner}:${o.id}`;

/** How far a shot of `kind` reaches beyond a ship's radius (kinds/laser.ts: 0, kinds/missile.ts: its hit radius). */
const reachOf = (kind: 'laser' | 'missile'): number => (kind === 'missile' ? RULES.missile.hitRadius : 0);

/**
 * Follows our shots from view to view. Give it every world view in order
 * (`next`); it answers the hits the step from the previous one showed. Views
 * that are not one tick apart (a reload, a new game) are only remembered.
 */
export class ShotWatch {
  private last: WorldView | null = null;
  /** Shots already counted as a hit (a shot passing through a ship it does not stop is counted once). */
  private readonly counted = new Set<string>();

  next(view: WorldView): SeenHit[] {
    const prev = this.last;
    this.last = view;
    if (!prev || view.tick !== prev.tick + 1 || view.localSlot !== prev.localSlot) {
      this.counted.clear();
      return [];
    }
    const us = view.localSlot;
    const hits: SeenHit[] = [];
    const now = new Map<string, ObjectView>();
    for (const o of view.objects) if (o.owner === us && (o.kind === 'laser' || o.kind === 'missile')) now.set(shotKey(o), o);
    for (const shot of prev.objects) {
      if (shot.owner !== us || (shot.kind !== 'laser' && shot.kind !== 'missile')) continue;
      const key = shotKey(shot);
      if (this.counted.has(key)) continue;
      const after = now.get(key);
      const p1 = after ? after.pos : { x: shot.pos.x + shot.vel.x * STEP_S, y: shot.pos.y + shot.vel.y * STEP_S, z: shot.pos.z + shot.vel.z * STEP_S };
      const hit = firstShip(prev, view, shot.pos, p1, reachOf(shot.kind));
      if (!hit) continue;
      this.counted.add(key);
      hits.push({ key, slot: hit.slot, kind: shot.kind, pos: hit.pos, tick: view.tick });
    }
    // Forget the shots that are gone.
    for (const key of this.counted) if (!now.has(key)) this.counted.delete(key);
    return hits;
  }
}

/** The other ship a point moving p0 → p1 between `prev` and `curr` meets first, unless an asteroid stops it before. */
function firstShip(prev: WorldView, curr: WorldView, p0: Vec3, p1: Vec3, reach: number): { slot: number; pos: Vec3 } | null {
  let best = 2;
  let hit: { slot: number; pos: Vec3 } | null = null;
  for (const ship of curr.ships) {
    if (ship.slot === curr.localSlot) continue;
    const before = prev.ships.find((s) => s.slot === ship.slot);
    if (!before) continue;
    const s = sweepMoving(p0, p1, before.pos, ship.pos, SHIP_RADIUS + reach);
    if (s >= 0 && s < best) {
      best = s;
      hit = { slot: ship.slot, pos: { x: p0.x + (p1.x - p0.x) * s, y: p0.y + (p1.y - p0.y) * s, z: p0.z + (p1.z - p0.z) * s } };
    }
  }
  if (!hit) return null;
  for (const rock of curr.asteroids) {
    const before = prev.asteroids.find((a) => a.id === rock.id);
    if (!before) continue;
    const s = sweepMoving(p0, p1, before.pos, rock.pos, rock.radius);
    if (s >= 0 && s < best) return null;
  }
  return hit;
}
