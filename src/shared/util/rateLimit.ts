/**
 * Per-key token buckets for rate limits on untrusted traffic (datagrams or
 * connection attempts per address). Each key earns `perSecond` tokens a
 * second up to `burst`; every allowed event spends one. The table is bounded:
 * when it holds `maxKeys` keys, keys whose buckets are full again (idle long
 * enough to matter to nobody) are forgotten first, and if none is, the new
 * key is refused — a flood of fresh source addresses can neither grow memory
 * nor push the honest keys out. Pure: time comes from the caller.
 */
export interface RateLimitOptions {
  /** Sustained events per second per key (> 0). */
  perSecond: number;
  /** Events a key may spend at once after being idle (≥ 1). */
  burst: number;
  /** Most keys remembered (default 4096). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly burst: number;
  private readonly maxKeys: number;
  /** Events refused since construction. */
  refused = 0;

  constructor(options: RateLimitOptions) {
    const { perSecond, burst, maxKeys = 4096 } = options;
    if (!(perSecond > 0) || !Number.isFinite(perSecond)) throw new Error('RateLimiter: perSecond must be a positive number');
    if (!(burst >= 1) || !Number.isFinite(burst)) throw new Error('RateLimiter: burst must be at least 1');
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new Error('RateLimiter: maxKeys must be a positive integer');
    this.perMs = perSecond / 1000;
    this.burst = burst;
    this.maxKeys = maxKeys;
  }

  /** Spends one token of `key` at `now` (ms); false when the key is over its rate (or the table is full of busy keys). */
  allow(key: string, now: number): boolean {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys && !this.prune(now)) {
        this.refused += 1;
        return false;
      }
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
      bucket.at = now;
    }
    if (bucket.tokens < 1) {
      this.refused += 1;
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }

  /** Keys remembered now. */
  get size(): number {
    return this.buckets.size;
  }

  /** Forgets keys whose buckets have refilled by `now`; true when at least one went. */
  prune(now: number): boolean {
    const before = this.buckets.size;
    for (const [key, b] of this.buckets) {
      if (b.tokens + Math.max(0, now - b.at) * this.perMs >= this.burst) this.buckets.delete(key);
    }
    return this.buckets.size < before;
  }
}
