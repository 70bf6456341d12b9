/**
 * The hostile-traffic scenario, shared by the test (which asserts what only
 * breakage would trip) and `npm run bench:hostile -- --bots 8` (which prints
 * the figures against their targets): a masterserver, a slotserver and a
 * gameserver as real processes, honest headless bots playing through the
 * gameserver, and a separate attacker process (bench/hostile.ts) firing random
 * and mutated datagrams, bad lines and requests, half-open connections and a
 * cheating client at every port.
 *
 * Windows of measurement are counted in the bots' own one-second stats lines
 * and in the attacker's progress, never in sleeps of the caller's.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BotWatch } from './botProcess';
import type { HostileReport } from './hostile';
import { botEntry, repoRoot } from './paths';
import { startServer, type ServerProcess } from './serverProcess';
import { spawnTracked } from './testRun';

export interface ScenarioOptions {
  bots: number;
  datagrams: number;
  lines: number;
  /** The attack's pace in datagrams per second. */
  rate: number;
}

/** The targets `bench:hostile -- --bots` compares the figures with. */
export const SCENARIO_TARGETS = {
  /** Honest updates during the attack, as a share of the rate before it. */
  honestShare: 0.95,
  /** Growth of the live heap and of RSS after a full collection. */
  memoryGrowth: 0.1,
} as const;

export interface Memory {
  live: number;
  heapUsed: number;
  rss: number;
  liveRss: number;
}

export interface ScenarioResult {
  master: ServerProcess;
  slots: ServerProcess;
  game: ServerProcess;
  report: HostileReport;
  /** Honest states received per second over all bots, before and during the attack. */
  rateBefore: number;
  rateDuring: number;
  measuredSeconds: number;
  memCold: Memory[];
  memBefore: Memory[];
  memAfter: Memory[];
  gameBefore: Record<string, unknown>;
  gameAfter: Record<string, unknown>;
  /** Datagrams the kernel dropped at the gameserver's socket during the attack. */
  kernel: number;
  /** Garbage datagrams aimed at the gameserver's UDP port. */
  garbage: number;
  honestSent: number;
  /** Datagrams the gameserver read, and dropped, during the attack. */
  packetsIn: number;
  dropped: number;
  /** How long each half-open connection of ours lived (ms; -1 = still open). */
  idleClosed: { port: number | undefined; ms: number }[];
}

export const SERVER_NAMES = ['masterserver', 'slotserver', 'gameserver'] as const;

/** A server's status JSON; fails if it takes more than a second (a hung server). */
export async function serverStatus(s: ServerProcess, path = '/status.json'): Promise<Record<string, unknown>> {
  const r = await fetch(`http://127.0.0.1:${s.http}${path}`, { signal: AbortSignal.timeout(1000) });
  return (await r.json()) as Record<string, unknown>;
}

/**
 * A server's memory. `live` is its heap right after a full collection (the
 * servers run with --expose-gc here, which makes the status page collect
 * first): what the process really keeps. Smallest of three samples.
 */
async function memory(s: ServerProcess): Promise<Memory> {
  let best: Memory = { live: Infinity, heapUsed: Infinity, rss: Infinity, liveRss: Infinity };
  for (let i = 0; i < 3; i++) {
    const m = (await serverStatus(s)).memory as { live?: number; heapUsed: number; rss: number; liveRss?: number };
    if (m.live === undefined || m.liveRss === undefined) throw new Error('status JSON has no memory.live: the server runs without --expose-gc');
    best = { live: Math.min(best.live, m.live), heapUsed: Math.min(best.heapUsed, m.heapUsed), rss: Math.min(best.rss, m.rss), liveRss: Math.min(best.liveRss, m.liveRss) };
  }
  return best;
}

/** Datagrams the kernel dropped on the UDP socket bound to 127.0.0.1:`port` (its receive queue was full), from /proc/net/udp. */
export function kernelDrops(port: number): number {
  if (process.platform !== 'linux') return 0; // no /proc/net/udp: counted as none
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1] === local) return Number(f[f.length - 1]);
  }
  return 0;
}

function bot(name: string, server: string, seed: number): BotWatch {
  const child = spawnTracked(
    process.execPath,
    [botEntry, '--json', '--name', name, '--protocol', 'gameserver', '--server', server, '--port', '0', '--broadcast', '127.255.255.255', '--lan-interfaces', 'none', '--pilot', 'circle', '--seed', String(seed)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new BotWatch(name, child);
}

/** Runs bench/hostile.ts with `args` as a child process; `done` resolves with its final report. */
function launch(args: string[]): { child: ChildProcess; progress(): HostileReport | undefined; done: Promise<HostileReport> } {
  const child = spawnTracked(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'hostile.ts'), '--json', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  // A real attacker has its own machine; here it shares two cores with the servers and the bots, so it yields
  // to them when the machine is busy (its sending costs a third of a core that would otherwise starve the bots).
  try {
    setPriority(child.pid as number, 10);
  } catch {
    /* not permitted here: it runs at normal priority */
  }
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let report: HostileReport | undefined;
  let progress: HostileReport | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const r = JSON.parse(line) as HostileReport & { t: string };
    if (r.t === 'done') report = r;
    else progress = r;
  });
  const done = new Promise<HostileReport>((resolve, reject) =>
    child.once('close', (code) => (code === 0 && report ? resolve(report) : reject(new Error(`attacker exited (${code}):\n${stderr}`)))),
  );
  return { child, progress: () => progress, done };
}

interface Tally {
  states: number;
  seconds: number;
  sent: number;
}

/** Per bot: the states it has received from the other honest bots, and how many 1-second stats lines it has printed. */
function tally(b: BotWatch, honest: Set<number>): Tally {
  const stats = b.records.filter((r) => r.t === 'stats');
  const last = stats.at(-1) as { received?: Record<string, number>; sent?: number } | undefined;
  const own = b.players()?.localSlot;
  let states = 0;
  for (const [slot, n] of Object.entries(last?.received ?? {})) if (honest.has(Number(slot)) && Number(slot) !== own) states += n;
  return { states, seconds: stats.length, sent: last?.sent ?? 0 };
}

/** Honest states received per second over all bots between two tallies (each bot's own 1-second stats lines are the clock). */
function rate(before: Tally[], after: Tally[]): number {
  return before.reduce((sum, b, i) => {
    const a = after[i] as Tally;
    return sum + (a.states - b.states) / Math.max(1, a.seconds - b.seconds);
  }, 0);
}

/** Waits until every bot has printed `n` more one-second stats lines. */
async function botSeconds(bots: BotWatch[], n: number): Promise<void> {
  const start = bots.map((b) => b.records.filter((r) => r.t === 'stats').length);
  await Promise.all(bots.map((b, i) => b.until(`${n} more stats lines`, () => b.records.filter((r) => r.t === 'stats').length >= (start[i] as number) + n, (n + 30) * 1000)));
}

/** Waits for the attacker's progress to pass `datagrams` (or for it to finish). */
async function attackPast(attack: ReturnType<typeof launch>, datagrams: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const check = () => {
      if ((attack.progress()?.datagrams ?? 0) >= datagrams || attack.child.exitCode !== null) {
        attack.child.stdout?.off('data', check);
        resolve();
      }
    };
    attack.child.stdout?.on('data', check);
    attack.child.once('exit', check);
    check();
  });
}

/** Runs the whole scenario; the caller stops the processes (they are tracked; a test file's teardown kills them). */
export async function runHostileScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
  // --expose-gc lets the status page report the live heap (see memory()); the variable is put back at once.
  const nodeOptions = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${nodeOptions ?? ''} --expose-gc`.trim();
  let servers: ServerProcess[];
  try {
    // Short timeouts so the half-open connections are seen to be cut within the run.
    const master = await startServer(['masterserver', '--name', 'hostile-master', '--port', '0', '--http-port', '0', '--expire-seconds', '8']);
    const common = ['--port', '0', '--udp-port', '0', '--http-port', '0', '--master', `127.0.0.1:${master.tcp}`, '--heartbeat-seconds', '2', '--join-timeout-seconds', '3'];
    const slots = await startServer(['slotserver', '--name', 'hostile-slots', ...common]);
    const game = await startServer(['gameserver', '--name', 'hostile-game', ...common]);
    servers = [master, slots, game];
  } finally {
    if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = nodeOptions;
  }
  const [master, slots, game] = servers as [ServerProcess, ServerProcess, ServerProcess];

  const b = Array.from({ length: o.bots }, (_, i) => bot(`honest${i}`, `127.0.0.1:${game.tcp}`, i + 1));
  for (const x of b) await x.until(`${o.bots} players`, () => (x.players()?.players.length === o.bots ? true : undefined), 20_000);
  const honest = new Set(b.map((x) => x.players()?.localSlot as number));
  // Warm-up: every bot hears every other one for three of its seconds, and the servers' heaps settle.
  for (const x of b) await x.until('states from all others', () => Object.keys(x.received()).length >= o.bots - 1, 10_000);
  await botSeconds(b, 3);

  // Half-open connections of our own to every TCP and HTTP port: each must be cut by its server's deadline.
  const idle = [master.tcp, slots.tcp, game.tcp, master.http, slots.http, game.http].map((port) => {
    const opened = performance.now();
    const s = connect({ port: port as number, host: '127.0.0.1' });
    s.on('error', () => undefined);
    const closedAfter = new Promise<number>((r) => s.once('close', () => r(performance.now() - opened)));
    return { port, s, closedAfter };
  });

  const t0 = b.map((x) => tally(x, honest));
  await botSeconds(b, 8);
  const rateBefore = rate(t0, b.map((x) => tally(x, honest)));

  // The attacker is its own process, sending from 127.0.0.2..41 (the bots are on 127.0.0.1).
  const targets = [
    ...[game.udp, slots.udp].flatMap((p) => ['--udp', `127.0.0.1:${p}`]),
    ...[master.tcp, slots.tcp, game.tcp].flatMap((p) => ['--tcp', `127.0.0.1:${p}`]),
    ...[master.http, slots.http, game.http].flatMap((p) => ['--http', `127.0.0.1:${p}`]),
    ...['--gameserver', `127.0.0.1:${game.tcp}`],
  ];
  const argsFor = (datagrams: number, lines: number) => ['--datagrams', String(datagrams), '--rate', String(o.rate), '--lines', String(lines), '--sources', '127.0.0.2-127.0.0.41', ...targets];
  // A short attack first: it runs the servers' error paths once (their code gets compiled and cached, HTTP
  // parsers pooled), so the memory measured next is the start of a warm process, not of a cold one.
  const memCold = await Promise.all(servers.map(memory));
  await launch(argsFor(Math.min(50_000, o.datagrams), Math.min(500, o.lines))).done;
  const memBefore = await Promise.all(servers.map(memory));
  const gameBefore = await serverStatus(game);
  const dropsBefore = kernelDrops(game.udp as number);
  const tBase = b.map((x) => tally(x, honest));

  const attack = launch(argsFor(o.datagrams, o.lines));
  // Measure the honest rate in the thick of it: from an eighth of the flood until nine tenths of it.
  await attackPast(attack, o.datagrams / 8);
  const d0 = b.map((x) => tally(x, honest));
  const attackStart = performance.now();
  await attackPast(attack, o.datagrams * 0.9);
  const rateDuring = rate(d0, b.map((x) => tally(x, honest)));
  const measuredSeconds = (performance.now() - attackStart) / 1000;
  const report = await attack.done;

  const gameAfter = await serverStatus(game);
  const tEnd = b.map((x) => tally(x, honest));
  const memAfter = await Promise.all(servers.map(memory));
  const idleClosed = await Promise.all(idle.map(async (c) => ({ port: c.port, ms: await Promise.race([c.closedAfter, Promise.resolve(-1)]) })));
  for (const c of idle) c.s.destroy();

  const sum = (x: unknown) => Object.values(x as Record<string, number>).reduce((a, v) => a + v, 0);
  return {
    master,
    slots,
    game,
    report,
    rateBefore,
    rateDuring,
    measuredSeconds,
    memCold,
    memBefore,
    memAfter,
    gameBefore,
    gameAfter,
    kernel: kernelDrops(game.udp as number) - dropsBefore,
    garbage: report.byPort[String(game.udp)] ?? 0,
    honestSent: tEnd.reduce((s, x, i) => s + x.sent - (tBase[i] as Tally).sent, 0),
    packetsIn: (gameAfter.packetsIn as number) - (gameBefore.packetsIn as number),
    dropped: sum(gameAfter.drops) - sum(gameBefore.drops),
    idleClosed,
  };
}

/** The figures, one line each, with the targets beside the two that have one. */
export function describeScenario(r: ScenarioResult): string {
  const mb = (n: number) => `${(n / 1048576).toFixed(2)} MB`;
  const pct = (a: number, b: number) => `${((100 * (a - b)) / b).toFixed(1)} %`;
  const share = r.rateDuring / r.rateBefore;
  const mark = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  const t = SCENARIO_TARGETS;
  return [
    `hostile traffic: ${r.report.datagrams.toLocaleString('en-US')} datagrams in ${r.report.seconds.toFixed(1)} s (${Math.round(r.report.datagrams / r.report.seconds).toLocaleString('en-US')}/s; ${JSON.stringify(r.report.byKind)})`,
    `  ${r.report.tcpLines.toLocaleString('en-US')} bad TCP lines/requests over ${r.report.tcpConnections} connections; ${r.report.cheaters.joins} cheater joins, ${r.report.cheaters.kicked} dropped; ${r.report.cheaters.captured} real datagrams captured as seeds`,
    `  honest updates: ${r.rateBefore.toFixed(0)}/s before, ${r.rateDuring.toFixed(0)}/s during (${(100 * share).toFixed(1)} %, over ${r.measuredSeconds.toFixed(1)} s; target ≥ ${100 * t.honestShare} %: ${mark(share >= t.honestShare)})`,
    `  gameserver: ${r.packetsIn.toLocaleString('en-US')} datagrams read, ${r.dropped.toLocaleString('en-US')} dropped, ${r.kernel} lost in the kernel; honest bots sent ${r.honestSent}, garbage ${r.garbage}, cheater ${r.report.cheaters.datagrams}`,
    `  drops: ${JSON.stringify(r.gameAfter.drops)}; strikes ${JSON.stringify(r.gameAfter.strikes)}; kicked ${String(r.gameAfter.kicked)}; tcp ${JSON.stringify(r.gameAfter.tcp)}`,
    loadLine(r.gameBefore.load as GameLoad | undefined, r.gameAfter.load as GameLoad | undefined),
    ...SERVER_NAMES.map((name, i) => {
      const [c, b, a] = [r.memCold[i] as Memory, r.memBefore[i] as Memory, r.memAfter[i] as Memory];
      const ok = a.live <= b.live * (1 + t.memoryGrowth) && a.liveRss <= b.liveRss * (1 + t.memoryGrowth);
      return (
        `  ${name}: cold rss ${mb(c.liveRss)}; after warm-up: live heap ${mb(b.live)} → ${mb(a.live)} (${pct(a.live, b.live)}), heapUsed ${mb(b.heapUsed)} → ${mb(a.heapUsed)}, ` +
        `rss after a full collection ${mb(b.liveRss)} → ${mb(a.liveRss)} (${pct(a.liveRss, b.liveRss)}; target ≤ +${100 * t.memoryGrowth} %: ${mark(ok)})`
      );
    }),
    `  half-open connections closed after (ms): ${r.idleClosed.map((c) => `${c.port}: ${Math.round(c.ms)}`).join(', ')}`,
  ].join('\n');
}

/** The gameserver's `load` in its status JSON (overload.ts). */
interface GameLoad {
  overloaded: boolean;
  stateRates: { mid: number | 'every'; far: number | 'every' };
  tickLateMs: { p50: number; p99: number };
  lateTicks: number;
}

/** The gameserver's tick under the flood: its lateness over the last minute, the ticks a whole interval late during it, and whether it slowed far players' states. */
function loadLine(before: GameLoad | undefined, after: GameLoad | undefined): string {
  if (!after) return '  gameserver tick: no load in its status JSON';
  return (
    `  gameserver tick: late p50 ${after.tickLateMs.p50} ms, p99 ${after.tickLateMs.p99} ms over the last minute (the flood in it); ` +
    `${after.lateTicks - (before?.lateTicks ?? 0)} ticks a whole interval late during the flood; at its end ${after.overloaded ? `overloaded (far players at ${String(after.stateRates.far)}/s)` : 'keeping up'}`
  );
}
