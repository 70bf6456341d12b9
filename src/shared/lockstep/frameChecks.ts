/**
 * The world hashes a lockstep peer compares: its own at every check frame
 * (every HASH_EVERY frames) and its recent worlds (hashed only when a state
 * transfer needs them, to find the first frame that differed — worlds are
 * immutable, so keeping them costs only what changed), and the newest check
 * each peer reported. Hashes of different
 * epochs (worlds before and after a state transfer) are never compared.
 */
import { hashWorld } from '../game/hash';
import type { World } from '../game/types';
import { HASH_EVERY, HASH_RING } from './config';

export interface Check {
  frame: number;
  hash: string;
}

/** A peer's check that differs from ours. */
export interface Mismatch {
  slot: number;
  frame: number;
  ours: string;
  theirs: string;
}

export class FrameChecks {
  /** Our check hashes of this epoch, by frame (the last few). */
  private readonly own = new Map<number, string>();
  /** Our worlds of the last HASH_RING frames of this epoch, by frame. */
  private readonly ring = new Map<number, World>();
  /** Each peer's newest reported check of this epoch not yet compared (we had not reached its frame). */
  private readonly pending = new Map<number, Check>();
  private newest: Check | null = null;

  /** The world after a step (its tick is the frame it reached): hashed; a check frame's hash is returned. */
  record(world: World): Check | null {
    const frame = world.tick;
    this.ring.set(frame, world);
    this.ring.delete(frame - HASH_RING);
    if (frame % HASH_EVERY !== 0) return null;
    const hash = hashWorld(world);
    this.own.set(frame, hash);
    this.own.delete(frame - 4 * HASH_EVERY);
    this.newest = { frame, hash };
    return this.newest;
  }

  /** Our newest check (what our frame packets report), or null. */
  get latest(): Check | null {
    return this.newest;
  }

  /** A peer's reported check: compared now if we have that frame, else kept until we do. Returns a mismatch, if any. */
  heard(slot: number, check: Check): Mismatch | null {
    const ours = this.own.get(check.frame);
    if (ours === undefined) {
      const before = this.pending.get(slot);
      if (!before || check.frame > before.frame) this.pending.set(slot, check);
      return null;
    }
    this.pending.delete(slot);
    return ours === check.hash ? null : { slot, frame: check.frame, ours, theirs: check.hash };
  }

  /** After a step: the peers' checks for frames we have now reached, compared. */
  settle(): Mismatch[] {
    const out: Mismatch[] = [];
    for (const [slot, check] of this.pending) {
      const ours = this.own.get(check.frame);
      if (ours === undefined) continue;
      this.pending.delete(slot);
      if (ours !== check.hash) out.push({ slot, frame: check.frame, ours, theirs: check.hash });
    }
    return out;
  }

  /** Our recent per-frame hashes, oldest first, as a run of consecutive frames ending at the newest (for a state transfer). */
  recent(): { from: number; hashes: number[] } {
    const frames = [...this.ring.keys()].sort((a, b) => a - b);
    const last = frames[frames.length - 1];
    if (last === undefined) return { from: 0, hashes: [] };
    let from = last;
    while (this.ring.has(from - 1)) from--;
    const hashes: number[] = [];
    for (let f = from; f <= last; f++) hashes.push(hash32(this.ring.get(f) as World));
    return { from, hashes };
  }

  /** The first frame where our hash differs from `hashes` (a run from frame `from`), or null when every frame both have agrees. */
  firstDifference(from: number, hashes: readonly number[]): number | null {
    for (let i = 0; i < hashes.length; i++) {
      const ours = this.ring.get(from + i);
      if (ours !== undefined && hash32(ours) !== hashes[i]) return from + i;
    }
    return null;
  }

  /** A new epoch: nothing of the old one is compared again. */
  clear(): void {
    this.own.clear();
    this.ring.clear();
    this.pending.clear();
    this.newest = null;
  }

  /** A peer left: its pending check goes. */
  forget(slot: number): void {
    this.pending.delete(slot);
  }
}

/** The low 32 bits of a world's hash. */
function hash32(world: World): number {
  return parseInt(hashWorld(world).slice(8), 16);
}
