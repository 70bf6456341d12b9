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
    return sample;
  }

  /** Smoothed round trip to `key` in ms, if measured. */
  get(key: string): number | undefined {
    return this.rtt.get(key);
  }

  /** Forgets peers that are gone. */
  retain(keys: ReadonlySet<string>): void {
    for (const k of [...this.rtt.keys()]) if (!keys.has(k)) this.rtt.delete(k);
  }
}
