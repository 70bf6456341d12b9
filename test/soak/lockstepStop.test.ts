/**
 * A lockstep peer that stops (SIGSTOP: a frozen machine, a pulled cable):
 * three real bots on loopback play; when one is frozen the other two say
 * whom they wait for at once, drop it after the alive timeout, and go on
 * together with one world hash per frame.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BotWatch, type BotRecord } from '../support/botProcess';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { botEntry } from '../support/paths';
import { spawnTracked } from '../support/testRun';
import { repoRoot } from '../support/webShellProcess';

interface FrameHash {
  frame: number;
  hash: string;
  epoch: number;
}
const frameHashes = (b: BotWatch): FrameHash[] => b.records.filter((r: BotRecord) => (r as unknown as { event?: string }).event === 'frame-hash') as unknown as FrameHash[];
const lastFrame = (b: BotWatch): number => Math.max(-1, ...frameHashes(b).map((h) => h.frame));

const bots: BotWatch[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
});

describe('a lockstep peer that stops', () => {
  it('is waited for at once, dropped after the alive timeout, and the others play on with equal worlds', { timeout: 60_000 }, async () => {
    if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const start = (name: string) => {
      const args = [botEntry, '--json', '--protocol', 'lockstep', '--pilot', 'hunt', '--name', name, '--port', String(port), '--broadcast', '127.255.255.255', '--lan-interfaces', 'none'];
      const b = new BotWatch(name, spawnTracked(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }));
      bots.push(b);
      return b;
    };
    const ace = start('ace');
    await ace.until('ace started the game', () => ace.prints().some((p) => /started one/.test(p)), 15_000);
    const [bee, cat] = [start('bee'), start('cat')];
    const three = [ace, bee, cat];
    await Promise.all([bee, cat].map((b) => b.until('joined the game', () => b.prints().some((p) => /joined the lockstep game/.test(p)), 15_000)));
    // Play a little: every bot past frame 120 (three hash checks).
    await Promise.all(three.map((b) => b.until('frame 120', () => lastFrame(b) >= 120, 20_000)));

    cat.child.kill('SIGSTOP');
    const stoppedAt = Date.now();
    for (const b of [ace, bee]) await b.until('waiting for cat', () => b.prints().some((p) => /^waiting for cat \(0 s\)$/.test(p)), 5_000);
    const shownAfter = Date.now() - stoppedAt;
    // The HUD's status line (delivered with the slot table) says it too.
    await ace.until('the status line shows the wait', () => ace.records.some((r) => r.t === 'players' && /— waiting for cat \(\d s\)$/.test(String(r.status))), 5_000);
    for (const b of [ace, bee]) await b.until('cat dropped', () => b.prints().some((p) => /lost connection to cat \(slot \d timed out\)/.test(p)), 10_000);
    const droppedAfter = Date.now() - stoppedAt;
    const before = [ace, bee].map(lastFrame);
    // The game goes on: 80 more frames (two hash checks) for both.
    await Promise.all([ace, bee].map((b, i) => b.until('80 frames more', () => lastFrame(b) >= (before[i] as number) + 80, 15_000)));
    console.log(`cat frozen: "waiting for cat" shown after ${shownAfter} ms, dropped after ${droppedAfter} ms (alive timeout 3 s); ace and bee went on from frames ${before.join(', ')} to ${[ace, bee].map(lastFrame).join(', ')}`);

    // One hash per (epoch, frame) that both reported, before and after the drop; no desync.
    const seen = new Map<string, Set<string>>();
    for (const b of [ace, bee]) for (const h of frameHashes(b)) seen.set(`${h.epoch}:${h.frame}`, (seen.get(`${h.epoch}:${h.frame}`) ?? new Set()).add(h.hash));
    expect([...seen.entries()].filter(([, v]) => v.size > 1).map(([k]) => k)).toEqual([]);
    for (const b of [ace, bee]) expect(b.prints().filter((p) => /desync/.test(p))).toEqual([]);
    // The last frames were played without cat: their players are ace and bee, and nobody is waited for.
    for (const b of [ace, bee]) expect(b.players()?.players.map((p) => p.name).sort()).toEqual(['ace', 'bee']);
    for (const b of [ace, bee]) expect(b.players()?.status).not.toMatch(/waiting/);
  });
});
