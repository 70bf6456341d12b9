/**
 * A client says when its server stops answering. The Node session adapter
 * (GameSession, as serverClient sets it up for a gameserver game) runs on a
 * memory LAN and a virtual clock against a stand-in gameserver that does
 * what the real one does each second: a Ping, and answers to time-sync
 * requests. The server freezes for 6 s: the console reads "server not
 * responding (n s)" once per whole second of silence from the 2nd on, never
 * once per tick, then "server responding again", and nothing more once the
 * server is back.
 */
import { describe, expect, it } from 'vitest';
import { SilenceWatch } from '../../../src/shared/session/serverSilence';
import { NEUTRAL_STATE } from '../../../src/shared/p2p/packets';
import { joinedToStandInServer } from '../../support/nodeSession';
import { runUntil } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const TOKEN = 0xbeef;
const NOT_RESPONDING = /^server not responding \((\d+) s\)$/;

describe('server not responding', () => {
  it('is said once a second while a gameserver is frozen for 6 s, and stops when it is back', () => {
    const clock = new VirtualClock();
    const printed: { at: number; line: string }[] = [];
    // The gameserver's heartbeat: time sync answered, a Ping each second (nothing at all while frozen).
    const { server, stop } = joinedToStandInServer(clock, TOKEN, (line) => printed.push({ at: clock.now(), line }), NEUTRAL_STATE);
    clock.advance(5_000);
    expect(printed.filter((p) => NOT_RESPONDING.test(p.line))).toEqual([]);

    const frozenAt = clock.now();
    server.frozen = true;
    clock.advance(6_000);
    server.frozen = false;
    runUntil(clock, 'the server heard again', () => printed.some((p) => p.line.startsWith('server responding again')));
    clock.advance(10_000);
    stop();

    const silentLines = printed.filter((p) => NOT_RESPONDING.test(p.line));
    const seconds = silentLines.map((p) => Number(NOT_RESPONDING.exec(p.line)?.[1]));
    console.log(`gameserver frozen 6 s: ${silentLines.map((p) => `${((p.at - frozenAt) / 1000).toFixed(2)} s "${p.line}"`).join(', ')}; then "${printed.find((p) => p.line.startsWith('server responding again'))?.line}"`);
    // One line per whole second of silence, from the 2nd; the last heartbeat before the freeze was up to 1 s earlier.
    expect(seconds[0]).toBe(2);
    expect(seconds).toEqual(seconds.map((_, i) => 2 + i));
    expect(seconds.length).toBeGreaterThanOrEqual(5);
    expect(seconds.length).toBeLessThanOrEqual(6);
    // Nothing once the server is back.
    const backAt = printed.find((p) => p.line.startsWith('server responding again'))?.at ?? 0;
    expect(silentLines.every((p) => p.at < backAt)).toBe(true);
    expect(backAt - frozenAt).toBeGreaterThanOrEqual(6_000);
  });

  it('SilenceWatch: nothing before the threshold, one notice per whole second after it, back once', () => {
    const w = new SilenceWatch(2000);
    expect(w.tick(0)).toBeNull();
    w.start(0);
    const notices = [];
    for (let t = 0; t <= 4_500; t += 10) {
      const n = w.tick(t);
      if (n) notices.push({ t, ...n });
    }
    expect(notices).toEqual([
      { t: 2000, kind: 'silent', silentMs: 2000 },
      { t: 3000, kind: 'silent', silentMs: 3000 },
      { t: 4000, kind: 'silent', silentMs: 4000 },
    ]);
    expect(w.heard(4_600)).toEqual({ kind: 'back', silentMs: 4_600 });
    expect(w.lastSilence).toEqual({ endedAt: 4_600, silentMs: 4_600 });
    expect(w.heard(4_700)).toBeNull();
    expect(w.tick(5_000)).toBeNull();
    w.stop();
    expect(w.tick(100_000)).toBeNull();
  });
});
