/**
 * LAN server discovery. On loopback (127.255.255.255, so nothing leaves the
 * machine): the responder's answers, refusals and rate limit, and the query
 * against in-process servers, leaving no socket behind. On a virtual LAN of
 * network namespaces: real server processes (out/main/server.js) on their
 * default ports in their own hosts, a fake host that answers every discovery
 * request with the wrong message, and headless bots (out/main/bot.js) that
 * ask by IPv4 broadcast and IPv6 multicast. Every packet stays inside the
 * namespaces.
 */
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupStaleLans, createLan, lanAvailable, type Lan, type LanHost } from '../support/netns';
import { startServerIn } from '../support/lanServer';
import { BotWatch } from '../support/botProcess';
import { repoRoot } from '../support/webShellProcess';
import pino from 'pino';
import { encodeAnnouncement, encodeDiscoveryRequest, parseAnnouncement } from '../../src/shared/servers/lanDiscovery';
import { DiscoveryResponder } from '../../src/node/servers/common/discoveryResponder';
import { ServerUdp } from '../../src/node/servers/common/serverUdp';
import { queryLanDetailed } from '../../src/node/net/lanQuery';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { GAMESERVER_PORT, SLOTSERVER_PORT } from '../../src/shared/servers/joinProtocol';
import { serverEntry } from '../support/serverProcess';
import { tempDir } from '../support/testRun';
import { waitFor } from '../support/waitFor';

import { botEntry } from '../support/paths';
const unavailable = await lanAvailable();
if (unavailable) console.warn(`LAN discovery tests skipped: ${unavailable}`);

/**
 * The impostor on host C: binds both discovery ports and answers every
 * datagram with three wrong messages: the announcement magic off by one
 * letter, a perfect announcement echoing the wrong nonce, and plain text.
 * Prints one JSON line per request it heard, so the test knows it was asked.
 */
const IMPOSTOR = `
const dgram = require('node:dgram');
const [similarHex, wrongNonceHex] = process.argv.slice(1);
for (const port of [6522, 6523]) {
  const s = dgram.createSocket('udp4');
  s.on('message', (msg, r) => {
    const nonce = msg.length >= 22 ? msg.readUInt32BE(18) : 0;
    const similar = Buffer.from(similarHex, 'hex');
    similar.writeUInt32BE(nonce, 18);
    const wrongNonce = Buffer.from(wrongNonceHex, 'hex');
    wrongNonce.writeUInt32BE((nonce + 1) >>> 0, 18);
    for (const b of [similar, wrongNonce, Buffer.from('who is asking?')]) s.send(b, r.port, r.address);
    console.log(JSON.stringify({ asked: port, from: r.address }));
  });
  s.bind(port, () => console.log(JSON.stringify({ ready: port })));
}`;

function impostorTemplates(): [string, string] {
  const reply = encodeAnnouncement({ nonce: 0, instance: 7, kind: 'gameserver', name: 'Impostor', port: 6581, players: 1, maxPlayers: 8, version: '0.1.0' });
  const similar = Buffer.from(reply);
  similar.write('STARLANE-ANNOUNCF', 0, 'latin1');
  return [similar.toString('hex'), Buffer.from(reply).toString('hex')];
}

/**
 * A complete game host (the real createHost, console and subsystems) run
 * inside a namespace: console commands come in on stdin, one per line, and
 * every console line goes out on stdout as JSON.
 */
const HOST_SCRIPT = (root: string) => `
import { createInterface } from 'node:readline';
import pino from 'pino';
import { createHost } from '${root}/src/node/host/createHost.ts';
const host = await createHost({ shell: 'browser', appVersion: 'test', userDataDir: process.argv[2],
  broadcastAddress: process.argv[1], lanInterfaces: [], log: pino({ level: 'silent' }), onQuit() {} });
host.onEvents((batch) => { for (const e of batch) if (e.kind === 'console') console.log(JSON.stringify({ text: e.text })); });
await host.command('name lanhost');
console.log(JSON.stringify({ ready: true }));
for await (const line of createInterface({ input: process.stdin })) await host.command(line);
await host.dispose();
`;

interface Found {
  t: string;
  kind: string;
  name: string;
  address: string;
  port: number;
  players: number;
  maxPlayers: number;
  pingMs: number;
}

describe.skipIf(unavailable !== null)('LAN server discovery on a virtual LAN of network namespaces', () => {
  let lan: Lan;
  let hostA: LanHost, hostB: LanHost, hostC: LanHost, hostD: LanHost, hostE: LanHost;
  const servers: ChildProcess[] = [];
  const impostorLines: string[] = [];

  /** Starts a server process in `host` and waits for its "listening on" line. */
  const startServer = (host: LanHost, args: string[]) => startServerIn(lan, host, args, servers);

  /** Runs `bot --discover` in host D and returns what it printed. */
  async function discover(extra: string[] = []): Promise<{ found: Found[]; done: { ignored: Record<string, number>; servers: number } }> {
    const { stdout } = await lan.exec(hostD, process.execPath, [botEntry, '--discover', '--json', '--broadcast', hostD.broadcast, ...extra], { cwd: repoRoot, timeoutMs: 15_000 });
    const records = stdout.trim().split('\n').map((l) => JSON.parse(l) as Found & { ignored: Record<string, number>; servers: number });
    const done = records.find((r) => r.t === 'lan-done');
    if (!done) throw new Error(`bot --discover printed no summary:\n${stdout}`);
    return { found: records.filter((r) => r.t === 'lan-server'), done };
  }

  const summary = (found: Found[]) => found.map((s) => `${s.name} (${s.kind}) ${s.address}:${s.port} ${s.players}/${s.maxPlayers} ${s.pingMs} ms`).join('; ');

  beforeAll(async () => {
    for (const entry of [botEntry, serverEntry]) if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npx electron-vite build" first (npm test does)`);
    await cleanupStaleLans();
    lan = await createLan({ hosts: 5 });
    [hostA, hostB, hostC, hostD, hostE] = lan.hosts as [LanHost, LanHost, LanHost, LanHost, LanHost];
    const impostor = lan.spawn(hostC, process.execPath, ['-e', IMPOSTOR, ...impostorTemplates()], { stdio: ['ignore', 'pipe', 'pipe'] });
    const impostorReady = new Promise<void>((resolve, reject) => {
      let ready = 0;
      impostor.once('exit', (code) => reject(new Error(`the impostor exited (${code})`)));
      createInterface({ input: impostor.stdout! }).on('line', (line) => {
        impostorLines.push(line);
        if (line.includes('ready') && ++ready === 2) resolve();
      });
    });
    await Promise.all([
      startServer(hostA, ['slotserver', '--name', 'Alpha Slots', '--max-players', '6']),
      startServer(hostB, ['gameserver', '--name', 'Beta_Game', '--max-players', '12']),
      impostorReady,
    ]);
  }, 60_000);

  afterAll(async () => {
    // SIGTERM first: a server that stops cleanly exits 0; destroy then removes whatever is left.
    const exits = servers.map((c) => (c.exitCode !== null ? Promise.resolve(c.exitCode) : new Promise<number | null>((r) => c.once('exit', (code) => r(code)))));
    for (const c of servers) c.kill('SIGTERM');
    const codes = await Promise.race([Promise.all(exits), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
    await lan?.destroy();
    expect(codes).toEqual(servers.map(() => 0));
  }, 30_000);

  it('a bot finds the slotserver and the gameserver on other hosts and ignores the host answering with wrong messages', { timeout: 20_000 }, async () => {
    const { found, done } = await discover();
    console.log(`LAN discovery (udp): ${summary(found)}; ignored ${JSON.stringify(done.ignored)}`);
    const byName = [...found].sort((a, b) => a.name.localeCompare(b.name));
    expect(byName).toMatchObject([
      { kind: 'slotserver', name: 'Alpha Slots', address: hostA.ipv4, port: SLOTSERVER_PORT, players: 0, maxPlayers: 6 },
      { kind: 'gameserver', name: 'Beta_Game', address: hostB.ipv4, port: GAMESERVER_PORT, players: 0, maxPlayers: 12 },
    ]);
    // The impostor was asked on both ports and answered; its answers were counted and dropped.
    expect(impostorLines.some((l) => l.includes('"asked":6522'))).toBe(true);
    expect(impostorLines.some((l) => l.includes('"asked":6523'))).toBe(true);
    expect(done.ignored['not-starlane']).toBeGreaterThan(0);
    expect(done.ignored['wrong-nonce']).toBeGreaterThan(0);
    expect(found.some((s) => s.name === 'Impostor' || s.address === hostC.ipv4)).toBe(false);
  });

  it('a bot with --protocol gameserver and no --server joins the gameserver it found, and the LAN then sees one player there', { timeout: 30_000 }, async () => {
    const child = lan.spawn(hostD, process.execPath, [botEntry, '--json', '--name', 'seeker', '--protocol', 'gameserver', '--broadcast', hostD.broadcast], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const bot = new BotWatch('seeker', child);
    try {
      await bot.until('a slot on the gameserver', () => (bot.players()?.localSlot ?? null) !== null, 15_000);
      const prints = bot.prints();
      const escaped = hostB.ipv4.replace(/\./g, '\\.');
      expect(prints.some((l) => new RegExp(`^found gameserver "Beta_Game" at ${escaped}:${GAMESERVER_PORT}, 0/12 players, ping \\d+\\.\\d ms$`).test(l))).toBe(true);
      expect(prints.some((l) => l.startsWith('found slotserver "Alpha Slots"'))).toBe(true);
      expect(prints).toContain(`joining gameserver "Beta_Game" at ${hostB.ipv4}:${GAMESERVER_PORT}`);
      expect(prints.some((l) => l.includes('Impostor'))).toBe(false);
      const { found } = await discover();
      expect(found.find((s) => s.name === 'Beta_Game')?.players).toBe(1);
      expect(found.find((s) => s.name === 'Alpha Slots')?.players).toBe(0);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  });

  it('in the game console, servers lan lists both servers numbered, connect <n> joins one, and connect with no address finds the other', { timeout: 40_000 }, async () => {
    const child = lan.spawn(hostD, process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOST_SCRIPT(repoRoot), hostD.broadcast, tempDir('lan-host')], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l.startsWith('{"text"') ? (JSON.parse(l) as { text: string }).text : l));
    const until = async (what: RegExp, ms = 10_000) => {
      try {
        return await waitFor(`a host line matching ${what}`, () => {
          const hit = lines.find((l) => what.test(l));
          if (hit !== undefined) return hit;
          if (child.exitCode !== null) throw new Error(`the host exited (${child.exitCode})`);
          return null;
        }, ms, 50);
      } catch (err) {
        throw new Error(`host: no line matching ${what} within ${ms} ms (${(err as Error).message}):\n${lines.join('\n')}\n${stderr}`, { cause: err });
      }
    };
    const run = (command: string) => child.stdin!.write(`${command}\n`);
    try {
      await until(/"ready":true/, 20_000);
      run('servers lan');
      await until(/^type connect <number> to join one/);
      const header = lines.findIndex((l) => /^ {2}# {2}name/.test(l));
      const rows = lines.slice(header + 1, header + 3);
      console.log(['servers lan in the game console:', ...lines.slice(header, header + 4)].join('\n'));
      expect(lines[header]).toMatch(/^ {2}# {2}name +kind {8}address +players {2}ping$/);
      expect(rows.map((r) => r.replace(/ [\d.]+ ms$/, '').trim().split(/ {2,}/)).sort((a, b) => (a[2] ?? '').localeCompare(b[2] ?? ''))).toEqual([
        [expect.stringMatching(/^[12]$/), 'Beta_Game', 'gameserver', `${hostB.ipv4}:${GAMESERVER_PORT}`, '0/12'],
        [expect.stringMatching(/^[12]$/), 'Alpha Slots', 'slotserver', `${hostA.ipv4}:${SLOTSERVER_PORT}`, '0/6'],
      ]);
      const gameRow = rows.find((r) => r.includes('Beta_Game')) ?? '';
      run(`connect ${gameRow.trim().split(/\s+/)[0]}`);
      await until(/^joined gameserver "Beta_Game" as slot 0$/);
      run('disconnect');
      await until(/^disconnected from the gameserver$/);
      run('protocol slotserver');
      await until(/^protocol gameserver -> slotserver/);
      run('connect');
      await until(/^looking for a slotserver on the LAN \(IPv4 broadcast\)…$/);
      await until(/^joining slotserver "Alpha Slots" at /);
      await until(/^joined slotserver "Alpha Slots" as slot 0$/);
      expect(lines.filter((l) => l.startsWith('found '))).toHaveLength(2);
    } finally {
      child.stdin!.end();
      const code = await Promise.race([new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', r))), new Promise((r) => setTimeout(() => r('hung'), 5000))]);
      if (code !== 0) child.kill('SIGKILL');
      expect(code).toBe(0);
    }
  });

  it('a server listening on :: is found by IPv6 multicast (udp6) and by IPv4 broadcast', { timeout: 30_000 }, async () => {
    await startServer(hostE, ['slotserver', '--name', 'Echo6', '--host', '::']);
    const v6 = await discover(['--packetapi', 'udp6']);
    console.log(`LAN discovery (udp6): ${summary(v6.found)}; ignored ${JSON.stringify(v6.done.ignored)}`);
    // IPv4-only servers (A, B) cannot hear an IPv6 request; E can.
    expect(v6.found).toMatchObject([{ kind: 'slotserver', name: 'Echo6', address: `${hostE.ipv6LinkLocal}%eth0`, port: SLOTSERVER_PORT }]);
    const v4 = await discover();
    expect(v4.found.map((s) => s.name).sort()).toEqual(['Alpha Slots', 'Beta_Game', 'Echo6']);
  });
});

const silent = pino({ level: 'silent' });
const LOOPBACK_BROADCAST = '127.255.255.255';
/**
 * Sockets open in this process (UDP, and listening TCP), counted once libuv
 * has run its close callbacks: a closed socket's handle goes a loop turn after its 'close' event.
 */
async function udpHandles(): Promise<number> {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  return process.getActiveResourcesInfo().filter((r) => r === 'UDPWrap' || r === 'TCPServerWrap').length;
}

async function boundSocket(): Promise<dgram.Socket> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '0.0.0.0', resolve));
  return socket;
}

describe('LAN discovery on loopback', () => {
  it('the responder answers a request straight to the asker, ignores malformed ones by reason, and rate-limits one address', async () => {
    // The server side binds like a real server, through the packet API (ServerUdp); the client is a bare socket.
    const [udp, client] = await Promise.all([ServerUdp.bind('0.0.0.0', 0, 'test'), boundSocket()]);
    const responder = new DiscoveryResponder({
      udp,
      log: silent,
      info: () => ({ kind: 'slotserver', name: 'Loop', port: 6582, players: 2, maxPlayers: 8, version: '9.9.9' }),
      rate: { perSecond: 1, burst: 5 },
    });
    udp.onDatagram((msg, from) => {
      if (responder.offer(msg, from) === 'other') udp.send(from, new TextEncoder().encode('not discovery'));
    });
    const answers: Uint8Array[] = [];
    client.on('message', (msg) => answers.push(msg));
    const send = (bytes: Uint8Array | string) => client.send(bytes, udp.port, '127.0.0.1');
    try {
      send(encodeDiscoveryRequest(1234));
      await waitFor('the answer', () => answers.length > 0);
      expect(answers).toHaveLength(1);
      expect(parseAnnouncement(answers[0] as Uint8Array)).toMatchObject({ ok: true, value: { nonce: 1234, kind: 'slotserver', name: 'Loop', players: 2, maxPlayers: 8 } });
      const padded = encodeDiscoveryRequest(1);
      padded[padded.length - 1] = 9;
      send(padded);
      send(encodeDiscoveryRequest(2).subarray(0, 30));
      send('hello');
      for (let i = 0; i < 20; i++) send(encodeDiscoveryRequest(100 + i));
      // Every datagram is either answered or ignored with a reason ('hello' goes to the server's own handler).
      const judged = () => responder.stats().answered + Object.values(responder.stats().ignored).reduce((n, k) => n + (k ?? 0), 0);
      await waitFor('all 23 discovery datagrams judged', () => judged() >= 23 && answers.some((a) => Buffer.from(a).toString() === 'not discovery'));
      const stats = responder.stats();
      // One burst of 5: the first answer plus 4 of the 20; the rest wait for tokens.
      expect(stats.answered).toBe(5);
      expect(stats.ignored).toMatchObject({ 'bad-padding': 1, 'wrong-length': 1, 'rate-limited': 16 });
      // Non-discovery datagrams were left to the server's own handler.
      expect(answers.filter((a) => Buffer.from(a).toString() === 'not discovery')).toHaveLength(1);
    } finally {
      await Promise.all([udp.close(), new Promise<void>((r) => client.close(() => r()))]);
    }
  });

  it('a query finds an in-process slotserver and gameserver with their player counts, and no socket outlives it or them', async () => {
    const before = await udpHandles();
    const slots = await startSlotserver({ name: 'Loop Slots', host: '0.0.0.0', port: 0, udpPort: 0, maxPlayers: 4, welcome: [], log: silent });
    const game = await startGameserver({ name: 'Loop_Game', host: '0.0.0.0', port: 0, udpPort: 0, maxPlayers: 10, log: silent });
    try {
      const result = await queryLanDetailed('udp', { broadcastAddress: LOOPBACK_BROADCAST, ports: [slots.ports.udp as number, game.ports.udp as number] });
      const byName = [...result.servers].sort((a, b) => a.kind.localeCompare(b.kind));
      expect(byName).toMatchObject([
        { kind: 'gameserver', name: 'Loop_Game', port: game.ports.tcp, players: 0, maxPlayers: 10 },
        { kind: 'slotserver', name: 'Loop Slots', port: slots.ports.tcp, players: 0, maxPlayers: 4 },
      ]);
      expect(result.servers.every((s) => s.pingMs >= 0 && s.target === `${s.address}:${s.port}`)).toBe(true);
      expect(slots.udpStats().discovery.answered).toBeGreaterThanOrEqual(1);
      console.log(`LAN discovery (loopback): ${result.servers.map((s) => `${s.name} ${s.pingMs} ms`).join(', ')}`);
    } finally {
      await Promise.all([slots.close(), game.close()]);
    }
    expect(await udpHandles()).toBe(before);
  });
});
