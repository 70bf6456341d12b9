/**
 * A netgame with real processes on loopback: `server.js netgame` and three
 * headless bots (`--protocol netgame`, hunt pilots) for 30 s. Each bot prints
 * its world hash every 40 frames; every frame reported by two or more bots
 * has one hash, and no state had to be corrected (late control changes, which
 * a loaded machine can cause, are printed: they are dropped alike everywhere).
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BotWatch, type BotRecord } from '../support/botProcess';
import { botEntry } from '../support/paths';
import { startServer, stopServers } from '../support/serverProcess';
import { spawnTracked } from '../support/testRun';
import { repoRoot } from '../support/webShellProcess';

const SECONDS = 30;

interface FrameHash {
  frame: number;
  hash: string;
}
const frameHashes = (b: BotWatch): FrameHash[] => b.records.filter((r: BotRecord) => (r as unknown as { event?: string }).event === 'frame-hash') as unknown as FrameHash[];

const bots: BotWatch[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
  stopServers();
});

describe('a netgame of real processes', () => {
  it(`a netgame server and three bots for ${SECONDS} s: one hash per frame reported by two or more`, { timeout: (SECONDS + 40) * 1000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    const server = await startServer(['netgame', '--name', 'Martians', '--host', '127.0.0.1', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    const three = ['ant', 'bee', 'cat'].map((name, i) => {
      const args = [botEntry, '--json', '--protocol', 'netgame', '--server', `127.0.0.1:${server.tcp}`, '--pilot', 'hunt', '--name', name, '--port', '0', '--seed', String(i + 1), '--seconds', String(SECONDS)];
      const b = new BotWatch(name, spawnTracked(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }));
      bots.push(b);
      return b;
    });
    // The server's status while they play: every player with its control lead and state differences.
    await Promise.all(three.map((b) => b.until('in the netgame', () => b.prints().some((p) => /^in the netgame as slot \d from frame \d+$/.test(p)), 15_000)));
    await Promise.all(three.map((b) => b.until('frame-hash lines', () => frameHashes(b).length >= 5, 20_000)));
    const status = JSON.parse(await (await fetch(`http://127.0.0.1:${server.http}/status.json`)).text()) as { frame: number; players: { name: string; controlLead: number; lateChanges: number; lastDiff: { packed: number; chunks: number } | null }[] };
    expect(status.players.map((p) => p.name).sort()).toEqual(['ant', 'bee', 'cat']);
    const codes = await Promise.all(three.map((b) => b.exited()));
    expect(codes).toEqual([0, 0, 0]);

    const byFrame = new Map<number, { hashes: Set<string>; bots: number }>();
    for (const b of three) {
      for (const h of frameHashes(b)) {
        const seen = byFrame.get(h.frame) ?? { hashes: new Set<string>(), bots: 0 };
        seen.hashes.add(h.hash);
        seen.bots++;
        byFrame.set(h.frame, seen);
      }
    }
    const shared = [...byFrame.entries()].filter(([, v]) => v.bots >= 2);
    const differing = shared.filter(([, v]) => v.hashes.size > 1).map(([f]) => f);
    console.log(
      `netgame, 3 bots, ${SECONDS} s: ${shared.length} frames reported by 2+ bots, ${differing.length} with differing hashes; server at frame ${status.frame}: ${status.players.map((p) => `${p.name} lead ${p.controlLead}, late ${p.lateChanges}, last difference ${p.lastDiff?.packed} B in ${p.lastDiff?.chunks} datagrams`).join('; ')}`,
    );
    expect(shared.length).toBeGreaterThan(20);
    expect(differing).toEqual([]);
    for (const b of three) expect(b.prints().filter((p) => /state corrected/.test(p))).toEqual([]);
  });
});
