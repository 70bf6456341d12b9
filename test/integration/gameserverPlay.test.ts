/**
 * The `gameserver` protocol end to end: a real gameserver (TCP join + UDP
 * relay) and three full hosts in this process over loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import { startGameserver } from '../../src/node/servers/gameserver';
import type { RunningServer } from '../../src/node/servers/types';
import type { HostEvent } from '../../src/shared/host/contract';
import type { NetDelivery } from '../../src/shared/net/gameLink';

const hosts: HostService[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function node(name: string) {
  const host = await createHost({
    shell: 'browser',
    appVersion: 'test',
    userDataDir: mkdtempSync(join(tmpdir(), 'starlane-gs-')),
    clientPort: 30000 + Math.floor(Math.random() * 20000),
    broadcastAddress: '127.255.255.255',
    lanInterfaces: [],
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  host.onEvents((b) => events.push(...b));
  await host.command(`name ${name}`);
  await host.command('protocol gameserver');
  return {
    host,
    run: (line: string) => host.command(line),
    text: () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : [])).join('\n'),
    states: (slot: number) => events.filter((e) => e.kind === 'net' && e.delivery.kind === 'state' && e.delivery.slot === slot).length,
    deliveries: (kind: NetDelivery['kind']) => events.flatMap((e) => (e.kind === 'net' && e.delivery.kind === kind ? [e.delivery] : [])),
  };
}

async function until(what: string, check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ship = (x: number, tick: number) => ({ pos: { x, y: 0, z: -tick }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: -tick }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 });

describe('gameserver protocol', () => {
  it('three players play through the gameserver: states and chat are relayed to each', async () => {
    const server = await startGameserver({ name: 'Test_GS', log: pino({ level: 'silent' }), port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: ['hello pilots'] });
    servers.push(server);
    const target = `127.0.0.1:${server.ports.tcp}`;
    const players = [await node('alpha'), await node('bravo'), await node('charlie')];
    for (const [i, p] of players.entries()) {
      await p.run(`connect ${target}`);
      await until(`${i} joined`, () => new RegExp(`joined gameserver "Test_GS" as slot ${i}`).test(p.text()));
    }
    expect(players[0]?.text()).toContain('Test_GS: hello pilots');
    // Every view reports its ship for a while; each player must receive the two others.
    for (let tick = 1; tick <= 30; tick++) {
      players.forEach((p, i) => p.host.frame({ frame: tick, tick, game: { tick, ship: ship(i * 50, tick), events: [] } }));
      await new Promise((r) => setTimeout(r, 25));
    }
    for (const [i, p] of players.entries()) {
      for (const other of [0, 1, 2].filter((s) => s !== i)) await until(`states of ${other} at ${i}`, () => p.states(other) > 3);
    }
    await players[2]?.run('say relayed hello');
    await until('chat at alpha', () => /charlie: relayed hello/.test(players[0]?.text() ?? ''));
    await until('chat at bravo', () => /charlie: relayed hello/.test(players[1]?.text() ?? ''));
    await players[1]?.run('disconnect');
    await until('alpha sees bravo leave', () => /bravo disconnected/.test(players[0]?.text() ?? ''));
  });
});
