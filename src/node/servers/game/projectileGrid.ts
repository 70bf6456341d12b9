/**
 * Lasers by place, for hit confirmation (hitConfirm.ts): each laser is kept
 * in every cube of CELL units that comes within its reach of its path (the
 * cube's centre within `reach` + half the cube's diagonal of the segment it
 * flies along), so a ship state looks only at the lasers kept in the cubes
 * its own path's box touches, not at every laser in the game. A laser the
 * state could be near or hit by has a point of its path within its reach of
 * a point of the ship's path; the cube of that ship point is in the state's
 * box and was within the laser's reach: nothing the full scan would judge is
 * missed, and the caller still runs the same checks on what it is given.
 *
 * Cube indices are clamped to ±32,767 (positions past ±4 million units share
 * the border cubes: more candidates, none missed, since clamping keeps
 * overlapping ranges overlapping, and a clamped cube is kept whatever its
 * distance). A laser whose box would hold more than MAX_CELLS_PER_ITEM cubes
 * (absurd speeds) is kept in `everywhere`, which every query also visits; a
 * query whose box would touch more than MAX_QUERY_CELLS cubes (a ship that
 * jumped across the map) is refused, and the caller scans everything instead.
 */
import type { Vec3 } from '../../../shared/sim/types';

/** Edge of a cube (units): a laser's flight (600 units) passes through a few dozen; a ship's 50 ms of flight, one or two. */
export const CELL = 128;
const MAX_CELLS_PER_ITEM = 4096;
/** Half a cube's diagonal: a point of a cube is at most this far from its centre. */
const HALF_DIAGONAL = (CELL * Math.sqrt(3)) / 2;
const MAX_QUERY_CELLS = 64;
const LIMIT = 32_767;

/** What the grid places: the reach its checks look within, and the stamp of the last query that visited it. */
export interface Placed {
  reach: number;
  seen: number;
}

const cellOf = (v: number): number => Math.max(-LIMIT, Math.min(LIMIT, Math.floor(v / CELL)));
const keyOf = (x: number, y: number, z: number): number => ((x + LIMIT) * 65_536 + (y + LIMIT)) * 65_536 + (z + LIMIT);

export class ProjectileGrid<T extends Placed> {
  private readonly cells = new Map<number, T[]>();
  /** Placed where every query finds them (their box was too large to place). */
  private readonly everywhere: T[] = [];
  private stamp = 0;

  /** Forgets everything placed. */
  clear(): void {
    this.cells.clear();
    this.everywhere.length = 0;
  }

  /** Keeps `p`, which flies along the segment `from`–`to`, in the cubes within its reach of that segment. */
  add(p: T, from: Vec3, to: Vec3): void {
    const r = p.reach;
    const ax = from.x;
    const ay = from.y;
    const az = from.z;
    const dx = to.x - ax;
    const dy = to.y - ay;
    const dz = to.z - az;
    if (!(Number.isFinite(r) && Number.isFinite(ax + ay + az + dx + dy + dz))) {
      this.everywhere.push(p);
      return;
    }
    const x0 = cellOf(Math.min(ax, to.x) - r);
    const x1 = cellOf(Math.max(ax, to.x) + r);
    const y0 = cellOf(Math.min(ay, to.y) - r);
    const y1 = cellOf(Math.max(ay, to.y) + r);
    const z0 = cellOf(Math.min(az, to.z) - r);
    const z1 = cellOf(Math.max(az, to.z) + r);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1) > MAX_CELLS_PER_ITEM) {
      this.everywhere.push(p);
      return;
    }
    const l2 = dx * dx + dy * dy + dz * dz;
    const keep = (r + HALF_DIAGONAL) * (r + HALF_DIAGONAL);
    for (let i = x0; i <= x1; i++)
      for (let j = y0; j <= y1; j++)
        for (let k = z0; k <= z1; k++) {
          // The cube's centre against the segment (a border cube, which stands for everything beyond, is always kept).
          if (i > -LIMIT && i < LIMIT && j > -LIMIT && j < LIMIT && k > -LIMIT && k < LIMIT) {
            const cx = (i + 0.5) * CELL - ax;
            const cy = (j + 0.5) * CELL - ay;
            const cz = (k + 0.5) * CELL - az;
            const t = l2 > 0 ? Math.min(1, Math.max(0, (cx * dx + cy * dy + cz * dz) / l2)) : 0;
            const ex = cx - dx * t;
            const ey = cy - dy * t;
            const ez = cz - dz * t;
            if (ex * ex + ey * ey + ez * ez > keep) continue;
          }
          const key = keyOf(i, j, k);
          const list = this.cells.get(key);
          if (list) list.push(p);
          else this.cells.set(key, [p]);
        }
  }

  /**
   * Calls `visit` once for each laser placed in a cube that the box of
   * half-edge `r` round (`x`, `y`, `z`) touches, and for each kept
   * everywhere; false (and nothing visited) when that box is too large.
   */
  visit(x: number, y: number, z: number, r: number, visit: (p: T) => void): boolean {
    const x0 = cellOf(x - r);
    const x1 = cellOf(x + r);
    const y0 = cellOf(y - r);
    const y1 = cellOf(y + r);
    const z0 = cellOf(z - r);
    const z1 = cellOf(z + r);
    if (!(r >= 0) || (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1) > MAX_QUERY_CELLS) return false;
    const stamp = ++this.stamp;
    for (let i = x0; i <= x1; i++)
      for (let j = y0; j <= y1; j++)
        for (let k = z0; k <= z1; k++) {
          const list = this.cells.get(keyOf(i, j, k));
          if (!list) continue;
          for (const p of list) {
            if (p.seen === stamp) continue;
            p.seen = stamp;
            visit(p);
          }
        }
    for (const p of this.everywhere) visit(p);
    return true;
  }
}
