/**
 * Issue 27, seats: a seat counts only once its player has proved its UDP
 * endpoint within `proveUdpMs` (default 5 s) of the TCP join: a slotserver
 * player by a time-sync request from its address, a gameserver or netgame
 * player by a first datagram with its token. A seat that does not is freed,
 * its player told why, and its host struck (3 unproved seats within a minute
 * refuse its joins until they fade). Slot- and netgame servers let one host
 * hold all seats but one by default. Eight TCP joins from one address that
 * never send UDP (the probe's squatter) no longer keep an honest player out.
 * Protocol time runs on a virtual clock; distinct loopback addresses play
 * distinct hosts.
 */
import dgram from 'node:dgram';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startGameserver } from '../../src/node/servers/game/gameserver';
import { startNetgameServer } from '../../src/node/servers/netgame/netgameServer';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import type { RunningServer } from '../../src/node/servers/common/types';
import { encodeTimeRequest } from '../../src/shared/time';
import { PacketType } from '../../src/shared/wire/types';
import { GameClient } from '../support/gameClient';
import type { LineClient } from '../support/lineClient';
import { SQUATTER, squatterRig } from '../support/squatters';
import { VirtualClock } from '../support/virtualClock';

const silent = pino({ level: 'silent' });
const { games, sockets, servers, tcpJoin, squat } = squatterRig<RunningServer>();

/** What a freed squatter was told: its `removed:` line (the client-list lines before it skipped), then `removing you` and the close. */
async function toldWhy(client: LineClient): Promise<string> {
  let line = await client.next();
  while (!line.startsWith('removed:')) line = await client.next();
  expect(await client.next()).toBe('removing you');
  await client.closed;
  return line;
}

/** Sends one time-sync request to the slotserver's UDP port from `address` and waits for its answer (the proof of that host). */
async function timeSync(udpPort: number, address: string): Promise<void> {
  const udp = dgram.createSocket('udp4');
  sockets.push(udp);
  await new Promise<void>((resolve) => udp.bind(0, address, resolve));
  const answered = new Promise<void>((resolve) => udp.once('message', () => resolve()));
  udp.send(encodeTimeRequest(1, 1), udpPort, '127.0.0.1');
  await answered;
}

describe('slotserver: eight silent joins from one address do not hold every seat', () => {
  it('default host limit (7 of 8): an honest player joins at once; the squatters are freed after 5 s, told why, and their address is refused for a while', async () => {
    const clock = new VirtualClock();
    const s = await startSlotserver({ name: 'proof', host: '127.0.0.1', port: 0, maxPlayers: 8, welcome: [], clock, log: silent });
    servers.push(s);
    const tcp = s.ports.tcp ?? 0;
    const { accepted, refused } = await squat(tcp, 8);
    const honest = await tcpJoin(tcp, '127.0.0.1', 'honest', 6526);
    await timeSync(s.ports.udp ?? 0, '127.0.0.1');
    clock.advance(5000);
    const heldAt5s = s.playerCount();
    clock.advance(1000);
    const told = await Promise.all(accepted.map(toldWhy));
    const again = await tcpJoin(tcp, SQUATTER, 'again', 21_000);
    console.log(
      `slotserver 8 seats, defaults: squatter ${SQUATTER} joined 8 times → ${accepted.length} seats, refused ${JSON.stringify(refused)}; honest join: "${honest.reply.replace(/,.*/, '')}"; ` +
        `seated at 5 s: ${heldAt5s}; at 6 s: ${s.playerCount()} (${s.players().map((p) => p.name).join(', ')}); squatters told "${told[0]}" (${told.length}); the squatter joining again: "${again.reply}"`,
    );
    expect(accepted).toHaveLength(7);
    expect(refused).toEqual({ 'server full': 1 });
    expect(honest.reply).toMatch(/^join from honest accepted/);
    expect(heldAt5s).toBe(8);
    expect(new Set(told)).toEqual(new Set(['removed: no time-sync datagram from your address within 5 s of joining']));
    expect(s.players().map((p) => p.name)).toEqual(['honest']);
    expect(again.reply).toBe('server full');
  });

  it('--max-per-address 8 (a LAN party behind one NAT): the squatter fills all 8 seats, but only for the 5 s window; then the honest player joins', async () => {
    const clock = new VirtualClock();
    const s = await startSlotserver({ name: 'lan', host: '127.0.0.1', port: 0, maxPlayers: 8, maxPerAddress: 8, welcome: [], clock, log: silent });
    servers.push(s);
    const tcp = s.ports.tcp ?? 0;
    const { accepted } = await squat(tcp, 8);
    const before = await tcpJoin(tcp, '127.0.0.1', 'early', 6526);
    clock.advance(6000);
    const told = await Promise.all(accepted.map(toldWhy));
    const after = await tcpJoin(tcp, '127.0.0.1', 'late', 6526);
    console.log(`slotserver 8 seats, --max-per-address 8: squatter seats ${accepted.length}; honest join meanwhile: "${before.reply}"; after 6 s ${told.length} squatters freed, told "${told[0]}"; honest join then: "${after.reply.replace(/,.*/, '')}"`);
    expect(accepted).toHaveLength(8);
    expect(before.reply).toBe('server full');
    expect(told).toHaveLength(8);
    expect(after.reply).toMatch(/^join from late accepted/);
  });
});

describe('gameserver and netgame: a seat without a datagram carrying its token is freed after 5 s', () => {
  it('gameserver, 9 seats, default host limit 8: eight silent joins are freed and told why; a playing player keeps its seat', async () => {
    const clock = new VirtualClock();
    const s = await startGameserver({ name: 'proof', host: '127.0.0.1', port: 0, udpPort: 0, maxPlayers: 9, clock, pingIntervalMs: 60_000, log: silent });
    servers.push(s);
    const { accepted } = await squat(s.ports.tcp ?? 0, 8);
    const player = await GameClient.join({ tcpPort: s.ports.tcp ?? 0, name: 'pilot' });
    games.push(player);
    player.sendRaw(player.packet({ type: PacketType.NodeAlive, joined: false }));
    await player.until(() => s.stats().nodeAlive > 0, 10_000, 'the server to hear the player');
    clock.advance(5000);
    const heldAt5s = s.playerCount();
    clock.advance(100);
    const told = await Promise.all(accepted.map(toldWhy));
    console.log(`gameserver 9 seats: squatter seats ${accepted.length}, seated at 5 s ${heldAt5s}, after 5.1 s ${s.playerCount()} (${s.players().map((p) => p.name).join(', ')}); squatters told "${told[0]}"; tcp counters ${JSON.stringify(s.stats().tcp)}`);
    expect(accepted).toHaveLength(8);
    expect(heldAt5s).toBe(9);
    expect(new Set(told)).toEqual(new Set(['removed: no game datagram with your token within 5 s of joining']));
    expect(s.players().map((p) => p.name)).toEqual(['pilot']);
  });

  it('netgame, 8 seats, default host limit 7: an honest join gets the eighth seat; the squatters are freed after 5 s and told why', async () => {
    const clock = new VirtualClock();
    const s = await startNetgameServer({ name: 'proof', host: '127.0.0.1', port: 0, udpPort: 0, clock, log: silent });
    servers.push(s);
    const { accepted, refused } = await squat(s.ports.tcp, 8);
    const honest = await tcpJoin(s.ports.tcp, '127.0.0.1', 'honest', 6526);
    clock.advance(5100);
    const told = await Promise.all(accepted.map(toldWhy));
    console.log(`netgame 8 seats: squatter seats ${accepted.length}, refused ${JSON.stringify(refused)}; honest join: "${honest.reply.replace(/,.*/, '')}"; squatters told "${told[0]}" (${told.length})`);
    expect(accepted).toHaveLength(7);
    expect(refused).toEqual({ 'server full': 1 });
    expect(honest.reply).toMatch(/^join from honest accepted/);
    expect(new Set(told)).toEqual(new Set(['removed: no game datagram with your token within 5 s of joining']));
  });
});
