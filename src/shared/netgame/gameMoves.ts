/**
 * Purple Martians' game-moves array: every control change of every player
 * (and every join and leave), tagged with the frame it applies to, in the
 * order the server entered them. The server holds the master array; each
 * client a copy synchronised from it, so every node applies the same moves
 * at the same frames. Entry positions only grow; old entries are forgotten
 * once no one needs them.
 */
import type { FrameInput } from '../wire/types';

/** What a move does at its frame. */
export const MoveKind = {
  /** The player's controls become `input`. */
  Input: 0,
  /** The player's ship enters the game (on a free spawn point). */
  Join: 1,
  /** The player's ship leaves the game. */
  Leave: 2,
} as const;
export type MoveKind = (typeof MoveKind)[keyof typeof MoveKind];

export interface GameMove {
  frame: number;
  kind: MoveKind;
  slot: number;
  input: FrameInput;
}

export class GameMoves {
  private entries: GameMove[] = [];
  /** Position of entries[0]. */
  private first = 0;

  /** The next entry's position (= entries ever added). */
  get end(): number {
    return this.first + this.entries.length;
  }

  /** The position of the oldest entry still held. */
  get start(): number {
    return this.first;
  }

  /** Appends a move; returns its position. */
  add(move: GameMove): number {
    this.entries.push(move);
    return this.end - 1;
  }

  /** Up to `max` entries from position `pos` (fewer when the array ends or `pos` was forgotten). */
  from(pos: number, max: number): GameMove[] {
    const i = Math.max(0, pos - this.first);
    return this.entries.slice(i, i + max);
  }

  /**
   * A copy's update: `moves` are the entries from position `pos`. Only those
   * past our end are taken, and only when they join on without a gap.
   * Returns how many were new.
   */
  merge(pos: number, moves: readonly GameMove[]): number {
    if (pos > this.end) return 0;
    const fresh = moves.slice(this.end - pos);
    for (const m of fresh) this.entries.push(m);
    return fresh.length;
  }

  /** A copy that starts at position `pos` (a newcomer: everything before is in the state it was given). */
  startAt(pos: number): void {
    this.entries = [];
    this.first = pos;
  }

  /** The moves for `frame`, in entry order. */
  forFrame(frame: number): GameMove[] {
    return this.entries.filter((m) => m.frame === frame);
  }

  /** Forgets entries before position `pos`. */
  forgetBefore(pos: number): void {
    const n = Math.min(this.entries.length, pos - this.first);
    if (n <= 0) return;
    this.entries = this.entries.slice(n);
    this.first += n;
  }
}
