/**
 * A gameserver seat belongs to the player who holds its token, not to an
 * address and port: replays of the player's datagrams cannot keep it alive,
 * and a NAT that moves the player to another port does not lose it.
 * In-process server on a virtual clock, real UDP on loopback.
 */
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { MIGRATE_AFTER_QUIET_MS } from '../../src/node/servers/game/gameDatagrams';
import { decodePacket, encodePacket } from '../../src/shared/wire/codec';
import { PacketType } from '../../src/shared/wire/types';
import { useGameservers } from '../support/gameserverFixture';
import { until } from '../support/testHost';
import { VirtualClock } from '../support/virtualClock';

const { server, players, sockets } = useGameservers();
const statesFrom = (c: { relayed(): { slot: number; packet: { header: { joined: boolean } } }[] }, slot: number) => c.relayed().filter((r) => r.slot === slot && r.packet.header.joined);

describe('gameserver seats and the datagrams that keep them', () => {
  it('a replayed keep-alive does not keep a silent player\'s seat: it is dropped, counted, and the seat expires', async () => {
    const clock = new VirtualClock();
    const s = await server({ clock, gatherMs: 0 });
    // Clients that send nothing but what the test says (not even acknowledgements of the server's match state).
    const [a, b] = await players(s, ['ace', 'bob'], { answerReliable: false });
    const alive = a!.packet({ type: PacketType.NodeAlive, joined: false });
    a!.sendRaw(alive);
    await until('the keep-alive taken', () => s.stats().nodeAlive >= 1);
    // Ace goes quiet; someone on its address sends its old keep-alive again every virtual second.
    let replays = 0;
    while (!s.stats().clients.every((c) => c.slot !== a!.slot)) {
      a!.sendRaw(alive);
      replays += 1;
      await until(`replay ${replays} refused`, () => (s.stats().drops.replayed ?? 0) >= replays);
      clock.advance(1000);
      if (replays > 20) throw new Error('the seat outlived 20 s of replayed keep-alives');
    }
    console.log(`gameserver: silent seat freed after ${replays} s of replayed keep-alives, all ${s.stats().drops.replayed} refused`);
    expect(replays).toBeLessThanOrEqual(11);
    expect(await b!.tcp.next()).toMatch(/^remove /);
  });

  it('a player whose NAT moves it to another UDP port keeps its seat once the old port is quiet; the old port is forgotten', async () => {
    const clock = new VirtualClock();
    const s = await server({ clock, gatherMs: 0 });
    const [a, b] = await players(s, ['ace', 'bob']);
    a!.sendState({ x: 1, y: 0, z: 0 });
    await b!.until(() => statesFrom(b!, a!.slot).length === 1, 10_000, 'bob to get ace');
    // The NAT's new mapping: the same address, another port.
    const moved = dgram.createSocket('udp4');
    sockets.push(moved);
    await new Promise<void>((resolve) => moved.bind(0, '127.0.0.1', () => resolve()));
    const relaysAtNewPort: number[] = [];
    moved.on('message', (msg) => {
      const r = decodePacket(msg);
      if (r.ok && r.packet.header.type === PacketType.Relay) relaysAtNewPort.push(r.packet.events.length);
    });
    const fromNewPort = (x: number) => moved.send(encodePacket(a!.packet({ pos: { x, y: 0, z: 0 } })), a!.accepted.udp, '127.0.0.1');
    // While the bound port is still talking, another port is refused.
    fromNewPort(2);
    await until('the early move refused', () => (s.stats().drops['wrong-port'] ?? 0) >= 1);
    // The old port goes quiet; the next datagram from the new port moves the seat.
    clock.advance(MIGRATE_AFTER_QUIET_MS);
    fromNewPort(3);
    await b!.until(() => statesFrom(b!, a!.slot).length === 2, 10_000, 'bob to get ace from its new port');
    expect(s.stats().migrations).toBe(1);
    // The server now sends ace's relays to the new port, and the old port is refused.
    b!.sendState({ x: 50, y: 0, z: 0 });
    await until('a relay at the new port', () => relaysAtNewPort.length > 0);
    const refusedBefore = s.stats().drops['wrong-port'] ?? 0;
    a!.sendState({ x: 4, y: 0, z: 0 });
    await until('the old port refused', () => (s.stats().drops['wrong-port'] ?? 0) > refusedBefore);
    console.log(`gameserver: NAT rebinding kept ace's seat (slot ${a!.slot}); ${s.stats().drops['wrong-port']} datagrams from the wrong port refused`);
    expect(s.stats().clients.map((c) => c.slot).sort()).toEqual([a!.slot, b!.slot].sort());
  });
});
