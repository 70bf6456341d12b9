/**
 * Packet loss seen by a receiver, for the net graph: each sender numbers its
 * game datagrams (the header's message id, +1 per datagram), so over a window
 * the ids a sender used span more numbers than arrived when some were lost.
 * Loss % = 1 − distinct ids received / ids spanned, summed over senders, over
 * the last `windowMs`. Duplicates do not count twice; a sender that restarts
 * (ids jump back or far ahead) starts a new span. Pure: time is passed in.
 */
const MAX_SPAN = 10_000;

interface Span {
  /** [arrival time, id] for the ids in the window, oldest first. */
  ids: { at: number; id: number }[];
  seen: Set<number>;
}

export class LossMeter {
  private readonly spans = new Map<string, Span>();

  constructor(private readonly windowMs = 5000) {}

  /** A datagram from `key` with message id `id` (u32) arrived at `now`. */
  record(key: string, id: number, now: number): void {
    let span = this.spans.get(key);
    const first = span?.ids[0];
    if (!span || (first && (id < first.id || id - first.id > MAX_SPAN))) {
      span = { ids: [], seen: new Set() };
      this.spans.set(key, span);
    }
    if (span.seen.has(id)) return;
    span.seen.add(id);
    span.ids.push({ at: now, id });
    this.expire(span, now);
  }

  /** Loss over the window in %, or null when fewer than 10 ids were spanned. */
  lossPct(now: number): number | null {
    let spanned = 0;
    let received = 0;
    for (const [key, span] of this.spans) {
      this.expire(span, now);
      if (span.ids.length === 0) {
        this.spans.delete(key);
        continue;
      }
      let lo = Infinity;
      let hi = -Infinity;
      for (const { id } of span.ids) {
        if (id < lo) lo = id;
        if (id > hi) hi = id;
      }
      spanned += hi - lo + 1;
      received += span.ids.length;
    }
    if (spanned < 10) return null;
    return (100 * (spanned - received)) / spanned;
  }

  /** Forgets senders not in `keys`. */
  retain(keys: ReadonlySet<string>): void {
    for (const k of [...this.spans.keys()]) if (!keys.has(k)) this.spans.delete(k);
  }

  private expire(span: Span, now: number): void {
    while (span.ids.length > 0 && now - (span.ids[0]?.at ?? now) > this.windowMs) {
      const old = span.ids.shift();
      if (old) span.seen.delete(old.id);
    }
  }
}
