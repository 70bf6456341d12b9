/**
 * Keeping score of misbehaving peers (the Retro Tank design's "Data
 * Validity"): bad data that a bug could explain is corrected and counted as
 * a strike; strikes fade with time, so an honest client's rare glitch is
 * forgotten, while a client that keeps sending it (or ignores the
 * corrections) runs out of credit and is dropped with the reason logged. A
 * blatant violation drops it at once. Exploit attempts look like bad data
 * and are treated the same way, silently.
 *
 * - {@link StrikeCounter}: one peer's fading score and what it was for;
 * - {@link StrikeBook}: counters by key (address, source), bounded;
 * - {@link LogThrottle}: at most one log line per key per interval, so a
 *   flood of bad traffic cannot become a flood of log lines;
 * - {@link SourceGuard}: the gameserver's per-source UDP gate (rate limit,
 *   strikes, temporary blocks) in front of the decoder;
 * - {@link ClientGuard}: one joined gameserver client's ship and lasers
 *   checked against the simulation's limits (src/shared/game/shipValidation.ts).
 * Time always comes from the caller (ms).
 */
import { checkLaser, checkShipState, newShipTrack, SHIP_LIMITS, stateTime, type ShipTrack, type Violation } from '../../../shared/game/shipValidation';
import { RateLimiter } from '../../../shared/util/rateLimit';
import type { Vec3 } from '../../../shared/sim/types';
import type { Packet, RemoteEvent } from '../../../shared/wire/types';

/** When a score means "drop": `limit` strikes, each fading over `windowMs`. */
export interface StrikePolicy {
  limit: number;
  windowMs: number;
}

function checkPolicy(p: StrikePolicy): void {
  if (!Number.isInteger(p.limit) || p.limit < 1) throw new Error('strikes: limit must be an integer ≥ 1');
  if (!(p.windowMs > 0) || !Number.isFinite(p.windowMs)) throw new Error('strikes: windowMs must be a positive number of ms');
}

/**
 * One peer's strikes. The score rises by 1 per strike and falls by `limit`
 * every `windowMs`, so `limit` strikes in quick succession (or a steady
 * rate above `limit` per window) reach the limit, while strikes further
 * apart fade before they add up.
 */
export class StrikeCounter {
  private score = 0;
  private at = 0;
  /** Strikes ever counted, by kind. */
  readonly kinds = new Map<string, number>();
  /** The newest strike's detail, for the log line. */
  last = '';

  constructor(readonly policy: StrikePolicy) {
    checkPolicy(policy);
  }

  /** Current score at `now`. */
  current(now: number): number {
    return Math.max(0, this.score - (Math.max(0, now - this.at) * this.policy.limit) / this.policy.windowMs);
  }

  /**
   * Counts a strike of `kind`; returns the reason to drop the peer, or null.
   * `blatant` drops at once.
   */
  add(kind: string, detail: string, now: number, blatant = false): string | null {
    this.score = this.current(now) + 1;
    this.at = now;
    this.last = detail;
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
    if (blatant) return `blatant ${kind}: ${detail}`;
    // The limit-th strike while the others have barely faded (score just under `limit`) is the one that drops.
    if (this.score > this.policy.limit - 1) return `${this.policy.limit} strikes within ${Math.round(this.policy.windowMs / 1000)} s (${this.summary()}; last: ${detail})`;
    return null;
  }

  /** `speed ×3, teleport ×7`: what the strikes were for. */
  summary(): string {
    return [...this.kinds].map(([k, n]) => `${k} ×${n}`).join(', ');
  }
}

/** Strike counters by key, at most `maxKeys` of them (default 4096); faded ones go first when it is full. */
export class StrikeBook {
  private readonly counters = new Map<string, StrikeCounter>();
  private readonly maxKeys: number;

  constructor(
    readonly policy: StrikePolicy,
    maxKeys = 4096,
  ) {
    checkPolicy(policy);
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new Error('strikes: maxKeys must be an integer ≥ 1');
    this.maxKeys = maxKeys;
  }

  /** Counts a strike against `key`; returns the reason to drop it, or null. */
  add(key: string, kind: string, detail: string, now: number, blatant = false): string | null {
    let c = this.counters.get(key);
    if (!c) {
      if (this.counters.size >= this.maxKeys) this.evict(now);
      c = new StrikeCounter(this.policy);
      this.counters.set(key, c);
    }
    return c.add(kind, detail, now, blatant);
  }

  /** Current score of `key` (0 when unknown). */
  score(key: string, now: number): number {
    return this.counters.get(key)?.current(now) ?? 0;
  }

  forget(key: string): void {
    this.counters.delete(key);
  }

  get size(): number {
    return this.counters.size;
  }

  /** Drops the faded counters; if none has faded, the oldest one (a flood of fresh keys only resets flooders). */
  private evict(now: number): void {
    for (const [k, c] of this.counters) if (c.current(now) === 0) this.counters.delete(k);
    if (this.counters.size >= this.maxKeys) {
      const oldest = this.counters.keys().next().value;
      if (oldest !== undefined) this.counters.delete(oldest);
    }
  }
}

/**
 * Log-line rationing: `due(key)` is true at most once per `intervalMs` per
 * key, and at most `maxLines` times per interval over all keys (a flood from
 * many addresses is still a flood). `suppressed` says how many were held
 * back for the key since its last line.
 */
export class LogThrottle {
  private readonly keys = new Map<string, { at: number; suppressed: number }>();
  private windowAt = -Infinity;
  private lines = 0;
  /** Lines held back since start. */
  suppressedTotal = 0;

  constructor(
    private readonly intervalMs = 60_000,
    private readonly maxLines = 50,
    private readonly maxKeys = 4096,
  ) {}

  /** Whether to log for `key` now; if so, `suppressed` is how many were skipped since the last line. */
  due(key: string, now: number): { suppressed: number } | null {
    if (now - this.windowAt >= this.intervalMs) {
      this.windowAt = now;
      this.lines = 0;
    }
    const k = this.keys.get(key);
    if ((k && now - k.at < this.intervalMs) || this.lines >= this.maxLines) {
      if (k) k.suppressed += 1;
      this.suppressedTotal += 1;
      return null;
    }
    if (this.keys.size >= this.maxKeys && !k) {
      for (const [key2, v] of this.keys) if (now - v.at >= this.intervalMs) this.keys.delete(key2);
      if (this.keys.size >= this.maxKeys) {
        this.suppressedTotal += 1;
        return null;
      }
    }
    this.lines += 1;
    const suppressed = k?.suppressed ?? 0;
    this.keys.set(key, { at: now, suppressed: 0 });
    return { suppressed };
  }
}

/** Options of a {@link SourceGuard}. */
export interface SourceGuardOptions {
  /** Sustained datagrams per second per source (ip:port); bursts of twice that pass. */
  datagramsPerSecond: number;
  /** Bad datagrams from one source that get it blocked (default: 50 within 10 s). */
  strikes?: StrikePolicy;
  /** How long a blocked source stays blocked (default 60 s). */
  blockMs?: number;
  /** Most sources remembered per table (default 4096). */
  maxSources?: number;
  /**
   * Datagrams per second all sources without a seat may send together (bursts of
   * twice this pass; default 2000): a flood spread over thousands of source ports
   * costs a counter each, and the joined players' datagrams are served first.
   */
  strangersPerSecond?: number;
}

/** What {@link SourceGuard.offence} decided: whether the source is now blocked, and whether to log (with the count held back). */
export interface Offence {
  blocked: boolean;
  log: { suppressed: number } | null;
}

/**
 * The gameserver's first look at a datagram, before any decoding: blocked
 * sources are dropped for a fixed cost, every source is held to a rate, and
 * sources with no session that keep sending what cannot be accepted (bad
 * bytes, wrong tokens) collect strikes until they are blocked for a while.
 * Joined clients' endpoints have their own rate table, so a flood of fresh
 * sources can never crowd them out. Memory is bounded by `maxSources`.
 */
export class SourceGuard {
  private readonly known: RateLimiter;
  private readonly unknown: RateLimiter;
  /** One budget shared by every source without a seat. */
  private readonly strangers: RateLimiter;
  private readonly book: StrikeBook;
  private readonly blocked = new Map<string, number>();
  private readonly blockMs: number;
  private readonly maxSources: number;
  private readonly logs = new LogThrottle(60_000);
  /** Sources blocked since start. */
  blocks = 0;

  constructor(options: SourceGuardOptions) {
    const rate = options.datagramsPerSecond;
    if (!(rate > 0) || !Number.isFinite(rate)) throw new Error('datagramsPerSecond must be a positive number');
    this.maxSources = options.maxSources ?? 4096;
    this.known = new RateLimiter({ perSecond: rate, burst: 2 * rate, maxKeys: 256 });
    this.unknown = new RateLimiter({ perSecond: rate, burst: 2 * rate, maxKeys: this.maxSources });
    const strangers = options.strangersPerSecond ?? 2000;
    if (!(strangers > 0) || !Number.isFinite(strangers)) throw new Error('strangersPerSecond must be a positive number');
    this.strangers = new RateLimiter({ perSecond: strangers, burst: 2 * strangers, maxKeys: 1 });
    this.book = new StrikeBook(options.strikes ?? { limit: 50, windowMs: 10_000 }, this.maxSources);
    this.blockMs = options.blockMs ?? 60_000;
  }

  /** Null to let a datagram from `source` through, else why it is dropped. `joined`: the source is a joined client's bound endpoint. */
  admit(source: string, joined: boolean, now: number): 'blocked' | 'rate-limited' | 'strangers-over-budget' | null {
    // Sources without a seat share one budget, checked first: past it they cost one counter, not a table entry each.
    if (!joined && !this.strangers.allow('*', now)) return 'strangers-over-budget';
    if (this.blocked.size > 0) {
      const until = this.blocked.get(source);
      if (until !== undefined) {
        if (now < until) return 'blocked';
        this.blocked.delete(source);
      }
    }
    return (joined ? this.known : this.unknown).allow(source, now) ? null : 'rate-limited';
  }

  /** A datagram from `source` (at IP `address`) with no session behind it was dropped for `reason`. */
  offence(source: string, address: string, reason: string, now: number): Offence {
    const verdict = this.book.add(source, reason, reason, now);
    let blocked = false;
    if (verdict !== null) {
      if (this.blocked.size >= this.maxSources) this.pruneBlocks(now);
      if (this.blocked.size < this.maxSources) {
        this.blocked.set(source, now + this.blockMs);
        this.blocks += 1;
        blocked = true;
      }
      this.book.forget(source);
    }
    // One line per address per minute, and a line whenever a source gets blocked (rationed too).
    const log = this.logs.due(blocked ? `blocked ${address}` : address, now);
    return { blocked, log };
  }

  /** Lifts the blocks on every source at `address` (it just joined over TCP, so its datagrams will carry a good token now). */
  unblockAddress(address: string): void {
    for (const source of this.blocked.keys()) if (source.slice(0, source.lastIndexOf(':')) === address) this.blocked.delete(source);
  }

  /** Sources blocked right now. */
  blockedNow(now: number): number {
    this.pruneBlocks(now);
    return this.blocked.size;
  }

  /** Rate and strike tables' sizes, for tests watching memory. */
  get tracked(): number {
    return this.known.size + this.unknown.size + this.book.size + this.blocked.size;
  }

  private pruneBlocks(now: number): void {
    for (const [s, until] of this.blocked) if (now >= until) this.blocked.delete(s);
    if (this.blocked.size >= this.maxSources) {
      const oldest = this.blocked.keys().next().value;
      if (oldest !== undefined) this.blocked.delete(oldest);
    }
  }
}

/** What {@link ClientGuard.check} found in one GameState. */
export interface ClientVerdict {
  /** Violations found (the packet has been corrected for the mild ones). */
  violations: Violation[];
  /** Why to drop the client now, or null. */
  kick: string | null;
}

/**
 * One joined gameserver client: its ship track for the plausibility checks
 * and its strikes. `check` corrects the packet in place (the state the
 * forwarder relays is the corrected one; impossible lasers are removed).
 * A packet is judged at the game time in its header (the server's clock is
 * the common game time), held to a window around the server's own clock:
 * states that arrive in a burst after a stall are as far apart as the
 * client flew them, not as close as they arrived.
 */
export class ClientGuard {
  readonly track: ShipTrack;
  readonly strikes: StrikeCounter;

  constructor(
    /** Where a respawn may put the ship (any free spawn point). */
    private readonly spawn: Vec3 | readonly Vec3[],
    policy: StrikePolicy,
    now: number,
  ) {
    this.track = newShipTrack(now);
    this.strikes = new StrikeCounter(policy);
  }

  /** Checks a GameState (`newest`: its ship state counts) arriving at server time `now`, and counts a strike per violation. */
  check(packet: Packet, newest: boolean, now: number): ClientVerdict {
    const violations: Violation[] = [];
    const { gameTime, state } = packet.header;
    const sentAt = gameTime === undefined ? now : stateTime(gameTime, now);
    if (newest && state) {
      const r = checkShipState(state, this.track, sentAt, this.spawn);
      packet.header.state = r.state;
      violations.push(...r.violations);
    }
    let events: RemoteEvent[] | null = null;
    packet.events.forEach((e, i) => {
      if (e.type !== 'createLaser') {
        events?.push(e);
        return;
      }
      const r = checkLaser(e, this.track, sentAt);
      violations.push(...r.violations);
      if (r.laser === e) {
        events?.push(e);
        return;
      }
      events ??= packet.events.slice(0, i);
      if (r.laser) events.push({ ...e, pos: r.laser.pos, vel: r.laser.vel, ttl: r.laser.ttl });
    });
    if (events) packet.events = events;
    let kick: string | null = null;
    for (const v of violations) kick ??= this.strikes.add(v.kind, v.detail, now, v.severity === 'blatant');
    return { violations, kick };
  }

  /**
   * The server moved the ship to `pos` (a stargate jump): its travel is judged from there, as of `now`, with
   * its full reserve, so the first state from its new place is no teleport.
   */
  arrived(pos: Vec3, now: number): void {
    const t = this.track;
    if (t.state) t.state = { ...t.state, pos: { x: pos.x, y: pos.y, z: pos.z } };
    t.at = now;
    t.reserve = SHIP_LIMITS.maxSpeed * SHIP_LIMITS.jitterSeconds;
  }

  /** A strike for something other than the ship (events it may not send, undecodable datagrams from its endpoint). */
  strike(kind: string, detail: string, now: number, times = 1): string | null {
    let kick: string | null = null;
    for (let i = 0; i < times && kick === null; i++) kick = this.strikes.add(kind, detail, now);
    return kick;
  }
}
