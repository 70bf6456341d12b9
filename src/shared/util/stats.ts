/**
 * Loop statistics: percentiles and a sliding-window meter of the game loop
 * (achieved tick rate, frame rate, frame-time percentiles). Pure TypeScript:
 * the caller passes the times in, nothing here reads a clock.
 */

/**
 * Nearest-rank percentile of `values` (p in 0…100, clamped; NaN p counts as 0)
 * computed on a sorted copy; NaN values are ignored; 0 for an empty input.
 * p = 0 gives the minimum, p = 100 the maximum. Does not mutate `values`.
 */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((v) => v === v).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return 0;
  const q = p === p ? Math.min(100, Math.max(0, p)) : 0;
  const rank = Math.max(1, Math.ceil((q * n) / 100));
  return sorted[Math.min(n, rank) - 1]!;
}

/**
 * The last `kept` values of a measure (a ring: the oldest go first) and
 * their median and 99th percentile, rounded to 0.1 (the value at index
 * ⌊q × n⌋ of the sorted values: with 100 values the 99th percentile is the
 * largest). A server's status figures: how late its tick ran, how long its
 * input waited.
 */
export class RecentSamples {
  private readonly values: number[] = [];
  private at = 0;

  constructor(private readonly kept: number) {}

  add(v: number): void {
    if (this.values.length < this.kept) this.values.push(v);
    else this.values[this.at] = v;
    this.at = (this.at + 1) % this.kept;
  }

  /** Median and 99th percentile of the values kept ({ 0, 0 } before the first). */
  p50p99(): { p50: number; p99: number } {
    if (this.values.length === 0) return { p50: 0, p99: 0 };
    const sorted = [...this.values].sort((a, b) => a - b);
    const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) * 10) / 10;
    return { p50: at(0.5), p99: at(0.99) };
  }
}

/** What a {@link LoopMeter} measured over its window. Rates are per second of covered time. */
export interface LoopStatsSnapshot {
  /** Simulation steps per second over the covered time. */
  tickHz: number;
  /** Frames per second over the covered time. */
  fps: number;
  /** Nearest-rank percentiles of the recorded frame times (ms). */
  frameMsP50: number;
  frameMsP95: number;
  frameMsP99: number;
  /** Seconds actually covered: min(window, time since measurement started). */
  windowS: number;
  /** Steps and frames counted in the covered time. */
  ticks: number;
  frames: number;
}

interface Sample {
  t: number;
  frameMs: number;
  steps: number;
}

/**
 * Sliding-window meter of the game loop. Call `recordFrame` once per frame
 * (after running the frame's steps) and `snapshot` whenever stats are wanted.
 *
 * Time coverage: samples newer than now − windowMs are kept, and their steps
 * are divided by the time they cover — from the end of the frame before the
 * oldest kept one to now (slightly over the window). The very first recorded
 * frame only marks the start of measurement (its steps belong to time before
 * the meter existed and are not counted), so while the meter is younger than
 * the window the covered time is "now − first frame". Samples are dropped as
 * they leave the window, and beyond `maxSamples` the oldest are dropped early
 * (the covered time then starts at the newest dropped one): memory is bounded.
 */
export class LoopMeter {
  private samples: Sample[] = [];
  private head = 0;
  /** Time from which counting starts: the first frame, or the newest dropped sample. */
  private origin: number | null = null;
  private lastT = -Infinity;

  /** `windowMs` (default 5000) and `maxSamples` (default 10,000) must be > 0; bad values fall back to the defaults. */
  constructor(
    readonly windowMs = 5000,
    readonly maxSamples = 10_000,
  ) {
    if (!(windowMs > 0) || !Number.isFinite(windowMs)) this.windowMs = 5000;
    if (!(maxSamples >= 1) || !Number.isFinite(maxSamples)) this.maxSamples = 10_000;
  }

  /**
   * Record one frame that ended at `nowMs` (monotonic ms; an earlier time is
   * treated as the latest seen, a non-finite one is ignored), took `frameMs`
   * and ran `steps` simulation steps (non-finite or negative → 0).
   */
  recordFrame(nowMs: number, frameMs: number, steps: number): void {
    if (!Number.isFinite(nowMs)) return;
    const t = Math.max(nowMs, this.lastT);
    this.lastT = t;
    if (this.origin === null) {
      this.origin = t;
      return;
    }
    this.samples.push({
      t,
      frameMs: Number.isFinite(frameMs) ? frameMs : 0,
      steps: Number.isFinite(steps) && steps > 0 ? steps : 0,
    });
    this.prune(t);
  }

  /**
   * Stats of the frames in the window ending at `nowMs` (a time before the
   * last recorded frame, or a non-finite one, counts as that frame's time).
   * Drops samples that have left the window. All zeros before two frames
   * have been recorded.
   */
  snapshot(nowMs: number): LoopStatsSnapshot {
    const now = Number.isFinite(nowMs) ? Math.max(nowMs, this.lastT) : this.lastT;
    if (this.origin === null || !Number.isFinite(now)) return emptySnapshot();
    this.prune(now);
    // The kept samples' steps cover exactly (origin, now]: origin is the end of
    // the frame before the first kept one. Dividing by that span (a little
    // over the window) keeps a long frame straddling the window's start from
    // counting its catch-up steps against too short a time.
    const start = this.origin ?? now;
    const coveredMs = now - start;
    const kept = this.samples.slice(this.head);
    let ticks = 0;
    for (const s of kept) ticks += s.steps;
    const frameTimes = kept.map((s) => s.frameMs);
    const perSecond = coveredMs > 0 ? 1000 / coveredMs : 0;
    return {
      tickHz: ticks * perSecond,
      fps: kept.length * perSecond,
      frameMsP50: percentile(frameTimes, 50),
      frameMsP95: percentile(frameTimes, 95),
      frameMsP99: percentile(frameTimes, 99),
      windowS: coveredMs / 1000,
      ticks,
      frames: kept.length,
    };
  }

  /** Number of samples currently kept (for tests and diagnostics). */
  get size(): number {
    return this.samples.length - this.head;
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    while (this.head < this.samples.length) {
      const s = this.samples[this.head]!;
      if (s.t > cutoff && this.samples.length - this.head <= this.maxSamples) break;
      this.origin = s.t;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.samples.length) {
      this.samples = this.samples.slice(this.head);
      this.head = 0;
    }
  }
}

function emptySnapshot(): LoopStatsSnapshot {
  return { tickHz: 0, fps: 0, frameMsP50: 0, frameMsP95: 0, frameMsP99: 0, windowS: 0, ticks: 0, frames: 0 };
}
