/**
 * Time synchronisation on a virtual clock: Simpson's estimate, the client's
 * pacing and readiness, its accuracy over 100 seeded trials on a 50 ± 10 ms
 * path, and its refusal of bad, forged, duplicate and late replies.
 */
import { describe, expect, it } from 'vitest';
import {
  answerTimeRequest,
  decodeTimeDatagram,
  encodeTimeReply,
  encodeTimeRequest,
  estimateOffset,
  makeSample,
  TIME_SYNC_DEFAULTS,
  TimePacketType,
  TimeResponder,
  TimeSyncClient,
  type TimeSample,
} from '../../../src/shared/time';
import { floatStream } from '../../../src/shared/sim/prng';
import { runTrial, runTrials, type Summary } from './virtualPath';

const OFFSET = 123_456.789;

function show(label: string, s: Summary): void {
  const f = (n: number): string => n.toFixed(3);
  console.log(
    `${label}: ${s.readyTrials}/${s.trials} ready; |error| at ready p50 ${f(s.atReady.p50)} p95 ${f(s.atReady.p95)} max ${f(s.atReady.max)} ms; ` +
      `after ready p50 ${f(s.afterReady.p50)} p95 ${f(s.afterReady.p95)} max ${f(s.afterReady.max)} ms; ` +
      `time to ready p50 ${s.readyTime.p50.toFixed(0)} p95 ${s.readyTime.p95.toFixed(0)} max ${s.readyTime.max.toFixed(0)} ms`,
  );
}

/** Samples of a path whose directions take lag ± jitter ms each, with the true offset OFFSET. */
function pathSamples(n: number, seed: number, lag = 50, jitter = 10): TimeSample[] {
  const rng = floatStream(seed);
  return Array.from({ length: n }, (_, i) => {
    const sentAt = i * 50;
    const up = lag + (rng() * 2 - 1) * jitter;
    const down = lag + (rng() * 2 - 1) * jitter;
    return makeSample(sentAt, sentAt + up + OFFSET, sentAt + up + down);
  });
}

/** Feeds one request through a responder at `serverTime` and back to the client at `arrival`. */
function exchange(client: TimeSyncClient, request: Uint8Array, serverTime: number, arrival: number): ReturnType<TimeSyncClient['receive']> {
  const reply = answerTimeRequest(request, serverTime);
  if (reply === null) throw new Error('responder refused a valid request');
  return client.receive(reply, arrival);
}

describe("Simpson's estimate", () => {
  it('gives nothing for no samples and the exact offset on a symmetric path', () => {
    expect(estimateOffset([])).toBeNull();
    const samples = [0, 1, 2].map((i) => makeSample(i * 100, i * 100 + 20 + OFFSET, i * 100 + 40));
    const e = estimateOffset(samples)!;
    expect(e.offset).toBeCloseTo(OFFSET, 9);
    expect(e).toMatchObject({ rttMedian: 40, rttSpread: 0, kept: 3, total: 3, offsetSpread: 0 });
  });

  it('averages only the samples whose round trip is at most one spread above the median', () => {
    // Round trips 10, 20, 30, 40, 200: median 30, spread √((400+100+0+100+28900)/5) ≈ 76.8, so 200 is cut.
    const samples = [10, 20, 30, 40, 200].map((rtt, i) => ({ sentAt: i, rtt, offset: i === 4 ? 1000 : i }));
    const e = estimateOffset(samples)!;
    expect(e.rttMedian).toBe(30);
    expect(e.rttSpread).toBeCloseTo(Math.sqrt(29_500 / 5), 9);
    expect(e.kept).toBe(4);
    expect(e.offset).toBeCloseTo(1.5, 9);
  });

  it('is not moved by a few samples delayed 500 ms, which would drag a plain average by many ms', () => {
    const clean = pathSamples(100, 11);
    const rng = floatStream(12);
    // Five replies queued 500 ms on the way back: round trip +500, offset estimate +250 ms too high.
    const late = Array.from({ length: 5 }, (_, i) => {
      const sentAt = 10_000 + i * 50;
      const up = 50 + (rng() * 2 - 1) * 10;
      return makeSample(sentAt, sentAt + up + OFFSET, sentAt + up + 550);
    });
    const withLate = [...clean, ...late];
    const before = estimateOffset(clean)!.offset;
    const after = estimateOffset(withLate)!.offset;
    const plainMean = withLate.reduce((sum, s) => sum + s.offset, 0) / withLate.length;
    expect(Math.abs(after - before)).toBeLessThan(0.5);
    expect(Math.abs(plainMean - before)).toBeGreaterThan(5);
    expect(Math.abs(after - OFFSET)).toBeLessThan(1.5);
  });
});

describe('time sync accuracy on a 50 ± 10 ms path (virtual clock, 100 seeded trials)', () => {
  it('is within 1 ms of the server at p95 once ready, and stays there, with a server 123,456.789 ms ahead drifting 5 ppm', () => {
    const s = runTrials(100, { serverOffsetMs: OFFSET, driftPpm: 5, lagMs: 50, jitterMs: 10, durationMs: 30_000 });
    show('50 ± 10 ms path, 5 ppm drift, 30 s', s);
    expect(s.readyTrials).toBe(100);
    expect(s.atReady.p95).toBeLessThanOrEqual(1);
    expect(s.afterReady.p95).toBeLessThanOrEqual(1);
    // Ready within the documented bound: a full window of burst samples (128 × 50 ms) plus one round trip.
    expect(s.readyTime.max).toBeLessThanOrEqual(128 * 50 + 120);
  });

  it('keeps within 1 ms at p95 when 3% of datagrams are delayed by 500 ms', () => {
    const s = runTrials(100, { serverOffsetMs: OFFSET, outlierPct: 3, outlierDelayMs: 500, durationMs: 30_000 });
    show('50 ± 10 ms path, 3% delayed 500 ms', s);
    expect(s.readyTrials).toBe(100);
    expect(s.atReady.p95).toBeLessThanOrEqual(1);
    expect(s.afterReady.p95).toBeLessThanOrEqual(1);
  });

  it('keeps within 1 ms at p95 with 10% loss each way, only later', () => {
    const s = runTrials(100, { serverOffsetMs: OFFSET, lossPct: 10, durationMs: 30_000 });
    show('50 ± 10 ms path, 10% loss', s);
    expect(s.readyTrials).toBe(100);
    expect(s.atReady.p95).toBeLessThanOrEqual(1);
    expect(s.afterReady.p95).toBeLessThanOrEqual(1);
  });

  it('is ready within about a second on a quiet LAN, to a few microseconds', () => {
    const s = runTrials(100, { serverOffsetMs: OFFSET, lagMs: 0.2, jitterMs: 0.05, durationMs: 5_000 });
    show('LAN 0.2 ± 0.05 ms path', s);
    expect(s.readyTrials).toBe(100);
    expect(s.readyTime.max).toBeLessThan(1_500);
    expect(s.atReady.max).toBeLessThan(0.05);
  });
});

describe('time sync client', () => {
  it('never becomes ready when no reply comes, and backs off to at most 16 requests per reply timeout', () => {
    const r = runTrial({ seed: 1, lossPct: 100, durationMs: 60_000 });
    expect(r.client.ready).toBe(false);
    expect(r.stats.samples).toBe(0);
    expect(r.client.offset).toBe(0);
    // Without back-off a 50 ms burst would send 1,200 requests in a minute.
    expect(r.stats.requestsSent).toBeLessThanOrEqual(16 * Math.ceil(60_000 / TIME_SYNC_DEFAULTS.replyTimeoutMs) + 16);
    expect(r.stats.timedOut).toBeGreaterThan(400);
  });

  it('ignores replies with a seq it never sent, however many arrive', () => {
    const r = runTrial({
      seed: 2,
      durationMs: 10_000,
      tamper: (reply) => {
        const copy = reply.slice();
        const view = new DataView(copy.buffer);
        view.setUint32(4, (view.getUint32(4) + 1000) >>> 0);
        return copy;
      },
    });
    expect(r.client.ready).toBe(false);
    expect(r.stats.samples).toBe(0);
    // Every reply came back as unknown, except those still on the way when the trial ended.
    expect(r.stats.drops['unknown-seq']).toBeGreaterThanOrEqual(r.stats.requestsSent - TIME_SYNC_DEFAULTS.maxInFlight);
    expect(r.client.commonTime(500)).toBe(500);
  });

  it('ignores replies whose echoed client time differs from what it sent (forged with a guessed seq)', () => {
    const r = runTrial({ seed: 3, durationMs: 10_000, tamper: (reply) => withEcho(reply, 0.5) });
    expect(r.client.ready).toBe(false);
    expect(r.stats.samples).toBe(0);
    expect(r.stats.drops['echo-mismatch']).toBeGreaterThanOrEqual(r.stats.requestsSent - TIME_SYNC_DEFAULTS.maxInFlight);
  });

  it('counts a second reply to one request as a duplicate and a reply after the timeout as late', () => {
    const client = new TimeSyncClient({ firstSeq: 5 });
    const [first] = client.poll(0);
    expect(exchange(client, first!, OFFSET + 50, 100)).toEqual({ ok: true });
    expect(exchange(client, first!, OFFSET + 50, 101)).toEqual({ ok: false, reason: 'duplicate' });
    const [second] = client.poll(100);
    expect(exchange(client, second!, OFFSET + 150, 100 + 2001)).toEqual({ ok: false, reason: 'late' });
    const [third] = client.poll(2200);
    client.poll(2200 + 2001); // the request expires here
    expect(exchange(client, third!, OFFSET + 2300, 2200 + 2002)).toEqual({ ok: false, reason: 'late' });
    const stats = client.stats();
    expect(stats).toMatchObject({ samples: 1, repliesAccepted: 1, timedOut: 2, drops: { duplicate: 1, late: 2 } });
    expect(client.offset).toBeCloseTo(OFFSET, 6);
  });

  it('uses its first sample at once, before it is ready', () => {
    const client = new TimeSyncClient({ firstSeq: 0 });
    expect(client.offset).toBe(0);
    const [request] = client.poll(1000);
    exchange(client, request!, 5000, 1040);
    expect(client.ready).toBe(false);
    expect(client.offset).toBeCloseTo(5000 + 20 - 1040, 9);
    expect(client.commonTime(2000)).toBeCloseTo(2000 + 3980, 9);
  });

  it('drops garbage, game packets and requests with a reason, without throwing', () => {
    const client = new TimeSyncClient({ firstSeq: 0 });
    client.poll(0);
    const rng = floatStream(77);
    for (let i = 0; i < 5_000; i++) {
      const bytes = Uint8Array.from({ length: Math.floor(rng() * 30) }, () => Math.floor(rng() * 256));
      expect(client.receive(bytes, 10).ok).toBe(false);
    }
    expect(client.receive(encodeTimeRequest(0, 0), 10)).toEqual({ ok: false, reason: 'not-reply' });
    expect(client.receive(Uint8Array.of(0x53, 0x4c, 1, 9), 10).ok).toBe(false);
    expect(client.stats()).toMatchObject({ samples: 0, repliesAccepted: 0 });
  });

  it('asks every 50 ms until ready, then once a second', () => {
    const client = new TimeSyncClient({ firstSeq: 0 });
    const sentAt: number[] = [];
    for (let now = 0; now <= 30_000; now += 5) {
      for (const request of client.poll(now)) {
        sentAt.push(now);
        // A perfect 10 ms path: every sample agrees exactly.
        exchange(client, request, now + 5 + OFFSET, now + 10);
      }
    }
    expect(client.ready).toBe(true);
    const gaps = sentAt.slice(1).map((t, i) => t - sentAt[i]!);
    const burst = gaps.filter((g) => g === 50).length;
    expect(burst).toBe(TIME_SYNC_DEFAULTS.minSamples - 1);
    expect(gaps.slice(burst).every((g) => g === 1000)).toBe(true);
  });

  it('sends one request after a long stall, not a backlog', () => {
    const client = new TimeSyncClient({ firstSeq: 0 });
    expect(client.poll(0)).toHaveLength(1);
    expect(client.poll(10)).toHaveLength(0);
    expect(client.poll(5_000)).toHaveLength(1);
    expect(client.poll(5_001)).toHaveLength(0);
  });

  it('ignores a single reply carrying a wrong time once synced, and follows a server clock that really jumped', () => {
    let forged = 0;
    const r = runTrial({
      seed: 9,
      durationMs: 40_000,
      clockStep: { atMs: 20_000, byMs: 250 },
      tamper: (reply, t) => {
        // One forged reply at 12 s, 80 ms off: impossible for a 100 ms round trip.
        if (t < 12_000 || forged > 0) return reply;
        forged++;
        const m = decodeTimeDatagram(reply);
        if (!m.ok || m.msg.type !== TimePacketType.TimeReply) return reply;
        return encodeTimeReply(m.msg.seq, m.msg.clientTime, m.msg.serverTime + 80);
      },
    });
    expect(r.stats.drops.inconsistent).toBeGreaterThanOrEqual(1 + 3);
    expect(r.stats.steps).toBe(1);
    expect(r.client.ready).toBe(true);
    // The errors sampled between the forgery and the jump stayed small.
    const beforeJump = r.errorsAfterReady.slice(0, Math.floor((20_000 - r.readyAt!) / 100));
    expect(Math.max(...beforeJump.map(Math.abs))).toBeLessThan(2);
    expect(Math.abs(r.finalError)).toBeLessThan(1.5);
  });

  it('refuses nonsense options with a message naming the option', () => {
    expect(() => new TimeSyncClient({ burstIntervalMs: 0 })).toThrow(/burstIntervalMs must be a positive number/);
    expect(() => new TimeSyncClient({ windowSize: 2.5 })).toThrow(/windowSize must be a positive integer/);
    expect(() => new TimeSyncClient({ minSamples: 200 })).toThrow(/minSamples cannot exceed windowSize/);
    expect(() => new TimeSyncClient({ firstSeq: -1 })).toThrow(/firstSeq must be a u32/);
  });
});

describe('time responder', () => {
  it('answers a request with its seq, the echoed client time and its own time', () => {
    const reply = answerTimeRequest(encodeTimeRequest(99, 1234.5), 98_765.25);
    expect(decodeTimeDatagram(reply!)).toEqual({
      ok: true,
      msg: { type: TimePacketType.TimeReply, seq: 99, clientTime: 1234.5, serverTime: 98_765.25 },
    });
  });

  it('answers nothing that is not a valid request', () => {
    expect(answerTimeRequest(encodeTimeReply(1, 2, 3), 10)).toBeNull();
    expect(answerTimeRequest(Uint8Array.of(0x53, 0x4c), 10)).toBeNull();
    expect(answerTimeRequest(encodeTimeRequest(1, 2).subarray(0, 15), 10)).toBeNull();
    expect(answerTimeRequest(encodeTimeRequest(1, 2), Number.NaN)).toBeNull();
  });

  it('counts what it answers and what it drops, and stays silent while it has no time to give', () => {
    let clock = Number.NaN;
    const responder = new TimeResponder(() => clock);
    expect(responder.answer(encodeTimeRequest(1, 2))).toBeNull();
    clock = 500;
    expect(responder.answer(encodeTimeRequest(1, 2))).not.toBeNull();
    expect(responder.answer(encodeTimeReply(1, 2, 3))).toBeNull();
    expect(responder.answer(new Uint8Array(3))).toBeNull();
    expect(responder.stats()).toEqual({ answered: 1, drops: { 'no-time': 1, 'not-request': 1, truncated: 1 } });
  });
});

function withEcho(reply: Uint8Array, delta: number): Uint8Array {
  const copy = reply.slice();
  const view = new DataView(copy.buffer);
  view.setFloat64(8, view.getFloat64(8) + delta);
  return copy;
}
