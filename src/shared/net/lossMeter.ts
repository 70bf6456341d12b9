/**
 * Packet loss seen by a receiver, for the net graph: each sender numbers its
 * datagrams (the header's message id, +1 per datagram), so over a window the
 * ids a sender used span more numbers than arrived when some were lost. Each
 * connection (connection.ts) keeps the span of its node's ids; loss % =
 * 1 − distinct ids received / ids spanned, summed over the nodes, over the
 * last `windowMs`. Duplicates do not count twice; a sender that restarts (ids
 * jump back or far ahead) starts a new span. Pure: time is passed in.
 */
const MAX_SPAN = 10_000;
/** The window loss is measured over (ms). */
export const LOSS_WINDOW_MS = 5000;

/** One sender's ids within the window. */
export class LossSpan {
  /** [arrival time, id] for the ids in the window, oldest first. */
  private ids: { at: number; id: number }[] = [];
  private readonly seen = new Set<number>();

  constructor(private readonly windowMs = LOSS_WINDOW_MS) {}

  /** A datagram with message id `id` (u32) arrived at `now`. */
  record(id: number, now: number): void {
    const first = this.ids[0];
    if (first && (id < first.id || id - first.id > MAX_SPAN)) this.clear();
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.ids.push({ at: now, id });
    this.expire(now);
  }

  /** The ids spanned and received over the window at `now` (0, 0 when none). */
  tally(now: number): { spanned: number; received: number } {
    this.expire(now);
    if (this.ids.length === 0) return { spanned: 0, received: 0 };
    let lo = Infinity;
    let hi = -Infinity;
    for (const { id } of this.ids) {
      if (id < lo) lo = id;
      if (id > hi) hi = id;
    }
    return { spanned: hi - lo + 1, received: this.ids.length };
  }

  /** Forgets every id (the node left). */
  clear(): void {
    this.ids = [];
    this.seen.clear();
  }

  private expire(now: number): void {
    while (this.ids.length > 0 && now - (this.ids[0]?.at ?? now) > this.windowMs) {
      const old = this.ids.shift();
      if (old) this.seen.delete(old.id);
    }
  }
}

/** Loss over the window in % across `spans`, or null when fewer than 10 ids were spanned. */
export function lossPct(spans: Iterable<LossSpan>, now: number): number | null {
  let spanned = 0;
  let received = 0;
  for (const span of spans) {
    const t = span.tally(now);
    spanned += t.spanned;
    received += t.received;
  }
  if (spanned < 10) return null;
  return (100 * (spanned - received)) / spanned;
}
