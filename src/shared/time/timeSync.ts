/**
 * Time synchronisation: the client state machine and the responder.
 *
 * A client (`TimeSyncClient`) learns the delta that, added to its own clock,
 * gives the responder's clock: common game time. The responder is the
 * server, or in a peer-to-peer game any peer that has itself synced (it
 * answers with its common time, so time spreads from one root). Both sides
 * are pure: the caller supplies clocks and moves the datagrams; this file has
 * no timers and no sockets.
 *
 * The numbers (defaults of {@link TimeSyncOptions}), tuned with the virtual
 * clock tests in `test/unit/time` on a path whose every direction takes
 * 50 ± 10 ms (so a single sample is off by up to ±10 ms, about 4 ms r.m.s.):
 *
 * - start-up burst: one request every 50 ms until ready (20/s, 16 bytes each);
 * - refresh: one request a second once ready (the existing Ping/Pong pace);
 * - rolling window: the 128 most recent samples (about two minutes of refresh);
 * - ready: at least 16 samples kept by the filter, and the standard error of
 *   the estimate ≤ 0.45 ms (±0.9 ms at 95% confidence; a little under 0.5
 *   because stopping at the first low reading of a noisy standard error is
 *   optimistic); or, on a path too jittery ever to get there, a full window
 *   (6.4 s of burst), which is the best that path allows. On a quiet LAN the
 *   first clause holds after about 18 requests (0.9 s); on the 50 ± 10 ms
 *   path after 90-128 (4.5-6.5 s). The tests measure |error| ≤ 1 ms at p95
 *   there, at ready and after.
 * - a reply is accepted up to 2 s after its request; at most 16 requests are
 *   unanswered at once, so a silent responder gets at most 8 requests a second.
 *
 * A responder whose clock jumps (it restarted, or a peer re-synced) produces
 * samples that are physically impossible under the current estimate: the
 * responder's time must lie between the request leaving and the reply
 * arriving. One such sample is dropped as `inconsistent` (it might be forged);
 * four in a row that agree with each other mean the clock really stepped, and
 * the window restarts from them (counted in `steps`, burst again).
 *
 * With clock drift between the machines of d parts per million, the window
 * average lags by about d × (mean sample age): d × 3 s at ready, up to
 * d × 64 s once the window holds only refresh samples (1.3 ms at 20 ppm).
 */
import { estimateOffset, makeSample, type TimeEstimate, type TimeSample } from './estimate';
import { decodeTimeDatagram, encodeTimeReply, encodeTimeRequest, TimePacketType, type TimeWireDropReason } from './timeWire';

export { estimateOffset, makeSample, type TimeEstimate, type TimeSample } from './estimate';

export interface TimeSyncOptions {
  /** Interval between requests until ready, ms (default 50). */
  burstIntervalMs?: number;
  /** Interval between requests once ready, ms (default 1000). */
  refreshIntervalMs?: number;
  /** Most recent samples kept for the estimate (default 128). */
  windowSize?: number;
  /** Samples the filter must keep before the client can be ready (default 16). */
  minSamples?: number;
  /** Ready once the estimate's standard error is at most this, ms (default 0.45). */
  readyStandardErrorMs?: number;
  /** Replies arriving later than this after their request are dropped as `late`, ms (default 2000). */
  replyTimeoutMs?: number;
  /** Most requests awaiting a reply at once (default 16). */
  maxInFlight?: number;
  /** First request number (u32). Default: random, so an off-path forger must guess it. */
  firstSeq?: number;
}

export const TIME_SYNC_DEFAULTS: Required<Omit<TimeSyncOptions, 'firstSeq'>> = {
  burstIntervalMs: 50,
  refreshIntervalMs: 1000,
  windowSize: 128,
  minSamples: 16,
  readyStandardErrorMs: 0.45,
  replyTimeoutMs: 2000,
  maxInFlight: 16,
};

/** Inconsistent samples in a row, agreeing with each other, that prove the responder's clock stepped. */
const STEP_CONFIRM = 4;
/**
 * Room allowed beyond the physical bound before a sample counts as
 * inconsistent, ms: covers the estimate's own error and drift lag.
 */
const STEP_SLACK_MS = 2;
/** Request numbers remembered after they were answered or expired, to tell duplicates and late replies from forgeries. */
const REMEMBERED_SEQS = 256;

/** Why `TimeSyncClient.receive` ignored a datagram: a wire problem, or one of the client's own. */
export type TimeSyncDropReason =
  | TimeWireDropReason
  /** A TimeRequest reached the client; route requests to a responder. */
  | 'not-reply'
  /** A seq this client never sent (or has long forgotten). */
  | 'unknown-seq'
  /** A second reply to a request already answered. */
  | 'duplicate'
  /** A reply more than `replyTimeoutMs` after its request. */
  | 'late'
  /** The echoed clientTime is not the one sent with that seq (forged or corrupted). */
  | 'echo-mismatch'
  /** The reply arrived before its request left by our clock (the caller's clock went backwards). */
  | 'bad-rtt'
  /** The responder's time is impossible under the current estimate (see the file comment). */
  | 'inconsistent';

export type TimeSyncReceiveResult = { ok: true } | { ok: false; reason: TimeSyncDropReason };

export interface TimeSyncStats {
  /** Enough samples and a good delta: the player may join. Stays true once reached. */
  ready: boolean;
  /** Current delta, ms: common time = local clock + offsetMs (0 before the first sample). */
  offsetMs: number;
  /** Median round trip of the window, ms (NaN before the first sample). */
  rttMs: number;
  /** Spread of the window's round trips around their median, ms. */
  rttSpreadMs: number;
  /** Samples in the window, and how many the filter kept. */
  samples: number;
  kept: number;
  /** Standard error of `offsetMs`, ms (Infinity until two samples are kept). */
  standardErrorMs: number;
  requestsSent: number;
  repliesAccepted: number;
  /** Requests that got no reply within `replyTimeoutMs`. */
  timedOut: number;
  /** Times the responder's clock was found to have stepped and the window restarted. */
  steps: number;
  /** Ignored datagrams by reason. */
  drops: Partial<Record<TimeSyncDropReason, number>>;
}

type SeqState = { sentAt: number; state: 'pending' | 'answered' | 'expired' };

/**
 * Client side of time synchronisation, driven by the caller's clock `now`
 * (local, ms, float, never going backwards — `performance.now()`):
 * call {@link poll} often (every game tick is plenty) and send what it
 * returns to the responder; pass every time datagram from the responder to
 * {@link receive}. Never throws on received bytes.
 */
export class TimeSyncClient {
  private readonly opts: Required<Omit<TimeSyncOptions, 'firstSeq'>>;
  private nextSeq: number;
  private nextSendAt = -Infinity;
  private lastSentAt = -Infinity;
  /** Every recent seq in sending order (Map keeps insertion order), bounded by REMEMBERED_SEQS. */
  private readonly seqs = new Map<number, SeqState>();
  private inFlight = 0;
  private window: TimeSample[] = [];
  private estimate: TimeEstimate | null = null;
  private isReady = false;
  /** Whether to send at the burst rate: before ready, and after a clock step until the criterion holds again. */
  private bursting = true;
  private stepCandidates: TimeSample[] = [];
  private counters = { requestsSent: 0, repliesAccepted: 0, timedOut: 0, steps: 0 };
  private readonly drops: Partial<Record<TimeSyncDropReason, number>> = {};

  constructor(options: TimeSyncOptions = {}) {
    const opts = { ...TIME_SYNC_DEFAULTS, ...stripUndefined(options) };
    for (const key of ['burstIntervalMs', 'refreshIntervalMs', 'replyTimeoutMs', 'readyStandardErrorMs'] as const) {
      if (!(opts[key] > 0) || !Number.isFinite(opts[key])) throw new RangeError(`TimeSyncClient: ${key} must be a positive number`);
    }
    for (const key of ['windowSize', 'minSamples', 'maxInFlight'] as const) {
      if (!Number.isInteger(opts[key]) || opts[key] < 1) throw new RangeError(`TimeSyncClient: ${key} must be a positive integer`);
    }
    if (opts.minSamples > opts.windowSize) throw new RangeError('TimeSyncClient: minSamples cannot exceed windowSize');
    this.opts = opts;
    const first = options.firstSeq ?? Math.floor(Math.random() * 0x1_0000_0000);
    if (!Number.isInteger(first) || first < 0 || first > 0xffff_ffff) throw new RangeError('TimeSyncClient: firstSeq must be a u32');
    this.nextSeq = first;
  }

  /** True once there are enough samples and a good delta (sticky). */
  get ready(): boolean {
    return this.isReady;
  }

  /** True once a sample has given an estimate (cheap; `stats()` builds a report). */
  get measured(): boolean {
    return this.estimate !== null;
  }

  /** Delta to add to the local clock, ms (0 until the first sample arrives; Simpson uses the first sample at once). */
  get offset(): number {
    return this.estimate?.offset ?? 0;
  }

  /** Common game time at local time `now`, ms. */
  commonTime(now: number): number {
    return now + this.offset;
  }

  /**
   * The requests due at `now` (zero or one datagram). Also expires requests
   * that waited longer than `replyTimeoutMs`. A late call sends one request,
   * not a backlog.
   */
  poll(now: number): Uint8Array[] {
    this.expire(now);
    if (now < this.nextSendAt || this.inFlight >= this.opts.maxInFlight) return [];
    const seq = this.nextSeq;
    this.nextSeq = (this.nextSeq + 1) >>> 0;
    this.remember(seq, { sentAt: now, state: 'pending' });
    this.inFlight++;
    this.counters.requestsSent++;
    this.lastSentAt = now;
    this.nextSendAt = now + (this.bursting ? this.opts.burstIntervalMs : this.opts.refreshIntervalMs);
    return [encodeTimeRequest(seq, now)];
  }

  /** Takes one datagram from the responder, received at local time `now`. Never throws. */
  receive(bytes: Uint8Array, now: number): TimeSyncReceiveResult {
    const decoded = decodeTimeDatagram(bytes);
    if (!decoded.ok) return this.drop(decoded.reason);
    const msg = decoded.msg;
    if (msg.type !== TimePacketType.TimeReply) return this.drop('not-reply');
    const entry = this.seqs.get(msg.seq);
    if (entry === undefined) return this.drop('unknown-seq');
    // Checked before the state so a forger who guessed a seq cannot mark it answered.
    if (!Object.is(entry.sentAt, msg.clientTime)) return this.drop('echo-mismatch');
    if (entry.state === 'answered') return this.drop('duplicate');
    if (entry.state === 'expired') return this.drop('late');
    if (!(now >= entry.sentAt)) return this.drop('bad-rtt');
    if (now - entry.sentAt > this.opts.replyTimeoutMs) {
      this.expireEntry(entry);
      return this.drop('late');
    }
    entry.state = 'answered';
    this.inFlight--;
    return this.addSample(makeSample(entry.sentAt, msg.serverTime, now));
  }

  stats(): TimeSyncStats {
    const e = this.estimate;
    return {
      ready: this.isReady,
      offsetMs: this.offset,
      rttMs: e?.rttMedian ?? Number.NaN,
      rttSpreadMs: e?.rttSpread ?? Number.NaN,
      samples: this.window.length,
      kept: e?.kept ?? 0,
      standardErrorMs: e !== null && e.kept > 1 ? e.standardError : Number.POSITIVE_INFINITY,
      ...this.counters,
      drops: { ...this.drops },
    };
  }

  private addSample(sample: TimeSample): TimeSyncReceiveResult {
    const e = this.estimate;
    if (e !== null && e.kept >= this.opts.minSamples && !consistent(sample, e.offset)) {
      return this.suspect(sample);
    }
    this.stepCandidates = [];
    this.counters.repliesAccepted++;
    this.window.push(sample);
    if (this.window.length > this.opts.windowSize) this.window.shift();
    this.reestimate();
    return { ok: true };
  }

  /**
   * A sample that contradicts the estimate: drop it unless it is the
   * STEP_CONFIRM-th in a row and all of them agree with one another, in
   * which case the responder's clock moved and the window starts over.
   */
  private suspect(sample: TimeSample): TimeSyncReceiveResult {
    const agrees = this.stepCandidates.every((c) => Math.abs(c.offset - sample.offset) <= (c.rtt + sample.rtt) / 2 + STEP_SLACK_MS);
    this.stepCandidates = agrees ? [...this.stepCandidates, sample] : [sample];
    if (this.stepCandidates.length < STEP_CONFIRM) return this.drop('inconsistent');
    this.counters.steps++;
    this.counters.repliesAccepted += this.stepCandidates.length;
    this.window = this.stepCandidates;
    this.stepCandidates = [];
    this.bursting = true;
    // Refill quickly: the next request goes out at the next poll.
    this.nextSendAt = -Infinity;
    this.reestimate();
    return { ok: true };
  }

  private reestimate(): void {
    const e = estimateOffset(this.window);
    this.estimate = e;
    if (e === null || e.kept < this.opts.minSamples) return;
    if (e.standardError <= this.opts.readyStandardErrorMs || this.window.length >= this.opts.windowSize) {
      if (this.bursting) {
        this.bursting = false;
        // Switch to the slower pace from the next request on.
        this.nextSendAt = this.lastSentAt + this.opts.refreshIntervalMs;
      }
      this.isReady = true;
    }
  }

  private expire(now: number): void {
    if (this.inFlight === 0) return;
    for (const entry of this.seqs.values()) {
      if (entry.state === 'pending' && now - entry.sentAt > this.opts.replyTimeoutMs) this.expireEntry(entry);
    }
  }

  private expireEntry(entry: SeqState): void {
    entry.state = 'expired';
    this.inFlight--;
    this.counters.timedOut++;
  }

  private remember(seq: number, entry: SeqState): void {
    // A wrapped seq reuses its slot; the old entry is long settled.
    const old = this.seqs.get(seq);
    if (old !== undefined) {
      if (old.state === 'pending') this.expireEntry(old);
      this.seqs.delete(seq);
    }
    this.seqs.set(seq, entry);
    if (this.seqs.size > REMEMBERED_SEQS) {
      const [oldestSeq, oldest] = this.seqs.entries().next().value as [number, SeqState];
      if (oldest.state === 'pending') this.expireEntry(oldest);
      this.seqs.delete(oldestSeq);
    }
  }

  private drop(reason: TimeSyncDropReason): TimeSyncReceiveResult {
    this.drops[reason] = (this.drops[reason] ?? 0) + 1;
    return { ok: false, reason };
  }
}

/**
 * Whether a sample allows `offset`: the responder stamped its time somewhere
 * between our request leaving and its reply arriving, so the true offset lies
 * within rtt/2 of the sample's own estimate.
 */
function consistent(sample: TimeSample, offset: number): boolean {
  return Math.abs(sample.offset - offset) <= sample.rtt / 2 + STEP_SLACK_MS;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The reply to a time request, stamped with `serverTime` (the responder's
 * common game time now, ms); null for anything that is not a valid
 * TimeRequest. Never throws.
 */
export function answerTimeRequest(bytes: Uint8Array, serverTime: number): Uint8Array | null {
  const decoded = decodeTimeDatagram(bytes);
  if (!decoded.ok || decoded.msg.type !== TimePacketType.TimeRequest) return null;
  if (!Number.isFinite(serverTime) || serverTime < 0) return null;
  return encodeTimeReply(decoded.msg.seq, decoded.msg.clientTime, serverTime);
}

export type TimeResponderDropReason = TimeWireDropReason | 'not-request' | 'no-time';

/**
 * {@link answerTimeRequest} with counters, for a server or peer: `clock()`
 * returns its common game time, read as late as possible (when the request
 * is answered). Per-address rate limiting belongs to the caller, who knows
 * addresses.
 */
export class TimeResponder {
  answered = 0;
  private readonly drops: Partial<Record<TimeResponderDropReason, number>> = {};

  constructor(private readonly clock: () => number) {}

  /** The reply to send back to the request's sender, or null (counted by reason). Never throws. */
  answer(bytes: Uint8Array): Uint8Array | null {
    const decoded = decodeTimeDatagram(bytes);
    if (!decoded.ok) return this.drop(decoded.reason);
    if (decoded.msg.type !== TimePacketType.TimeRequest) return this.drop('not-request');
    const now = this.clock();
    // A responder not yet synced (or with a broken clock) stays silent rather than spread a bad time.
    if (!Number.isFinite(now) || now < 0) return this.drop('no-time');
    this.answered++;
    return encodeTimeReply(decoded.msg.seq, decoded.msg.clientTime, now);
  }

  stats(): { answered: number; drops: Partial<Record<TimeResponderDropReason, number>> } {
    return { answered: this.answered, drops: { ...this.drops } };
  }

  private drop(reason: TimeResponderDropReason): null {
    this.drops[reason] = (this.drops[reason] ?? 0) + 1;
    return null;
  }
}
