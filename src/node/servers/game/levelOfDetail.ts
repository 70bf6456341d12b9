/**
 * Level of detail by distance and engagement (Unity's and Photon's priority
 * schemes, as rates): how often a gameserver sends one player the states of
 * another within the filter radius.
 *
 *   near  within 50 % of the radius   every state (20 Hz from a 20 Hz sender)
 *   mid   within 75 %                 at most one state per 100 ms (10 Hz)
 *   far   within the radius           at most one state per 200 ms (5 Hz)
 *
 * With the default radius of 2,000 units: 1,000, 1,500 and 2,000. A pair
 * changes tier only HYSTERESIS (5 % of the radius, 100 units) past a tier's
 * edge, either way, and leaves the radius only that far beyond it, so a ship
 * on an edge does not flicker between rates. Two players engaged in a fight
 * (a missile of one locked on the other, within ENGAGED_MS) are near
 * whatever the distance inside the radius. A state held back goes out once
 * its tier's interval has passed (the tick looks), unless a newer one of the
 * same player came first. An overloaded server stretches the mid and far
 * intervals (overload.ts), and only at its last step thins near players
 * too (tierEveryMs).
 */
import type { Vec3 } from '../../../shared/sim/types';
import { NO_SLOT } from '../../../shared/wire/types';
import { distanceSquared } from './interest';

/** The tiers: the edge as a share of the filter radius, and the least time between two states sent (ms). */
export const DETAIL_TIERS: readonly { readonly upTo: number; readonly everyMs: number }[] = [
  { upTo: 0.5, everyMs: 0 },
  { upTo: 0.75, everyMs: 100 },
  { upTo: 1, everyMs: 200 },
];
/** How far past an edge (a share of the radius) a pair must go to change tier or leave the radius. */
export const HYSTERESIS = 0.05;
/** How long a missile lock makes two players near (ms). */
export const ENGAGED_MS = 3000;

/** The most an overloaded server stretches the mid and far tiers' intervals (overload.ts). */
export const MAX_TIER_STRETCH = 4;
/** Near players' least time between two states once an overloaded server's slowdown passes MAX_TIER_STRETCH (ms): 10 a second. */
export const NEAR_OVERLOADED_MS = 100;

/** A pair's tier: an index of DETAIL_TIERS, or OUT (beyond the radius). */
export const OUT = -1;

/** The squared edges of a radius's tiers, widened and narrowed by the hysteresis. */
export class DetailEdges {
  /** Squared distance past which a pair in tier i moves out to i + 1 (the last: leaves the radius). */
  private readonly outward: number[];
  /** Squared distance under which a pair in tier i moves in to i − 1. */
  private readonly inward: number[];
  /** Squared edges without hysteresis (where a pair coming into range starts). */
  private readonly plain: number[];

  constructor(radius: number) {
    const h = HYSTERESIS * radius;
    this.plain = DETAIL_TIERS.map((t) => (t.upTo * radius) ** 2);
    this.outward = DETAIL_TIERS.map((t) => (t.upTo * radius + h) ** 2);
    this.inward = DETAIL_TIERS.map((_, i) => (i === 0 ? 0 : Math.max(0, (DETAIL_TIERS[i - 1] as { upTo: number }).upTo * radius - h) ** 2));
  }

  /** The tier of a pair `d2` apart (squared units) that was in `prev` (OUT: not in range before). */
  tier(prev: number, d2: number): number {
    if (prev === OUT) {
      for (let i = 0; i < this.plain.length; i++) if (d2 <= (this.plain[i] as number)) return i;
      return OUT;
    }
    let t = prev;
    while (t < this.outward.length && d2 > (this.outward[t] as number)) t += 1;
    if (t === this.outward.length) return OUT;
    while (t > 0 && d2 < (this.inward[t] as number)) t -= 1;
    return t;
  }
}

/**
 * The least time between two states of tier `t` (ms) under an overloaded
 * server's `slowdown` (overload.ts): mid and far stretched by it, at most by
 * MAX_TIER_STRETCH; near every state until the slowdown passes that, then
 * NEAR_OVERLOADED_MS.
 */
export function tierEveryMs(t: number, slowdown: number): number {
  if (t === 0) return slowdown > MAX_TIER_STRETCH ? NEAR_OVERLOADED_MS : 0;
  return (DETAIL_TIERS[t] as { everyMs: number }).everyMs * Math.min(slowdown, MAX_TIER_STRETCH);
}

/** No tier remembered for a pair (its positions were not both known, or it never was judged). */
const UNJUDGED = -2;

/**
 * What one recipient's seat knows of each other player's detail: its tier,
 * when its last state went, whether one is held back. Kept by slot in typed
 * arrays (the forwarding of every state to every other player reads and
 * writes them once a state: no map, no number boxed); a player that leaves
 * is forgotten, so its slot starts afresh for the next.
 */
export class SeatDetail<S extends { readonly slot: number }> {
  private readonly tiers = new Int8Array(NO_SLOT + 1).fill(UNJUDGED);
  private readonly sentAt = new Float64Array(NO_SLOT + 1).fill(-Infinity);
  private readonly engagedUntil = new Float64Array(NO_SLOT + 1).fill(-Infinity);
  /** Players whose newest state is held back for its tier's interval. */
  readonly held = new Set<S>();

  /**
   * The tier of `other`, at `from` and us at `to`, now. Remembered for the
   * next state, so the hysteresis applies; while either position is not
   * known the pair is near and nothing is remembered (the first judgement
   * with both known starts from the plain edges, whoever sent first).
   */
  judge(edges: DetailEdges, other: S, from: Vec3 | undefined, to: Vec3 | undefined, now: number): number {
    if (from === undefined || to === undefined) {
      this.tiers[other.slot] = UNJUDGED;
      return 0;
    }
    const was = this.tiers[other.slot] as number;
    let t = edges.tier(was === UNJUDGED ? OUT : was, distanceSquared(from, to));
    if (t !== OUT && (this.engagedUntil[other.slot] as number) > now) t = 0;
    this.tiers[other.slot] = t;
    return t;
  }

  /** Whether `other`'s state may go now: its tier's interval (stretched by `slowdown` when the server is overloaded, tierEveryMs) since the last one sent has passed. */
  ready(other: S, now: number, slowdown = 1): boolean {
    const was = this.tiers[other.slot] as number;
    const t = was === UNJUDGED ? 0 : was;
    if (t === OUT) return false;
    const every = tierEveryMs(t, slowdown);
    return every === 0 || now - (this.sentAt[other.slot] as number) >= every;
  }

  /** A state of `other` went to this player at `now`. */
  sent(other: S, now: number): void {
    this.sentAt[other.slot] = now;
    if (this.held.size > 0) this.held.delete(other);
  }

  /** `other` and this player fight (a missile lock either way): near until ENGAGED_MS from now. */
  engage(other: S, now: number): void {
    this.engagedUntil[other.slot] = now + ENGAGED_MS;
  }

  /** `other` left: everything about it is forgotten. */
  forget(other: S): void {
    this.tiers[other.slot] = UNJUDGED;
    this.sentAt[other.slot] = -Infinity;
    this.engagedUntil[other.slot] = -Infinity;
    this.held.delete(other);
  }
}
