/**
 * Finding a game through the masterserver: a slotserver registers with a
 * masterserver; a player's `servers` lists it and `connect 1` switches the
 * protocol from offline to slotserver and joins it (from a LAN game too).
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor as until } from '../support/waitFor';
import { createHost } from '../../src/node/host/createHost';
import { startMasterserver } from '../../src/node/servers/master/masterserver';
import { MasterRegistration } from '../../src/node/servers/master/masterClient';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import type { HostEvent } from '../../src/shared/host/contract';
import { startServer, stopServers } from '../support/serverProcess';
import { tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  stopServers();
});


/** A game host on loopback that collects its events, disposed after the test. */
async function listingHost(): Promise<{ host: Awaited<ReturnType<typeof createHost>>; events: HostEvent[] }> {
  const host = await createHost({
    shell: 'browser',
    appVersion: 'test',
    userDataDir: tempDir('list'),
    clientPort: await freeUdpPorts(P2P_PORT_SPAN),
    lanInterfaces: [],
    broadcastAddress: '127.255.255.255',
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  cleanups.push(() => host.dispose());
  const events: HostEvent[] = [];
  host.onEvents((b) => events.push(...b));
  return { host, events };
}

describe('servers and connect <n>', () => {
  it('lists the masterserver servers and joins one by number, switching protocol', async () => {
    const log = pino({ level: 'silent' });
    const master = await startMasterserver({ name: 'master', log, port: 0, host: '127.0.0.1' });
    cleanups.push(() => master.close());
    const slots = await startSlotserver({ name: 'Alpha_Slots', log, port: 0, host: '127.0.0.1', maxPlayers: 4, welcome: [] });
    cleanups.push(() => slots.close());
    const reg = new MasterRegistration({ master: `127.0.0.1:${master.ports.tcp}`, name: 'Alpha_Slots', os: 'linux', maxPlayers: 4, url: 'http://alpha.example/', port: slots.ports.tcp as number, udp: slots.ports.udp as number, type: 'slotserver', log });
    reg.start();
    cleanups.push(() => reg.stop());
    await until('registered', () => master.servers().length === 1);

    const { host, events } = await listingHost();
    const text = () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : [])).join('\n');

    await host.command('connect 1');
    await until('no list yet', () => /no server 1 in the last list/.test(text()));
    await host.command(`net_master 127.0.0.1:${master.ports.tcp}`);
    await host.command('servers');
    // Its ping measured by a unicast discovery request to the UDP port the masterserver lists; a loopback-bound server hears no broadcast, so the row is the master's alone.
    await until('the list', () => /^ {2}1 {2}Alpha_Slots +slotserver +0\/4 +\d+\.\d ms +127\.0\.0\.1:\d+ +master$/m.test(text()));
    expect(text()).toMatch(/^ {2}# {2}name +kind +players {2}ping +address +from$/m);
    await host.command('connect 1');
    await until('joined by number', () => /joined slotserver "Alpha_Slots" as slot 0/.test(text()));
    expect(text()).toMatch(/protocol offline -> slotserver/);
    expect(host.subsystems.describe().protocol).toBe('slotserver');
  });

  it('connect <n> in the middle of a LAN game leaves it, switches protocol and joins that server, with no other connect attempt', async () => {
    const log = pino({ level: 'silent' });
    const master = await startMasterserver({ name: 'master', log, port: 0, host: '127.0.0.1' });
    cleanups.push(() => master.close());
    const slots = await startSlotserver({ name: 'Beta_Slots', log, port: 0, host: '127.0.0.1', maxPlayers: 4, welcome: [] });
    cleanups.push(() => slots.close());
    const reg = new MasterRegistration({ master: `127.0.0.1:${master.ports.tcp}`, name: 'Beta_Slots', os: 'linux', maxPlayers: 4, url: 'http://beta.example/', port: slots.ports.tcp as number, udp: slots.ports.udp as number, type: 'slotserver', log });
    reg.start();
    cleanups.push(() => reg.stop());
    await until('registered', () => master.servers().length === 1);

    const { host, events } = await listingHost();
    const lines = () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : []));
    await host.command('protocol p2p');
    await host.command('connect');
    await until('alone in a LAN game', () => lines().includes('connected to the peer-to-peer game as slot 0 (1 player)'));
    await host.command(`net_master 127.0.0.1:${master.ports.tcp}`);
    await host.command('servers');
    await until('the list', () => lines().some((l) => /1\s+Beta_Slots\s+slotserver/.test(l)));
    const from = lines().length;
    await host.command('connect 1');
    await until('joined by number', () => lines().some((l) => /^joined slotserver "Beta_Slots" as slot 0/.test(l)));
    const steps = lines().slice(from);
    expect(steps.slice(0, 4)).toEqual([
      'server 1 is a slotserver: switching protocol p2p -> slotserver',
      'leaving the peer-to-peer game',
      'protocol p2p -> slotserver',
      `connecting to the slotserver at 127.0.0.1:${slots.ports.tcp}…`,
    ]);
    expect(steps.filter((l) => /connect host\[:port\] to join|already connect/.test(l))).toEqual([]);
  });

  it('lists servers in one order (by name), whatever order they registered in, and connect <n> joins the server shown as n', async () => {
    const log = pino({ level: 'silent' });
    const master = await startMasterserver({ name: 'master', log, port: 0, host: '127.0.0.1' });
    cleanups.push(() => master.close());
    for (const name of ['Charlie', 'alpha', 'Bravo']) {
      const slots = await startSlotserver({ name, log, port: 0, host: '127.0.0.1', maxPlayers: 4, welcome: [] });
      cleanups.push(() => slots.close());
      const reg = new MasterRegistration({ master: `127.0.0.1:${master.ports.tcp}`, name, os: 'linux', maxPlayers: 4, url: 'http://list.example/', port: slots.ports.tcp as number, udp: slots.ports.udp as number, type: 'slotserver', log });
      reg.start();
      cleanups.push(() => reg.stop());
      await until(`${name} registered`, () => master.servers().some((s) => s.name === name));
    }
    const { host, events } = await listingHost();
    const lines = () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : []));
    await host.command(`net_master 127.0.0.1:${master.ports.tcp}`);
    await host.command('servers');
    await until('the list', () => lines().some((l) => l.startsWith('type connect <number>')));
    const rows = lines().filter((l) => /^\s+\d+\s/.test(l)).map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '));
    expect(rows).toEqual(['1 alpha', '2 Bravo', '3 Charlie']);
    expect(lines().at(-1)).toBe("type connect <number> to join one of this list (the masterserver's and the LAN's; servers lan lists only the LAN's)");
    await host.command('connect 2');
    await until('joined the second', () => lines().some((l) => /^joined slotserver "Bravo" as slot 0/.test(l)));
  });

  it('servers says clearly in one line when the masterserver cannot be reached, and still asks the LAN', async () => {
    const { host, events } = await listingHost();
    const lines = () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : []));
    await host.command('net_master 127.0.0.1:1');
    await host.command('servers');
    await until('the end of the answer', () => lines().some((l) => l.startsWith('no masterserver list')));
    expect(lines().slice(lines().findIndex((l) => l.startsWith('asking the masterserver')))).toEqual([
      'asking the masterserver at 127.0.0.1:1 and the LAN (IPv4 broadcast) for Starlane servers…',
      'servers: the masterserver at 127.0.0.1:1 cannot be reached (nothing is listening at 127.0.0.1:1); listing the LAN only',
      'no masterserver list and no server answered on the LAN',
    ]);
  });

  it('servers lan with only a loopback-bound server running says nobody answered and that loopback cannot answer broadcasts; the server warned at start', async () => {
    const game = await startServer(['gameserver', '--name', 'Hidden', '--port', '0', '--udp-port', '0']);
    // startServer binds 127.0.0.1, as a player trying things on one machine would.
    await until('the loopback warning', () => /"level":40.*listening on loopback 127\.0\.0\.1: LAN discovery cannot reach this server .*use --host 0\.0\.0\.0/.test(game.output()));
    const { host, events } = await listingHost();
    await host.command('packetapi udp');
    await host.command('servers lan');
    const lines = () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : []));
    await until('the reply', () => lines().some((l) => /^no servers answered/.test(l)));
    expect(lines().find((l) => /^no servers answered/.test(l))).toMatch(
      /^no servers answered on the LAN within a second; servers bound to loopback \(127\.0\.0\.1\) cannot answer broadcasts — connect host:port instead/,
    );
  });
});
