/**
 * The players whose newest state one client is still to be sent, in the
 * order their states came: a list indexed by slot instead of a Set, so the
 * forwarding of states (the server's hottest path: every player's state to
 * every other, 20 times a second) neither allocates nor rehashes as the
 * list fills and empties each flush. Deleting marks a hole; holes are closed
 * after each visit (and when they pile up between visits).
 */
import { NO_SLOT } from '../../../shared/wire/types';

/** Length (players and holes) past which an add first closes the holes: twice the slots, so closing is rare and the list stays small. */
const MAX_LENGTH = 2 * (NO_SLOT + 1);

export class DueStates<T extends { readonly slot: number }> {
  private readonly items: (T | null)[] = [];
  /** Index in `items` by slot; -1: not due. */
  private readonly index = new Int32Array(NO_SLOT + 1).fill(-1);
  private length = 0;
  private count = 0;

  /** Players due. */
  get size(): number {
    return this.count;
  }

  has(t: T): boolean {
    const i = this.index[t.slot] ?? -1;
    return i >= 0 && this.items[i] === t;
  }

  /** `t`'s newest state is due (at the end of the order, unless it was due already). */
  add(t: T): void {
    if (this.has(t)) return;
    if (this.length >= MAX_LENGTH) this.compact();
    this.index[t.slot] = this.length;
    this.items[this.length++] = t;
    this.count += 1;
  }

  /** `t` is not due (any more). */
  delete(t: T): void {
    const i = this.index[t.slot] ?? -1;
    if (i < 0 || this.items[i] !== t) return;
    this.items[i] = null;
    this.index[t.slot] = -1;
    this.count -= 1;
  }

  /**
   * Calls `visit` for each player due, in order, until it returns false;
   * `visit` may delete the one it was given (not others, nor add).
   */
  visit(visit: (t: T) => boolean): void {
    for (let i = 0; i < this.length; i++) {
      const t = this.items[i];
      if (t !== null && t !== undefined && !visit(t)) break;
    }
    this.compact();
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
