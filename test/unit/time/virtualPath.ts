/**
 * A virtual clock and a simulated network path for time-sync trials, shared
 * by `timeSync.test.ts` and `bench/timesync.ts`.
 *
 * The client's clock is the reference ("true" time). The responder's clock
 * reads `serverOffsetMs + t × (1 + driftPpm / 10⁶)` at true time t. Every
 * datagram, in each direction independently, takes `lagMs ± jitterMs`
 * (uniform), plus `outlierDelayMs` for a seeded `outlierPct` share of them,
 * and is lost with probability `lossPct`. The client is polled every
 * `pollMs`; deliveries between polls happen at their exact times, in order,
 * as a socket handler would see them.
 */
import { floatStream } from '../../../src/shared/sim/prng';
import { TimeResponder, TimeSyncClient, type TimeSyncOptions, type TimeSyncStats } from '../../../src/shared/time';

export interface PathOptions {
  seed: number;
  serverOffsetMs?: number;
  driftPpm?: number;
  lagMs?: number;
  jitterMs?: number;
  lossPct?: number;
  outlierPct?: number;
  outlierDelayMs?: number;
  /** Simulated time, ms. */
  durationMs?: number;
  /** Client poll interval, ms (a game tick). */
  pollMs?: number;
  /** After ready, the error is also sampled every this many ms. */
  sampleEveryMs?: number;
  client?: TimeSyncOptions;
  /** The responder's clock jumps by `byMs` at true time `atMs` (it restarted, or re-synced). */
  clockStep?: { atMs: number; byMs: number };
  /** Replaces the responder's answer (to test forged or missing replies); return null to stay silent. */
  tamper?: (reply: Uint8Array, t: number) => Uint8Array | null;
}

export interface TrialResult {
  /** True time when the client first reported ready (null if never). */
  readyAt: number | null;
  /** Offset error (client's common time − responder's time) at that moment, ms. */
  errorAtReady: number | null;
  /** Errors sampled every `sampleEveryMs` from ready to the end, ms. */
  errorsAfterReady: number[];
  /** Error at the end of the trial, ms (NaN if the client never had a sample). */
  finalError: number;
  stats: TimeSyncStats;
  client: TimeSyncClient;
}

interface Delivery {
  at: number;
  toServer: boolean;
  bytes: Uint8Array;
}

export function runTrial(options: PathOptions): TrialResult {
  const {
    seed,
    serverOffsetMs = 123_456.789,
    driftPpm = 0,
    lagMs = 50,
    jitterMs = 10,
    lossPct = 0,
    outlierPct = 0,
    outlierDelayMs = 500,
    durationMs = 20_000,
    pollMs = 5,
    sampleEveryMs = 100,
    tamper,
    clockStep,
  } = options;
  const rng = floatStream(seed);
  const stepped = (t: number): number => (clockStep !== undefined && t >= clockStep.atMs ? clockStep.byMs : 0);
  const serverClock = (t: number): number => serverOffsetMs + stepped(t) + t * (1 + driftPpm / 1e6);
  const client = new TimeSyncClient({ firstSeq: Math.floor(rng() * 0xffff_ffff), ...options.client });
  let t = 0;
  const responder = new TimeResponder(() => serverClock(t));
  const inFlight: Delivery[] = [];
  const send = (bytes: Uint8Array, toServer: boolean): void => {
    if (rng() * 100 < lossPct) return;
    let delay = lagMs + (rng() * 2 - 1) * jitterMs;
    if (rng() * 100 < outlierPct) delay += outlierDelayMs;
    inFlight.push({ at: t + delay, toServer, bytes });
  };
  const error = (): number => client.commonTime(t) - serverClock(t);

  let readyAt: number | null = null;
  let errorAtReady: number | null = null;
  const errorsAfterReady: number[] = [];
  let nextSample = 0;
  for (let tick = 0; tick <= durationMs; tick += pollMs) {
    // Deliver everything due before this tick, earliest first, each at its own time.
    for (;;) {
      let next = -1;
      for (let i = 0; i < inFlight.length; i++) {
        const d = inFlight[i]!;
        if (d.at <= tick && (next < 0 || d.at < inFlight[next]!.at)) next = i;
      }
      if (next < 0) break;
      const d = inFlight.splice(next, 1)[0]!;
      t = d.at;
      if (d.toServer) {
        const reply = responder.answer(d.bytes);
        const out = reply === null || tamper === undefined ? reply : tamper(reply, t);
        if (out !== null) send(out, false);
      } else {
        client.receive(d.bytes, t);
        if (readyAt === null && client.ready) {
          readyAt = t;
          errorAtReady = error();
          nextSample = t;
        }
      }
    }
    t = tick;
    for (const bytes of client.poll(t)) send(bytes, true);
    if (readyAt !== null && t >= nextSample) {
      errorsAfterReady.push(error());
      nextSample += sampleEveryMs;
    }
  }
  return {
    readyAt,
    errorAtReady,
    errorsAfterReady,
    finalError: client.stats().samples > 0 ? error() : Number.NaN,
    stats: client.stats(),
    client,
  };
}

/** The value below which `p` (0..1) of `values` fall (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export interface Summary {
  trials: number;
  readyTrials: number;
  /** |error| at ready: p50, p95, max, ms. */
  atReady: { p50: number; p95: number; max: number };
  /** |error| over every sample after ready in every trial: p50, p95, max, ms. */
  afterReady: { p50: number; p95: number; max: number };
  /** Time to ready: p50, p95, max, ms. */
  readyTime: { p50: number; p95: number; max: number };
}

/** Runs `trials` seeded trials (seeds 1..trials mixed with `baseSeed`) and summarises them. */
export function runTrials(trials: number, base: Omit<PathOptions, 'seed'>, baseSeed = 0x7153): Summary {
  const results = Array.from({ length: trials }, (_, i) => runTrial({ ...base, seed: (baseSeed * 7919 + i * 104_729) >>> 0 }));
  const ready = results.filter((r) => r.readyAt !== null);
  const atReady = ready.map((r) => Math.abs(r.errorAtReady!));
  const after = ready.flatMap((r) => r.errorsAfterReady.map(Math.abs));
  const times = ready.map((r) => r.readyAt!);
  const three = (v: number[]): { p50: number; p95: number; max: number } => ({
    p50: percentile(v, 0.5),
    p95: percentile(v, 0.95),
    max: v.length === 0 ? Number.NaN : Math.max(...v),
  });
  return { trials, readyTrials: ready.length, atReady: three(atReady), afterReady: three(after), readyTime: three(times) };
}
