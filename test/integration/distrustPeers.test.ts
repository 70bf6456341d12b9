/**
 * Clients distrust their peers too: in a slotserver game (game packets go
 * peer to peer, no server checks them) a cheating client sends ship states
 * that break the simulation's limits straight to an honest player. A little
 * over the top speed is clamped; far beyond it the state is not shown at all;
 * the honest player's `players` listing counts both.
 */
import dgram from 'node:dgram';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SPEED } from '../../src/shared/game/kinds/ship';
import { startSlotserver } from '../../src/node/servers/slotserver';
import type { RunningServer } from '../../src/node/servers/types';
import { encodePacket } from '../../src/shared/wire/codec';
import { PacketType, type ShipState } from '../../src/shared/wire/types';
import { LineClient } from '../support/gameClient';
import { startTestHost, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
const servers: RunningServer[] = [];
const sockets: dgram.Socket[] = [];
const lines: LineClient[] = [];
afterEach(async () => {
  for (const l of lines.splice(0)) l.socket.destroy();
  for (const s of sockets.splice(0)) s.close();
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const state = (z: number, speed: number): ShipState => ({ pos: { x: 0, y: 0, z }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: -speed }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 });

describe('a client distrusts its peers', () => {
  it('clamps a ship a little too fast, hides one far too fast, and says so in players', async () => {
    const server = await startSlotserver({ name: 'Slots', log: pino({ level: 'silent' }), port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: [] });
    servers.push(server);
    const honest = await startTestHost('honest', { protocol: 'slotserver' });
    hosts.push(honest);
    await honest.run(`connect 127.0.0.1:${server.ports.tcp}`);
    await until('honest joined', () => honest.deliveries('players').some((d) => d.players.some((p) => p.local && p.joined)), 15_000);

    // The cheater joins like anyone (its UDP port in the join line), then talks to the honest player directly.
    const udp = dgram.createSocket('udp4');
    sockets.push(udp);
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
    const tcp = await LineClient.open(server.ports.tcp ?? 0);
    lines.push(tcp);
    tcp.send(`version: 1.0 join me: cheat os: linux port: ${udp.address().port}`);
    expect(await tcp.next()).toMatch(/^join from cheat accepted, slot: 1/);
    await until('honest lists the cheater', () => honest.deliveries('players').some((d) => d.players.some((p) => p.name === 'cheat')));
    const honestPort = server.players().find((p) => p.name === 'honest')?.port ?? 0;
    let id = 1;
    const send = (s: ShipState) =>
      udp.send(encodePacket({ header: { type: PacketType.GameState, senderSlot: 1, messageId: id++, gameTime: 0, joined: true, state: s }, events: [] }), honestPort, '127.0.0.1');

    send(state(0, 10));
    await until('an honest-looking state arrives', () => honest.states(1) === 1);
    await new Promise((r) => setTimeout(r, 50));
    send(state(-1, 2 * MAX_SPEED)); // twice the top speed: mild, clamped
    await until('the clamped state arrives', () => honest.states(1) === 2);
    send(state(-2, 50 * MAX_SPEED)); // fifty times: blatant, not shown
    await until('players counts them', async () => {
      await honest.run('players');
      return /implausible ship states from other players: 1 clamped, 1 not shown/.test(honest.text());
    }, 10_000, 100);
    const speeds = honest.deliveries('state').filter((d) => d.slot === 1).map((d) => Math.hypot(d.state.vel.x, d.state.vel.y, d.state.vel.z));
    expect(speeds.length).toBe(2);
    expect(speeds[1]).toBeLessThanOrEqual(MAX_SPEED * 1.02);
  });
});
