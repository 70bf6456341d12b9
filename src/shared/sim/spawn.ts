/**
 * Where ships (re)appear. Spawn points lie on a square grid in the X–Y plane
 * (z = 0, every ship facing −Z), ring by ring around the origin: index 0 is
 * the origin, 1–8 the ring 40 units out, 9–24 the next, and so on. A player
 * prefers the point of its own slot and takes the next free one when a ship
 * or an asteroid is in the way. Integer grid × spacing, comparisons of
 * squared distances and one Math.sqrt: bit-identical on every engine.
 */
import type { Vec3 } from './types';

/** Distance between neighbouring spawn points along X or Y. */
export const SPAWN_SPACING = 40;
/** How many spawn points a player may be put on (one per wire slot); validators accept a respawn at any of them. */
export const SPAWN_CHOICES = 16;
/** A spawn point is free when no other ship's centre and no asteroid's surface is closer than this. */
export const SPAWN_CLEARANCE = 20;

/** Grid cells of ring `r` (max(|i|, |j|) = r) in a fixed order: axes first, then outwards to the corners. */
function ringCells(r: number): [number, number][] {
  if (r === 0) return [[0, 0]];
  const cells: [number, number][] = [
    [r, 0],
    [-r, 0],
    [0, r],
    [0, -r],
  ];
  for (let k = 1; k < r; k++) cells.push([r, k], [-r, k], [r, -k], [-r, -k], [k, r], [-k, r], [k, -r], [-k, -r]);
  cells.push([r, r], [-r, r], [r, -r], [-r, -r]);
  return cells;
}

const cache: Vec3[] = [];
let nextRing = 0;
/** Highest index served (ring 50); beyond it the last point is repeated. */
const MAX_INDEX = 101 * 101 - 1;

/** Spawn point number `index` (an integer ≥ 0; anything else counts as 0). Fresh object each call. */
export function spawnPoint(index: number): Vec3 {
  const i = Number.isInteger(index) && index > 0 ? Math.min(index, MAX_INDEX) : 0;
  while (cache.length <= i) {
    for (const [x, y] of ringCells(nextRing)) cache.push({ x: x * SPAWN_SPACING, y: y * SPAWN_SPACING, z: 0 });
    nextRing++;
  }
  const p = cache[i] as Vec3;
  return { x: p.x, y: p.y, z: p.z };
}

/** The SPAWN_CHOICES points a player may be placed on, index order (fresh objects). */
export function spawnPoints(): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < SPAWN_CHOICES; i++) out.push(spawnPoint(i));
  return out;
}

/** Something a spawn point must keep clear of: another ship (radius 0: its centre) or an asteroid. */
export interface SpawnObstacle {
  pos: Vec3;
  radius: number;
}

/** Room around `p`: the smallest gap (distance − radius) to any obstacle; +Infinity when there is none. */
function room(p: Vec3, obstacles: readonly SpawnObstacle[]): number {
  let best = Infinity;
  for (const o of obstacles) {
    const dx = p.x - o.pos.x;
    const dy = p.y - o.pos.y;
    const dz = p.z - o.pos.z;
    const gap = Math.sqrt(dx * dx + dy * dy + dz * dz) - o.radius;
    if (gap < best) best = gap;
  }
  return best;
}

/**
 * The spawn point for the player in `slot`: its own point (spawnPoint(slot
 * mod SPAWN_CHOICES)) when nothing in `obstacles` is within SPAWN_CLEARANCE,
 * else the next free one in index order (wrapping), else — all taken — the
 * one with the most room. Deterministic: the same inputs give the same point
 * everywhere. Returns a fresh object.
 */
export function chooseSpawnPoint(slot: number, obstacles: readonly SpawnObstacle[]): Vec3 {
  const first = Number.isInteger(slot) && slot > 0 ? slot % SPAWN_CHOICES : 0;
  let best: Vec3 | null = null;
  let bestRoom = -Infinity;
  for (let k = 0; k < SPAWN_CHOICES; k++) {
    const p = spawnPoint((first + k) % SPAWN_CHOICES);
    const r = room(p, obstacles);
    if (r >= SPAWN_CLEARANCE) return p;
    if (r > bestRoom) {
      best = p;
      bestRoom = r;
    }
  }
  return best ?? spawnPoint(first);
}

/** Whether `pos` is within `tolerance` of one of the SPAWN_CHOICES spawn points. */
export function nearSpawnPoint(pos: Vec3, tolerance: number): boolean {
  for (let i = 0; i < SPAWN_CHOICES; i++) {
    const p = spawnPoint(i);
    const dx = pos.x - p.x;
    const dy = pos.y - p.y;
    const dz = pos.z - p.z;
    if (dx * dx + dy * dy + dz * dz <= tolerance * tolerance) return true;
  }
  return false;
}
