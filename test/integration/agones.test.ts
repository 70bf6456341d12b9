/**
 * A gameserver run by Agones (`--agones`) against a stand-in SDK sidecar
 * (test/support/agonesSidecar.ts: a real gRPC server speaking the SDK's
 * services): Ready only once its ports answer, health pings at the interval,
 * its seats and labels, players tracked as a bot joins and leaves, the
 * Allocated state reaching the masterserver's list, Shutdown on SIGTERM
 * before it exits 0; and without a sidecar, one line and a failed start.
 * Real processes from the build (`npx electron-vite build` first).
 */
import { connect } from 'node:net';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgonesSidecar } from '../support/agonesSidecar';
import { serverBot, botsJoined, stopBots } from '../support/botProcess';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';
import { spawnTracked, tempDir } from '../support/testRun';
import { waitFor } from '../support/waitFor';
import { LineClient } from '../support/lineClient';
import { queryMaster } from '../../src/node/net/masterQuery';

const sidecars: AgonesSidecar[] = [];
afterEach(async () => {
  stopServers();
  await Promise.all(sidecars.splice(0).map((s) => s.close()));
});

/** A TCP port on 127.0.0.1 free a moment ago (bound and released). */
async function freeTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Whether a TCP connection to 127.0.0.1:`port` is accepted. */
function tcpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

const json = async (port: number, path: string): Promise<Record<string, unknown>> => (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as Record<string, unknown>;

describe('a gameserver run by Agones', () => {
  it('says Ready once it listens, pings health, tracks players and labels, reports Allocated to its masterserver, and says Shutdown on SIGTERM', async () => {
    const sidecar = await AgonesSidecar.start();
    sidecars.push(sidecar);
    const master = await startServer(['masterserver', '--port', '0', '--http-port', '0']);
    const [tcp, http] = [await freeTcpPort(), await freeTcpPort()];
    // Ready must find the join port and the status page answering.
    sidecar.beforeReady = async () => ({ tcp: await tcpAnswers(tcp), http: (await fetch(`http://127.0.0.1:${http}/status.json`)).ok });
    const galaxy = join(tempDir('agones'), 'orion.galaxy');
    writeFileSync(galaxy, 'starlane galaxy 1\ngalaxy Orion\nsystem Sol\nentry\nsystem Vega\n');
    const game = await startServer(
      ['gameserver', '--agones', '--agones-health-seconds', '0.2', '--name', 'Agones_test!', '--port', String(tcp), '--udp-port', '0', '--http-port', String(http), '--max-players', '12', '--galaxy', galaxy, '--master', `127.0.0.1:${master.tcp}`],
      'info',
      { AGONES_SDK_GRPC_PORT: String(sidecar.port) },
    );

    await sidecar.until('Ready', () => sidecar.count('Ready') === 1);
    expect(sidecar.readyFound).toEqual({ tcp: true, http: true });
    expect(sidecar.capacity).toBe(12);
    expect(Object.fromEntries(sidecar.labels)).toEqual({ server: 'Agones_test', galaxy: 'Orion', systems: 'Sol.Vega', players: '0' });
    // Health from Ready on, again and again at the interval.
    const healthAtReady = sidecar.count('Health');
    await sidecar.until('3 health pings after Ready', () => sidecar.count('Health') >= healthAtReady + 3);
    expect(sidecar.calls.findIndex((c) => c.method === 'Health')).toBeGreaterThan(sidecar.calls.findIndex((c) => c.method === 'Ready'));

    const bot = serverBot('gameserver', 'pilot1', `127.0.0.1:${tcp}`, 1);
    await botsJoined([bot]);
    await sidecar.until('pilot1 connected and counted', () => sidecar.players.has('pilot1') && sidecar.labels.get('players') === '1');
    await stopBots([bot]);
    await sidecar.until('pilot1 disconnected', () => !sidecar.players.has('pilot1') && sidecar.labels.get('players') === '0');
    expect(sidecar.calls.filter((c) => c.method.startsWith('Player')).map((c) => `${c.method} ${c.arg}`)).toEqual(['PlayerConnect pilot1', 'PlayerDisconnect pilot1']);

    // A matchmaker allocates the GameServer: the sidecar pushes the state, the masterserver lists it.
    await waitFor('the masterserver listing it ready', async () => ((await json(master.http ?? 0, '/servers.json')).servers as { fleet: string | null }[])[0]?.fleet === 'ready');
    sidecar.push('Allocated');
    await waitFor('the masterserver listing it allocated', async () => ((await json(master.http ?? 0, '/servers.json')).servers as { fleet: string | null }[])[0]?.fleet === 'allocated');
    expect((await json(http, '/status.json')).agones).toEqual({ sidecar: `localhost:${sidecar.port}`, state: 'Allocated' });

    game.child.kill('SIGTERM');
    const code = await game.exited;
    expect(code).toBe(0);
    expect(sidecar.count('Shutdown')).toBe(1);
    expect(game.output()).toMatch(/agones: shutdown sent/);
  });

  it("under a Dynamic port policy it tells players and the masterserver the node's ports Agones gave it", async () => {
    const sidecar = await AgonesSidecar.start();
    sidecars.push(sidecar);
    // The fleet's port names (deploy/agones/fleet.yaml): join (TCP) and game (UDP).
    sidecar.ports = [{ name: 'join', port: 7401 }, { name: 'game', port: 7402 }];
    const master = await startServer(['masterserver', '--port', '0']);
    const game = await startServer(['gameserver', '--agones', '--name', 'Dynamic', '--port', '0', '--udp-port', '0', '--url', 'http://dynamic.example/', '--master', `127.0.0.1:${master.tcp}`], 'warn', { AGONES_SDK_GRPC_PORT: String(sidecar.port) });
    await sidecar.until('Ready', () => sidecar.count('Ready') === 1);
    expect(sidecar.calls.findIndex((c) => c.method === 'GetGameServer')).toBeLessThan(sidecar.calls.findIndex((c) => c.method === 'Ready'));
    const raw = await LineClient.open(game.tcp);
    raw.send('version: 1.2 join me: raw os: test port: 40000');
    expect(await raw.next()).toMatch(/^join from raw accepted, slot: 0, server name: Dynamic, udp: 7402, token: [0-9a-f]{8}$/);
    raw.socket.destroy();
    const listed = await waitFor('Dynamic listed', async () => (await queryMaster('127.0.0.1', master.tcp)).find((s) => s.name === 'Dynamic') ?? null);
    expect([listed.port, listed.udp]).toEqual([7401, 7402]);
  });

  it('without a reachable sidecar, --agones stops the start with one line naming the port and fails', async () => {
    const closed = await freeTcpPort();
    const child = spawnTracked(process.execPath, [serverEntry, 'gameserver', '--agones', '--agones-connect-seconds', '0.5', '--host', '127.0.0.1', '--port', '0', '--udp-port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, AGONES_SDK_GRPC_PORT: String(closed) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([`starlane-server: gameserver: --agones: no Agones SDK sidecar at localhost:${closed} (AGONES_SDK_GRPC_PORT) within 0.5 s`]);
  });
});
