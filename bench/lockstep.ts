/**
 * Lockstep frame rate against round trip (`npm run bench:lockstep -- [options]`):
 * for each round trip of --rtts it starts --players headless bots
 * (out/main/bot.js --protocol lockstep --json, free ports on 127.0.0.1, LAN
 * broadcast discovery) with the link conditioner set so that the round trip
 * between two of them is about that long, waits until all of them play one
 * world, skips --warmup seconds and measures for --seconds. Every setting with
 * a round trip runs twice: with the automatic input lead (target: 40 frames/s,
 * a frame every 25 ms) and, for contrast, with the seed's lead of one frame
 * (--input-lead 1), which must wait for the peers' inputs. The "expect"
 * column is a model of the engine for a fixed lead L: each host tick (25 ms)
 * queues our input up to the waiting frame + L, before stepping, so L + 1
 * frames of input are under way while a frame waits, and a wait lasts the
 * one-way delay (rtt/2) plus about a tick and a half (the tick after the step
 * that sends the next input, half a tick until the one that finds it here):
 * min(40, (L + 1) · 1000 / (rtt/2 + 37.5 ms)) frames/s.
 *
 * The figures come from the bots' own output: their once-a-second stats line
 * ({"t":"stats","lockstep":{frame, lead, framesWaited, resends, desyncs, rttMs…}})
 * against this process's clock of arrival over the measured window, and the
 * frame-hash lines every 40 frames, compared between bots for every (epoch,
 * frame) that two or more reported (mismatches must be 0).
 *
 * The conditioner delays a datagram when its sender sends it and again when
 * its receiver takes it, so every bot gets --fake-lag rtt/4: a round trip
 * crosses it four times. The round trip printed is the one measured (the
 * largest to a peer, what the automatic lead follows). Exit status 1 only when
 * a bot failed or hashes disagreed; the frame rates are figures, not asserts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Command, InvalidArgumentError, Option } from 'commander';
import { SEED_LEAD } from '../src/shared/lockstep/config';
import { STEP_MS } from '../src/shared/sim/types';
import { freeUdpPorts, P2P_PORT_SPAN } from '../test/support/freePort';

const BOT_JS = join(import.meta.dirname, '..', 'out', 'main', 'bot.js');
const TARGET_FPS = 1000 / STEP_MS;
const JOIN_TIMEOUT_MS = 30_000;
const START_GAP_MS = 300;

const int = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < lo || n > hi) throw new InvalidArgumentError(`must be an integer from ${lo} to ${hi}`);
  return n;
};
const rttList = (value: string): number[] => {
  const list = value.split(',').map((v) => v.trim());
  if (list.length === 0 || !list.every((v) => /^\d+$/.test(v) && Number(v) <= 2000)) throw new InvalidArgumentError('must be round trips in ms (0 for the bare LAN, up to 2000) separated by commas, e.g. 0,50,100,200');
  return list.map(Number);
};

const program = new Command('bench:lockstep')
  .description('Frames per second a lockstep game keeps against the round trip, with the automatic input lead and with the seed\'s lead of 1')
  .option('--players <n>', 'bots in each game', int(2, 4), 2)
  .option('--seconds <s>', 'measured window per setting', int(1, 600), 10)
  .option('--warmup <s>', 'play skipped once every bot is in the game, before measuring', int(0, 60), 2)
  .addOption(new Option('--rtts <ms,…>', 'round trips to set with the link conditioner (0: the bare LAN, no conditioner)').argParser(rttList).default([0, 50, 100, 200], '0,50,100,200'))
  .option('--json', 'one JSON line per setting, then {"t":"done"}', false)
  .showHelpAfterError();

interface Opts {
  players: number;
  seconds: number;
  warmup: number;
  rtts: number[];
  json: boolean;
}

interface Sample {
  at: number;
  frame: number;
  epoch: number;
  lead: number;
  framesWaited: number;
  resends: number;
  desyncs: number;
  rttMs: number | null;
}

/** One bot process and what it printed, stamped with our clock of arrival. */
class Bot {
  readonly samples: Sample[] = [];
  readonly hashes: { frame: number; hash: string; epoch: number }[] = [];
  joinedPlayers = 0;
  failed: string | null = null;
  stopped: string | null = null;
  stderr = '';
  exit: string | null = null;
  readonly closed: Promise<void>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    child.stderr?.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    createInterface({ input: child.stdout! }).on('line', (line) => this.take(line));
    this.closed = new Promise((resolve) => child.once('close', (code, signal) => ((this.exit = signal ? `killed by ${signal}` : `exit code ${code}`), resolve())));
  }

  private take(line: string): void {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (r.event === 'frame-hash') this.hashes.push({ frame: Number(r.frame), hash: String(r.hash), epoch: Number(r.epoch) });
    else if (r.t === 'players') this.joinedPlayers = (r.players as { joined: boolean }[]).filter((p) => p.joined).length;
    else if (r.t === 'failed') this.failed = `${String(r.why)}: ${String(r.reason)}`;
    else if (r.t === 'stopped') this.stopped = String(r.why);
    else if (r.t === 'stats' && r.lockstep) this.samples.push({ at: performance.now(), ...(r.lockstep as Omit<Sample, 'at'>) });
  }

  /** Why it is no longer playing, or null while it is. */
  gone(): string | null {
    if (this.exit === null) return null;
    const last = this.stderr.trim().split('\n').pop() ?? '';
    const why = this.failed ?? (this.stopped ? `stopped: ${this.stopped}` : last);
    return `${this.name} ${this.exit}${why ? ` (${why})` : ''}`;
  }
}

/** Every bot we started and have not seen end: SIGINT, errors and exit stop them all. */
const live = new Set<Bot>();

async function stopBots(bots: Bot[]): Promise<void> {
  for (const b of bots) if (b.exit === null) b.child.kill('SIGTERM');
  const hard = setTimeout(() => bots.forEach((b) => b.exit === null && b.child.kill('SIGKILL')), 3000);
  await Promise.all(bots.map((b) => b.closed));
  clearTimeout(hard);
  for (const b of bots) live.delete(b);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds, failing as soon as a bot is gone or after `ms`. */
async function until(bots: Bot[], what: string, check: () => boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  for (;;) {
    const gone = bots.map((b) => b.gone()).find((g) => g !== null);
    if (gone) throw new Error(`a bot stopped ${what}: ${gone}`);
    if (check()) return;
    if (performance.now() > end) throw new Error(`timed out after ${ms / 1000} s ${what}`);
    await sleep(100);
  }
}

/** Lets the bots play for `ms`, failing as soon as one is gone. */
function hold(bots: Bot[], what: string, ms: number): Promise<void> {
  const end = performance.now() + ms;
  return until(bots, what, () => performance.now() >= end, ms + 1000);
}

interface Setting {
  rtt: number;
  /** The --input-lead passed: 0 automatic. */
  inputLead: number;
}

interface Figures {
  rttSet: number;
  inputLead: 'auto' | number;
  fakeLagMs: number;
  rttMs: number | null;
  leads: number[];
  framesPerSecond: number;
  perBot: number[];
  expected: number;
  framesWaitedPerS: number;
  resendsPerS: number;
  stateTransfers: number;
  hashFrames: number;
  hashMismatches: number;
  desyncs: number;
}

const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Runs one game at one setting and works out its figures. */
async function runSetting(o: Opts, s: Setting): Promise<Figures> {
  const fakeLag = Math.round(s.rtt / 4);
  const port = await freeUdpPorts(P2P_PORT_SPAN);
  const bots: Bot[] = [];
  try {
    for (let i = 0; i < o.players; i++) {
      if (i > 0) await sleep(START_GAP_MS);
      const name = `ls${i + 1}`;
      const args = ['--protocol', 'lockstep', '--json', '--port', String(port), '--broadcast', '127.255.255.255', '--name', name, '--pilot', 'hunt', '--seed', String(i + 1), '--input-lead', String(s.inputLead), '--fake-lag', String(fakeLag)];
      const bot = new Bot(name, spawn(process.execPath, [BOT_JS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
      bots.push(bot);
      live.add(bot);
    }
    // Playing: every bot sees all of them joined, and steps a world of one epoch.
    const latest = (b: Bot) => b.samples[b.samples.length - 1];
    await until(bots, 'before all of them played one game', () => bots.every((b) => b.joinedPlayers === o.players && latest(b) !== undefined && latest(b)?.epoch === latest(bots[0] as Bot)?.epoch), JOIN_TIMEOUT_MS);
    await hold(bots, 'during the warm-up', o.warmup * 1000);
    const from = performance.now();
    await hold(bots, 'during the measurement', o.seconds * 1000 + 200);
    const to = performance.now();
    await stopBots(bots);

    const windows = bots.map((b) => b.samples.filter((x) => x.at >= from && x.at <= to));
    const short = bots.find((_, i) => (windows[i] as Sample[]).length < 2);
    if (short) throw new Error(`${short.name} printed fewer than two stats lines in the measured window`);
    const span = windows.map((w) => ({ first: w[0] as Sample, last: w[w.length - 1] as Sample }));
    const seconds = span.map(({ first, last }) => (last.at - first.at) / 1000);
    const perBot = span.map(({ first, last }, i) => (last.frame - first.frame) / (seconds[i] as number));
    const rate = (pick: (x: Sample) => number) => mean(span.map(({ first, last }, i) => (pick(last) - pick(first)) / (seconds[i] as number)));
    const rtts = windows.flat().flatMap((x) => (x.rttMs === null ? [] : [x.rttMs]));
    const rttMs = rtts.length === 0 ? null : mean(rtts);
    // Hashes of every (epoch, frame) two or more bots reported, over the whole run.
    const byFrame = new Map<string, Set<string>>();
    const reporters = new Map<string, number>();
    for (const b of bots)
      for (const h of b.hashes) {
        const key = `${h.epoch}:${h.frame}`;
        byFrame.set(key, (byFrame.get(key) ?? new Set()).add(h.hash));
        reporters.set(key, (reporters.get(key) ?? 0) + 1);
      }
    const compared = [...reporters].filter(([, n]) => n >= 2).map(([key]) => key);
    const lead = s.inputLead || null;
    return {
      rttSet: s.rtt,
      inputLead: s.inputLead === 0 ? 'auto' : s.inputLead,
      fakeLagMs: fakeLag,
      rttMs,
      leads: [...new Set(windows.flat().map((x) => x.lead))].sort((a, b) => a - b),
      framesPerSecond: mean(perBot),
      perBot,
      expected: lead === null || rttMs === null ? TARGET_FPS : Math.min(TARGET_FPS, ((lead + 1) * 1000) / (rttMs / 2 + 1.5 * STEP_MS)),
      framesWaitedPerS: rate((x) => x.framesWaited),
      resendsPerS: rate((x) => x.resends),
      stateTransfers: Math.max(...span.map(({ first, last }) => last.epoch - first.epoch)),
      hashFrames: compared.length,
      hashMismatches: compared.filter((key) => (byFrame.get(key) as Set<string>).size > 1).length,
      desyncs: Math.max(...bots.map((b) => b.samples[b.samples.length - 1]?.desyncs ?? 0)),
    };
  } finally {
    await stopBots(bots);
  }
}

const fix = (n: number | null, d = 1) => (n === null || !Number.isFinite(n) ? '-' : n.toFixed(d));
const COLUMNS: [string, number][] = [['round trip', 11], ['input lead', 11], ['fake lag', 9], ['measured', 9], ['lead', 6], ['frames/s', 9], ['expect', 7], ['waited/s', 9], ['resends/s', 10], ['transfers', 10], ['hash frames', 12], ['mismatches', 11], ['desyncs', 7]];
const row = (cells: string[]) => cells.map((c, i) => c.padEnd((COLUMNS[i] as [string, number])[1])).join(' ').trimEnd();

function describe(f: Figures): string {
  const lead = f.leads.length === 1 ? String(f.leads[0]) : `${f.leads[0]}–${f.leads[f.leads.length - 1]}`;
  return row([f.rttSet === 0 ? 'LAN' : `${f.rttSet} ms`, f.inputLead === 'auto' ? 'auto' : `${f.inputLead} (seed)`, `${f.fakeLagMs} ms`, f.rttMs === null ? '-' : `${fix(f.rttMs, 0)} ms`, lead, fix(f.framesPerSecond), fix(f.expected, 0), fix(f.framesWaitedPerS), fix(f.resendsPerS), String(f.stateTransfers), String(f.hashFrames), String(f.hashMismatches), String(f.desyncs)]);
}

async function main(): Promise<void> {
  program.parse();
  const o = program.opts<Opts>();
  if (!existsSync(BOT_JS)) throw new Error(`${BOT_JS} is missing: run "npx electron-vite build" first`);
  const w = (s: string) => process.stdout.write(`${s}\n`);
  const settings: Setting[] = o.rtts.flatMap((rtt) => (rtt === 0 ? [{ rtt, inputLead: 0 }] : [{ rtt, inputLead: 0 }, { rtt, inputLead: SEED_LEAD }]));
  if (!o.json) {
    w(`lockstep: frames/s achieved vs round trip, ${o.players} bots (--pilot hunt) per game, measured over ${o.seconds} s after ${o.warmup} s of play`);
    w(`target ${TARGET_FPS} frames/s with the automatic input lead; expect for the seed's lead of 1: min(${TARGET_FPS}, 2 frames per (rtt/2 + ${1.5 * STEP_MS} ms)), see the header of bench/lockstep.ts`);
    w(`fake lag: per bot, each datagram delayed when sent and again when received (rtt/4); measured: mean largest round trip to a peer; waited/s and resends/s: per bot;`);
    w(`transfers: state transfers (epoch changes) in the window; hash frames: (epoch, frame) pairs reported by 2+ bots over the whole run; desyncs: the bots' own count`);
    w('');
    w(row(COLUMNS.map(([h]) => h)));
  }
  let failures = 0;
  for (const s of settings) {
    try {
      const f = await runSetting(o, s);
      if (f.hashMismatches > 0 || f.desyncs > 0) failures += 1;
      w(o.json ? JSON.stringify({ t: 'setting', ...f }) : describe(f));
    } catch (err) {
      failures += 1;
      const what = `${s.rtt === 0 ? 'LAN' : `${s.rtt} ms`}, input lead ${s.inputLead === 0 ? 'auto' : s.inputLead}`;
      w(o.json ? JSON.stringify({ t: 'failed', rttSet: s.rtt, inputLead: s.inputLead === 0 ? 'auto' : s.inputLead, why: (err as Error).message }) : `${what}: NO FIGURES — ${(err as Error).message}`);
    }
  }
  if (o.json) w(JSON.stringify({ t: 'done', failures }));
  if (failures > 0) {
    process.stderr.write(`bench-lockstep: ${failures} setting(s) failed or disagreed (see above)\n`);
    process.exitCode = 1;
  }
}

const killAll = (signal: NodeJS.Signals) => {
  for (const b of live) if (b.exit === null) b.child.kill(signal);
};
process.on('exit', () => killAll('SIGKILL'));
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    killAll('SIGTERM');
    process.stderr.write(`bench-lockstep: ${sig}, stopped the bots\n`);
    process.exit(130);
  });

main().catch((err: unknown) => {
  process.stderr.write(`bench-lockstep: ${(err as Error).message}\n`);
  killAll('SIGKILL');
  process.exit(1);
});
