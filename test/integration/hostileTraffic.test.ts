/**
 * The hostile-traffic test: a masterserver, a slotserver and a gameserver run
 * as real processes, eight headless bots play through the gameserver, and a
 * separate attacker process (bench/hostile.ts) fires a million random and
 * mutated datagrams at every UDP port, ten thousand malformed, oversized and
 * binary lines and requests at every TCP and HTTP port, leaves half-open
 * connections, and sends a cheating client that keeps joining. The servers
 * must stay up and answering, the honest bots must keep their update rate,
 * memory must stay put, and the offenders must be dropped and logged.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import dgram from 'node:dgram';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { botEntry } from '../support/paths';
import { spawnTracked } from '../support/testRun';
import { startGameserver, type Gameserver } from '../../src/node/servers/gameserver';
import { startMasterserver } from '../../src/node/servers/masterserver';
import type { RunningServer } from '../../src/node/servers/types';
import { encodePacket } from '../../src/shared/wire/codec';
import { objectId, PacketType } from '../../src/shared/wire/types';
import { BotWatch } from '../support/botProcess';
import { GameClient, LineClient, shipAt } from '../support/gameClient';
import type { HostileReport } from '../support/hostile';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { repoRoot } from '../support/webShellProcess';

const BOTS = 8;
const DATAGRAMS = 1_000_000;
const LINES = 10_000;
/** The attack's pace: a million datagrams in about 40 s, some 25 times what 16 players at 60 Hz would send. */
const RATE = 25_000;

const bots: BotWatch[] = [];
const children: ChildProcess[] = [];
const inProcess: RunningServer[] = [];
const clients: { close(): void }[] = [];
afterEach(async () => {
  for (const b of bots.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  stopServers();
  for (const c of clients.splice(0)) c.close();
  await Promise.all(inProcess.splice(0).map((s) => s.close('test over')));
});

/** A pino logger whose JSON lines land in `lines`, so a test can read what a server logged. */
function capturedLog(lines: Record<string, unknown>[]) {
  return pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function bot(name: string, server: string, seed: number): BotWatch {
  const child = spawnTracked(
    process.execPath,
    [botEntry, '--json', '--name', name, '--protocol', 'gameserver', '--server', server, '--port', String(30000 + Math.floor(Math.random() * 20000)), '--broadcast', '127.255.255.255', '--lan-interfaces', 'none', '--pilot', 'circle', '--seed', String(seed)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const watch = new BotWatch(name, child);
  bots.push(watch);
  return watch;
}

/** A server's status JSON; fails if it takes more than a second (a hung server). */
async function status(s: ServerProcess, path = '/status.json'): Promise<Record<string, unknown>> {
  const r = await fetch(`http://127.0.0.1:${s.http}${path}`, { signal: AbortSignal.timeout(1000) });
  return (await r.json()) as Record<string, unknown>;
}

/**
 * A server's memory. `live` is its heap right after a full collection (the
 * servers run with --expose-gc here, which makes the status page collect
 * first): what the process really keeps. Smallest of three samples.
 */
async function memory(s: ServerProcess): Promise<{ live: number; heapUsed: number; rss: number; liveRss: number }> {
  let best = { live: Infinity, heapUsed: Infinity, rss: Infinity, liveRss: Infinity };
  for (let i = 0; i < 3; i++) {
    const m = (await status(s)).memory as { live?: number; heapUsed: number; rss: number; liveRss?: number };
    if (m.live === undefined || m.liveRss === undefined) throw new Error('status JSON has no memory.live: the server runs without --expose-gc');
    best = { live: Math.min(best.live, m.live), heapUsed: Math.min(best.heapUsed, m.heapUsed), rss: Math.min(best.rss, m.rss), liveRss: Math.min(best.liveRss, m.liveRss) };
    await sleep(200);
  }
  return best;
}

/** Datagrams the kernel dropped on the UDP socket bound to 127.0.0.1:`port` (its receive queue was full), from /proc/net/udp. */
function kernelDrops(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1] === local) return Number(f[f.length - 1]);
  }
  return 0;
}

/** Runs bench/hostile.ts with `args` as a child process; `done` resolves with its final report. */
function launch(args: string[]): { child: ChildProcess; progress(): HostileReport | undefined; done: Promise<HostileReport> } {
  const child = spawnTracked(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'hostile.ts'), '--json', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
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

/** Per bot: the states it has received from the other honest bots, and how many 1-second stats lines it has printed. */
function tally(b: BotWatch, honest: Set<number>): { states: number; seconds: number; sent: number } {
  const stats = b.records.filter((r) => r.t === 'stats');
  const last = stats.at(-1) as { received?: Record<string, number>; sent?: number } | undefined;
  const own = b.players()?.localSlot;
  let states = 0;
  for (const [slot, n] of Object.entries(last?.received ?? {})) if (honest.has(Number(slot)) && Number(slot) !== own) states += n;
  return { states, seconds: stats.length, sent: last?.sent ?? 0 };
}

/** Honest states received per second over all bots between two tallies (each bot's own 1-second stats lines are the clock). */
function rate(before: ReturnType<typeof tally>[], after: ReturnType<typeof tally>[]): number {
  return before.reduce((sum, b, i) => {
    const a = after[i] as ReturnType<typeof tally>;
    return sum + (a.states - b.states) / Math.max(1, a.seconds - b.seconds);
  }, 0);
}

describe('hostile traffic', () => {
  it(
    'a million bad datagrams and ten thousand bad TCP lines while 8 bots play: no crash or hang, bots keep ≥ 95 % of their updates, memory stays put, offenders dropped and logged',
    { timeout: 150_000 },
    async () => {
      if (!existsSync(botEntry)) throw new Error(`${botEntry} is missing: run "npm run build" first (npm test does)`);
      // --expose-gc lets the status page report the live heap (see memory()); the variable is put back at once.
      const nodeOptions = process.env.NODE_OPTIONS;
      process.env.NODE_OPTIONS = `${nodeOptions ?? ''} --expose-gc`.trim();
      // Short timeouts so the half-open connections are seen to be cut within the test.
      const master = await startServer(['masterserver', '--name', 'hostile-master', '--port', '0', '--http-port', '0', '--expire-seconds', '8']);
      const common = ['--port', '0', '--udp-port', '0', '--http-port', '0', '--master', `127.0.0.1:${master.tcp}`, '--heartbeat-seconds', '2', '--join-timeout-seconds', '3'];
      const slots = await startServer(['slotserver', '--name', 'hostile-slots', ...common]);
      const game = await startServer(['gameserver', '--name', 'hostile-game', ...common]);
      if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = nodeOptions;
      const servers = [master, slots, game];
      expect(slots.udp, 'the slotserver has a UDP port').toBeDefined();

      const b = Array.from({ length: BOTS }, (_, i) => bot(`honest${i}`, `127.0.0.1:${game.tcp}`, i + 1));
      for (const x of b) await x.until(`${BOTS} players`, () => (x.players()?.players.length === BOTS ? true : undefined), 20_000);
      const honest = new Set(b.map((x) => x.players()?.localSlot as number));
      // Warm-up: every bot hears every other one, and the servers' heaps settle.
      for (const x of b) await x.until('states from all others', () => Object.keys(x.received()).length >= BOTS - 1, 10_000);
      await sleep(3000);

      // Half-open connections of our own to every TCP and HTTP port: each must be cut by its server's deadline.
      const idle = [master.tcp, slots.tcp, game.tcp, master.http, slots.http, game.http].map((port) => {
        const opened = performance.now();
        const s = connect({ port: port as number, host: '127.0.0.1' });
        s.on('error', () => undefined);
        const closedAfter = new Promise<number>((r) => s.once('close', () => r(performance.now() - opened)));
        return { port, s, closedAfter };
      });

      const t0 = b.map((x) => tally(x, honest));
      await sleep(8000);
      const t1 = b.map((x) => tally(x, honest));
      const rateBefore = rate(t0, t1);

      // The attacker is its own process, sending from 127.0.0.2..41 (the bots are on 127.0.0.1).
      const targets = [
        ...[game.udp, slots.udp].flatMap((p) => ['--udp', `127.0.0.1:${p}`]),
        ...[master.tcp, slots.tcp, game.tcp].flatMap((p) => ['--tcp', `127.0.0.1:${p}`]),
        ...[master.http, slots.http, game.http].flatMap((p) => ['--http', `127.0.0.1:${p}`]),
        ...['--gameserver', `127.0.0.1:${game.tcp}`],
      ];
      const datagramsFor = (datagrams: number, lines: number) => ['--datagrams', String(datagrams), '--rate', String(RATE), '--lines', String(lines), '--sources', '127.0.0.2-127.0.0.41', ...targets];
      // A short attack first: it runs the servers' error paths once (their code gets compiled and cached, HTTP
      // parsers pooled), so the memory measured next is the start of a warm process, not of a cold one.
      const memCold = await Promise.all(servers.map(memory));
      await launch(datagramsFor(50_000, 500)).done;
      await sleep(2000);
      const memBefore = await Promise.all(servers.map(memory));
      const gameBefore = await status(game);
      const dropsBefore = kernelDrops(game.udp as number);
      const tBase = b.map((x) => tally(x, honest));

      const attack = launch(datagramsFor(DATAGRAMS, LINES));
      // Measure the honest rate in the thick of it: from 5 s in until shortly before the flood ends.
      await sleep(5000);
      const d0 = b.map((x) => tally(x, honest));
      const attackStart = performance.now();
      while ((attack.progress()?.datagrams ?? 0) < DATAGRAMS * 0.9 && attack.child.exitCode === null) await sleep(250);
      const d1 = b.map((x) => tally(x, honest));
      const rateDuring = rate(d0, d1);
      const measuredSeconds = (performance.now() - attackStart) / 1000;
      const r = await attack.done;

      // Every server is alive and answers within a second.
      for (const s of servers) expect(s.child.exitCode, `${s.child.spawnfile} exited:\n${s.output().slice(-2000)}`).toBeNull();
      const gameAfter = await status(game);
      const tEnd = b.map((x) => tally(x, honest));
      await status(slots);
      await status(master);

      // Settle (rate-limit and strike entries of the attack's sources fade), then memory.
      await sleep(5000);
      const memAfter = await Promise.all(servers.map(memory));

      const idleClosed = await Promise.all(idle.map(async (c) => ({ port: c.port, ms: await Promise.race([c.closedAfter, sleep(1).then(() => -1)]) })));
      for (const c of idle) c.s.destroy();

      // Counters: what reached the gameserver's port was read and counted, or dropped by the kernel.
      const sum = (o: unknown) => Object.values(o as Record<string, number>).reduce((a, v) => a + v, 0);
      const garbage = r.byPort[String(game.udp)] ?? 0;
      const kernel = kernelDrops(game.udp as number) - dropsBefore;
      const honestSent = tEnd.reduce((s, x, i) => s + x.sent - (tBase[i] as ReturnType<typeof tally>).sent, 0);
      const packetsIn = (gameAfter.packetsIn as number) - (gameBefore.packetsIn as number);
      const dropped = sum(gameAfter.drops) - sum(gameBefore.drops);

      const mb = (n: number) => `${(n / 1048576).toFixed(2)} MB`;
      console.log(
        [
          `hostile traffic: ${r.datagrams.toLocaleString('en-US')} datagrams in ${r.seconds.toFixed(1)} s (${Math.round(r.datagrams / r.seconds).toLocaleString('en-US')}/s; ${JSON.stringify(r.byKind)})`,
          `  ${r.tcpLines.toLocaleString('en-US')} bad TCP lines/requests over ${r.tcpConnections} connections; ${r.cheaters.joins} cheater joins, ${r.cheaters.kicked} dropped; ${r.cheaters.captured} real datagrams captured as seeds`,
          `  honest updates: ${rateBefore.toFixed(0)}/s before, ${rateDuring.toFixed(0)}/s during (${((100 * rateDuring) / rateBefore).toFixed(1)} %, over ${measuredSeconds.toFixed(1)} s)`,
          `  gameserver: ${packetsIn.toLocaleString('en-US')} datagrams read, ${dropped.toLocaleString('en-US')} dropped, ${kernel} lost in the kernel; honest bots sent ${honestSent}, garbage ${garbage}, cheater ${r.cheaters.datagrams}`,
          `  drops: ${JSON.stringify(gameAfter.drops)}; strikes ${JSON.stringify(gameAfter.strikes)}; kicked ${String(gameAfter.kicked)}; tcp ${JSON.stringify(gameAfter.tcp)}`,
          ...servers.map((s, i) => `  ${['masterserver', 'slotserver', 'gameserver'][i]}: cold rss ${mb(memCold[i]!.liveRss)}; after warm-up: live heap ${mb(memBefore[i]!.live)} → ${mb(memAfter[i]!.live)}, heapUsed ${mb(memBefore[i]!.heapUsed)} → ${mb(memAfter[i]!.heapUsed)}, rss ${mb(memBefore[i]!.rss)} → ${mb(memAfter[i]!.rss)}, rss after a full collection ${mb(memBefore[i]!.liveRss)} → ${mb(memAfter[i]!.liveRss)}`),
          `  half-open connections closed after (ms): ${idleClosed.map((c) => `${c.port}: ${Math.round(c.ms)}`).join(', ')}`,
        ].join('\n'),
      );

      expect(r.datagrams).toBeGreaterThanOrEqual(DATAGRAMS);
      expect(r.tcpLines).toBeGreaterThanOrEqual(LINES);
      expect(rateBefore, 'bots exchange states before the attack').toBeGreaterThan(BOTS * (BOTS - 1) * 10);
      expect(rateDuring).toBeGreaterThanOrEqual(0.95 * rateBefore);

      // The live heap (after a full collection) is what would grow if the attack leaked, and the resident memory after
      // that collection is what the machine pays: both held to 10 %. (Servers run with a 1 MB young generation, as
      // `npm run server` starts them: with V8's default a flood grows the heap V8 reserves — a probe of 800,000
      // datagrams with cheaters took heapTotal 10.4 → 16.2 MB and RSS 54 → 68 MB while the live heap stayed at
      // 6.7 MB; with the flag, RSS 58.4 → 59.3 MB.) heapUsed is printed only: it includes uncollected garbage.
      memAfter.forEach((m, i) => expect(m.live, `${['masterserver', 'slotserver', 'gameserver'][i]} live heap`).toBeLessThanOrEqual(memBefore[i]!.live * 1.1));
      memAfter.forEach((m, i) => expect(m.liveRss, `${['masterserver', 'slotserver', 'gameserver'][i]} rss`).toBeLessThanOrEqual(memBefore[i]!.liveRss * 1.1));

      // Every datagram that reached the gameserver's socket was read (or lost in the kernel) and all garbage was dropped and counted.
      const expected = garbage + r.cheaters.datagrams + honestSent;
      expect(Math.abs(packetsIn + kernel - expected), 'datagrams read + lost vs sent').toBeLessThanOrEqual(1000);
      // (A mutated datagram can happen to be a valid LAN-discovery or time-sync request: answered, not dropped.)
      const answered = (x: Record<string, unknown>) => {
        const a = x.answered as { discovery: number; timeSync: number } | undefined;
        return (a?.discovery ?? 0) + (a?.timeSync ?? 0);
      };
      expect(dropped + answered(gameAfter) - answered(gameBefore)).toBeGreaterThanOrEqual(garbage - kernel);
      // No honest player collected a single strike: the checks never mistook the simulation's ships for cheats.
      const honestPlayers = (gameAfter.players as { name: string; strikes: number }[]).filter((p) => p.name.startsWith('honest'));
      expect(honestPlayers).toHaveLength(BOTS);
      for (const p of honestPlayers) expect(p.strikes, p.name).toBe(0);

      // Offenders: the cheater was dropped (and told why), sources were blocked, bad TCP connections were closed, all logged with reasons.
      expect(r.cheaters.kicked).toBeGreaterThanOrEqual(1);
      expect(r.cheaters.reasons.join('\n')).toMatch(/removed: dropped for bad data: (blatant \w|\d+ strikes within)/);
      expect(gameAfter.kicked as number).toBeGreaterThanOrEqual(r.cheaters.kicked);
      expect(gameAfter.blocks as number).toBeGreaterThan(0);
      expect(game.output()).toMatch(/"reason":"(blatant|\d+ strikes)[^"]*".*player dropped for bad data/);
      expect(game.output()).toMatch(/source blocked: too many datagrams that cannot be accepted/);
      expect(master.output()).toMatch(/connection closed: repeated invalid requests|connection closed or refused by the line server/);
      expect(slots.output()).toMatch(/connection closed: repeated invalid requests|connection closed or refused by the line server/);
      // Log lines are rationed: far fewer than the offences.
      expect(game.output().split('\n').length).toBeLessThan(1000);

      // Half-open connections were cut by every server within its deadline (join 3 s, masterserver idle 9 s, HTTP ~6 s).
      for (const c of idleClosed) {
        expect(c.ms, `half-open connection to port ${c.port} still open`).toBeGreaterThan(0);
        expect(c.ms).toBeLessThan(15_000);
      }
    },
  );
});

describe('server hardening, close up', () => {
  async function gameserver(lines: Record<string, unknown>[]): Promise<Gameserver> {
    const s = await startGameserver({ name: 'Hard', host: '127.0.0.1', port: 0, udpPort: 0, pingIntervalMs: 60_000, log: capturedLog(lines) });
    inProcess.push(s);
    return s;
  }
  async function join(s: Gameserver, name: string): Promise<GameClient> {
    const c = await GameClient.join({ tcpPort: s.ports.tcp as number, name });
    clients.push(c);
    c.hello();
    return c;
  }

  it('an impossible speed reaches the others corrected; a player who keeps at it is dropped, told why, and logged', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const cheat = await join(s, 'cheat');
    const honest = await join(s, 'honest');
    await honest.tcp.next(); // add line for the cheater
    cheat.sendRaw(cheat.packet({ state: { ...shipAt({ x: 0, y: 0, z: 0 }), vel: { x: 0, y: 0, z: -500 } } }));
    await honest.until(() => honest.relayed().some((r) => r.slot === cheat.slot), 2000, 'the corrected state');
    const relayed = honest.relayed().find((r) => r.slot === cheat.slot)!.packet.header.state;
    expect(relayed.vel.z).toBeCloseTo(-120, 3);
    for (let i = 0; i < 12 && !cheat.tcp.ended; i++) {
      cheat.sendRaw(cheat.packet({ state: { ...shipAt({ x: 0, y: 0, z: 0 }), vel: { x: 0, y: 0, z: -500 } } }));
      await sleep(20);
    }
    await cheat.until(() => cheat.tcp.lines.includes('removing you'), 2000, 'removing you');
    expect(cheat.tcp.lines.find((l) => l.startsWith('removed: '))).toMatch(/^removed: dropped for bad data: 10 strikes within 10 s \(speed ×10; last: speed 500 > 120 units\/s\)$/);
    const warn = lines.find((l) => l.msg === 'player dropped for bad data');
    expect(warn).toMatchObject({ level: 40, slot: cheat.slot, address: '127.0.0.1', reason: expect.stringMatching(/10 strikes/) });
    expect(s.stats()).toMatchObject({ kicked: 1, strikes: { speed: 10 } });
    // The honest player is still in and hears that the cheater left.
    await honest.until(() => honest.tcp.lines.some((l) => l.startsWith('remove ')), 2000, 'the remove line');
    expect(s.players().map((p) => p.name)).toEqual(['honest']);
  });

  it('a laser fired from across the map is blatant: the player is dropped at once and the laser never relayed', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const cheat = await join(s, 'sniper');
    const honest = await join(s, 'victim');
    cheat.sendState({ x: 0, y: 0, z: 0 });
    await honest.until(() => honest.relayed().some((r) => r.slot === cheat.slot), 2000, 'a first state');
    cheat.sendState({ x: 0, y: 0, z: 0 }, [{ type: 'createLaser', id: objectId(cheat.slot, 1), pos: { x: 0, y: 0, z: -50_000 }, vel: { x: 0, y: 0, z: 600 }, ttl: 40 }]);
    await cheat.until(() => cheat.tcp.lines.includes('removing you'), 2000, 'removing you');
    expect(cheat.tcp.lines.find((l) => l.startsWith('removed: '))).toMatch(/blatant laser-origin/);
    await sleep(100);
    expect(honest.relayed().flatMap((r) => r.packet.events).filter((e) => e.type === 'createLaser')).toEqual([]);
  });

  it('a source with no session that keeps sending bad tokens is blocked and logged once, not per datagram; joining lifts the block', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const sock = dgram.createSocket('udp4');
    clients.push({ close: () => sock.close() });
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const forged = encodePacket({ header: { type: PacketType.GameState, senderSlot: 0, messageId: 1, gameTime: 0, joined: true, state: shipAt({ x: 0, y: 0, z: 0 }), token: 12345 }, events: [] });
    for (let i = 0; i < 300; i++) sock.send(forged, s.ports.udp as number, '127.0.0.1');
    await sleep(300);
    const st = s.stats();
    expect(st.drops['unknown-token']).toBe(50);
    expect(st.drops.blocked).toBe(250);
    expect(st.blockedNow).toBe(1);
    const logged = lines.filter((l) => String(l.msg).includes('source'));
    expect(logged.map((l) => l.msg)).toEqual(['dropping datagrams from a source with no session (logged at most once a minute per address)', 'source blocked: too many datagrams that cannot be accepted']);
    // The same address joins over TCP: its datagrams count again.
    await join(s, 'late');
    expect(s.stats().blockedNow).toBe(0);
  });

  it('bad TCP lines: an unjoined connection is closed after 5, a joined player removed after 10, each logged once per address', async () => {
    const lines: Record<string, unknown>[] = [];
    const s = await gameserver(lines);
    const stranger = await LineClient.open(s.ports.tcp as number);
    clients.push({ close: () => stranger.socket.destroy() });
    for (let i = 0; i < 8; i++) stranger.send(`garbage ${i}`);
    await new Promise<void>((r) => (stranger.ended ? r() : stranger.socket.once('close', () => r())));
    expect(stranger.lines.filter((l) => l === 'you sent an invalid request')).toHaveLength(5);
    const player = await join(s, 'chatty');
    for (let i = 0; i < 12; i++) player.tcp.send(`nonsense ${i}`);
    await player.until(() => player.tcp.lines.includes('removing you'), 2000, 'removing you');
    expect(player.tcp.lines.find((l) => l.startsWith('removed: '))).toMatch(/^removed: removed for repeated invalid requests: 10 strikes/);
    expect(lines.filter((l) => l.msg === 'connection closed: repeated invalid requests')).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'player removed for repeated invalid requests')).toHaveLength(1);
    expect(s.stats().tcp['invalid-requests']).toBe(2);
  });

  it('the masterserver closes a connection after 5 bad lines and rate limits list requests', async () => {
    const lines: Record<string, unknown>[] = [];
    const m = await startMasterserver({ name: 'm', host: '127.0.0.1', port: 0, httpPort: 0, log: capturedLog(lines) });
    inProcess.push(m);
    const c = await LineClient.open(m.ports.tcp as number);
    clients.push({ close: () => c.socket.destroy() });
    for (let i = 0; i < 8; i++) c.send(`bogus ${i}`);
    await new Promise<void>((r) => (c.ended ? r() : c.socket.once('close', () => r())));
    // Four replies, then the fifth as the connection's last line.
    expect(c.lines.length).toBe(5);
    expect(lines.some((l) => l.msg === 'connection closed: repeated invalid requests')).toBe(true);
    const lister = await LineClient.open(m.ports.tcp as number);
    clients.push({ close: () => lister.socket.destroy() });
    for (let i = 0; i < 30; i++) lister.send('list servers');
    await sleep(200);
    // An empty list is one end-of-list line per answered request: the burst is answered, the rest is not.
    expect(lister.lines.length).toBeLessThanOrEqual(11);
    const status = (await (await fetch(`http://127.0.0.1:${m.ports.http}/status.json`)).json()) as { memory: { rss: number; heapUsed: number }; closed: Record<string, number> };
    expect(status.memory.rss).toBeGreaterThan(status.memory.heapUsed);
    expect(status.closed['invalid-requests']).toBeGreaterThanOrEqual(1);
  });
});
