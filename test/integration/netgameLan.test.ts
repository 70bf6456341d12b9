/**
 * A netgame found on the LAN: on a virtual LAN of network namespaces, a
 * netgame server (`server.js netgame`) on one host answers LAN discovery as
 * kind netgame on UDP 6524, and two bots with `--protocol netgame` and no
 * `--server` find it, join it and play one state (equal frame hashes).
 */
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BotWatch, type BotRecord } from '../support/botProcess';
import { cleanupStaleLans, createLan, lanAvailable, type Lan } from '../support/netns';
import { botEntry, serverEntry } from '../support/paths';
import { repoRoot } from '../support/webShellProcess';
import { NETGAME_PORT } from '../../src/shared/servers/joinProtocol';

const frameHashes = (b: BotWatch) => b.records.filter((r: BotRecord) => (r as unknown as { event?: string }).event === 'frame-hash') as unknown as { frame: number; hash: string }[];

describe('a netgame on a virtual LAN', () => {
  let lan: Lan | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await lan?.destroy();
  });

  it('two bots with no --server find the netgame server by LAN discovery, join it and play one state', { timeout: 60_000 }, async () => {
    for (const entry of [botEntry, serverEntry]) if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first (npm test does)`);
    const why = await lanAvailable();
    if (why) throw new Error(`cannot build the virtual LAN here: ${why}`);
    await cleanupStaleLans();
    lan = await createLan({ hosts: 3 });
    const l = lan;
    const [serverHost, a, b] = l.hosts as [(typeof l.hosts)[0], (typeof l.hosts)[0], (typeof l.hosts)[0]];
    const server = l.spawn(serverHost, process.execPath, [serverEntry, 'netgame', '--name', 'Martians', '--log-level', 'warn'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(server);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the netgame server did not listen within 10 s')), 10_000);
      createInterface({ input: server.stdout! }).on('line', (line) => {
        if (/listening on tcp/.test(line)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const two = [
      ['ant', a],
      ['bee', b],
    ].map(([name, host]) => {
      const h = host as typeof a;
      const child = l.spawn(h, process.execPath, [botEntry, '--json', '--protocol', 'netgame', '--name', name as string, '--broadcast', h.broadcast, '--lan-interfaces', 'none'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      return new BotWatch(name as string, child);
    });
    const escaped = serverHost.ipv4.replace(/\./g, '\\.');
    for (const bot of two) {
      await bot.until('the netgame server found and joined', () => bot.prints().some((p) => /^in the netgame as slot \d from frame \d+$/.test(p)), 20_000);
      expect(bot.prints().some((p) => new RegExp(`^found netgame "Martians" at ${escaped}:${NETGAME_PORT}, \\d/8 players`).test(p))).toBe(true);
      expect(bot.prints()).toContain(`joining netgame "Martians" at ${serverHost.ipv4}:${NETGAME_PORT}`);
    }
    const [ant, bee] = two as [BotWatch, BotWatch];
    const sharedFrames = () => {
      const beeHashes = new Map(frameHashes(bee).map((h) => [h.frame, h.hash]));
      return { beeHashes, shared: frameHashes(ant).filter((h) => beeHashes.has(h.frame)) };
    };
    // They play until both have reported more than three frames' hashes, then stop as on SIGTERM (they used to run a fixed 8 s).
    await ant.until('more than three frames hashed by both bots', () => sharedFrames().shared.length > 3, 20_000);
    for (const bot of two) bot.child.kill('SIGTERM');
    const codes = await Promise.all(two.map((bot) => bot.exited()));
    expect(codes).toEqual([0, 0]);
    const { beeHashes, shared } = sharedFrames();
    console.log(`netgame on the LAN: both bots found "Martians" at ${serverHost.ipv4}:${NETGAME_PORT}; ${shared.length} frames reported by both, ${shared.filter((h) => beeHashes.get(h.frame) !== h.hash).length} differing`);
    expect(shared.length).toBeGreaterThan(3);
    expect(shared.every((h) => beeHashes.get(h.frame) === h.hash)).toBe(true);
  });
});
