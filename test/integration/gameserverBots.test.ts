/**
 * Headless bots (the built out/main/bot.js) through a gameserver process on
 * loopback: three play, and the two beyond each other's filter radius get no
 * states of each other, which the server counts; bots that cannot join say
 * why and exit; bots without a name pick their own.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
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

/** A `--json` bot joining `server`; `name` null starts it without --name. */
function bot(name: string | null, server: string, pilot: 'circle' | 'idle', seed: number): BotWatch {
  const child = spawnTracked(
    process.execPath,
    [botEntry, '--json', ...(name === null ? [] : ['--name', name]), '--protocol', 'gameserver', '--server', server, '--port', '0', '--broadcast', '127.255.255.255', '--lan-interfaces', 'none', '--pilot', pilot, '--seed', String(seed)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const watch = new BotWatch(name ?? 'nameless bot', child);
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

  it('a bot whose name is taken, or that finds the server full, says why on stderr and in a JSON line and exits with code 2; bots without a name pick different ones', { timeout: 40_000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    const server = await startServer(['gameserver', '--name', 'Small', '--port', '0', '--udp-port', '0', '--max-players', '3']);
    const target = `127.0.0.1:${server.tcp}`;
    const ace = bot('ace', target, 'idle', 1);
    await ace.until('ace joined', () => ace.prints().some((l) => /joined gameserver "Small"/.test(l)));

    const twin = bot('ace', target, 'idle', 2);
    expect(await twin.exited()).toBe(2);
    expect(twin.stderr).toMatch(/starlane-bot: cannot join: connect failed: name already taken/);
    expect(twin.records.find((r) => r.t === 'failed')).toMatchObject({ why: 'cannot join', reason: 'connect failed: name already taken' });

    // Two bots without --name: each picks bot-<4 hex digits>, so both get in.
    const [n1, n2] = [bot(null, target, 'idle', 3), bot(null, target, 'idle', 4)];
    for (const b of [n1, n2]) await b.until('joined', () => b.prints().some((l) => /joined gameserver "Small"/.test(l)));
    const names = [n1, n2].map((b) => String(b.records.find((r) => r.t === 'ready')?.name));
    for (const n of names) expect(n).toMatch(/^bot-[0-9a-f]{4}$/);
    expect(names[0]).not.toBe(names[1]);
    await ace.until('three players', () => (ace.players()?.players.length === 3 ? true : undefined));

    const fourth = bot(null, target, 'idle', 5);
    expect(await fourth.exited()).toBe(2);
    expect(fourth.stderr).toMatch(/cannot join: connect failed: server full/);
    // The others play on.
    expect(ace.child.exitCode).toBeNull();
  });

  it('a bot pointed at a port where no server listens exits with code 2 and says nothing is listening there', { timeout: 20_000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    // A port that was free a moment ago: listen on any, note it, close.
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
    await new Promise((r) => probe.close(r));
    const lost = bot('lost', `127.0.0.1:${port}`, 'idle', 1);
    expect(await lost.exited()).toBe(2);
    expect(lost.stderr).toMatch(new RegExp(`cannot join: connect failed: nothing is listening at 127\\.0\\.0\\.1:${port}`));
  });
});
