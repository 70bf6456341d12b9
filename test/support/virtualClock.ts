import type { Clock } from '../../src/shared/time/clock';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  /** Repeats every `every` ms (setInterval), else runs once. */
  every?: number;
}

/**
 * A virtual {@link Clock} for servers and sessions under test: time stands
 * still until the test calls {@link advance}, which runs every due timer and
 * interval in order. A 90-second expiry is then a line of test code, exact to
 * the millisecond, whatever the machine is doing.
 */
export class VirtualClock implements Clock {
  /** Timers and intervals ever scheduled (a test can show that something needed none). */
  created = 0;
  private time = 0;
  private seq = 0;
  private readonly timers = new Set<Timer>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    this.created++;
    const t: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.add(t);
    return t;
  }

  setInterval(fn: () => void, ms: number): unknown {
    this.created++;
    const every = Math.max(1, ms);
    const t: Timer = { at: this.time + every, seq: this.seq++, fn, every };
    this.timers.add(t);
    return t;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as Timer);
  }

  clearInterval(handle: unknown): void {
    this.timers.delete(handle as Timer);
  }

  /** Timers and intervals still scheduled. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * A stall (a frozen or starved process): time jumps `ms` ahead with no
   * timer running on the way, then everything overdue runs at the new time,
   * earliest first, as a real event loop catches up.
   */
  stall(ms: number): void {
    this.time += ms;
    this.advance(0);
  }

  /**
   * A stopped process continued (SIGSTOP, SIGCONT) whose socket is read
   * before its timers: time jumps `ms` ahead and no timer runs until the
   * test calls {@link advance}.
   */
  jump(ms: number): void {
    this.time += ms;
  }

  /** Moves time forward by `ms`, running each timer at its due time, earliest first. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers) if (t.at <= end && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (!next) break;
      this.time = Math.max(this.time, next.at);
      if (next.every === undefined) this.timers.delete(next);
      else next.at += next.every;
      next.fn();
    }
    this.time = end;
  }
}
