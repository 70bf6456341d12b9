import { describe, expect, it } from 'vitest';
import { Connection } from '../../../src/shared/net/connection';
import { lossPct } from '../../../src/shared/net/lossMeter';
import { PING_INTERVAL_MS, pingStamp, PingSchedule, RoundTrip, roundTripSummary } from '../../../src/shared/net/roundTrip';

describe('round trips, a field of each connection', () => {
  it('measures the round trip from an echoed stamp and smooths it', () => {
    const t = new RoundTrip();
    expect(t.sample(pingStamp(1000), 1040)).toBe(40);
    expect(t.ms).toBe(40);
    t.sample(pingStamp(2000), 2080);
    expect(t.ms).toBe(50); // 40 + (80 - 40) / 4
    expect(t.last).toBe(80);
    expect(t.jitter).toBe(10); // 0 + (|80 − 40| − 0) / 4
  });

  it('handles the u32 clock wrapping between ping and pong', () => {
    const t = new RoundTrip();
    const sent = 2 ** 32 - 10;
    expect(t.sample(pingStamp(sent), sent + 25)).toBe(25);
  });

  it('ignores implausible echoes (from the future or ancient)', () => {
    const t = new RoundTrip();
    expect(t.sample(pingStamp(5000), 4000)).toBeNull();
    expect(t.sample(pingStamp(0), 60_000)).toBeNull();
    expect(t.ms).toBeUndefined();
  });

  it('a server takes only the echo of its own ping in flight, once, to the fraction of a millisecond', () => {
    const t = new RoundTrip();
    const stamp = t.ping(1000.25);
    expect(t.answer(stamp + 1, 1040)).toBe(false);
    expect(t.answer(stamp, 1040.5)).toBe(true);
    expect(t.last).toBe(40.5);
    expect(t.answer(stamp, 1100)).toBe(false); // answered already
    expect(t.last).toBe(40.5);
  });

  it('is due once per interval; a node that left is forgotten, and the summary is over the measured ones', () => {
    const s = new PingSchedule();
    expect(s.due(0)).toBe(true);
    expect(s.due(PING_INTERVAL_MS - 1)).toBe(false);
    expect(s.due(PING_INTERVAL_MS)).toBe(true);
    const [a, b] = [new Connection(0), new Connection(0)];
    a.roundTrip.sample(0, 10);
    b.roundTrip.sample(0, 30);
    expect(roundTripSummary([a.roundTrip, b.roundTrip])).toEqual({ pingMs: 20, jitterMs: 0 });
    a.roundTrip.clear();
    expect(a.roundTrip.ms).toBeUndefined();
    expect(roundTripSummary([a.roundTrip, b.roundTrip])).toEqual({ pingMs: 30, jitterMs: 0 });
    expect(roundTripSummary([])).toEqual({ pingMs: null, jitterMs: null });
  });
});

describe('loss, from the gaps in each connection\'s ids', () => {
  it('counts the ids a node spanned against those that arrived, over the nodes, within the window', () => {
    const [a, b] = [new Connection(0), new Connection(0)];
    for (let id = 100; id < 120; id++) if (id % 5 !== 0) a.loss.record(id, 0); // 16 of 20
    for (let id = 7; id < 27; id++) b.loss.record(id, 0); // 20 of 20
    b.loss.record(9, 0); // a duplicate counts once
    expect(lossPct([a.loss, b.loss], 1000)).toBeCloseTo((100 * 3) / 39, 6); // a: 101..119 spans 19, 16 arrived (105, 110, 115 lost); b: 20 of 20
    expect(lossPct([a.loss, b.loss], 6000)).toBeNull(); // all older than the 5 s window
  });

  it('a node that restarts its numbers starts a new span; fewer than 10 ids say nothing', () => {
    const c = new Connection(0);
    for (let id = 1000; id < 1005; id++) c.loss.record(id, 0);
    expect(lossPct([c.loss], 0)).toBeNull();
    for (let id = 3; id < 23; id += 2) c.loss.record(id, 1); // jumped back: a new span, every other id lost
    expect(lossPct([c.loss], 1)).toBeCloseTo((100 * 9) / 19, 6);
  });
});
