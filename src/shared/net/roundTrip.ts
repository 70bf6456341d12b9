/**
 * Round trips to one remote node (a field of its Connection, connection.ts),
 * from Ping/Pong packets: a Ping carries the sender's clock in `gameTime`,
 * the Pong echoes it, and the sender's clock at arrival minus the echo is one
 * sample. Samples are smoothed (EWMA, 1/4 new) so the `players` list shows a
 * steady number, with the smoothed mean change between samples as jitter.
 * Pure: time is passed in.
 */
export const PING_INTERVAL_MS = 1000;
/** Echoes implying more than this are corrupt or ancient and ignored. */
const MAX_RTT_MS = 10_000;

/** The u32 clock value to put in a Ping sent at `now`. */
export function pingStamp(now: number): number {
  return Math.floor(now) >>> 0;
}

export class RoundTrip {
  /** Smoothed round trip in ms, undefined before the first sample. */
  ms: number | undefined = undefined;
  /** The last raw sample in ms. */
  last: number | undefined = undefined;
  /** Smoothed mean absolute change between samples (ms). */
  jitter = 0;

  /** The stamp of our ping in flight, for a side that takes only its own ping's echo (a server), or null. */
  private pending: number | null = null;

  /** A ping goes out at `now`: its stamp, remembered as the one in flight. */
  ping(now: number): number {
    this.pending = pingStamp(now);
    return this.pending;
  }

  /** A Pong echoing `echo` answers the ping in flight: sampled at `now` (and the ping is answered); false for any other echo. */
  answer(echo: number, now: number): boolean {
    if (this.pending === null || echo !== this.pending) return false;
    this.pending = null;
    this.sample(echo, now);
    return true;
  }

  /** A Pong echoing `echo` arrived at `now`: returns the sample (ms, with `now`'s fraction), or null when implausible (from the future, or ancient). */
  sample(echo: number, now: number): number | null {
    const whole = Math.floor(now);
    const sample = (((whole >>> 0) - echo) >>> 0) + (now - whole);
    if (sample > MAX_RTT_MS) return null;
    if (this.ms === undefined || this.last === undefined) {
      this.ms = sample;
      this.jitter = 0;
    } else {
      this.ms += (sample - this.ms) / 4;
      this.jitter += (Math.abs(sample - this.last) - this.jitter) / 4;
    }
    this.last = sample;
    return sample;
  }

  /** Forgets the figures (the node left). */
  clear(): void {
    this.pending = null;
    this.ms = undefined;
    this.last = undefined;
    this.jitter = 0;
  }
}

/** When to ping: once per PING_INTERVAL_MS. */
export class PingSchedule {
  private lastPing = -Infinity;

  /** True when it is time to ping every node again (and records that it happened). */
  due(now: number): boolean {
    if (now - this.lastPing < PING_INTERVAL_MS) return false;
    this.lastPing = now;
    return true;
  }
}

/** Mean smoothed round trip and jitter over every measured node (ms), or nulls before the first sample. */
export function roundTripSummary(trips: Iterable<RoundTrip>): { pingMs: number | null; jitterMs: number | null } {
  let n = 0;
  let ping = 0;
  let jitter = 0;
  for (const t of trips) {
    if (t.ms === undefined) continue;
    n += 1;
    ping += t.ms;
    jitter += t.jitter;
  }
  return n === 0 ? { pingMs: null, jitterMs: null } : { pingMs: ping / n, jitterMs: jitter / n };
}
