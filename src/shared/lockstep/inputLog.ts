/**
 * Every pilot's quantised input by frame, as a lockstep peer has heard it
 * (its own included). A pilot's input for a frame is fixed once chosen: the
 * first copy heard is kept, later copies (resends, redundant repeats) change
 * nothing. Frames far below the game's frame are forgotten, frames far above
 * it refused, so a hostile peer cannot make it grow without bound.
 */
import type { FrameInput } from '../wire/types';

/** Frames above the current one a peer may send inputs for (about 6 s); farther ones are dropped. */
export const MAX_FRAMES_AHEAD = 256;

export class InputLog {
  private readonly byFrame = new Map<number, Map<number, FrameInput>>();
  /** Frames below this have been forgotten. */
  private floor = 0;

  /** Records `slot`'s input for `frame` unless one is known (or the frame is out of the window around `current`). Returns whether it was new. */
  set(slot: number, frame: number, input: FrameInput, current: number): boolean {
    if (frame < this.floor || frame > current + MAX_FRAMES_AHEAD) return false;
    let inputs = this.byFrame.get(frame);
    if (!inputs) {
      inputs = new Map();
      this.byFrame.set(frame, inputs);
    }
    if (inputs.has(slot)) return false;
    inputs.set(slot, input);
    return true;
  }

  get(slot: number, frame: number): FrameInput | undefined {
    return this.byFrame.get(frame)?.get(slot);
  }

  /** The slots of `slots` whose input for `frame` is missing. */
  missing(frame: number, slots: readonly number[]): number[] {
    const inputs = this.byFrame.get(frame);
    return slots.filter((s) => !inputs?.has(s));
  }

  /** `slot`'s inputs for `from`, `from + 1`, … as far as they are known without a gap, at most `max`. */
  run(slot: number, from: number, max: number): FrameInput[] {
    const out: FrameInput[] = [];
    for (let f = from; out.length < max; f++) {
      const input = this.get(slot, f);
      if (!input) break;
      out.push(input);
    }
    return out;
  }

  /** Forgets every frame below `frame`. */
  forgetBelow(frame: number): void {
    if (frame <= this.floor) return;
    for (const f of this.byFrame.keys()) if (f < frame) this.byFrame.delete(f);
    this.floor = frame;
  }

  /** A state transfer took the game back to `frame`: inputs from there on are taken again. */
  reopenFrom(frame: number): void {
    this.floor = Math.min(this.floor, frame);
  }

  /** Forgets every input of `slot` (it left the game: a newcomer in its slot starts afresh). */
  forgetSlot(slot: number): void {
    for (const inputs of this.byFrame.values()) inputs.delete(slot);
  }

  /** Frames held (for tests and the leak check). */
  get size(): number {
    return this.byFrame.size;
  }

  clear(): void {
    this.byFrame.clear();
    this.floor = 0;
  }
}
