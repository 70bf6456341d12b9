/**
 * Hostile traffic against Starlane servers (`npm run bench:hostile -- [options]`):
 * random and mutated datagrams at every UDP port, malformed, oversized and
 * binary lines and requests at every TCP and HTTP port, half-open
 * connections, and cheating clients that the gameserver should drop
 * (test/support/hostile.ts does the work); then, when it started the servers
 * itself, cheaters with the rules of a match on a gameserver of their own
 * (--rule-cheaters, below).
 *
 * Aim it at running servers with --udp/--tcp/--http/--gameserver, or give no
 * targets and it starts a masterserver, a slotserver and a gameserver
 * (out/main/server.js, free ports) itself and prints what they made of it:
 * drop counters, strikes, players dropped and memory before and after.
 * Then (--tcp-flood; by default 1,100 against the servers it started) it opens that many idle connections from one
 * address to every TCP port and checks that another address is still answered.
 * With --json every progress line and the final report are JSON lines on
 * stdout (the hostile-traffic test runs it that way, as a separate process).
 *
 * With --bots N (and no targets) it runs the whole hostile-traffic scenario of
 * the integration test — N honest bots playing through the gameserver while the
 * attack runs — and prints the honest update rate and the servers' memory
 * against their targets (test/support/hostileScenario.ts).
 *
 * Sections, each against servers of its own (give no targets; any of them
 * replaces the default attack), each figure printed against its target:
 * --forger: ~2,000 forged datagrams a second (--forger-rate, for --forger-seconds)
 *   from a joined player's own address and port; the player keeps ≥80% of its
 *   state rate both ways (test/support/hostileForger.ts);
 * --many-sources: --flood-datagrams (200,000) from --flood-sockets (5,000) source
 *   ports as fast as they go, honest players keep ≥80%, with the attacker's rate
 *   and the kernel's drop share (test/support/hostileManySources.ts);
 * --unread: --unread-lines (500,000) players lines to a masterserver, never
 *   reading a reply; the connection is closed and RSS grows < 20 MB
 *   (test/support/hostileUnread.ts);
 * --rule-cheaters: cheaters with the rules of a match — missiles without
 *   ammunition, mines at 10× the rate, a kill credited to a friend who never
 *   fired, hits ignored, extras picked up from afar — on a gameserver where
 *   honest players play (one fires lasers, one its start ammunition of
 *   missiles and mines at the cooldowns, then flies to one of the server's
 *   own extras and picks it up there; the cheater claims others from afar):
 *   per cheat, its events the honest player got (target: what the rules
 *   allow), its strikes by reason and whether it was dropped (the mine layer
 *   must be); per honest player, its strikes (target 0) and what of its
 *   bolts, states, missiles, mines and pickups got through
 *   (test/support/hostileRules.ts, which test/soak/hostileWeapons.test.ts
 *   runs too). Unlike the other sections it is also part of the default run:
 *   with no targets, no --bots and no section chosen, it follows the default
 *   attack and the connection flood (its own gameserver, once the three are
 *   stopped); --no-rule-cheaters leaves it out. With --json its figures are
 *   JSON lines ({"t":"rule-player"} per player, then {"t":"rule-cheaters"}).
 *   A missed target makes the bench exit with status 1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { runHostile, type Endpoint, type HostileReport, type HostileTargets } from '../test/support/hostile';
import { describeScenario, runHostileScenario } from '../test/support/hostileScenario';
import { runTcpFlood } from '../test/support/hostileTcp';
import { describeForger, runForger } from '../test/support/hostileForger';
import { describeManySources, runManySources } from '../test/support/hostileManySources';
import { describeUnread, runUnread } from '../test/support/hostileUnread';
import { PICKUPS_AND_ARMS_SERVER_ARGS, runRuleCheaters } from '../test/support/hostileRules';
import { describeRuleCheaters, ruleFigures, ruleTargetsMet } from '../test/support/hostileRuleFigures';
import { startServer as startTracked, stopServers } from '../test/support/serverProcess';
import { cleanUpFile } from '../test/support/testRun';
import { SERVER_NODE_FLAGS } from '../test/support/serverProcess';

const repoRoot = join(import.meta.dirname, '..');

const endpoint = (value: string, previous: Endpoint[] = []): Endpoint[] => {
  const m = /^([\d.]+):(\d{1,5})$/.exec(value);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw new InvalidArgumentError('must be an IPv4 address and port, e.g. 127.0.0.1:6522');
  return [...previous, { host: m[1] as string, port: Number(m[2]) }];
};
const count = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < lo || n > hi) throw new InvalidArgumentError(`must be an integer from ${lo} to ${hi}`);
  return n;
};
/** `127.0.0.2-127.0.0.40` or a comma list. */
const sourceList = (value: string): string[] => {
  const range = /^127\.0\.0\.(\d+)-127\.0\.0\.(\d+)$/.exec(value);
  if (range) {
    const [a, b] = [Number(range[1]), Number(range[2])];
    if (a < 1 || b > 254 || a > b) throw new InvalidArgumentError('range must be within 127.0.0.1-127.0.0.254');
    return Array.from({ length: b - a + 1 }, (_, i) => `127.0.0.${a + i}`);
  }
  const list = value.split(',');
  if (!list.every((s) => /^\d+\.\d+\.\d+\.\d+$/.test(s))) throw new InvalidArgumentError('must be IPv4 addresses separated by commas, or a range 127.0.0.a-127.0.0.b');
  return list;
};

const program = new Command('bench-hostile')
  .description('Fire hostile traffic at Starlane servers (starts its own three servers when no targets are given)')
  .option('--udp <host:port>', 'a UDP port to flood (repeat)', endpoint)
  .option('--tcp <host:port>', 'a text-line TCP port to send bad lines to (repeat)', endpoint)
  .option('--http <host:port>', 'an HTTP status port to send bad requests to (repeat)', endpoint)
  .option('--gameserver <host:port>', 'the gameserver TCP join port, for cheating clients', (v) => endpoint(v)[0])
  .option('--datagrams <n>', 'datagrams to send in all', count(1, 100_000_000), 1_000_000)
  .option('--rate <n>', 'datagrams per second to aim for (0 = as fast as the sockets go)', count(0, 10_000_000), 0)
  .option('--lines <n>', 'bad TCP lines and HTTP requests to send in all', count(0, 10_000_000), 10_000)
  .option('--sources <list>', 'source addresses (127.0.0.a-127.0.0.b or a comma list); the last ones are the cheaters', sourceList, sourceList('127.0.0.2-127.0.0.41'))
  .option('--cheaters <n>', 'cheating gameserver clients', count(0, 16), 1)
  .option('--seed <n>', 'random seed', count(0, 0xffffffff), 1)
  .option('--tcp-flood <n>', 'after the attack: idle connections from 127.0.0.250 to every TCP port, then one honest request from 127.0.0.251 (default 1100 against its own servers, 0 = skip against given targets)', count(0, 10_000))
  .option('--json', 'print progress and the report as JSON lines', false)
  .option('--bots <n>', 'run the hostile-traffic scenario: n honest bots play through the gameserver during the attack; prints their update rate and the memory against the targets', count(2, 16))
  .option('--forger', 'section: a forger on a joined player\'s own address and port (target: the player keeps ≥80% of its state rate)', false)
  .option('--forger-rate <n>', 'forged datagrams per second', count(1, 1_000_000), 2000)
  .option('--forger-seconds <n>', 'how long the forger fires', count(1, 600), 5)
  .option('--many-sources', 'section: a UDP flood from thousands of source ports (target: honest players keep ≥80%)', false)
  .option('--flood-sockets <n>', 'source sockets of the many-source flood', count(1, 60_000), 5000)
  .option('--flood-datagrams <n>', 'datagrams of the many-source flood', count(1, 100_000_000), 200_000)
  .option('--unread', 'section: players lines to a masterserver, replies never read (target: closed, RSS +<20 MB)', false)
  .option('--unread-lines <n>', 'players lines the unread-reply attack sends', count(1, 100_000_000), 500_000)
  .option('--rule-cheaters', 'section: cheaters with the rules of a match (missiles, mines, kill claims, ignored hits, far pickups) beside honest players (targets: each stopped and struck, honest players keep everything and get no strike); also run after the default attack', undefined)
  .option('--no-rule-cheaters', 'leave the rule cheaters out of the default run')
  .showHelpAfterError();

interface Opts {
  udp?: Endpoint[];
  tcp?: Endpoint[];
  http?: Endpoint[];
  gameserver?: Endpoint;
  datagrams: number;
  rate: number;
  lines: number;
  sources: string[];
  cheaters: number;
  seed: number;
  tcpFlood?: number;
  json: boolean;
  bots?: number;
  forger: boolean;
  forgerRate: number;
  forgerSeconds: number;
  manySources: boolean;
  floodSockets: number;
  floodDatagrams: number;
  unread: boolean;
  unreadLines: number;
  /** true: the section alone (with any others chosen); false: not in the default run; undefined: in the default run. */
  ruleCheaters?: boolean;
}

const GAME_ARGS = ['gameserver', '--name', 'hostile-game', '--port', '0', '--udp-port', '0', '--http-port', '0'];

/** The rule cheaters against a gameserver of their own: prints the figures (JSON lines with --json); a missed target sets exit status 1. */
async function runRuleSection(json: boolean): Promise<void> {
  const w = (s: string) => process.stdout.write(`${s}\n`);
  try {
    const r = await runRuleCheaters(await startTracked([...GAME_ARGS, ...PICKUPS_AND_ARMS_SERVER_ARGS]), { pickupsAndArms: true });
    const met = ruleTargetsMet(r);
    if (json) {
      for (const p of ruleFigures(r)) w(JSON.stringify({ t: 'rule-player', ...p }));
      w(JSON.stringify({ t: 'rule-cheaters', strikes: r.final.strikes, kicked: r.final.kicked, statesSent: r.statesSent, timeouts: r.timeouts, met }));
    } else w(describeRuleCheaters(r));
    if (!met) {
      process.stderr.write('bench-hostile: the rule cheaters missed a target\n');
      process.exitCode = 1;
    }
  } finally {
    stopServers();
  }
}

/** The --forger, --many-sources, --unread and --rule-cheaters sections, each against a server of its own. */
async function runSections(o: Opts): Promise<void> {
  const w = (s: string) => process.stdout.write(`${s}\n`);
  const game = GAME_ARGS;
  try {
    if (o.forger) w(describeForger(await runForger(await startTracked(game), { rate: o.forgerRate, seconds: o.forgerSeconds })));
    stopServers();
    if (o.manySources) w(describeManySources(await runManySources(await startTracked(game), { sockets: o.floodSockets, datagrams: o.floodDatagrams })));
    stopServers();
    if (o.unread) w(describeUnread(await runUnread(await startTracked(['masterserver', '--name', 'hostile-master', '--port', '0', '--http-port', '0']), o.unreadLines)));
    stopServers();
    if (o.ruleCheaters === true) await runRuleSection(o.json);
  } finally {
    stopServers();
    await cleanUpFile();
  }
}

interface Spawned {
  kind: string;
  child: ChildProcess;
  ports: { tcp: number; udp?: number; http: number };
}

/** Starts one server process and waits for its "listening on" line. */
async function startServer(args: string[]): Promise<Spawned> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(repoRoot, 'out', 'main', 'server.js'), ...args, '--host', '127.0.0.1', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.length > 1_000_000) out = out.slice(-100_000);
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on tcp (\d+)(?:, udp (\d+))?, http (\d+)/.exec(out);
      if (!m) return;
      clearInterval(timer);
      resolve({ kind: args[0] as string, child, ports: { tcp: Number(m[1]), udp: m[2] ? Number(m[2]) : undefined, http: Number(m[3]) } });
    }, 20);
    setTimeout(() => (clearInterval(timer), reject(new Error(`${args[0]} did not start (run "npx electron-vite build" first?):\n${out}`))), 10_000);
    child.once('exit', (code) => (clearInterval(timer), reject(new Error(`${args[0]} exited (${code}):\n${out}`))));
  });
}

const status = async (s: Spawned): Promise<Record<string, unknown>> => {
  const r = await fetch(`http://127.0.0.1:${s.ports.http}/status.json`, { signal: AbortSignal.timeout(2000) });
  return (await r.json()) as Record<string, unknown>;
};
const mb = (bytes: unknown) => `${(Number(bytes) / 1048576).toFixed(1)} MB`;

function printReport(r: HostileReport): void {
  const w = (s: string) => process.stdout.write(`${s}\n`);
  w(`sent ${r.datagrams.toLocaleString('en-US')} datagrams in ${r.seconds.toFixed(1)} s (${Math.round(r.datagrams / r.seconds).toLocaleString('en-US')}/s), ${r.sendErrors} send errors; the attacker used ${r.cpuSeconds.toFixed(1)} s of CPU`);
  w(`  by kind: ${Object.entries(r.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  w(`  by port: ${Object.entries(r.byPort).map(([k, n]) => `${k}: ${n}`).join(', ')}`);
  w(`bad TCP lines/requests: ${r.tcpLines.toLocaleString('en-US')} over ${r.tcpConnections} connections (${r.tcpClosedEarly} refused or cut early)`);
  w(`half-open connections: ${r.halfOpen.opened} opened, ${r.halfOpen.closedByServer} closed by the servers during the run`);
  w(`cheaters: ${r.cheaters.joins} joins, ${r.cheaters.kicked} dropped by the server; ${r.cheaters.captured} real datagrams captured as seeds`);
  for (const why of r.cheaters.reasons.slice(0, 3)) w(`  ${why}`);
}

async function main(): Promise<void> {
  program.parse();
  const o = program.opts<Opts>();
  if (o.forger || o.manySources || o.unread || o.ruleCheaters === true) {
    if (o.udp || o.tcp || o.http || o.gameserver || o.bots !== undefined) throw new Error('--forger, --many-sources, --unread and --rule-cheaters start their own servers: give no targets and no --bots with them');
    return runSections(o);
  }
  if (o.bots !== undefined) {
    if (o.udp || o.tcp || o.http || o.gameserver) throw new Error('--bots starts its own servers: give no targets with it');
    try {
      const r = await runHostileScenario({ bots: o.bots, datagrams: o.datagrams, lines: o.lines, rate: o.rate || 25_000 });
      process.stdout.write(`${describeScenario(r)}\n`);
    } finally {
      await cleanUpFile();
    }
    return;
  }
  const spawned: Spawned[] = [];
  let targets: HostileTargets;
  if (!o.udp && !o.tcp && !o.http && !o.gameserver) {
    const master = await startServer(['masterserver', '--name', 'hostile-master', '--port', '0', '--http-port', '0']);
    spawned.push(master);
    const common = ['--port', '0', '--udp-port', '0', '--http-port', '0', '--master', `127.0.0.1:${master.ports.tcp}`];
    spawned.push(await startServer(['slotserver', '--name', 'hostile-slots', ...common]));
    spawned.push(await startServer(['gameserver', '--name', 'hostile-game', ...common]));
    const at = (port: number) => ({ host: '127.0.0.1', port });
    const game = spawned[2] as Spawned;
    targets = {
      udp: spawned.flatMap((s) => (s.ports.udp ? [at(s.ports.udp)] : [])),
      tcp: spawned.map((s) => at(s.ports.tcp)),
      http: spawned.map((s) => at(s.ports.http)),
      gameserver: at(game.ports.tcp),
    };
  } else {
    targets = { udp: o.udp ?? [], tcp: o.tcp ?? [], http: o.http ?? [], gameserver: o.gameserver };
  }
  const before = await Promise.all(spawned.map(status));
  const report = await runHostile(targets, {
    datagrams: o.datagrams,
    rate: o.rate,
    sources: o.sources,
    tcpLines: o.lines,
    cheaters: o.cheaters,
    seed: o.seed,
    progress: (r) => {
      if (o.json) process.stdout.write(`${JSON.stringify({ t: 'progress', ...r })}\n`);
    },
  });
  if (o.json) process.stdout.write(`${JSON.stringify({ t: 'done', ...report })}\n`);
  else printReport(report);
  const tcpFlood = o.tcpFlood ?? (spawned.length > 0 ? 1100 : 0);
  if (tcpFlood > 0) {
    for (const f of await runTcpFlood(targets.tcp, tcpFlood)) {
      if (o.json) process.stdout.write(`${JSON.stringify({ t: 'tcp-flood', ...f })}\n`);
      else process.stdout.write(`tcp flood on port ${f.port}: ${f.attempted} idle connections from 127.0.0.250, ${f.held} held, ${f.closed} closed at once; 127.0.0.251 ${f.honestMs >= 0 ? `answered in ${f.honestMs} ms` : 'NOT answered'}\n`);
    }
  }
  if (spawned.length > 0) {
    // Let the servers catch up, then show what they counted.
    await new Promise((r) => setTimeout(r, 2000));
    const after = await Promise.all(spawned.map(status));
    spawned.forEach((s, i) => {
      const a = after[i] as Record<string, unknown>;
      const b = before[i] as Record<string, unknown>;
      const mem = (x: Record<string, unknown>) => x.memory as { rss: number; heapUsed: number };
      const extra = s.kind === 'gameserver' ? ` drops ${JSON.stringify(a.drops)} strikes ${JSON.stringify(a.strikes)} dropped players ${String(a.kicked)} tcp ${JSON.stringify(a.tcp)}` : s.kind === 'masterserver' ? ` closed ${JSON.stringify(a.closed)}` : '';
      process.stdout.write(`${s.kind}: alive=${s.child.exitCode === null} rss ${mb(mem(b).rss)} → ${mb(mem(a).rss)}, heap ${mb(mem(b).heapUsed)} → ${mb(mem(a).heapUsed)}${extra}\n`);
    });
    for (const s of spawned) s.child.kill('SIGTERM');
    // The rule cheaters, on a gameserver of their own (the attack's strikes and blocks would muddle their figures).
    if (o.ruleCheaters !== false) {
      const gone = (s: Spawned) => new Promise((r) => (s.child.exitCode !== null || s.child.signalCode !== null ? r(null) : s.child.once('exit', r)));
      await Promise.race([Promise.all(spawned.map(gone)), new Promise((r) => setTimeout(r, 5000))]);
      try {
        await runRuleSection(o.json);
      } finally {
        await cleanUpFile();
      }
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-hostile: ${(err as Error).message}\n`);
  process.exit(1);
});
