/**
 * Fixed-timestep clock: the accumulator of Glenn Fiedler's "Fix Your Timestep!".
 *
 * The caller owns the real clock: each frame it passes the current monotonic
 * time in ms and runs `steps` simulation steps, then renders interpolating
 * between the previous and the current state with `alpha`. The clock itself
 * never reads time, so it is pure TypeScript and fully testable.
 *
 * Spiral-of-death protection: a single frame longer than `maxFrameMs` is
 * clamped, and no more than `maxStepsPerFrame` steps are handed out per frame;
 * time dropped by either is reported as `droppedMs` (the simulation then runs
 * slower than real time instead of falling ever further behind).
 */

/** Tuning of a {@link FixedStepClock}. All must be finite and > 0; maxStepsPerFrame an integer. */
export interface FixedStepOptions {
  /** Length of one simulation step (ms). */
  stepMs: number;
  /** Longest frame time taken into account (ms); the rest is dropped. */
  maxFrameMs: number;
  /** Most steps handed out by one `advance` call; the excess time is dropped. */
  maxStepsPerFrame: number;
}

/** 40 Hz steps, frames clamped to 250 ms, at most 8 steps per frame. */
export const DEFAULT_FIXED_STEP: FixedStepOptions = Object.freeze({ stepMs: 25, maxFrameMs: 250, maxStepsPerFrame: 8 });

/** Result of {@link FixedStepClock.advance}. */
export interface FixedStepAdvance {
  /** Simulation steps to run now (0…maxStepsPerFrame). */
  steps: number;
  /** Leftover time as a fraction of a step, in [0, 1): render at prev + alpha·(cur − prev). */
  alpha: number;
  /** Real time (ms) discarded this call by the frame clamp or the step cap. */
  droppedMs: number;
}

/** The fixed-step accumulator; see the file comment. Not tied to any clock. */
export class FixedStepClock {
  /** The options in effect (defaults filled in). */
  readonly options: Readonly<FixedStepOptions>;
  private last: number | null = null;
  private accumulator = 0;
  private steps = 0;
  private dropped = 0;

  /** Throws RangeError when an option is not a finite positive number (or maxStepsPerFrame not an integer). */
  constructor(options: Partial<FixedStepOptions> = {}) {
    const o: FixedStepOptions = { ...DEFAULT_FIXED_STEP, ...stripUndefined(options) };
    for (const key of ['stepMs', 'maxFrameMs', 'maxStepsPerFrame'] as const) {
      if (!Number.isFinite(o[key]) || o[key] <= 0) throw new RangeError(`FixedStepClock: ${key} must be a finite number > 0, got ${o[key]}`);
    }
    if (!Number.isInteger(o.maxStepsPerFrame)) throw new RangeError(`FixedStepClock: maxStepsPerFrame must be an integer, got ${o.maxStepsPerFrame}`);
    this.options = Object.freeze(o);
  }

  /**
   * Feed the current time (ms, monotonic); returns how many fixed steps to run
   * now and the interpolation factor alpha in [0, 1). The first call (and the
   * first after `reset`) only sets the origin: 0 steps. Frame time is clamped
   * to maxFrameMs, steps are capped at maxStepsPerFrame, and the time dropped
   * by either is reported. A non-finite time is ignored (0 steps, state kept);
   * a time earlier than the previous one re-bases the origin (0 steps).
   * `limits` overrides the clamp and cap for this call only (a hidden page,
   * woken about once a second, catches up in larger batches).
   */
  advance(nowMs: number, limits: Partial<Pick<FixedStepOptions, 'maxFrameMs' | 'maxStepsPerFrame'>> = {}): FixedStepAdvance {
    const { stepMs } = this.options;
    const maxFrameMs = limits.maxFrameMs ?? this.options.maxFrameMs;
    const maxStepsPerFrame = limits.maxStepsPerFrame ?? this.options.maxStepsPerFrame;
    if (!Number.isFinite(nowMs)) return { steps: 0, alpha: this.alpha(), droppedMs: 0 };
    if (this.last === null || nowMs < this.last) {
      this.last = nowMs;
      return { steps: 0, alpha: this.alpha(), droppedMs: 0 };
    }
    let frame = nowMs - this.last;
    this.last = nowMs;
    let droppedMs = 0;
    if (frame > maxFrameMs) {
      droppedMs += frame - maxFrameMs;
      frame = maxFrameMs;
    }
    this.accumulator += frame;
    const due = Math.floor(this.accumulator / stepMs);
    let steps = due;
    if (steps > maxStepsPerFrame) {
      droppedMs += (due - maxStepsPerFrame) * stepMs;
      steps = maxStepsPerFrame;
    }
    this.accumulator -= due * stepMs;
    if (this.accumulator < 0) this.accumulator = 0; // rounding residue
    this.steps += steps;
    this.dropped += droppedMs;
    return { steps, alpha: this.alpha(), droppedMs };
  }

  /** Forget the origin and the accumulated time (the next `advance` sets a new origin). Totals are kept. */
  reset(): void {
    this.last = null;
    this.accumulator = 0;
  }

  /** Steps handed out since construction. */
  get totalSteps(): number {
    return this.steps;
  }

  /** Milliseconds dropped (clamp + cap) since construction. */
  get totalDroppedMs(): number {
    return this.dropped;
  }

  private alpha(): number {
    const a = this.accumulator / this.options.stepMs;
    if (!(a > 0)) return 0;
    return a < 1 ? a : 1 - Number.EPSILON;
  }
}

function stripUndefined(o: Partial<FixedStepOptions>): Partial<FixedStepOptions> {
  const out: Partial<FixedStepOptions> = {};
  for (const key of ['stepMs', 'maxFrameMs', 'maxStepsPerFrame'] as const) {
    const v = o[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}
