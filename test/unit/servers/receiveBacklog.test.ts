/**
 * How long a datagram waited in the gameserver's receive queue, and the
 * states it sheds for it (src/node/servers/game/receiveBacklog.ts): the
 * server's probes and each player's stamps, through a first-in-first-out
 * queue modelled here (the kernel's socket buffer is not what is tested).
 * The estimate is right on a calm server whatever the player's clock says,
 * right during a stall, heals after the player's clock steps back, learns
 * the truth about a player who joined a server already behind, never exceeds
 * what the probes allow; while behind, all but one state per player per
 * SHED_FLOOR_MS are shed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BacklogProbe, CALM_SECONDS, InputAge, MIN_RECEIVE_BUFFER, PROBE_BYTES, PROBE_EVERY_MS, ReceiveBufferControl, SHED_AGE_MS, SHED_FLOOR_MS } from '../../../src/node/servers/game/receiveBacklog';

/** What entered the queue: a probe (sent by the server at `at`) or a player's state stamped `stamp`. */
type Entry = { at: number; probe: Uint8Array } | { at: number; stamp: number };

interface Scenario {
  /** The player's clock minus the server's (ms; any u32 wraps). */
  offset: (t: number) => number;
  /** One-way delay of the player's datagram sent at t (ms). */
  delay: (t: number) => number;
  /** Server time spans in which it reads nothing and sends no probes (its loop busy). */
  stalls: [number, number][];
  /** A queue the server never catches up with: everything (its probes too) is read this long after it entered (ms; default 0). */
  behind?: number;
  /** Until when the player sends (every 50 ms, from 0). */
  until: number;
  /** Where the first state is sent (default 0). */
  from?: number;
}

/** The queue served in order: each state as read, with its true wait, the estimate and whether it was shed. */
function serve(sc: Scenario): { at: number; sentAt: number; wait: number; age: number; shed: boolean; bound: number }[] {
  const probe = new BacklogProbe(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
  const player = new InputAge();
  const stalledAt = (t: number) => sc.stalls.find(([a, b]) => t >= a && t < b);
  const entries: (Entry & { sentAt: number })[] = [];
  for (let t = 0; t < sc.until; t += PROBE_EVERY_MS) if (!stalledAt(t)) entries.push({ at: t, probe: probe.probe(t), sentAt: t });
  for (let t = sc.from ?? 0; t < sc.until; t += 50) entries.push({ at: t + sc.delay(t), stamp: (Math.floor(t + sc.offset(t)) >>> 0) as number, sentAt: t });
  entries.sort((a, b) => a.at - b.at);
  const out = [];
  let free = 0;
  for (const e of entries) {
    // Read when it has arrived and the server is free; a stall holds everything until it ends, then the backlog goes at 0.05 ms each.
    let read = Math.max(e.at + (sc.behind ?? 0), free);
    const stall = stalledAt(read);
    if (stall) read = stall[1];
    free = read + 0.05;
    if ('probe' in e) {
      expect(probe.take(e.probe, read)).toBe(true);
      player.probed(probe.lastSent);
    } else {
      const bound = probe.bound(read);
      const wait = read - e.at;
      const age = player.age(e.stamp, read, bound);
      // The shedding decision on the same estimate (age() is idempotent for one read).
      const shed = player.shed(e.stamp, read, bound) !== null;
      out.push({ at: read, sentAt: e.sentAt, wait, age, shed, bound });
    }
  }
  return out;
}

/** A seeded jitter source (no Math.random in tests). */
function jitter(seed: number, spread: number): (t: number) => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 0x1_0000_0000) * spread;
  };
}

describe('the receive queue wait of a gameserver', () => {
  it('a calm server sees every datagram as hardly waiting, whatever the player clock says (far behind, far ahead, wrapping), and sheds nothing', () => {
    for (const offset of [0, -3_600_000, 3_600_000, 0xffff_ff00, -0x7fff_0000]) {
      const states = serve({ offset: () => offset, delay: jitter(offset, 10), stalls: [], until: 5000 });
      expect(states.length).toBe(100);
      // The wait is the jitter above the smallest delay (≤ 10 ms), never the clock offset or the delay itself.
      expect(Math.max(...states.map((s) => s.age))).toBeLessThanOrEqual(10.1);
      expect(states.filter((s) => s.shed)).toEqual([]);
    }
  });

  it('after the server stalled for a second, each state from the backlog is known for what it waited, and all but one of those that waited too long are shed', () => {
    const states = serve({ offset: () => 123_456, delay: jitter(7, 5), stalls: [[2000, 3000]], until: 5000 });
    const backlog = states.filter((s) => s.sentAt >= 2000 && s.sentAt < 3000);
    expect(backlog.length).toBe(20);
    for (const s of states) expect(Math.abs(s.age - s.wait)).toBeLessThanOrEqual(5.5);
    const waitedTooLong = backlog.filter((s) => s.wait > SHED_AGE_MS + 5.5);
    // The first one goes (its player had nothing relayed for the floor's time); the rest of the old ones are shed.
    expect(waitedTooLong.filter((s) => !s.shed).length).toBe(1);
    expect(waitedTooLong.length).toBeGreaterThanOrEqual(17);
    // Fresh ones go again once the backlog is read.
    expect(states.filter((s) => s.sentAt >= 3100).every((s) => !s.shed)).toBe(true);
  });

  it('a player whose clock steps back 5 s (a time sync) does not look 5 s behind: the probes cap the estimate and the base heals within half a second', () => {
    const j = jitter(3, 10);
    const states = serve({ offset: (t) => (t < 2000 ? 50_000 : 45_000), delay: (t) => 20 + j(t), stalls: [], until: 4000 });
    const after = states.filter((s) => s.sentAt >= 2000);
    // At most what the last probe allows (a probe interval and the read), then no more than the jitter once a datagram came right after a probe.
    expect(Math.max(...after.map((s) => s.age))).toBeLessThanOrEqual(PROBE_EVERY_MS + 0.1);
    expect(Math.max(...after.filter((s) => s.sentAt >= 2500).map((s) => s.age))).toBeLessThanOrEqual(10.1);
    expect(states.filter((s) => s.shed)).toEqual([]);
  });

  it('a player who joins a server already 400 ms behind is known to wait 400 ms from the first probe read after its first state, and its states are shed', () => {
    const states = serve({ offset: () => -77, delay: () => 3, stalls: [], until: 4000, behind: 400 });
    // Its first state teaches a base with the wait in it; the first probe read after it tells the truth.
    const firstProbeRead = 400 + PROBE_EVERY_MS;
    const later = states.filter((s) => s.at > firstProbeRead);
    expect(later.length).toBeGreaterThan(60);
    for (const s of later) expect(Math.abs(s.age - s.wait)).toBeLessThanOrEqual(PROBE_EVERY_MS + 0.1);
    // All shed but one each SHED_FLOOR_MS.
    expect(later.filter((s) => !s.shed).length).toBeLessThanOrEqual(Math.ceil(3600 / SHED_FLOOR_MS) + 1);
  });

  it('while the server is behind for good, a player still has a state relayed once every SHED_FLOOR_MS', () => {
    // Everything waits 300 ms for 10 s.
    const states = serve({ offset: () => 9, delay: () => 1, stalls: [], until: 10_000, behind: 300 });
    const taken = states.filter((s) => !s.shed && s.at > 400).map((s) => s.at);
    const gaps = taken.slice(1).map((t, i) => t - (taken[i] as number));
    console.log(`behind for good: ${states.filter((s) => s.shed).length} of ${states.length} states shed; ${taken.length} taken, ${Math.min(...gaps)}..${Math.max(...gaps)} ms apart`);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SHED_FLOOR_MS);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(SHED_FLOOR_MS + 50);
    expect(taken.length).toBeGreaterThanOrEqual(8);
  });

  it('the estimate is never negative and never more than the probes allow, for any clock, delays and stalls', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -0x7fff_ffff, max: 0x7fff_ffff }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 1, max: 800 })), { maxLength: 4 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 400 }),
        (offset, stallList, spread, from) => {
          const stalls = stallList.map(([a, len]) => [a, a + len] as [number, number]);
          for (const s of serve({ offset: () => offset, delay: jitter(offset, spread), stalls, until: 5000, from })) {
            expect(s.age).toBeGreaterThanOrEqual(-1e-6);
            expect(s.age).toBeLessThanOrEqual(s.bound + 1e-6);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the backlog probe', () => {
  it('takes only its own 16-byte probes: another nonce, another length or bytes of a game datagram go on to the game', () => {
    const probe = new BacklogProbe(new Uint8Array([9, 9, 9, 9, 9, 9, 9, 9]));
    const mine = probe.probe(100);
    expect(mine.length).toBe(PROBE_BYTES);
    const other = new BacklogProbe(new Uint8Array([9, 9, 9, 9, 9, 9, 9, 8])).probe(100);
    expect(probe.take(other, 150)).toBe(false);
    expect(probe.take(mine.subarray(0, 15), 150)).toBe(false);
    expect(probe.take(new Uint8Array(PROBE_BYTES), 150)).toBe(false);
    expect(probe.bound(150)).toBe(Infinity);
    expect(probe.take(mine, 150)).toBe(true);
    expect(probe.bound(180)).toBe(80);
    expect(probe.waits()).toEqual({ p50: 50, p99: 50 });
    // A probe older than the newest read (or from the future) is taken but teaches nothing.
    expect(probe.take(probe.probe(90), 200)).toBe(true);
    expect(probe.take(probe.probe(500), 200)).toBe(true);
    expect(probe.read).toBe(1);
    expect(probe.bound(200)).toBe(100);
    expect(probe.maxWaitMs).toBe(50);
  });
});

describe('the receive buffer of a server that stays behind', () => {
  const MiB = 1024 * 1024;
  /** A control asking a stand-in kernel (what is under test is the asking); `refuse` makes every ask fail. */
  const control = (refuse = false) => {
    const asked: number[] = [];
    const c = new ReceiveBufferControl(4 * MiB, (bytes) => (asked.push(bytes), !refuse));
    return { c, asked };
  };

  it('shrinks by the share of its wait SHED_AGE_MS is, a half to an eighth a second, down to MIN_RECEIVE_BUFFER, and says nothing to a calm second', () => {
    const { c, asked } = control();
    c.second(10);
    expect(asked).toEqual([]);
    // 4 s of queue: an eighth at once; 300 ms: a third; 250 ms: no more than a half... and never below the floor.
    c.second(4000);
    c.second(300);
    c.second(250);
    c.second(5000);
    expect(asked).toEqual([MiB / 2, Math.floor(MiB / 2 / 3), MIN_RECEIVE_BUFFER]);
    expect(c.bytes).toBe(MIN_RECEIVE_BUFFER);
    expect(c.shrunk).toBe(3);
  });

  it(`grows back, doubling after each ${CALM_SECONDS} calm seconds, to the size it started with; an uneasy second starts the count again`, () => {
    const { c } = control();
    c.second(4000);
    c.second(4000);
    expect(c.bytes).toBe(MIN_RECEIVE_BUFFER);
    const sizes: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Second 4 is uneasy (80 ms: neither calm nor behind).
      c.second(i === 4 ? 80 : 5);
      sizes.push(c.bytes);
    }
    expect(sizes.slice(0, 8)).toEqual([128, 128, 256, 256, 256, 256, 256, 512].map((k) => k * 1024));
    expect(c.bytes).toBe(4 * MiB);
    expect(c.grown).toBe(5);
  });

  it('a kernel that refuses keeps the size it had', () => {
    const { c, asked } = control(true);
    c.second(4000);
    expect(asked.length).toBe(1);
    expect(c.bytes).toBe(4 * MiB);
  });

  it('a second in which no probe came through (a full queue drops them too) counts as behind by the time since the last one read was sent', () => {
    const probe = new BacklogProbe(new Uint8Array([1, 1, 1, 1, 1, 1, 1, 1]));
    expect(probe.take(probe.probe(0), 5)).toBe(true);
    expect(probe.takeLongest(10)).toBe(5);
    // Probes sent at 25, 50, ... are lost: a second later the newest read left at 0.
    expect(probe.takeLongest(1000)).toBe(1000 - PROBE_EVERY_MS);
  });
});
