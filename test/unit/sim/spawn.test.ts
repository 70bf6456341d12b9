/**
 * Spawn points (src/shared/sim/spawn.ts): spread on a grid, a free one
 * chosen deterministically, and kept clear of asteroids by createWorld.
 */
import { describe, expect, it } from 'vitest';
import { chooseSpawnPoint, nearSpawnPoint, SPAWN_CHOICES, SPAWN_CLEARANCE, SPAWN_SPACING, spawnPoint, spawnPoints } from '../../../src/shared/sim';
import { ASTEROID_CLEARANCE, createWorld } from '../../../src/shared/game';

const dist = (a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

describe('spawn points', () => {
  it('start at the origin, then +40 and -40 on X, and are all at least 40 units apart', () => {
    expect([spawnPoint(0), spawnPoint(1), spawnPoint(2), spawnPoint(3), spawnPoint(4)]).toEqual([
      { x: 0, y: 0, z: 0 },
      { x: SPAWN_SPACING, y: 0, z: 0 },
      { x: -SPAWN_SPACING, y: 0, z: 0 },
      { x: 0, y: SPAWN_SPACING, z: 0 },
      { x: 0, y: -SPAWN_SPACING, z: 0 },
    ]);
    const points = Array.from({ length: 64 }, (_, i) => spawnPoint(i));
    for (let i = 0; i < points.length; i++) for (let j = i + 1; j < points.length; j++) expect(dist(points[i]!, points[j]!)).toBeGreaterThanOrEqual(SPAWN_SPACING);
    expect(spawnPoints()).toHaveLength(SPAWN_CHOICES);
    // Each call is a fresh object: a caller moving its ship cannot move the spawn point.
    const p = spawnPoint(5);
    p.x += 1;
    expect(spawnPoint(5).x).toBe(p.x - 1);
  });

  it('a player takes its own slot\'s point when it is free, else the next free one, else the one with the most room', () => {
    expect(chooseSpawnPoint(3, [])).toEqual(spawnPoint(3));
    // A ship right on it, or within the clearance, takes it; one just outside does not.
    expect(chooseSpawnPoint(3, [{ pos: spawnPoint(3), radius: 0 }])).toEqual(spawnPoint(4));
    expect(chooseSpawnPoint(3, [{ pos: { ...spawnPoint(3), z: SPAWN_CLEARANCE - 1 }, radius: 0 }])).toEqual(spawnPoint(4));
    expect(chooseSpawnPoint(3, [{ pos: { ...spawnPoint(3), z: SPAWN_CLEARANCE + 1 }, radius: 0 }])).toEqual(spawnPoint(3));
    // An asteroid counts by its surface.
    expect(chooseSpawnPoint(3, [{ pos: { ...spawnPoint(3), z: SPAWN_CLEARANCE + 10 }, radius: 15 }])).toEqual(spawnPoint(4));
    // The search wraps after the last choice.
    expect(chooseSpawnPoint(SPAWN_CHOICES - 1, [{ pos: spawnPoint(SPAWN_CHOICES - 1), radius: 0 }])).toEqual(spawnPoint(0));
    // Every point taken: the one farthest from everything, the same on every call.
    const crowd = spawnPoints().map((pos, i) => ({ pos: { ...pos, z: i === 7 ? 15 : 1 }, radius: 0 }));
    expect(chooseSpawnPoint(2, crowd)).toEqual(spawnPoint(7));
    expect(chooseSpawnPoint(2, crowd)).toEqual(chooseSpawnPoint(2, crowd));
  });

  it('a respawn anywhere on a spawn point is recognised as one', () => {
    for (const p of spawnPoints()) expect(nearSpawnPoint({ ...p, x: p.x + 1 }, 2)).toBe(true);
    expect(nearSpawnPoint({ x: SPAWN_SPACING / 2, y: 0, z: 0 }, 2)).toBe(false);
  });

  it('new worlds start with every spawn point clear of asteroids (50 seeds, dense fields)', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const world = createWorld(seed, { asteroids: 200, radius: 300 });
      for (const p of spawnPoints()) for (const a of world.asteroids) expect(dist(p, a.pos) - a.radius).toBeGreaterThanOrEqual(ASTEROID_CLEARANCE);
    }
  });
});
