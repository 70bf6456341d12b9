/**
 * The netgame sync gate with the built server and bots: two bots play a
 * netgame; one is stopped (SIGSTOP) for 3.75 s — 150 frames at 40 Hz, well
 * under the 10 s silence timeout. It reports no frame while stopped, so the
 * server sees it fall a frame further behind every 25 ms and drops it once
 * more than 100 frames behind (the seed's limit): its log says how many
 * frames, not that the player went silent. Continued (SIGCONT), the stopped
 * bot prints why the server removed it and leaves the game (a bot exits, as
 * on every lost game; a player goes back to offline play), without taking
 * its own stall for the server's and rejoining; the other bot reads that
 * the server removed it, and why, and plays on.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BotWatch } from '../support/botProcess';
import { stoppableBots } from '../support/stoppableBots';
import { botEntry } from '../support/paths';
import { startServer } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const bot = stoppableBots('netgame');

const STOP_MS = 3_750;
const DROPPED = /player dropped: (\d+) frames behind \(limit (\d+)\)/;
const activated = (b: BotWatch) => b.prints().some((l) => /^the server activated you at frame \d+: your ship is in the game$/.test(l));

describe('a netgame client that stops', () => {
  it('stopped with SIGSTOP for 3.75 s, under the 10 s silence timeout, it is dropped as so many frames behind; after SIGCONT it prints why', { timeout: 60_000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    const server = await startServer(['netgame', '--name', 'Gate', '--port', '0', '--udp-port', '0', '--http-port', '0'], 'info');
    const target = `127.0.0.1:${server.tcp}`;
    const red = bot('red', target, 1);
    const blue = bot('blue', target, 2);
    for (const b of [red, blue]) await b.until('activated, both in the table', () => (activated(b) && b.players()?.players.filter((p) => p.joined).length === 2 ? true : undefined), 20_000);

    const t0 = Date.now();
    blue.child.kill('SIGSTOP');
    const dropped = await (async () => {
      try {
        const line = await waitFor('the server drops blue', () => DROPPED.exec(server.output()), STOP_MS + 5_000);
        const afterMs = Date.now() - t0;
        // Stopped for the whole 3.75 s, whenever the drop came.
        await waitFor('3.75 s stopped', () => Date.now() - t0 >= STOP_MS, STOP_MS + 1_000);
        return { line, afterMs };
      } finally {
        blue.child.kill('SIGCONT');
      }
    })();
    expect(Number(dropped.line[1])).toBeGreaterThan(100);
    expect(dropped.line[2]).toBe('100');
    const stoppedMs = Date.now() - t0;
    const code = await blue.exited();
    const ended = blue.prints().find((l) => l.startsWith('disconnected from the netgame'));
    await red.until('red reads that blue was removed', () => red.prints().find((l) => l.startsWith('blue was removed by the server')), 10_000);
    const log = server.output().split('\n');
    console.log(
      `blue stopped ${(stoppedMs / 1000).toFixed(2)} s; the server dropped it after ${(dropped.afterMs / 1000).toFixed(2)} s: "${dropped.line[0]}"; ` +
        `blue printed "${ended}" and exited ${code}; red printed "${red.prints().find((l) => l.startsWith('blue was removed'))}"`,
    );
    expect(dropped.afterMs).toBeLessThan(10_000);
    // Dropped for its frames, not for silence.
    expect(log.filter((l) => /no datagram within the timeout|timed out|silent/.test(l))).toEqual([]);
    expect(ended).toMatch(/^disconnected from the netgame: the server removed you: \d+ frames behind the server, limit 100 \(type connect 127\.0\.0\.1:\d+ to join again\)$/);
    // Its own stall is not the server's: no "not responding", no rejoin; the game is over for it.
    expect(blue.prints().filter((l) => /server not responding|rejoining/.test(l))).toEqual([]);
    expect(code).toBe(2);
    expect(red.prints().find((l) => l.startsWith('blue was removed by the server'))).toMatch(/^blue was removed by the server \(\d+ frames behind the server, limit 100\)$/);
    // The other plays on: still joined, its frames still coming.
    const frames = () => red.records.filter((r) => r.event === 'frame-hash').length;
    const before = frames();
    await red.until('red plays on', () => (frames() >= before + 3 ? true : undefined), 10_000);
    expect(red.child.exitCode).toBeNull();
  });
});
