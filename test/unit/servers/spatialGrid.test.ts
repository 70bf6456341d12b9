/**
 * The gameserver's spatial grid (src/node/servers/game/spatialGrid.ts): a
 * state is judged against the players in its cell and the 26 around it, so
 * the grid must never leave out a player within range, wherever the two are
 * and however they moved; players whose position is not known are near
 * everyone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpatialGrid } from '../../../src/node/servers/game/spatialGrid';
import type { Vec3 } from '../../../src/shared/sim/types';

const coord = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const near = fc.double({ min: -3000, max: 3000, noNaN: true });
const vec = (c: fc.Arbitrary<number>) => fc.record({ x: c, y: c, z: c });
const dist = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

describe('the spatial grid', () => {
  it('never leaves out a player within a cell\'s width, after any moves, anywhere in the arena', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), vec(coord), fc.array(fc.array(vec(near), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 40 }), (cell, centre, paths) => {
        const grid = new SpatialGrid<{ id: number }>(cell);
        const players = paths.map((_, id) => ({ id }));
        const at = new Map<number, Vec3>();
        // Each player moves along its path (positions round the centre), the grid told of each move.
        paths.forEach((path, id) => {
          for (const p of path) {
            const pos = { x: centre.x + p.x, y: centre.y + p.y, z: centre.z + p.z };
            grid.place(players[id]!, pos);
            at.set(id, pos);
          }
        });
        for (const [id, pos] of at) {
          const found = new Set(grid.near(pos, players).map((p) => p.id));
          for (const [other, o] of at) if (dist(pos, o) <= cell) expect(found.has(other), `player ${other} ${dist(pos, o).toFixed(1)} from ${id}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a player with no position yet is near everyone, and one at an unknown place gets everyone; a removed one is nowhere', () => {
    const grid = new SpatialGrid<{ id: number }>(100);
    const [a, b, c] = [{ id: 1 }, { id: 2 }, { id: 3 }];
    grid.place(a, { x: 0, y: 0, z: 0 });
    grid.place(b, { x: 5000, y: 0, z: 0 });
    grid.place(c, undefined);
    expect(grid.near({ x: 0, y: 0, z: 0 }, [a, b, c]).map((p) => p.id).sort()).toEqual([1, 3]);
    expect(grid.near(undefined, [a, b, c]).map((p) => p.id).sort()).toEqual([1, 2, 3]);
    grid.remove(c);
    grid.place(b, { x: 50, y: 0, z: 0 });
    expect(grid.near({ x: 0, y: 0, z: 0 }, [a, b]).map((p) => p.id).sort()).toEqual([1, 2]);
  });
});
