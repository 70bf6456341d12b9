/**
 * Graceful overload at the gameserver: its tick's lateness says when the
 * process cannot keep up (a core saturated by players or a flood), and the
 * server then lowers far players' state rates first (levelOfDetail.ts's mid
 * and far tiers, by a slowdown of 2, then 4) instead of queueing without
 * bound or dropping anyone for being busy; only when that is not enough
 * (slowdown 8) do near players' states go at most 10 a second too (with
 * level of detail off as well: every player is near then).
 *
 * Overloaded: in the last second (LATE_WINDOW ticks) at least LATE_TICKS
 * ticks came more than a whole tick interval late; each such second doubles
 * the slowdown (at most MAX_SLOWDOWN). Calm again: CALM_MS without a tick
 * more than half an interval late halves it. The status JSON says whether
 * the server is overloaded, the rates it holds and the tick's lateness
 * (p50, p99 over the last minute).
 */
import { RecentSamples } from '../../../shared/util/stats';

/** Ticks looked at to judge overload (a second at 20 Hz). */
export const LATE_WINDOW = 20;
/** Ticks of the window that must be a whole interval late for the server to count as overloaded. */
export const LATE_TICKS = 3;
/** The last step of the slowdown: mid and far stay stretched by 4 (MAX_TIER_STRETCH, levelOfDetail.ts), near players are thinned too. */
export const MAX_SLOWDOWN = 8;
/** Time without a tick half an interval late before the slowdown halves (ms). */
export const CALM_MS = 3000;
/** Lateness samples kept for the percentiles (a minute at 20 Hz). */
const KEPT = 1200;

export class OverloadWatch {
  /** 1 (none), 2 or 4: the stretch of the mid and far tiers' intervals; 8: those by 4, and near players thinned (levelOfDetail.ts). */
  slowdown = 1;
  private readonly recent: boolean[] = [];
  private readonly samples = new RecentSamples(KEPT);
  private lastChange = -Infinity;
  private lastUneasy = -Infinity;
  /** Ticks since the start, and how many were a whole interval late. */
  ticks = 0;
  lateTicks = 0;

  constructor(private readonly intervalMs: number) {}

  /** A tick ran at `now`, `lateMs` after it was due. */
  tick(now: number, lateMs: number): void {
    const late = Math.max(0, lateMs);
    this.ticks += 1;
    this.samples.add(late);
    const wholeTick = late > this.intervalMs;
    if (wholeTick) this.lateTicks += 1;
    this.recent.push(wholeTick);
    if (this.recent.length > LATE_WINDOW) this.recent.shift();
    if (late > this.intervalMs / 2) this.lastUneasy = now;
    const lateInWindow = this.recent.filter(Boolean).length;
    if (lateInWindow >= LATE_TICKS && now - this.lastChange >= 1000 && this.slowdown < MAX_SLOWDOWN) {
      this.slowdown *= 2;
      this.lastChange = now;
      this.recent.length = 0;
    } else if (this.slowdown > 1 && now - this.lastUneasy >= CALM_MS && now - this.lastChange >= CALM_MS) {
      this.slowdown /= 2;
      this.lastChange = now;
    }
  }

  get overloaded(): boolean {
    return this.slowdown > 1;
  }

  /** The tick's lateness over the last minute (ms): median and 99th percentile. */
  lateness(): { p50: number; p99: number } {
    return this.samples.p50p99();
  }
}
