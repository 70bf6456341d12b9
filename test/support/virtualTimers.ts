import type { ConditionerTimers } from '../../src/shared/net/linkConditioner';

/** A virtual clock: timers run only when the test advances time, in due order. */
export class VirtualTimers implements ConditionerTimers {
  now = 0;
  created = 0;
  private seq = 0;
  private readonly queue = new Set<{ at: number; seq: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): unknown {
    this.created++;
    const timer = { at: this.now + ms, seq: this.seq++, fn };
    this.queue.add(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    this.queue.delete(handle as { at: number; seq: number; fn: () => void });
  }

  get pending(): number {
    return this.queue.size;
  }

  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      let next: { at: number; seq: number; fn: () => void } | undefined;
      for (const t of this.queue) if (t.at <= end && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (!next) break;
      this.queue.delete(next);
      this.now = next.at;
      next.fn();
    }
    this.now = end;
  }
}
