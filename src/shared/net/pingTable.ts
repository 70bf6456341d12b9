/**
 * Round-trip times to peers from Ping/Pong packets: a Ping carries the
 * sender's clock in `gameTime`, the Pong echoes it, and the sender's clock at
 * arrival minus the echo is one sample. Samples are smoothed (EWMA, 1/4 new)
 * so the `players` list shows a steady number. Pure: time is passed in.
 */
export const PING_INTERVAL_MS = 1000;
/** Echoes implying more than this are corrupt or ancient and ignored. */
const MAX_RTT_MS = 10_000;

export class PingTable {
  private readonly rtt = new Map<string, number>();
  /** Per peer: the last raw sample and the smoothed mean absolute change between samples (jitter). */
  private readonly jitterOf = new Map<string, { last: number; jitter: number }>();
  private lastPing = -Infinity;

  /** True when it is time to ping every peer again (and records that it happened). */
  due(now: number): boolean {
    if (now - this.lastPing < PING_INTERVAL_MS) return false;
    this.lastPing = now;
    return true;
  }

  /** The u32 clock value to put in a Ping. */
  stamp(now: number): number {
    return Math.floor(now) >>> 0;
  }

  /** A Pong from `key` echoing `echo` arrived at `now`; returns the sample or null if implausible. */
  pong(key: string, echo: number, now: number): number | null {
    const sample = ((Math.floor(now) >>> 0) - echo) >>> 0;
    if (sample > MAX_RTT_MS) return null;
    const old = this.rtt.get(key);
    this.rtt.set(key, old === undefined ? sample : old + (sample - old) / 4);
    const j = this.jitterOf.get(key);
    if (!j) this.jitterOf.set(key, { last: sample, jitter: 0 });
    else {
      j.jitter += (Math.abs(sample - j.last) - j.jitter) / 4;
      j.last = sample;
    }
    return sample;
  }

  /** Smoothed round trip to `key` in ms, if measured. */
  get(key: string): number | undefined {
    return this.rtt.get(key);
  }

  /** Mean smoothed round trip and jitter over every measured peer (ms), or nulls before the first sample. */
  summary(): { pingMs: number | null; jitterMs: number | null } {
    if (this.rtt.size === 0) return { pingMs: null, jitterMs: null };
    let ping = 0;
    let jitter = 0;
    for (const [key, rtt] of this.rtt) {
      ping += rtt;
      jitter += this.jitterOf.get(key)?.jitter ?? 0;
    }
    return { pingMs: ping / this.rtt.size, jitterMs: jitter / this.rtt.size };
  }

  /** Forgets peers that are gone. */
  retain(keys: ReadonlySet<string>): void {
    for (const k of [...this.rtt.keys()]) if (!keys.has(k)) this.rtt.delete(k);
    for (const k of [...this.jitterOf.keys()]) if (!keys.has(k)) this.jitterOf.delete(k);
  }
}
