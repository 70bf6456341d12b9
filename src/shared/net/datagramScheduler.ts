/**
 * The link conditioner's scheduler: decides the fate of each datagram under
 * some {@link LinkConditions} and runs its delivery now or on a timer.
 *
 * Each datagram is treated on its own:
 * - it is lost with probability `lossPct` %;
 * - otherwise it is delayed `lagMs` plus a uniform amount in
 *   [−`jitterMs`, +`jitterMs`], never below 0 (independent delays mean that
 *   jitter alone can swap two datagrams sent closer together than 2·jitter);
 * - with probability `reorderPct` % it is held back a further
 *   `lagMs + jitterMs + 20` ms, so datagrams sent after it overtake it;
 * - with probability `dupPct` % a second copy goes too; the copy draws its
 *   own delay (and its own reorder chance), as a datagram of its own would.
 * A delay of exactly 0 ms runs the delivery synchronously. At most
 * {@link MAX_PENDING_DATAGRAMS} wait at once. {@link DatagramScheduler.cancelPending}
 * drops every waiting one; a delivery that throws inside a timer is counted,
 * never thrown.
 *
 * Randomness comes from a seeded mulberry32 stream (`src/shared/sim/prng.ts`)
 * unless another source is given, so a fixed seed sees the same losses every
 * run. Pure TS: the only platform things it touches are the timers it is given.
 */
import type { LinkConditions } from './linkConditions';
import { nextFloat, seedRng } from '../sim/prng';

/** Extra hold-back of a reordered datagram on top of lag + jitter, ms. */
export const REORDER_EXTRA_MS = 20;
/**
 * Most datagrams waiting at once; beyond it new ones are dropped and counted
 * as `queueFull`, so a flood of incoming datagrams cannot pile up timers
 * without bound (2 s of lag at 60 packets/s from 15 peers is about 1,800).
 */
export const MAX_PENDING_DATAGRAMS = 10_000;

/** Timer functions the conditioner schedules with (tests pass a virtual clock). */
export interface ConditionerTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global setTimeout/clearTimeout. */
export const GLOBAL_TIMERS: ConditionerTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
};

/** Which way a datagram goes: `out` to the inner packet API, `in` to the receive handler. */
export type Direction = 'out' | 'in';

/** What the scheduler did, per direction, since it was made. */
export interface SchedulerCounters {
  lostOut: number;
  lostIn: number;
  duplicatedOut: number;
  duplicatedIn: number;
  reorderedOut: number;
  reorderedIn: number;
  /** Datagrams that went through a timer (delay > 0). */
  delayedOut: number;
  delayedIn: number;
  /** Waiting datagrams dropped by cancelPending. */
  cancelled: number;
  /** Dropped because {@link MAX_PENDING_DATAGRAMS} were already waiting. */
  queueFull: number;
  /** A delayed send threw when its time came (e.g. the socket had been closed). */
  sendFailed: number;
  /** A delayed delivery to the receive handler threw. */
  handlerThrew: number;
}

/** A seeded uniform [0, 1) stream over the shared mulberry32 (seed mixed, so 1, 2, 3 are unrelated). */
export function seededRandom(seed: number): () => number {
  let state = seedRng(seed);
  return () => {
    const [value, next] = nextFloat(state);
    state = next;
    return value;
  };
}

/** A datagram waiting in a timer; the set of these is what cancelPending drops. */
interface Waiting {
  handle: unknown;
}

/** Loss, delay, duplication and reordering of datagrams, as the file comment describes. */
export class DatagramScheduler {
  private readonly waiting = new Set<Waiting>();
  private readonly effects: SchedulerCounters = {
    lostOut: 0,
    lostIn: 0,
    duplicatedOut: 0,
    duplicatedIn: 0,
    reorderedOut: 0,
    reorderedIn: 0,
    delayedOut: 0,
    delayedIn: 0,
    cancelled: 0,
    queueFull: 0,
    sendFailed: 0,
    handlerThrew: 0,
  };

  /** `random`: uniform [0, 1) source; `timers`: where delayed deliveries wait. */
  constructor(
    private readonly random: () => number,
    private readonly timers: ConditionerTimers,
  ) {}

  /**
   * Loss, then one or two copies of the datagram, each with its own delay.
   * `c` must be sanitised (see sanitizeConditions). `fire` delivers one copy;
   * it may throw when run synchronously.
   */
  condition(dir: Direction, c: LinkConditions, fire: () => void): void {
    if (c.lossPct > 0 && this.random() * 100 < c.lossPct) {
      if (dir === 'out') this.effects.lostOut++;
      else this.effects.lostIn++;
      return;
    }
    const duplicate = c.dupPct > 0 && this.random() * 100 < c.dupPct;
    this.dispatch(dir, c, fire);
    if (duplicate) {
      if (dir === 'out') this.effects.duplicatedOut++;
      else this.effects.duplicatedIn++;
      this.dispatch(dir, c, fire);
    }
  }

  /** Cancels every datagram waiting in a timer (both directions); returns how many. */
  cancelPending(): number {
    const n = this.waiting.size;
    for (const w of this.waiting) this.timers.clearTimeout(w.handle);
    this.waiting.clear();
    this.effects.cancelled += n;
    return n;
  }

  /** Datagrams waiting in timers right now. */
  pending(): number {
    return this.waiting.size;
  }

  counters(): SchedulerCounters {
    return { ...this.effects };
  }

  /** Runs one copy now (delay 0) or schedules it. */
  private dispatch(dir: Direction, c: LinkConditions, fire: () => void): void {
    let delay = c.lagMs;
    if (c.jitterMs > 0) delay += (this.random() * 2 - 1) * c.jitterMs;
    if (delay < 0) delay = 0;
    if (c.reorderPct > 0 && this.random() * 100 < c.reorderPct) {
      delay += c.lagMs + c.jitterMs + REORDER_EXTRA_MS;
      if (dir === 'out') this.effects.reorderedOut++;
      else this.effects.reorderedIn++;
    }
    if (delay === 0) {
      fire();
      return;
    }
    if (this.waiting.size >= MAX_PENDING_DATAGRAMS) {
      this.effects.queueFull++;
      return;
    }
    if (dir === 'out') this.effects.delayedOut++;
    else this.effects.delayedIn++;
    const entry: Waiting = { handle: undefined };
    entry.handle = this.timers.setTimeout(() => {
      if (!this.waiting.delete(entry)) return; // cancelled after the timer was already due
      try {
        fire();
      } catch {
        // Never throw out of a timer: the socket may have closed or the handler failed meanwhile.
        if (dir === 'out') this.effects.sendFailed++;
        else this.effects.handlerThrew++;
      }
    }, delay);
    this.waiting.add(entry);
  }
}
