/**
 * Requests per source (IPv4 address or IPv6 /64, as {@link addressKey}), for
 * the status pages: a token bucket each, so a handful of busy sources cannot
 * have pages rendered for them as fast as they ask and starve everyone else.
 */
import { addressKey } from './addressKey';

/** Options of a {@link RequestRate}. */
export interface RequestRateCaps {
  /** Requests a source may make per second, sustained. */
  perSecond: number;
  /** Requests a source may make at once after a quiet spell. */
  burst: number;
}

/** Default of the status pages: a browser loads a page and its JSON, 8 watchers behind one address polling each second fit many times. */
export const DEFAULT_STATUS_REQUEST_RATE: RequestRateCaps = { perSecond: 50, burst: 100 };

/** Buckets kept before full (idle) ones are dropped. */
const SWEEP_AT = 1024;

export class RequestRate {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly caps: RequestRateCaps,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(caps.perSecond > 0) || !(caps.burst >= 1)) throw new Error('request rate: perSecond must be > 0 and burst ≥ 1');
  }

  /** Whether one more request from `address` is allowed now (and if so counts it). */
  take(address: string): boolean {
    const key = addressKey(address);
    const now = this.now();
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(this.caps.burst, b.tokens + ((now - b.at) / 1000) * this.caps.perSecond) : this.caps.burst;
    if (tokens < 1) {
      if (b) Object.assign(b, { tokens, at: now });
      return false;
    }
    if (b) Object.assign(b, { tokens: tokens - 1, at: now });
    else {
      if (this.buckets.size >= SWEEP_AT) this.sweep(now);
      this.buckets.set(key, { tokens: tokens - 1, at: now });
    }
    return true;
  }

  /** Sources tracked now (full buckets may linger until a sweep). */
  size(): number {
    return this.buckets.size;
  }

  /** Drops buckets that have refilled: they are the same as none. */
  private sweep(now: number): void {
    for (const [key, b] of this.buckets) if (b.tokens + ((now - b.at) / 1000) * this.caps.perSecond >= this.caps.burst) this.buckets.delete(key);
  }
}
