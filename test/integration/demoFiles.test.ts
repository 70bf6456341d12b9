/**
 * Demo files on a real disk, with real processes (docs/DEMO.md):
 * - a recording process SIGKILLed at 20 seeded moments leaves files that
 *   play up to their last whole chunk: every chunk the recorder had seen
 *   synced is there, in order with none missing, and the file is never
 *   damaged, only cut, as the demo tool says;
 * - the writer refuses to overwrite a file and ends a stopped recording
 *   cleanly with its reason;
 * - `npm run demo -- info` and `verify` (the built tool) describe whole,
 *   cut, damaged and foreign files, with exit status 0 for what plays and 1
 *   for what does not, and 2 for a folder that is not there.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoWriter } from '../../src/node/demo/demoWriter';
import { bodyText, DemoKind, encodeChunk as encodeChunkWith, encodeDemoStart as encodeDemoStartWith, readDemo as readDemoWith, textBody, type DemoHeader } from '../../src/shared/demo/demoFormat';
import { crc32 } from '../../src/node/demo/demoCrc';
import { demoEntry, repoRoot } from '../support/paths';
import { demoHeader } from '../support/demoHeader';

/** The format's functions with Node's CRC-32, as the writer and the tool use them. */
const encodeChunk = (kind: DemoKind, timeMs: number, body: Uint8Array) => encodeChunkWith(kind, timeMs, body, crc32);
const encodeDemoStart = (header: DemoHeader) => encodeDemoStartWith(header, crc32);
const readDemo = (bytes: Uint8Array) => readDemoWith(bytes, crc32);

const HEADER: DemoHeader = demoHeader({
  protocol: 'netgame',
  seed: 7,
  server: '127.0.0.1:6590',
  recorder: { slot: 1, name: 'bob' },
  players: [
    { slot: 0, name: 'alice' },
    { slot: 1, name: 'bob' },
  ],
  startedAt: '2026-12-01T21:00:00.000Z',
});

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'starlane-demos-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the built demo tool. */
function demoTool(...args: string[]): { status: number | null; out: string } {
  if (!existsSync(demoEntry)) throw new Error(`${demoEntry} is missing: run "npm run build" first (npm test does)`);
  const r = spawnSync(process.execPath, [demoEntry, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A seeded number in 1..n. */
function seeded(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return 1 + Math.floor((s / 0x1_0000_0000) * n);
  };
}

/**
 * Starts the recorder on `file` and kills it with SIGKILL `delayMs` after it printed `flushes` flush lines (the moment of
 * the crash, anywhere in its next flush interval); returns what it had last said was on the disk.
 */
async function recordAndKill(file: string, flushes: number, delayMs: number): Promise<{ chunks: number; upToMs: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test', 'support', 'demoRecorder.ts'), file, '20'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let killing = false;
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const promised = await new Promise<{ chunks: number; upToMs: number }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n').filter((l) => l.startsWith('flushed '));
      if (lines.length >= flushes && !killing) {
        killing = true;
        const [, chunks, upTo] = (lines[flushes - 1] as string).split(' ');
        setTimeout(() => {
          child.kill('SIGKILL');
          resolve({ chunks: Number(chunks), upToMs: Number(upTo) });
        }, delayMs);
      }
    });
    void exited.then(() => {
      if (!killing) reject(new Error(`the recorder exited before ${flushes} flushes:\n${out}\n${err}`));
    });
  });
  await exited;
  return promised;
}

describe('demo files', () => {
  it('a recording process SIGKILLed at 20 seeded moments leaves files that play every chunk it had synced, never a damaged one', { timeout: 120_000 }, async () => {
    const next = seeded(20261201);
    const lines: string[] = [];
    for (let k = 0; k < 20; k++) {
      const file = join(dir, `crash-${k}.sldemo`);
      const promised = await recordAndKill(file, next(5), next(26) - 1);
      const r = readDemo(new Uint8Array(await readFile(file)));
      if (!r.ok) throw new Error(`crash ${k}: not a demo: ${r.why} ${r.detail}`);
      // A prefix: chunk i names i, none missing, and at least what the recorder had seen synced.
      const texts = r.chunks.map((c) => bodyText(c.body));
      expect(texts, `crash ${k}`).toEqual(texts.map((_, i) => `chunk ${i}`));
      expect(r.chunks.length).toBeGreaterThanOrEqual(promised.chunks);
      expect(r.durationMs).toBeGreaterThanOrEqual(promised.upToMs);
      expect(r.stop.how, `crash ${k}`).toBe('cut');
      lines.push(`${r.chunks.length} chunks up to ${r.durationMs} ms (${r.chunks.length - promised.chunks} beyond the last flush it reported)`);
    }
    console.log(`demo crash safety, 20 SIGKILLs with a 20 ms flush: ${lines.join('; ')}`);
    // The demo tool says where the last one stops, and calls it playable.
    const info = demoTool('info', join(dir, 'crash-19.sldemo'));
    expect(info.out).toMatch(/cut off at byte \d+ \(.*\): what a crash or a power cut leaves; it plays up to there/);
    expect(info.status).toBe(0);
  });

  it('the writer refuses a file that exists, and a stopped recording ends cleanly with its reason', async () => {
    const file = join(dir, 'match.sldemo');
    const w = await DemoWriter.create(file, HEADER);
    w.add(DemoKind.Text, textBody('alice: hello'));
    await w.flush();
    w.add(DemoKind.Delivery, Uint8Array.of(1, 2, 3));
    await w.close('protocol switch to gameserver');
    const r = readDemo(new Uint8Array(await readFile(file)));
    if (!r.ok) throw new Error(r.detail);
    expect(r.header).toEqual(HEADER);
    expect(r.chunks.map((c) => c.kind)).toEqual([DemoKind.Text, DemoKind.Delivery]);
    expect(r.stop).toMatchObject({ how: 'clean', reason: 'protocol switch to gameserver' });
    expect(w.stats).toMatchObject({ chunks: 3, chunksWritten: 3 });
    await expect(DemoWriter.create(file, HEADER)).rejects.toThrow(/EEXIST/);
  });

  it('npm run demo -- info and verify describe whole, cut, damaged and foreign files, with exit statuses to match', async () => {
    const start = encodeDemoStart(HEADER);
    const body = [encodeChunk(DemoKind.Text, 0, textBody('hi')), encodeChunk(DemoKind.Frame, 1500, Uint8Array.of(1)), encodeChunk(DemoKind.Frame, 3000, Uint8Array.of(2))];
    const whole = Buffer.concat([start, ...body, encodeChunk(DemoKind.End, 3000, textBody('stop'))]);
    await writeFile(join(dir, 'whole.sldemo'), whole);
    await writeFile(join(dir, 'cut.sldemo'), whole.subarray(0, whole.length - 10));
    const damaged = Buffer.from(whole);
    damaged[start.length + body[0]!.length + 6]! ^= 0xff;
    await writeFile(join(dir, 'damaged.sldemo'), damaged);

    const info = demoTool('info', join(dir, 'whole.sldemo'));
    console.log(info.out);
    expect(info.status).toBe(0);
    expect(info.out).toContain('Starlane demo, format 1; recorded by Starlane 0.1.0, wire version 14, simulation bd2957211ca905b0');
    expect(info.out).toContain('netgame game on 127.0.0.1:6590, seed 7; recorded by bob (slot 1) from 2026-12-01T21:00:00.000Z');
    expect(info.out).toContain('players (2): 0 alice, 1 bob');
    expect(info.out).toContain('3 chunks after the header (deliveries 0, local 0, text 1, frames 2, digests 0, snapshot 0); 3.0 s long');
    expect(info.out).toContain('ends cleanly: stop');

    const hurt = demoTool('info', join(dir, 'damaged.sldemo'));
    expect(hurt.status).toBe(1);
    expect(hurt.out).toMatch(/1 chunks after the header .*; 0\.0 s long/);
    expect(hurt.out).toMatch(new RegExp(`damaged at byte ${start.length + body[0]!.length}: a chunk whose CRC-32 does not match its bytes \\(bad-crc\\); it plays up to there`));

    await writeFile(join(dir, 'notes.sldemo'), 'shopping list\n');
    const foreign = demoTool('info', join(dir, 'notes.sldemo'));
    expect(foreign.status).toBe(1);
    expect(foreign.out).toContain('notes.sldemo: not a Starlane demo: no SLDEMO magic at its start (bad-magic at byte 0)');

    const verify = demoTool('verify', dir);
    console.log(verify.out);
    expect(verify.status).toBe(1);
    expect(verify.out).toMatch(/^ok {10}whole\.sldemo: 3\.0 s, 3 chunks, ends cleanly$/m);
    expect(verify.out).toMatch(/^ok \(cut\) {4}cut\.sldemo: 3\.0 s, 3 chunks, cut off at byte \d+/m);
    expect(verify.out).toMatch(/^DAMAGED {5}damaged\.sldemo: 0\.0 s, 1 chunks readable, then at byte \d+: .*\(bad-crc\)$/m);
    expect(verify.out).toMatch(/^NOT A DEMO {2}notes\.sldemo: /m);
    expect(verify.out).toContain(`4 demo file(s) in ${dir}: 2 whole or playable up to a crash, 2 damaged or unreadable`);

    await rm(join(dir, 'damaged.sldemo'));
    await rm(join(dir, 'notes.sldemo'));
    expect(demoTool('verify', dir).status).toBe(0);
    const missing = demoTool('verify', join(dir, 'nowhere'));
    expect(missing.status).toBe(2);
    expect(missing.out).toMatch(/cannot read the folder .*nowhere: ENOENT/);
    const help = demoTool('--help');
    expect(help.status).toBe(0);
    expect(help.out).toMatch(/info \[options\] <file>|info <file>/);
  });
});
