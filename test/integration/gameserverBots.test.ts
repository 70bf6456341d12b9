/**
 * Three headless bots (the built out/main/bot.js) play through a gameserver
 * process on loopback; one flies far outside the filter radius and gets no
 * state of the others, which the server counts.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { botEntry } from '../support/paths';
import { spawnTracked } from '../support/testRun';
import { BotWatch } from '../support/botProcess';
import { startServer, stopServers } from '../support/serverProcess';
import { repoRoot } from '../support/webShellProcess';

const bots: BotWatch[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
  stopServers();
});

function bot(name: string, server: string, pilot: 'circle' | 'idle', seed: number): BotWatch {
  const child = spawnTracked(
    process.execPath,
    [botEntry, '--json', '--name', name, '--protocol', 'gameserver', '--server', server, '--port', String(30000 + Math.floor(Math.random() * 20000)), '--broadcast', '127.255.255.255', '--lan-interfaces', 'none', '--pilot', pilot, '--seed', String(seed)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const watch = new BotWatch(name, child);
  bots.push(watch);
  return watch;
}

describe('bots through a gameserver process', () => {
  it('three bots receive each other through the server; one beyond the filter radius receives no states', { timeout: 40_000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    // Bots start at their slot's spawn point (free on a fresh server): slot 0 at the origin, slot 1 at +40, slot 2 at -40 (x).
    // A 50-unit radius lets slot 0 hear both others while slots 1 and 2 (80 apart) never hear each other.
    const server = await startServer(['gameserver', '--name', 'Bots', '--port', '0', '--udp-port', '0', '--http-port', '0', '--filter-radius', '50']);
    const target = `127.0.0.1:${server.tcp}`;
    const b = [bot('bot1', target, 'idle', 1), bot('bot2', target, 'idle', 2), bot('bot3', target, 'idle', 3)];
    for (const x of b) await x.until('joined', () => x.prints().some((l) => /joined gameserver "Bots" as slot \d/.test(l)), 10_000);
    for (const x of b) await x.until('3 players', () => (x.players()?.players.length === 3 ? true : undefined), 10_000);
    const bySlot = new Map(b.map((x) => [x.players()?.localSlot as number, x]));
    const [centre, east, west] = [bySlot.get(0), bySlot.get(1), bySlot.get(2)] as [BotWatch, BotWatch, BotWatch];
    await centre.until('slot 0 hears slots 1 and 2', () => ((centre.received()['1'] ?? 0) > 5 && (centre.received()['2'] ?? 0) > 5 ? true : undefined), 10_000);
    await east.until('slot 1 hears slot 0', () => ((east.received()['0'] ?? 0) > 5 ? true : undefined), 10_000);
    await west.until('slot 2 hears slot 0', () => ((west.received()['0'] ?? 0) > 5 ? true : undefined), 10_000);
    // Before the server has heard a bot's position it may pass one state on; after that, none.
    const eastHeardWest = east.received()['2'] ?? 0;
    const westHeardEast = west.received()['1'] ?? 0;
    const centreHeard = centre.received()['1'] ?? 0;
    // Idle bots send only keep-alives (2 per second): wait for a few more of them.
    await centre.until('4 more states at slot 0', () => ((centre.received()['1'] ?? 0) > centreHeard + 4 ? true : undefined), 10_000);
    expect(east.received()['2'] ?? 0).toBe(eastHeardWest);
    expect(west.received()['1'] ?? 0).toBe(westHeardEast);
    expect(eastHeardWest).toBeLessThanOrEqual(1);
    const status = (await (await fetch(`http://127.0.0.1:${server.http}/status.json`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(status)).toMatch(/filtered/i);
  });
});
