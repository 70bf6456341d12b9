/**
 * The built server CLI (`out/main/server.js gameserver`) as a real process:
 * its help, a join over TCP with the udp/token reply, relaying between two
 * clients, the status JSON, registration with a masterserver as type
 * gameserver, and a graceful SIGTERM. Needs `npx electron-vite build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GameClient } from '../support/gameClient';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const clients: GameClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  stopServers();
});

/** Starts `node out/main/server.js <args>` and waits for its announce line. */
async function start(args: string[]) {
  const p = await startServer(args);
  return { ...p, ports: { tcp: p.tcp, udp: p.udp, http: p.http } };
}

const until = (check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<true> => waitFor(what, check, ms);

beforeAll(() => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" (or "npm test", which builds) first`);
});

describe('gameserver command line', () => {
  it('gameserver --help exits 0 and lists its options', () => {
    const r = spawnSync(process.execPath, [serverEntry, 'gameserver', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const o of ['--name', '--host', '--port', '--udp-port', '--http-port', '--log-level', '--max-players', '--welcome', '--ban-file', '--master', '--url', '--filter-radius', '--tick-hz', '--flush', '--timeout-seconds', '--max-per-address']) {
      expect(r.stdout).toContain(o);
    }
    expect(r.stdout).toMatch(/default: 6581/);
    expect(r.stdout).toMatch(/default: 6522/);
  });

  it('refuses more than 255 players before starting anything (a slot is a byte on the wire), and says so', () => {
    const r = spawnSync(process.execPath, [serverEntry, 'gameserver', '--max-players', '256', '--port', '0'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--max-players <n>' argument '256' is invalid\. must be an integer from 1 to 255/);
  });

  it('a slotserver and a netgame server refuse more than 8 players, naming the gameserver for more', () => {
    for (const kind of ['slotserver', 'netgame']) {
      const r = spawnSync(process.execPath, [serverEntry, kind, '--max-players', '9', '--port', '0'], { encoding: 'utf8' });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/must be an integer from 1 to 8/);
      const help = spawnSync(process.execPath, [serverEntry, kind, '--help'], { encoding: 'utf8' });
      expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/for more, run a gameserver, up to 255/);
    }
  });
});

describe('gameserver as a real process', () => {
  it('joins over TCP with udp and token, relays between two clients, serves status JSON, registers as a gameserver, stops on SIGTERM', { timeout: 30_000 }, async () => {
    const master = await start(['masterserver', '--name', 'test-master', '--port', '0', '--http-port', '0']);
    const game = await start([
      'gameserver', '--name', 'gamma', '--port', '0', '--udp-port', '0', '--http-port', '0', '--welcome', 'Hello pilots.',
      '--master', `127.0.0.1:${master.ports.tcp}`, '--url', 'http://gamma.example/', '--heartbeat-seconds', '0.2',
    ]);
    expect(game.ports.udp).toBeGreaterThan(0);

    const a = await GameClient.join({ tcpPort: game.ports.tcp, name: 'ace' });
    clients.push(a);
    expect(a.accepted).toMatchObject({ name: 'ace', slot: 0, serverName: 'gamma', udp: game.ports.udp });
    expect(a.welcome).toEqual(['Hello pilots.', '', '', '']);
    const b = await GameClient.join({ tcpPort: game.ports.tcp, name: 'bob' });
    clients.push(b);
    expect(await b.tcp.next()).toBe(`add ip: 127.0.0.1:${a.udpPort} name: ace in 0`);
    expect(await a.tcp.next()).toBe(`add ip: 127.0.0.1:${b.udpPort} name: bob in 1`);

    a.sendState({ x: 1, y: 2, z: 3 });
    b.sendState({ x: 4, y: 5, z: 6 });
    await until(() => b.relayed().some((r) => r.slot === 0 && r.packet.header.joined), 3000, 'b to get a');
    await until(() => a.relayed().some((r) => r.slot === 1 && r.packet.header.joined), 3000, 'a to get b');
    expect(b.relayed().find((r) => r.slot === 0)?.packet.header.state?.pos).toEqual({ x: 1, y: 2, z: 3 });

    const status = (await (await fetch(`http://127.0.0.1:${game.ports.http}/status.json`)).json()) as { players: { name: string }[]; packetsIn: number; udpPort: number };
    expect(status.players.map((p) => p.name)).toEqual(['ace', 'bob']);
    expect(status.udpPort).toBe(game.ports.udp);
    expect(status.packetsIn).toBeGreaterThanOrEqual(2);

    type Listed = { name: string; type: string | null; players: number; maxPlayers: number; port: number | null };
    const listed = async () => ((await (await fetch(`http://127.0.0.1:${master.ports.http}/servers.json`)).json()) as { servers: Listed[] }).servers;
    await until(async () => (await listed()).some((s) => s.name === 'gamma' && s.players === 2), 5000, 'the masterserver to list gamma with 2 players');
    expect((await listed()).find((s) => s.name === 'gamma')).toMatchObject({ type: 'gameserver', maxPlayers: 64, port: game.ports.tcp });

    game.child.kill('SIGTERM');
    expect(await a.tcp.next(3000)).toBe('removing you');
    expect(await game.exited).toBe(0);
    await until(async () => !(await listed()).some((s) => s.name === 'gamma'), 3000, 'gamma to leave the list');
    expect(game.output()).not.toMatch(/"level":50/);
    master.child.kill('SIGTERM');
    expect(await master.exited).toBe(0);
  });
});
