/**
 * Gameserver load benchmark (`npm run bench:gameserver -- [--bots N]
 * [--filtered] [--seconds S] [--warmup S] [--sweep] [--baseline]
 * [--flush arrival|tick] [--gather-ms N] [--tick-hz N] [--level-of-detail on|off] [--full-states] [--systems K]`): starts one gameserver PROCESS
 * (several past 255 clients)
 * (out/main/server.js gameserver on free ports, every limit at its default
 * but --max-players N when N > 64, and the filter radius of the layout) and
 * one load PROCESS (gameserverLoad.ts, driven over its IPC channel) that
 * joins N headless clients and has each send a GameState at 20 Hz. With
 * `taskset` the server is pinned to core 0 and the load (and this bench,
 * idle while it measures) to core 1, so a 256-client load does not take the
 * server's core; without it the output says they are not pinned.
 * The clients play as real ones do (gameserverLoad.ts: 8 per loopback
 * address 127.0.0.2, .3, ..., a hello after each join, reliable messages
 * acknowledged through the real link layer) and sit on a grid
 * (gameserverLayout.ts): all within the default filter radius of each other,
 * or with `--filtered` 100 units apart under a filter radius of 210 (each
 * sees at most 12). A server that refuses a join, or refuses to start with
 * --max-players N, is reported and that N is not measured.
 * After a warm-up (default 2 s) it measures for `--seconds` (default 10;
 * 5 per N with --sweep) and prints, per run:
 *  - the load process's CPU and its send rate achieved against 20 Hz (so the
 *    load is seen not to be the bottleneck);
 *  - receive rates and bytes per second up and down per client;
 *  - the server process's CPU (from /proc/<pid>/stat, or the status JSON),
 *    its RSS and heap at the end, how late its tick ran, how long its probes
 *    waited in its receive queue and how many states it shed for waiting
 *    too long (status JSON; receiveBacklog.ts);
 *  - forward latency p50/p99/max: a client's send to another client's
 *    receipt, both in the load process on its clock;
 *  - delivery of the states of the clients each client sees: received,
 *    superseded (a newer one arrived first, so the server rightly sent only
 *    that), and lost, each lost state reconciled with the server's counters
 *    (gameserverLoss.ts: lost on either link, dropped by reason, filtered,
 *    seat removed, unexplained).
 * `--sweep` runs N = 16, 64, 128, 255 all visible and N = 255 and 1,000 filtered,
 * and prints the flush mode and tick rate, a line per N, the largest N that
 * holds 20 Hz with ≥ 99 % delivery and p99 ≤ 10 ms, issue 27's targets
 * (met or missed) and the total time (gameserverSweep.ts). A gameserver
 * seats at most 255 (--max-players 1-255: slots are a byte on the wire), so
 * the all-visible top point is 255, and N = 1,000 is spread over four
 * gameserver processes of 250 (gameserverLayout.ts), all pinned to the same
 * core: their CPU, memory and counters are summed, the worst tick lateness
 * shown.
 * `--systems K` (issue 29) measures each point twice: the clients in one solar
 * system, then spread over K (a galaxy file of K entry systems, which the
 * clients join in turn, each seeing only its system's players), and prints
 * the server's CPU per player side by side with the target: no worse over K
 * systems than in one.
 * `--baseline` also measures, for each N, a bare relay process
 * (gameserverFloor.ts, pinned as the server is, its senders in this bench
 * process) that gathers and packs as the server does but decides nothing:
 * its CPU and latency are the floor this machine puts under any Node relay.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { SERVER_NODE_FLAGS } from '../test/support/serverProcess';
import { DEFAULT_GATHER_MS, MAX_GATHER_MS } from '../src/node/servers/game/gameserverOptions';
import { MAX_RELAY_BYTES } from '../src/shared/wire/types';
import type { ServerTally } from './gameserverLoss';
import { allVisibleLayout, clientsOf, filteredLayout, mostVisible, withSystems, type FromLoad, type Layout, type LoadResult, type ToLoad } from './gameserverLayout';
import { MAX_LOOPBACK_CLIENTS } from './loopbackHosts';
import { baseline } from './gameserverFloor';
import { procCpuSeconds } from './procCpu';
import { pointName, fmt, runLines, SEND_HZ, summaryLines, SWEEP, systemsLines, type Result } from './gameserverSweep';

const repoRoot = join(import.meta.dirname, '..');
/** Players a gameserver seats by default; past this the bench asks for N seats. */
const DEFAULT_MAX_PLAYERS = 64;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether `taskset` can pin processes here. */
const TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
/** `command args` pinned to `core` (as is without taskset; pid stays the command's, taskset execs it). */
const pinned = (core: number, command: string, args: string[]): [string, string[]] => (TASKSET ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]);

interface Server {
  child: ChildProcess;
  tcp: number;
  http: number;
}

/** Starts the gameserver process (pinned to core 0) and waits for its announce line; a refusal to start is returned as its error line. */
async function startServer(args: string[]): Promise<Server | string> {
  const [cmd, argv] = pinned(0, process.execPath, [...SERVER_NODE_FLAGS, join(repoRoot, 'out', 'main', 'server.js'), 'gameserver', '--host', '127.0.0.1', '--port', '0', '--udp-port', '0', '--http-port', '0', '--log-level', 'warn', ...args]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on tcp (\d+), udp \d+, http (\d+)/.exec(out);
      if (!m) return;
      clearInterval(timer);
      resolve({ child, tcp: Number(m[1]), http: Number(m[2]) });
    }, 20);
    setTimeout(() => (clearInterval(timer), reject(new Error(`gameserver did not start:\n${out}`))), 10_000);
    child.once('exit', (code) => {
      clearInterval(timer);
      const refused = /^error: (option .*)$/m.exec(out)?.[1];
      if (refused !== undefined) resolve(refused);
      else reject(new Error(`gameserver exited (${code}):\n${out}`));
    });
  });
}

/** Busy CPU seconds of the whole machine, all cores (/proc/stat: user, nice, system, irq, softirq, steal); NaN without /proc. */
function machineBusySeconds(): number {
  try {
    const f = (/^cpu +(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '').split(' ').map(Number);
    return [0, 1, 2, 5, 6, 7].reduce((sum, i) => sum + (f[i] ?? NaN), 0) / 100;
  } catch {
    return NaN;
  }
}

/** This bench process's own CPU seconds. */
const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

type Status = ServerTally & { memory: { rss: number; heapUsed: number }; cpu: { userMs: number; systemMs: number }; load: { tickLateMs: { p50: number; p99: number }; receiveWaitMs: { p50: number; p99: number; max: number }; statesShed: number } };
const serverStatus = async (server: Server) => (await (await fetch(`http://127.0.0.1:${server.http}/status.json`)).json()) as Status;

/** The server's CPU seconds: /proc, or its status JSON. */
async function serverCpuSeconds(server: Server): Promise<number> {
  const proc = procCpuSeconds(server.child.pid);
  if (!Number.isNaN(proc)) return proc;
  const s = await serverStatus(server);
  return (s.cpu.userMs + s.cpu.systemMs) / 1000;
}

/** The load process (pinned to core 1) and a way to ask it something and wait for its answer. */
function startLoad() {
  const [cmd, argv] = pinned(1, process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'gameserverLoad.ts')]);
  // Structured clone over the channel: NaN (no sample) stays NaN, where JSON would make it null.
  const child = spawn(cmd, argv, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const ask = <T extends FromLoad['type']>(m: ToLoad, ...want: T[]) =>
    new Promise<Extract<FromLoad, { type: T }>>((resolve, reject) => {
      const onMessage = (a: FromLoad) => {
        if (a.type === 'error') reject(new Error(`load process: ${a.message}`));
        else if (!(want as string[]).includes(a.type)) return;
        else resolve(a as Extract<FromLoad, { type: T }>);
        child.off('message', onMessage);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error(`the load process exited (${child.exitCode ?? child.signalCode}) before answering ${m.type}`)));
      child.send(m);
    });
  return { child, exited, ask };
}

/**
 * Every server's status JSON as one: counters summed, memory summed, the
 * latest tick's lateness and receive queue's wait the worst of them, and each player's slot keyed
 * server × 256 + slot, as the load keys its clients (slots repeat across
 * servers).
 */
function mergedStatus(all: Status[]): Status {
  const add = (records: Record<string, number>[]) => {
    const out: Record<string, number> = {};
    for (const r of records) for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const [first] = all as [Status];
  if (all.length === 1) return first;
  return {
    maxPlayers: all.reduce((k, s) => k + s.maxPlayers, 0),
    packetsIn: all.reduce((k, s) => k + s.packetsIn, 0),
    drops: add(all.map((s) => s.drops)),
    eventDrops: add(all.map((s) => s.eventDrops)),
    strikes: add(all.map((s) => s.strikes)),
    kicked: all.reduce((k, s) => k + s.kicked, 0),
    players: all.flatMap((s, k) => s.players.map((p) => ({ ...p, slot: k * 256 + p.slot }))),
    memory: { rss: all.reduce((k, s) => k + s.memory.rss, 0), heapUsed: all.reduce((k, s) => k + s.memory.heapUsed, 0) },
    cpu: { userMs: all.reduce((k, s) => k + s.cpu.userMs, 0), systemMs: all.reduce((k, s) => k + s.cpu.systemMs, 0) },
    load: {
      tickLateMs: { p50: Math.max(...all.map((s) => s.load.tickLateMs.p50)), p99: Math.max(...all.map((s) => s.load.tickLateMs.p99)) },
      receiveWaitMs: { p50: Math.max(...all.map((s) => s.load.receiveWaitMs.p50)), p99: Math.max(...all.map((s) => s.load.receiveWaitMs.p99)), max: Math.max(...all.map((s) => s.load.receiveWaitMs.max)) },
      statesShed: all.reduce((k, s) => k + s.load.statesShed, 0),
    },
  };
}

/** Stops a server process and waits for it. */
async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}

/** One run of `layout` for `seconds` (after `warmup`) against fresh server processes (layout.servers of them, on one core); null when a server refused (printed). */
async function run(layout: Layout, o: Options): Promise<Result | null> {
  const n = layout.bots;
  const servers: Server[] = [];
  try {
    for (let k = 0; k < layout.servers; k++) {
      const seats = clientsOf(layout, k);
      const args = ['--flush', o.flush, '--gather-ms', String(o.gatherMs), '--tick-hz', String(o.tickHz), '--filter-radius', String(layout.filterRadius), '--level-of-detail', o.levelOfDetail, ...(seats > DEFAULT_MAX_PLAYERS ? ['--max-players', String(seats)] : []), ...((layout.systems ?? 1) > 1 ? ['--galaxy', galaxyFile(layout.systems ?? 1)] : [])];
      const server = await startServer(args);
      if (typeof server === 'string') {
        console.log(`gameserver bench, ${pointName(layout)}: the gameserver refused to start (with ${args.join(' ')}): "${server}"; N=${n} not measured`);
        return null;
      }
      servers.push(server);
    }
    return await runOn(servers, layout, o);
  } finally {
    await Promise.all(servers.map(stopServer));
  }
}

/** The run itself, against started `servers`. */
async function runOn(servers: Server[], layout: Layout, o: Options): Promise<Result | null> {
  const n = layout.bots;
  const cpuOf = async () => (await Promise.all(servers.map(serverCpuSeconds))).reduce((a, b) => a + b, 0);
  const load = startLoad();
  try {
    const joined = await load.ask({ type: 'join', tcp: servers.map((s) => s.tcp), http: servers.map((s) => s.http), layout, sendHz: SEND_HZ, seconds: o.seconds, relayAcks: !o.fullStates }, 'joined', 'refused');
    if (joined.type === 'refused') {
      console.log(`gameserver bench, ${pointName(layout)}: ${joined.message}; N=${n} not measured`);
      return null;
    }
    await sleep(o.warmup * 1000);
    await load.ask({ type: 'measure' }, 'measuring');
    const cpu0 = await cpuOf();
    const loadCpu0 = procCpuSeconds(load.child.pid);
    const busy0 = machineBusySeconds() - ownCpuSeconds();
    const t0 = performance.now();
    await sleep(o.seconds * 1000);
    await load.ask({ type: 'stop' }, 'stopped');
    const elapsed = (performance.now() - t0) / 1000;
    const cpu1 = await cpuOf();
    const loadCpu1 = procCpuSeconds(load.child.pid);
    const busy1 = machineBusySeconds() - ownCpuSeconds();
    await sleep(300); // in-flight relays
    // Quiet clients for a moment: every datagram is then read or lost, so the counters compare exactly.
    await load.ask({ type: 'mute' }, 'muted');
    await sleep(200);
    const status = mergedStatus(await Promise.all(servers.map(serverStatus)));
    const { result } = (await load.ask({ type: 'result', status }, 'result')) as { result: LoadResult };
    if (result.bad > 0) throw new Error(`${result.bad} of ${result.checked} sampled relay datagrams did not decode`);
    const r: Result = {
      layout,
      load: result,
      cpuPercent: ((cpu1 - cpu0) / elapsed) * 100,
      loadCpuPercent: ((loadCpu1 - loadCpu0) / elapsed) * 100,
      othersPercent: ((busy1 - busy0 - (cpu1 - cpu0) - (loadCpu1 - loadCpu0)) / elapsed) * 100,
      rss: status.memory.rss,
      heapUsed: status.memory.heapUsed,
      tickLateMs: status.load.tickLateMs,
      receiveWaitMs: status.load.receiveWaitMs,
      statesShed: status.load.statesShed,
      statesPartial: status.players.reduce((k, p) => k + (p.statesPartial ?? 0), 0),
      statesSent: status.players.reduce((k, p) => k + p.statesSent, 0),
    };
    console.log(`gameserver bench, ${pointName(layout)}: ${n} clients × ${SEND_HZ} Hz for ${fmt(result.elapsed)} s after ${o.warmup} s of warm-up; clients join from ${joined.first}..${joined.last}`);
    for (const line of runLines(r, o.warmup)) console.log(line);
    return r;
  } finally {
    if (load.child.connected) load.child.send({ type: 'close' } satisfies ToLoad);
    await Promise.race([load.exited, sleep(3000)]);
    if (load.child.exitCode === null && load.child.signalCode === null) load.child.kill('SIGKILL');
  }
}

/** A galaxy file of `k` solar systems, every one an entry, no asteroids (nothing for the grid to hit), written once per k. */
const galaxies = new Map<number, string>();
let galaxyDir: string | null = null;
function galaxyFile(k: number): string {
  const known = galaxies.get(k);
  if (known) return known;
  galaxyDir ??= mkdtempSync(join(tmpdir(), 'starlane-bench-galaxy-'));
  const file = join(galaxyDir, `systems-${k}.galaxy`);
  const systems = Array.from({ length: k }, (_, i) => `system S${i + 1}\n  asteroids 0\n  entry\n`).join('');
  writeFileSync(file, `starlane galaxy 1\ngalaxy Bench\n${systems}`);
  galaxies.set(k, file);
  return file;
}

const intFrom = (min: number, max: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
  return n;
};
const program = new Command('bench:gameserver')
  .option('--bots <n>', 'headless clients, 8 per loopback address (passes --max-players N past 64; past 255, the most a gameserver seats, they are spread over several gameserver processes on the same core, each its own space)', intFrom(2, MAX_LOOPBACK_CLIENTS), 8)
  .option('--filtered', 'place the --bots clients 100 units apart under a filter radius of 210 (each sees at most 12) instead of all within sight')
  .option('--seconds <s>', 'length of each measured run (default 10; 5 per N with --sweep)', (v) => Math.max(1, Number(v)))
  .option('--warmup <s>', 'traffic before measuring starts', (v) => Math.max(0, Number(v)), 2)
  .option('--sweep', 'run N = 16, 64, 128, 255 all visible and N = 255 and 1,000 filtered, and print a summary line per N and issue 27 targets')
  .option('--full-states', "bots acknowledge no Relays, so the server relays every state full (as before wire v14); by default they acknowledge like real clients and get the others' states partial")
  .option('--baseline', "also measure a bare relay process for each N, gathering and packing as the server does (this machine's floor: its CPU and latency)")
  .option('--systems <k>', "issue 29: measure each point twice, its clients in one solar system and spread over k (each seeing only its system's), and print the server's CPU per player for both", intFrom(1, 16), 1)
  .addOption(new Option('--flush <when>', 'server relay mode').choices(['arrival', 'tick']).default('arrival'))
  .option('--gather-ms <ms>', "how long the server's flush on arrival gathers (its --gather-ms; 0: after each burst read)", intFrom(0, MAX_GATHER_MS), DEFAULT_GATHER_MS)
  .option('--tick-hz <n>', 'server ticks per second (its --tick-hz)', intFrom(1, 1000), 20)
  .addOption(
    new Option('--level-of-detail <on|off>', "the server's --level-of-detail: off (default) sends every state of every client in sight, the load the targets name; on sends far ones at 10 and 5 Hz (every client then sees some at their tier's rate)")
      .choices(['on', 'off'])
      .default('off'),
  )
  .parse();
const opts = program.opts<{ systems: number; bots: number; filtered?: boolean; seconds?: number; warmup: number; sweep?: boolean; baseline?: boolean; fullStates?: boolean; flush: string; gatherMs: number; tickHz: number; levelOfDetail: string }>();
const o = { ...opts, seconds: opts.seconds ?? (opts.sweep ? 5 : 10) };
type Options = typeof o;

if (TASKSET) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)]);
const pinning = TASKSET ? 'server pinned to core 0, load process and this bench to core 1 (taskset)' : 'taskset not found: server and load process NOT pinned (they share the cores)';
const started = performance.now();
const flushMode = o.flush === 'arrival' ? `arrival (gathering ${o.gatherMs} ms)` : o.flush;
console.log(`gameserver bench: flush ${flushMode}, server tick ${o.tickHz} Hz, level of detail ${o.levelOfDetail}, clients send at ${SEND_HZ} Hz; ${pinning}`);
const points = o.sweep ? SWEEP : [o.filtered ? filteredLayout(o.bots) : allVisibleLayout(o.bots)];
const results: Result[] = [];
const systemPairs: { one: Result; many: Result }[] = [];
for (const layout of points) {
  if (layout.kind === 'filtered') console.log(`(N=${layout.bots} filtered: each client sees at most ${mostVisible(layout)} others)`);
  const r = await run(layout, o);
  if (!r) {
    // A sweep reports a refused N in its summary (N = 1,000 always is); a single run that was refused fails.
    if (!o.sweep) process.exitCode = 1;
    continue;
  }
  if (o.systems > 1) {
    const spread = withSystems(layout, o.systems);
    console.log(`(the same N over ${o.systems} solar systems: each client sees at most ${mostVisible(spread)} others)`);
    const many = await run(spread, o);
    if (many) systemPairs.push({ one: r, many });
    else process.exitCode = 1;
  }
  if (o.baseline) {
    r.floor = await baseline(layout.bots, o.seconds, o.warmup, o.flush === 'arrival' ? o.gatherMs : 1000 / o.tickHz, (command, args) => pinned(0, command, args));
    console.log(`  bare relay, same load (gathering as the server, packing into ${MAX_RELAY_BYTES}-byte datagrams; no decoding or rules): CPU ${fmt(r.floor.cpuPercent)} % of one core, latency p50 ${fmt(r.floor.p50, 2)} ms, p99 ${fmt(r.floor.p99, 2)} ms, max ${fmt(r.floor.max, 2)} ms`);
  }
  results.push(r);
}
const totalSeconds = (performance.now() - started) / 1000;
if (o.sweep) for (const line of summaryLines(points, results, { ...o, flush: flushMode, pinning, totalSeconds, states: o.fullStates ? 'full (the bots acknowledge no Relays: --full-states)' : 'partial where the bots acknowledged a base (wire v14)' })) console.log(line);
else console.log(`total time ${fmt(totalSeconds)} s`);
if (o.systems > 1) for (const line of systemsLines(systemPairs, o.systems)) console.log(line);
if (galaxyDir) rmSync(galaxyDir, { recursive: true, force: true });
