/**
 * Four headless bots (the built out/main/bot.js, hunt pilots) play
 * `--protocol lockstep` for 60 s on a virtual LAN of network namespaces,
 * finding each other by broadcast. Each prints its world hash every 40
 * frames; compared from outside, every frame reported by two or more bots
 * has one hash, no bot reports a desync, and every bot's frames advance.
 */
import { existsSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BotWatch, type BotRecord } from '../support/botProcess';
import { cleanupStaleLans, createLan, lanAvailable, type Lan } from '../support/netns';
import { botEntry } from '../support/paths';
import { repoRoot } from '../support/webShellProcess';

const SECONDS = 60;

interface FrameHash {
  event: 'frame-hash';
  frame: number;
  hash: string;
  epoch: number;
}
const frameHashes = (b: BotWatch): FrameHash[] => b.records.filter((r: BotRecord) => (r as unknown as { event?: string }).event === 'frame-hash') as unknown as FrameHash[];

const bots: BotWatch[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
});

describe('lockstep on a virtual LAN', () => {
  let lan: Lan | undefined;
  afterAll(async () => {
    await lan?.destroy();
  });

  it(`four bots for ${SECONDS} s: one hash per reported frame, no desync, frames advancing`, { timeout: (SECONDS + 60) * 1000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    const why = await lanAvailable();
    if (why) throw new Error(`cannot build the virtual LAN here: ${why}`);
    await cleanupStaleLans();
    lan = await createLan({ hosts: 4 });
    const l = lan;
    const four = l.hosts.map((h, i) => {
      const name = ['hawk', 'kite', 'owl', 'wren'][i] as string;
      const args = [botEntry, '--json', '--protocol', 'lockstep', '--pilot', 'hunt', '--name', name, '--broadcast', h.broadcast, '--lan-interfaces', 'none', '--max-players', '4', '--seed', String(i + 1), '--seconds', String(SECONDS)];
      const b = new BotWatch(name, l.spawn(h, process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }));
      bots.push(b);
      return b;
    });
    const codes = await Promise.all(four.map((b) => b.exited()));
    expect(codes).toEqual([0, 0, 0, 0]);

    const byFrame = new Map<string, { hashes: Set<string>; bots: number }>();
    for (const b of four) {
      for (const h of frameHashes(b)) {
        const key = `${h.epoch}:${h.frame}`;
        const seen = byFrame.get(key) ?? { hashes: new Set<string>(), bots: 0 };
        seen.hashes.add(h.hash);
        seen.bots++;
        byFrame.set(key, seen);
      }
    }
    const shared = [...byFrame.entries()].filter(([, v]) => v.bots >= 2);
    const differing = shared.filter(([, v]) => v.hashes.size > 1).map(([k]) => k);
    const lastFrames = four.map((b) => Math.max(0, ...frameHashes(b).map((h) => h.frame)));
    const epochs = four.map((b) => Math.max(0, ...frameHashes(b).map((h) => h.epoch)));
    console.log(
      `lockstep LAN, 4 bots, ${SECONDS} s: ${shared.length} frames reported by 2+ bots (${shared.filter(([, v]) => v.bots === 4).length} by all four), ${differing.length} with differing hashes; last frame per bot ${lastFrames.join(', ')} (~${Math.round(Math.min(...lastFrames) / SECONDS)} frames/s over the whole run); epochs ${epochs.join(', ')}`,
    );
    expect(differing).toEqual([]);
    expect(shared.filter(([, v]) => v.bots === 4).length).toBeGreaterThan(10);
    for (const b of four) expect(b.prints().filter((p) => /desync/.test(p)), b.name).toEqual([]);
    // Frames advance: each bot completed well over a third of the run's frames (a stalled game stays far below).
    for (const f of lastFrames) expect(f).toBeGreaterThan((SECONDS * 40) / 3);
  });
});
