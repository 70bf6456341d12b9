/**
 * An insertion-ordered set of seats, keyed by slot: a list indexed by slot
 * instead of a Set, so the forwarding of states (the server's hottest path:
 * every player's state to every other, 20 times a second) neither allocates
 * nor rehashes as it fills and empties each flush. A seat's `due` players
 * (whose newest state it is still to be sent, in the order they came) and
 * the forwarder's dirty seats are kept so. Deleting marks a hole; holes are
 * closed after each visit (and when they pile up between visits).
 */
import { NO_SLOT } from '../../../shared/wire/types';

/** Length (players and holes) past which an add first closes the holes: twice the slots, so closing is rare and the list stays small. */
const MAX_LENGTH = 2 * (NO_SLOT + 1);

export class SlotSet<T extends { readonly slot: number }> {
  private readonly items: (T | null)[] = [];
  /** Index in `items` by slot; -1: not due. */
  private readonly index = new Int32Array(NO_SLOT + 1).fill(-1);
  private length = 0;
  private count = 0;
  /** A visit is running: holes stay where they are until it ends. */
  private visiting = false;

  /** Seats in the set. */
  get size(): number {
    return this.count;
  }

  has(t: T): boolean {
    const i = this.index[t.slot] ?? -1;
    return i >= 0 && this.items[i] === t;
  }

  /** Adds `t` at the end of the order (unless it is in the set already). */
  add(t: T): void {
    if (this.has(t)) return;
    if (this.length >= MAX_LENGTH && !this.visiting) this.compact();
    this.index[t.slot] = this.length;
    this.items[this.length++] = t;
    this.count += 1;
  }

  /** Takes `t` out of the set (if it is there). */
  delete(t: T): void {
    const i = this.index[t.slot] ?? -1;
    if (i < 0 || this.items[i] !== t) return;
    this.items[i] = null;
    this.index[t.slot] = -1;
    this.count -= 1;
  }

  /** Empties the set. */
  clear(): void {
    for (let i = 0; i < this.length; i++) {
      const t = this.items[i];
      if (t !== null && t !== undefined) this.index[t.slot] = -1;
      this.items[i] = null;
    }
    this.length = 0;
    this.count = 0;
  }

  /**
   * Calls `visit` for each seat in the set, in order, until it returns false;
   * `visit` may delete any seat (one deleted before its turn is not visited)
   * and add one (visited in this pass, at the end).
   */
  visit(visit: (t: T) => boolean): void {
    this.visiting = true;
    try {
      for (let i = 0; i < this.length; i++) {
        const t = this.items[i];
        if (t !== null && t !== undefined && !visit(t)) break;
      }
    } finally {
      this.visiting = false;
      this.compact();
    }
  }

  /** Closes the holes, keeping the order. */
  private compact(): void {
    let w = 0;
    for (let r = 0; r < this.length; r++) {
      const t = this.items[r];
      if (t === null || t === undefined) continue;
      this.items[w] = t;
      this.index[t.slot] = w;
      w += 1;
    }
    for (let r = w; r < this.length; r++) this.items[r] = null;
    this.length = w;
  }
}
