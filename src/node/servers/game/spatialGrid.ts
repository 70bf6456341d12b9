/**
 * The gameserver's spatial grid: players by cube cell, each cell as wide as
 * the farthest a pair can be and still in range (the filter radius and its
 * hysteresis), so every player within range of one lies in its own cell or
 * the 26 around it. A state arriving is judged against those players only
 * (and the ones whose position is not known yet, who are never filtered):
 * a tick costs the number of players times the number each one has near,
 * not the number of players squared.
 *
 * Cells are found by a hash of their integer coordinates; two cells sharing
 * a hash only add players to look at (each is still judged by its distance),
 * never hide one.
 */
import type { Vec3 } from '../../../shared/sim/types';

/** What the grid keeps: anything with a stable id. */
interface Placed {
  readonly id: number;
}

/** No cell: the position is not known. */
const NOWHERE = Number.NaN;

export class SpatialGrid<T extends Placed> {
  private readonly cells = new Map<number, Set<T>>();
  private readonly cellOf = new Map<number, number>();
  /** Players whose position is not known yet: near everyone. */
  private readonly unplaced = new Set<T>();

  constructor(
    /** Width of a cell: the farthest two players can be and still be in range. */
    private readonly cell: number,
  ) {}

  private keyOf(cx: number, cy: number, cz: number): number {
    // A 31-bit hash of the three integer coordinates (Teschner et al.); collisions only add candidates.
    return (Math.imul(cx, 73856093) ^ Math.imul(cy, 19349663) ^ Math.imul(cz, 83492791)) >>> 1;
  }

  /** `t` is at `pos` now (undefined: not known). */
  place(t: T, pos: Vec3 | undefined): void {
    const key = pos === undefined ? NOWHERE : this.keyOf(Math.floor(pos.x / this.cell), Math.floor(pos.y / this.cell), Math.floor(pos.z / this.cell));
    const was = this.cellOf.get(t.id);
    if (was === key || (was !== undefined && Number.isNaN(was) && Number.isNaN(key))) return;
    this.leave(t);
    this.cellOf.set(t.id, key);
    if (Number.isNaN(key)) {
      this.unplaced.add(t);
      return;
    }
    let set = this.cells.get(key);
    if (!set) {
      set = new Set();
      this.cells.set(key, set);
    }
    set.add(t);
  }

  /** `t` is gone. */
  remove(t: T): void {
    this.leave(t);
    this.cellOf.delete(t.id);
  }

  private leave(t: T): void {
    const was = this.cellOf.get(t.id);
    if (was === undefined) return;
    if (Number.isNaN(was)) {
      this.unplaced.delete(t);
      return;
    }
    const set = this.cells.get(was);
    if (!set) return;
    set.delete(t);
    if (set.size === 0) this.cells.delete(was);
  }

  /**
   * The players that may be in range of one at `pos`: those in its cell and
   * the 26 around it, and those whose position is not known (everyone, when
   * `pos` is not known). Each once, in a new array (`visitNear` makes none).
   */
  near(pos: Vec3 | undefined, everyone: Iterable<T>): T[] {
    const out: T[] = [];
    this.visitNear(pos, everyone, (t) => out.push(t));
    return out;
  }

  /** Calls `visit` with each player `near` would return (the grid must not change meanwhile). */
  visitNear(pos: Vec3 | undefined, everyone: Iterable<T>, visit: (t: T) => void): void {
    if (pos === undefined) {
      for (const t of everyone) visit(t);
      return;
    }
    const cx = Math.floor(pos.x / this.cell);
    const cy = Math.floor(pos.y / this.cell);
    const cz = Math.floor(pos.z / this.cell);
    // Hash collisions may make two neighbours one cell: each cell's players are taken once.
    const seen = this.seenKeys;
    let n = 0;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dz = -1; dz <= 1; dz++) {
          const key = this.keyOf(cx + dx, cy + dy, cz + dz);
          let taken = false;
          for (let i = 0; i < n && !taken; i++) taken = seen[i] === key;
          if (taken) continue;
          seen[n++] = key;
          const set = this.cells.get(key);
          if (set) for (const t of set) visit(t);
        }
      }
    }
    for (const t of this.unplaced) visit(t);
  }

  /** The neighbourhood's cell keys taken so far by `visitNear` (27 at most; no set to clear per arrival). */
  private readonly seenKeys = new Uint32Array(27);
}
