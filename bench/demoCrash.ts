/**
 * `npm run bench:demo-crash [-- --kills 200 --flush-ms 500]`: a demo
 * recording process (test/support/demoRecorder.ts, the real DemoWriter
 * appending a chunk about every millisecond) is SIGKILLed at `kills` seeded
 * moments, each a seeded 1–3 flushes plus a seeded part of a flush
 * interval. Every file must read as a cut prefix (never damaged) holding
 * every chunk the recorder had reported synced, in order; the bench prints
 * how many did, and how much of the recording each kill lost (the time from
 * the last chunk on the disk to the kill) against the flush interval, the
 * most a crash may lose (docs/DEMO.md).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { bodyText, readDemo } from '../src/shared/demo/demoFormat';
import { crc32 } from '../src/node/demo/demoCrc';
import { percentile } from '../src/shared/util/stats';

const o = new Command('bench:demo-crash')
  .option('--kills <n>', 'SIGKILLs', (v) => Number(v), 200)
  .option('--flush-ms <ms>', "the writer's flush interval", (v) => Number(v), 500)
  .parse()
  .opts<{ kills: number; flushMs: number }>();

const root = join(import.meta.dirname, '..');
let seed = 20261202;
const next = (n: number): number => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return Math.floor((seed / 0x1_0000_0000) * n);
};

/** Records into `file`, kills the recorder `delayMs` after its `flushes`-th flush; what it had reported, and when it was killed (ms into the recording). */
function recordAndKill(file: string, flushes: number, delayMs: number): Promise<{ chunks: number; killedAtMs: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'support', 'demoRecorder.ts'), file, String(o.flushMs)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let started = 0;
  let done = false;
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      if (started === 0 && lines[0]?.startsWith('started ') && lines.length > 1) started = Number(lines[0].slice(8));
      const flushed = lines.filter((l) => l.startsWith('flushed '));
      if (flushed.length >= flushes && !done) {
        done = true;
        const chunks = Number((flushed[flushes - 1] as string).split(' ')[1]);
        setTimeout(() => {
          const killedAtMs = Date.now() - started;
          child.kill('SIGKILL');
          child.once('exit', () => resolve({ chunks, killedAtMs }));
        }, delayMs);
      }
    });
    child.once('exit', () => {
      if (!done) reject(new Error(`the recorder exited before ${flushes} flushes:\n${out}`));
    });
  });
}

const dir = await mkdtemp(join(tmpdir(), 'starlane-demo-crash-'));
const lost: number[] = [];
let prefixes = 0;
let damaged = 0;
const t0 = performance.now();
try {
  for (let k = 0; k < o.kills; k++) {
    const file = join(dir, `crash-${k}.sldemo`);
    const r = await recordAndKill(file, 1 + next(3), next(o.flushMs));
    const read = readDemo(new Uint8Array(await readFile(file)), crc32);
    if (!read.ok || read.stop.how === 'damaged') {
      damaged++;
      console.log(`kill ${k}: ${read.ok ? `damaged at byte ${read.stop.offset}` : `not a demo: ${read.detail}`}`);
      continue;
    }
    const whole = read.chunks.every((c, i) => bodyText(c.body) === `chunk ${i}`) && read.chunks.length >= r.chunks;
    if (whole) prefixes++;
    else console.log(`kill ${k}: ${read.chunks.length} chunks on the disk, ${r.chunks} reported synced, or out of order`);
    lost.push(Math.max(0, r.killedAtMs - read.durationMs));
    if ((k + 1) % 20 === 0) console.log(`${k + 1} kills: ${prefixes} whole prefixes, ${damaged} damaged; lost so far p50 ${percentile(lost, 50)} ms, max ${Math.max(...lost)} ms`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
const max = Math.max(...lost);
console.log(`demo crash safety: ${o.kills} SIGKILLs with a ${o.flushMs} ms flush in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
console.log(`  files that play every chunk the recorder had synced, in order: ${prefixes} of ${o.kills} (target: all); damaged: ${damaged} (target 0)`);
console.log(`  recording lost at the kill: p50 ${percentile(lost, 50)} ms, p99 ${percentile(lost, 99)} ms, max ${max} ms (target: at most the flush interval, ${o.flushMs} ms, and the write that was under way: ${max <= o.flushMs ? 'met' : `missed by ${max - o.flushMs} ms`})`);
if (prefixes !== o.kills || damaged > 0) process.exitCode = 1;
