/**
 * What a player reads when the game moves under them (real hosts in this
 * process, real servers, loopback): a switch to a model with no server at
 * that host is one line with the way back, and switching back rejoins the
 * server they left; a server that shuts down says so (not "the server
 * removed you", not "type connect … to join again" for a server that is
 * gone); the clock's figures are connection internals, shown only with
 * `net_verbose 1`.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startGameserver, type Gameserver } from '../../src/node/servers/game/gameserver';
import { startTestHost, until, type TestHost } from '../support/testHost';
import { startServer, stopServers } from '../support/serverProcess';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const log = pino({ level: 'silent' });
const hosts: TestHost[] = [];
const servers: Gameserver[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
  await Promise.all(servers.splice(0).map((s) => s.close('test over')));
  stopServers();
});

/** An in-process gameserver on loopback named `name`, closed after the test. */
async function gameserver(name: string): Promise<Gameserver> {
  const gs = await startGameserver({ name, log, port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
  servers.push(gs);
  return gs;
}

async function host(name: string): Promise<TestHost> {
  const h = await startTestHost(name);
  hosts.push(h);
  return h;
}

/** Console lines since `from` (a length of `h.text()`). */
const linesSince = (h: TestHost, from: number): string[] => h.text().slice(from).split('\n').filter((l) => l !== '');

describe('switching protocol: one line when there is no server, and the way back', () => {
  it('gameserver → netgame (nothing there) → gameserver again rejoins the same server; the other player sees one leave and one join', { timeout: 30_000 }, async () => {
    const gs = await gameserver('Arena');
    const alpha = await host('alpha');
    const bravo = await host('bravo');
    for (const h of [alpha, bravo]) {
      await h.run('protocol gameserver');
      await h.run(`connect 127.0.0.1:${gs.ports.tcp}`);
      await until(`${h === alpha ? 'alpha' : 'bravo'} joined`, () => /joined gameserver "Arena"[^]*in solar system Sol/.test(h.text()));
    }
    await until('alpha sees bravo', () => /bravo connected/.test(alpha.text()));
    const from = bravo.text().length;
    const alphaFrom = alpha.text().length;
    await bravo.run('protocol netgame');
    await until('the netgame attempt ends', () => /^no netgame server at /m.test(bravo.text().slice(from)));
    expect(linesSince(bravo, from)).toEqual([
      'leaving gameserver "Arena"',
      'protocol gameserver -> netgame',
      'connecting to the netgame at 127.0.0.1:6583…',
      'no netgame server at 127.0.0.1 (nothing is listening at 127.0.0.1:6583); you are not in a game — protocol gameserver takes you back to "Arena", or connect host[:port] joins a netgame server',
    ]);
    // alpha reads why bravo went.
    await until('alpha reads why bravo left', () => /^bravo left \(switched to netgame\)$/m.test(alpha.text().slice(alphaFrom)));
    const back = bravo.text().length;
    await bravo.run('protocol gameserver');
    await until('bravo back in the arena', () => /joined gameserver "Arena"/.test(bravo.text().slice(back)));
    expect(linesSince(bravo, back).slice(0, 3)).toEqual(['protocol netgame -> gameserver', `connecting to the gameserver at 127.0.0.1:${gs.ports.tcp}…`, 'joined gameserver "Arena" as slot 1']);
    await until('alpha sees bravo again', () => /bravo connected/.test(alpha.text().slice(alphaFrom)));
    // A switch that connects says only where it goes: never "not connected (type connect …)" and then "connecting to …".
    expect(bravo.text().slice(from)).not.toMatch(/not connected/);
  });
});

describe('a LAN game: the others read why a player left', () => {
  it('bravo switches from p2p to lockstep: alpha reads "bravo left (switched to lockstep)"', { timeout: 30_000 }, async () => {
    const base = await freeUdpPorts(P2P_PORT_SPAN);
    const alpha = await startTestHost('alpha', { clientPort: base });
    const bravo = await startTestHost('bravo', { clientPort: base });
    hosts.push(alpha, bravo);
    await alpha.run('protocol p2p');
    await alpha.run('connect');
    await until('alpha alone in its game', () => /connected to the peer-to-peer game as slot 0/.test(alpha.text()));
    await bravo.run('protocol p2p');
    await bravo.run('connect');
    await until('alpha sees bravo', () => /^bravo connected \(slot 1\)$/m.test(alpha.text()));
    await bravo.run('protocol lockstep');
    await until('alpha reads why', () => /^bravo left \(switched to lockstep\)$/m.test(alpha.text()));
  });
});

describe('a server that shuts down says so', () => {
  it('SIGTERM to a gameserver process: its players read that it closed and why, with no way to "join again"', { timeout: 30_000 }, async () => {
    const server = await startServer(['gameserver', '--name', 'Evening', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    const alpha = await host('alpha');
    await alpha.run('protocol gameserver');
    await alpha.run(`connect 127.0.0.1:${server.tcp}`);
    // Joined, and told its solar system (that line comes over UDP, after the join's).
    await until('alpha joined', () => /joined gameserver "Evening"[^]*in solar system Sol/.test(alpha.text()));
    const from = alpha.text().length;
    server.child.kill('SIGTERM');
    await until('alpha is told', () => /closed/.test(alpha.text().slice(from)), 10_000);
    expect(await server.exited).toBe(0);
    expect(linesSince(alpha, from)).toEqual(['the gameserver "Evening" closed: shut down by its admin (SIGTERM). You are not in a game — servers lists the others, or connect host[:port] joins one']);
    await until('offline again', () => alpha.deliveries('players').at(-1)?.localSlot === null);
  });
});

describe('connection internals stay out of the way', () => {
  it("the clock's figures are printed only with net_verbose 1", { timeout: 30_000 }, async () => {
    const gs = await gameserver('Quiet');
    const quiet = await host('quiet');
    const curious = await host('curious');
    await curious.run('net_verbose 1');
    for (const h of [quiet, curious]) {
      await h.run('protocol gameserver');
      await h.run(`connect 127.0.0.1:${gs.ports.tcp}`);
    }
    await until('curious reads the clock', () => /^clock synchronised with .* \(offset -?\d+\.\d ms ± \d+\.\d, round trip \d+ ms\)$/m.test(curious.text()));
    await until('quiet is in the game', () => quiet.deliveries('players').some((d) => d.players.length === 2 && d.players.every((p) => p.joined)));
    expect(quiet.text()).not.toMatch(/offset|synchronis/);
  });
});
