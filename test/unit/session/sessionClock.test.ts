/**
 * The join gate of the session clock, on a virtual clock: a player waits for
 * a good offset, but a link too jittery for the 2 ms gate, or a silent time
 * source, never keeps it out of the game.
 */
import { describe, expect, it } from 'vitest';
import { SessionClock, TIME_SYNC_GIVE_UP_MS, TIME_SYNC_JOIN_WAIT_MS } from '../../../src/shared/session/sessionClock';
import { clockReportLine } from '../../../src/node/protocol/clockText';
import { answerTimeRequest } from '../../../src/shared/time';
import { nextFloat, seedRng } from '../../../src/shared/sim/prng';

const SOURCE = Uint8Array.from([4, 10, 0, 0, 1, 0x19, 0x7e]);
const OFFSET = 5000;

/** A session clock talking to a time source over a path of `oneWay()` ms each way; ticks every 25 ms. */
function rig(oneWay: () => number | null) {
  const lines: string[] = [];
  const inFlight: { at: number; bytes: Uint8Array }[] = [];
  let now = 0;
  const clock = new SessionClock({
    report: (report) => lines.push(clockReportLine(report, 'alpha')),
    send: (_to, bytes) => {
      const out = oneWay();
      if (out === null) return; // lost, or a source that never answers
      const reply = answerTimeRequest(bytes, now + out + OFFSET);
      const back = oneWay();
      if (reply && back !== null) inFlight.push({ at: now + out + back, bytes: reply });
    },
  });
  const run = (ms: number): boolean => {
    let joined = false;
    for (const end = now + ms; now < end; now += 25) {
      for (const d of inFlight.splice(0).filter((x) => (x.at <= now ? true : (inFlight.push(x), false)))) clock.onDatagram(d.bytes, SOURCE, {} as never, now, () => true);
      if (clock.tick(now, () => SOURCE)) joined = true;
    }
    return joined;
  };
  return { clock, lines, run, now: () => now };
}

describe('the session clock lets a player join', () => {
  it('once the offset is good on a quiet link, within a second, and says how good', () => {
    const r = rig(() => 5);
    expect(r.clock.requestJoin(0, () => SOURCE)).toBe(false);
    expect(r.run(1000)).toBe(true);
    expect(r.lines.at(-1)).toMatch(/^clock synchronised with alpha \(offset \d+\.\d ms ± \d\.\d, round trip \d+ ms\)$/);
    // Within the rig's 25 ms delivery granularity of the source's clock (this machine's own is 5 s off).
    expect(Math.abs(r.clock.commonTime(r.now()) - (r.now() + OFFSET))).toBeLessThan(25);
  });

  it(`on a link too jittery for the 2 ms gate, after ${TIME_SYNC_JOIN_WAIT_MS / 1000} s with its best estimate, and says so`, () => {
    let seed = seedRng(7);
    const random = () => {
      const [v, next] = nextFloat(seed);
      seed = next;
      return v;
    };
    // 0-300 ms each way, uniformly: the standard error stays well above 2 ms.
    const r = rig(() => Math.floor(random() * 300));
    expect(r.clock.requestJoin(0, () => SOURCE)).toBe(false);
    expect(r.run(TIME_SYNC_JOIN_WAIT_MS - 100)).toBe(false);
    expect(r.clock.synced).toBe(false);
    expect(r.run(200)).toBe(true);
    expect(r.lines.at(-1)).toMatch(/^clock synchronised with alpha as well as this link allows within 5 s \(offset -?\d+\.\d ms ± \d+\.\d, round trip \d+ ms\); it goes on improving$/);
    // The best estimate is still far better than this machine's own clock (5 s off).
    expect(Math.abs(r.clock.commonTime(r.now()) - (r.now() + OFFSET))).toBeLessThan(300);
  });

  it(`with no reply at all, after ${TIME_SYNC_GIVE_UP_MS / 1000} s on this machine's clock, and says so`, () => {
    const r = rig(() => null);
    expect(r.clock.requestJoin(0, () => SOURCE)).toBe(false);
    expect(r.run(TIME_SYNC_GIVE_UP_MS - 100)).toBe(false);
    expect(r.run(200)).toBe(true);
    expect(r.lines.at(-1)).toMatch(/^no clock reply from alpha within 3 s; using this machine's clock/);
  });
});
