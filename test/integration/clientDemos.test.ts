/**
 * Client demos of real games (docs/DEMO.md), recorded by a headless bot
 * (`--record`) and played by the demo tool (`demo play`), all built
 * processes on loopback:
 * - four hunt bots fight for 20 s through a gameserver; the recording bot
 *   prints a digest of its world every 40 ticks, and playback prints the
 *   same digests at the same ticks; the server's own recording of the
 *   match (`--record`) holds every player's ship and plays with every
 *   digest matching;
 * - a lockstep game and a netgame replay to the frame hashes the players
 *   printed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readDemo, DemoKind } from '../../src/shared/demo/demoFormat';
import { decodeEntry } from '../../src/shared/demo/journalCodec';
import { crc32 } from '../../src/node/demo/demoCrc';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BotWatch, type BotRecord } from '../support/botProcess';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { botEntry, demoEntry, repoRoot } from '../support/paths';
import { startServer, stopServers } from '../support/serverProcess';
import { spawnTracked, tempDir } from '../support/testRun';

const bots: BotWatch[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
  stopServers();
});

function bot(name: string, args: string[]): BotWatch {
  const child = spawnTracked(process.execPath, [botEntry, '--json', '--name', name, '--lan-interfaces', 'none', '--broadcast', '127.255.255.255', '--pilot', 'hunt', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const watch = new BotWatch(name, child);
  bots.push(watch);
  return watch;
}

interface Digest {
  tick: number;
  hash: string;
  frame: boolean;
}
const digestsOf = (records: readonly BotRecord[]): Digest[] =>
  records.filter((r) => (r as { event?: string }).event === 'demo-digest').map((r) => ({ tick: r.tick as number, hash: r.hash as string, frame: r.frame as boolean }));
const frameHashes = (b: BotWatch): Map<number, string> => new Map(b.records.filter((r) => (r as { event?: string }).event === 'frame-hash').map((r) => [r.frame as number, r.hash as string]));

/** `demo play --json <file>`: its digest lines, its timedemo line, its exit status. */
function play(file: string): { digests: (Digest & { matches: boolean })[]; timedemo: Record<string, unknown>; status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [demoEntry, 'play', '--json', file], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as BotRecord);
  const digests = lines.filter((l) => (l as { event?: string }).event === 'demo-digest').map((l) => ({ tick: l.tick as number, hash: l.hash as string, frame: l.frame as boolean, matches: l.matches as boolean }));
  return { digests, timedemo: lines.find((l) => (l as { event?: string }).event === 'timedemo') ?? {}, status: r.status, stderr: r.stderr };
}

/**
 * `file`, recorded by `rec` in a shared world with `other`: its frame digests are at the frames
 * `rec` printed digests for, and equal to the frame hashes `rec` and `other` printed there.
 */
function replaysToPrintedHashes(model: string, file: string, rec: BotWatch, other: BotWatch): void {
  const recorded = digestsOf(rec.records).filter((d) => d.frame);
  expect(recorded.length).toBeGreaterThan(5);
  const played = play(file);
  expect(played.stderr).toBe('');
  expect(played.status).toBe(0);
  const replayed = played.digests.filter((d) => d.frame);
  expect(replayed.map((d) => d.tick)).toEqual(recorded.map((d) => d.tick));
  const [mine, theirs] = [frameHashes(rec), frameHashes(other)];
  let compared = 0;
  for (const d of replayed) {
    expect(d.hash).toBe(mine.get(d.tick));
    if (theirs.has(d.tick)) {
      expect(d.hash).toBe(theirs.get(d.tick));
      compared++;
    }
  }
  console.log(`${model}: ${replayed.length} frame hashes replayed, ${compared} compared with the other player's too`);
  expect(compared).toBeGreaterThan(5);
}

function requireBuilt(): void {
  for (const e of [botEntry, demoEntry]) if (!existsSync(e)) throw new Error(`${e} is missing: run "npm run build" first (npm test does)`);
}

describe('client demos of real games', () => {
  it('20 s of four hunt bots through a gameserver: playback prints the digests the recording client printed, at the same ticks; the server\'s demo of the match plays with every ship in it', { timeout: 90_000 }, async () => {
    requireBuilt();
    const serverDir = tempDir('server-demos');
    const server = await startServer(['gameserver', '--name', 'Demo', '--port', '0', '--udp-port', '0', '--http-port', '0', '--record', serverDir]);
    const target = `127.0.0.1:${server.tcp}`;
    const file = join(tempDir('demo'), 'fight.sldemo');
    const hunters = [1, 2, 3].map((i) => bot(`hunter${i}`, ['--protocol', 'gameserver', '--server', target, '--port', '0', '--seed', String(i), '--skill', '5']));
    for (const h of hunters) await h.until('joined', () => h.prints().some((l) => /joined gameserver "Demo"/.test(l)), 15_000);
    const rec = bot('recorder', ['--protocol', 'gameserver', '--server', target, '--port', '0', '--seed', '9', '--skill', '5', '--record', file, '--seconds', '20']);
    expect(await rec.exited()).toBe(0);
    const recorded = digestsOf(rec.records);
    const heard = rec.received();
    console.log(`recorded: ${JSON.stringify(rec.records.find((r) => r.t === 'recorded'))}; states heard by slot ${JSON.stringify(heard)}`);
    // It played the others: states from all three hunters went into the demo.
    expect(Object.values(heard).filter((n) => n > 100)).toHaveLength(3);
    expect(recorded.length).toBeGreaterThanOrEqual(19);

    const played = play(file);
    console.log(`played: ${JSON.stringify(played.timedemo)}`);
    expect(played.stderr).toBe('');
    expect(played.status).toBe(0);
    expect(played.digests.map(({ tick, hash, frame }) => ({ tick, hash, frame }))).toEqual(recorded);
    expect(played.digests.every((d) => d.matches)).toBe(true);
    expect(played.timedemo).toMatchObject({ frames: expect.any(Number), fps: expect.any(Number), p50: expect.any(Number), p99: expect.any(Number), differed: 0, failure: null });
    expect(played.timedemo.frames as number).toBeGreaterThan(780);

    // The status page says where the server records, and the file it writes.
    const status = (await (await fetch(`http://127.0.0.1:${server.http}/status.json`)).json()) as { recording: Record<string, unknown> };
    expect(status.recording).toMatchObject({ dir: serverDir, file: expect.stringMatching(/^Demo_.*_match-00000\.sldemo$/), files: 1, failed: 0, keep: 20 });
    const page = await (await fetch(`http://127.0.0.1:${server.http}/`)).text();
    expect(page).toContain(`Recording every match into ${serverDir}: writing ${String(status.recording.file)}; 1 file started since the server started; the newest 20 are kept.`);

    // The server's own recording of the match, ended by its shutdown: every player's ship in it, every digest matching.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const files = readdirSync(serverDir);
    expect(files).toHaveLength(1);
    const file2 = join(serverDir, files[0] as string);
    expect(files[0]).toMatch(/^Demo_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_match-00000\.sldemo$/);
    const read = readDemo(new Uint8Array(readFileSync(file2)), crc32);
    if (!read.ok) throw new Error(read.detail);
    expect(read.stop).toMatchObject({ how: 'clean', reason: 'shut down by its admin (SIGTERM)' });
    expect(read.header).toMatchObject({ protocol: 'gameserver', recorder: { slot: null, name: 'Demo' } });
    const statesBySlot = new Map<number, number>();
    for (const c of read.chunks) {
      if (c.kind !== DemoKind.Delivery || c.body[0] !== 2) continue;
      const e = decodeEntry(c.kind, c.body);
      if (e.ok && e.entry.op === 'state') statesBySlot.set(e.entry.slot, (statesBySlot.get(e.entry.slot) ?? 0) + 1);
    }
    console.log(`server demo: ${(read.durationMs / 1000).toFixed(1)} s, states by slot ${JSON.stringify(Object.fromEntries(statesBySlot))}`);
    expect([...statesBySlot.values()].filter((n) => n > 100)).toHaveLength(4);
    const serverPlayed = play(file2);
    expect(serverPlayed.stderr).toBe('');
    expect(serverPlayed.status).toBe(0);
    expect(serverPlayed.digests.length).toBeGreaterThanOrEqual(19);
    expect(serverPlayed.digests.every((d) => d.matches)).toBe(true);
  });

  it('a lockstep game replays to the frame hashes both players printed', { timeout: 60_000 }, async () => {
    requireBuilt();
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const file = join(tempDir('demo'), 'lockstep.sldemo');
    const other = bot('wren', ['--protocol', 'lockstep', '--port', String(port), '--seed', '1', '--max-players', '2']);
    const rec = bot('hawk', ['--protocol', 'lockstep', '--port', String(port + 1), '--seed', '2', '--max-players', '2', '--record', file, '--seconds', '12']);
    expect(await rec.exited()).toBe(0);
    await other.until('a frame hash after the recording ended', () => Math.max(0, ...frameHashes(other).keys()) >= Math.max(...frameHashes(rec).keys()), 15_000);
    replaysToPrintedHashes('lockstep', file, rec, other);
  });

  it("a netgame replays to the frame hashes both players printed, and so does the server's own recording", { timeout: 60_000 }, async () => {
    requireBuilt();
    const serverDir = tempDir('netgame-demos');
    const server = await startServer(['netgame', '--name', 'Martians', '--port', '0', '--udp-port', '0', '--http-port', '0', '--record', serverDir]);
    const target = `127.0.0.1:${server.tcp}`;
    const file = join(tempDir('demo'), 'netgame.sldemo');
    const other = bot('ant', ['--protocol', 'netgame', '--server', target, '--port', '0', '--seed', '1']);
    await other.until('joined', () => frameHashes(other).size > 0, 15_000);
    const rec = bot('bee', ['--protocol', 'netgame', '--server', target, '--port', '0', '--seed', '2', '--record', file, '--seconds', '12']);
    expect(await rec.exited()).toBe(0);
    replaysToPrintedHashes('netgame', file, rec, other);

    const status = (await (await fetch(`http://127.0.0.1:${server.http}/status.json`)).json()) as { recording: Record<string, unknown> };
    expect(status.recording).toMatchObject({ dir: serverDir, file: expect.stringMatching(/^Martians_.*_match-00000\.sldemo$/), files: 1, failed: 0 });

    // The server's file: the frames of its shared world, replayed to the hashes the players printed at the same frames.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const files = readdirSync(serverDir);
    expect(files).toHaveLength(1);
    const fromServer = play(join(serverDir, files[0] as string));
    expect(fromServer.stderr).toBe('');
    expect(fromServer.status).toBe(0);
    let agreed = 0;
    for (const d of fromServer.digests) {
      expect(d.frame).toBe(true);
      const printed = frameHashes(other).get(d.tick) ?? frameHashes(rec).get(d.tick);
      if (printed !== undefined) {
        expect(d.hash).toBe(printed);
        agreed++;
      }
    }
    console.log(`netgame server demo: ${fromServer.digests.length} frame hashes, ${agreed} equal to the ones the players printed`);
    expect(agreed).toBeGreaterThan(5);
  });
});
