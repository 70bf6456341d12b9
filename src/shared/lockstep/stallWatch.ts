/**
 * A lockstep peer's stall as the player reads it: nothing said for
 * WAIT_SHOWN_MS (a frame late is no news), then "waiting for <name> (0 s)"
 * and again every whole second, and once it is over (frames move, or a
 * state transfer ends it) that it is over.
 */
import { WAIT_SHOWN_MS } from './config';
import type { LockstepNotice } from './engineTypes';

export class StallWatch {
  private since: number | null = null;
  private shown = -1;

  constructor(private readonly notify: (n: LockstepNotice) => void) {}

  /** A tick that stepped no frame; `waitingFor` says whom we wait for (and whether for a state) when it is time to say so. */
  stalled(now: number, waitingFor: () => { slots: number[]; forState: boolean }): void {
    if (this.since === null) this.since = now;
    const waited = now - this.since;
    if (waited < WAIT_SHOWN_MS) return;
    const seconds = Math.floor(waited / 1000);
    if (seconds <= this.shown) return;
    this.shown = seconds;
    const { slots, forState } = waitingFor();
    if (slots.length > 0) this.notify({ kind: 'waiting', slots, forState, seconds });
  }

  /** The stall is over: a shown one is said to be over. */
  ended(now: number): void {
    if (this.shown >= 0 && this.since !== null) this.notify({ kind: 'resumed', afterMs: now - this.since });
    this.reset();
  }

  reset(): void {
    this.since = null;
    this.shown = -1;
  }
}
