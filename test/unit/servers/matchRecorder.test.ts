/**
 * A gameserver's match recordings (matchRecorder.ts) on a virtual clock,
 * with real files: one file per match, each ending cleanly when the next
 * match begins (or the server stops), the folder keeping only the newest
 * `--record-keep`; the watching game shows every player and no ship of its
 * own, and each file plays with every digest matching.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MatchRecorder } from '../../../src/node/servers/common/matchRecorder';
import { readDemo } from '../../../src/shared/demo/demoFormat';
import { crc32 } from '../../../src/node/demo/demoCrc';
import { GamePlayback } from '../../../src/shared/demo/gamePlayback';
import { APP_VERSION } from '../../../src/node/version';
import { ClientGame } from '../../../src/shared/game/clientGame';
import { STEP_MS } from '../../../src/shared/sim/types';
import { VirtualClock } from '../../support/virtualClock';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a gameserver recording its matches', () => {
  it('writes one file per match, ends each when the next begins, keeps the newest two, and each plays with every digest matching', async () => {
    dir = await mkdtemp(join(tmpdir(), 'starlane-match-demos-'));
    const clock = new VirtualClock();
    const recorder = new MatchRecorder({ dir, keep: 2, serverName: 'Arena One', server: '127.0.0.1:6581', protocol: 'gameserver', log: pino({ level: 'silent' }), clock: () => clock.now(), timers: clock });
    const players = [0, 1].map((slot) => ({ slot, name: `p${slot}` }));
    const pilots = players.map((p) => {
      const g = new ClientGame();
      g.applyPlayers(players.map((q) => ({ ...q, joined: true, local: q.slot === p.slot })), p.slot);
      return g;
    });
    for (let round = 0; round < 4; round++) {
      recorder.startMatch({ round, players, welcome: [] });
      // The file is open before the match's play goes in.
      await recorder.settled();
      for (let t = 0; t < 200; t++) {
        clock.advance(STEP_MS);
        pilots.forEach((g, i) => {
          g.step({ thrust: 1, yaw: 0.2 * (i + 1), pitch: 0, roll: 0, fire: t % 9 === 0 }, clock.now());
          const st = g.localState();
          if (st) recorder.state(i, st, Math.floor(clock.now()) - 5);
        });
      }
    }
    await recorder.close('server shutting down');
    const names = (await readdir(dir)).sort();
    expect(names).toHaveLength(2);
    for (const n of names) expect(n).toMatch(/^Arena-One_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_match-0000[23]\.sldemo$/);
    expect(recorder.counters).toEqual({ files: 4, failed: 0 });
    const reasons: string[] = [];
    for (const n of names) {
      const read = readDemo(new Uint8Array(await readFile(join(dir, n))), crc32);
      if (!read.ok) throw new Error(read.detail);
      if (read.stop.how === 'clean') reasons.push(read.stop.reason);
      expect(read.header.recorder).toEqual({ slot: null, name: 'Arena One' });
      const opened = GamePlayback.open(read, APP_VERSION);
      if (!opened.ok) throw new Error(opened.reason);
      const p = opened.playback;
      p.playTo(Number.MAX_SAFE_INTEGER);
      expect(p.failure).toBeNull();
      expect(p.digests.checked).toBe(5);
      expect(p.digests.differed).toEqual([]);
      expect(p.game.curr.ships.map((s) => s.slot).sort()).toEqual([0, 1]);
    }
    expect(reasons).toEqual(['the next match began', 'server shutting down']);
  });
});
