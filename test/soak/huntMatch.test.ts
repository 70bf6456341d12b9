/**
 * Bots that fight play a whole match: four headless hunt bots (the built
 * out/main/bot.js, skill 5, kill limit 2) on a gameserver on loopback (the
 * server runs the match: --kill-limit 2), and
 * four in a peer-to-peer game on a virtual LAN of network namespaces, play
 * until a bot reaches the kill limit; each bot prints its scoreboard at the
 * match end as one JSON line, and the four agree.
 */
import { existsSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BotWatch } from '../support/botProcess';
import { cleanupStaleLans, createLan, lanAvailable, type Lan } from '../support/netns';
import { botEntry } from '../support/paths';
import { startServer, stopServers } from '../support/serverProcess';
import { spawnTracked } from '../support/testRun';
import { repoRoot } from '../support/webShellProcess';

const KILL_LIMIT = 2;
const HUNT = ['--json', '--pilot', 'hunt', '--skill', '5', '--kill-limit', String(KILL_LIMIT), '--lan-interfaces', 'none'];

const bots: BotWatch[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
  stopServers();
});

interface MatchEnd {
  event: 'match-end';
  scores: { name: string; kills: number; deaths: number }[];
}
const matchEnd = (b: BotWatch): MatchEnd | undefined => b.records.find((r) => (r as unknown as { event?: string }).event === 'match-end') as unknown as MatchEnd | undefined;

/** Waits for every bot's first match-end line; checks the four agree and the winner reached the limit. */
async function playedToTheEnd(four: BotWatch[], label: string): Promise<void> {
  const ends: MatchEnd[] = [];
  for (const b of four) ends.push(await b.until('the match end', () => matchEnd(b), 120_000));
  for (const e of ends) console.log(`${label}: ${JSON.stringify(e)}`);
  expect(new Set(ends.map((e) => JSON.stringify(e.scores))).size).toBe(1);
  const board = ends[0]!.scores;
  expect(board).toHaveLength(4);
  expect(board[0]!.kills).toBe(KILL_LIMIT);
  expect(board.reduce((n, s) => n + s.kills, 0)).toBeLessThanOrEqual(board.reduce((n, s) => n + s.deaths, 0));
}

describe('hunt bots play a match to its kill limit', () => {
  it('four on a gameserver: every scoreboard agrees at the end', { timeout: 150_000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    // The gameserver runs the match: its --kill-limit counts.
    const server = await startServer(['gameserver', '--name', 'Arena', '--port', '0', '--udp-port', '0', '--http-port', '0', '--kill-limit', String(KILL_LIMIT)]);
    const four = ['hawk', 'kite', 'owl', 'wren'].map((name, i) => {
      const child = spawnTracked(process.execPath, [botEntry, ...HUNT, '--name', name, '--protocol', 'gameserver', '--server', `127.0.0.1:${server.tcp}`, '--port', '0', '--broadcast', '127.255.255.255', '--seed', String(i + 1)], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const b = new BotWatch(name, child);
      bots.push(b);
      return b;
    });
    await playedToTheEnd(four, 'gameserver match end');
  });

  describe('in a peer-to-peer game on a virtual LAN', () => {
    let lan: Lan | undefined;
    afterAll(async () => {
      await lan?.destroy();
    });

    it('four: every scoreboard agrees at the end', { timeout: 180_000 }, async () => {
      if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
      const why = await lanAvailable();
      if (why) throw new Error(`cannot build the virtual LAN here: ${why}`);
      await cleanupStaleLans();
      lan = await createLan({ hosts: 4 });
      const l = lan;
      const four = l.hosts.map((h, i) => {
        const name = ['hawk', 'kite', 'owl', 'wren'][i]!;
        const child = l.spawn(h, process.execPath, [botEntry, ...HUNT, '--name', name, '--broadcast', h.broadcast, '--max-players', '4', '--seed', String(i + 1)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
        const b = new BotWatch(name, child);
        bots.push(b);
        return b;
      });
      await playedToTheEnd(four, 'p2p match end');
    });
  });
});
