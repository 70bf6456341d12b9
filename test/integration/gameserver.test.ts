/**
 * Gameserver behaviour over real TCP and UDP sockets on loopback: the join
 * lines with the udp/token extension, relaying with the distance filter,
 * node-alive filtering, spoofed datagrams, burst priorities, client-list
 * updates, the silence timeout and shutdown. Clients: test/support/gameClient.ts.
 */
import { WIRE_VERSION } from '../../src/shared/wire/types';
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { encodePacket } from '../../src/shared/wire/codec';
import { MAX_RELAY_BYTES, PacketType, objectId, type RemoteEvent } from '../../src/shared/wire/types';

import { renderGameserverStatus } from '../../src/node/servers/game/gameserverStatus';
import { GameClient, LineClient } from '../support/gameClient';
import { until } from '../support/testHost';
import { VirtualClock } from '../support/virtualClock';
import { useGameservers } from '../support/gameserverFixture';

const { SERVER, server, join, players, lineClients, sockets } = useGameservers();
const statesFrom = (c: GameClient, slot: number) => c.relayed().filter((r) => r.slot === slot && r.packet.header.joined);
const laser = (slot: number, id: number): RemoteEvent => ({ type: 'createLaser', id: objectId(slot, id), pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -300 }, ttl: 40 });
const chat = (text: string): RemoteEvent => ({ type: 'sendText', text });

describe('gameserver join (same TCP protocol as the slotserver, plus udp and token)', () => {
  it('accepts with slot, server name, udp port and an 8-hex-digit token, then four message lines and the add lines', async () => {
    const s = await server();
    const a = await LineClient.open(s.ports.tcp ?? 0);
    lineClients.push(a);
    a.send('version: 1.0 join me: ace os: linux-x64 port: 40001');
    const accept = await a.next();
    expect(accept).toMatch(new RegExp(`^join from ace accepted, slot: 0, server name: ${SERVER}, udp: ${s.ports.udp}, token: [0-9a-f]{8}$`));
    expect([await a.next(), await a.next(), await a.next(), await a.next()]).toEqual(['Welcome.', '', '', '']);
    const b = await LineClient.open(s.ports.tcp ?? 0);
    lineClients.push(b);
    b.send('version: 1.0 join me: bob os: linux-x64 port: 40002');
    const acceptB = await b.next();
    expect(acceptB).toMatch(/^join from bob accepted, slot: 1, server name: Test Game, udp: \d+, token: [0-9a-f]{8}$/);
    expect(acceptB.slice(-8)).not.toBe(accept.slice(-8));
    for (let i = 0; i < 4; i++) await b.next();
    expect(await b.next()).toBe('add ip: 127.0.0.1:40001 name: ace in 0');
    expect(await a.next()).toBe('add ip: 127.0.0.1:40002 name: bob in 1');
    expect(s.playerCount()).toBe(2);
  });

  it('refuses like the slotserver: a taken name, an incompatible version, a full server', async () => {
    const s = await server({ maxPlayers: 1 });
    await join(s, 'ace');
    const b = await LineClient.open(s.ports.tcp ?? 0);
    lineClients.push(b);
    b.send('version: 1.0 join me: ACE os: x port: 40003');
    expect(await b.next()).toBe('server full');
    const c = await LineClient.open(s.ports.tcp ?? 0);
    lineClients.push(c);
    c.send('version: 2.0 join me: cid os: x');
    expect(await c.next()).toBe('server version incompatible');
    const t = await server({ maxPlayers: 2 });
    await join(t, 'ace');
    const d = await LineClient.open(t.ports.tcp ?? 0);
    lineClients.push(d);
    d.send('version: 1.0 join me: ACE os: x port: 40004');
    expect(await d.next()).toBe('name already taken');
  });

  it('updates the client list on add, rename and remove, and a removed session token stops working', async () => {
    const s = await server();
    const [a, b] = await players(s, ['ace', 'bob']);
    b!.tcp.send('my new name: Blue Max');
    expect(await b!.tcp.next()).toBe('new name accepted');
    expect(await a!.tcp.next()).toBe(`name ip: 127.0.0.1:${b!.udpPort} name: Blue Max`);
    b!.tcp.send('remove me');
    expect(await b!.tcp.next()).toBe('removing you');
    expect(await a!.tcp.next()).toBe(`remove ip: 127.0.0.1:${b!.udpPort}`);
    b!.sendState({ x: 0, y: 0, z: 0 });
    await until('the removed token to be refused', () => (s.stats().drops['unknown-token'] ?? 0) > 0);
    expect(s.stats().drops['unknown-token']).toBe(1);
    const c = await join(s, 'cid');
    expect(await a!.tcp.next()).toBe(`add ip: 127.0.0.1:${c.udpPort} name: cid in 1`);
    c.tcp.socket.destroy();
    expect(await a!.tcp.next()).toBe(`remove ip: 127.0.0.1:${c.udpPort}`);
  });
});

describe('gameserver relaying', () => {
  it('three clients each receive the two others’ states in Relay datagrams, never their own', async () => {
    const clock = new VirtualClock();
    const s = await server({ clock, gatherMs: 0 });
    const cs = await players(s, ['ace', 'bob', 'cid']);
    cs.forEach((c, i) => c.sendState({ x: i * 10, y: 0, z: 0 }));
    for (const c of cs) await c.until(() => cs.every((o) => o === c || statesFrom(c, o.slot).length > 0), 10_000, `${c.accepted.name} to get both states`);
    for (const [i, c] of cs.entries()) {
      expect(statesFrom(c, c.slot)).toEqual([]);
      for (const [j, o] of cs.entries()) if (i !== j) expect(statesFrom(c, o.slot)[0]?.packet.header.state?.pos).toEqual({ x: j * 10, y: 0, z: 0 });
      for (const r of c.relays()) {
        expect(r.bytes).toBeLessThanOrEqual(512);
        expect(r.packet.header.token).toBe(c.token);
      }
    }
    // Once per new state: a second of server ticks while nobody sends relays nothing; then one new
    // state from ace is the only player datagram the others get (loopback keeps the server's sends in
    // order; the server's own match-state messages, resent until acknowledged, are not player traffic).
    const playerRelays = (c: GameClient) => c.relays().filter((r) => r.packet.events.some((e) => e.type === 'relayed')).length;
    const before = cs.map(playerRelays);
    clock.advance(1000);
    cs[0]!.sendState({ x: 1, y: 0, z: 0 });
    for (const c of cs.slice(1)) await c.until(() => statesFrom(c, cs[0]!.slot).length === 2, 10_000, `${c.accepted.name} to get ace's second state`);
    expect(cs.map(playerRelays)).toEqual(before.map((n, i) => (i === 0 ? n : n + 1)));
  });

  it('a client beyond the filter radius gets no states of the others (counted) but still their chat', async () => {
    // Relays on the tick only, so all three positions are known when the first one goes out.
    const s = await server({ filterRadius: 2000, flush: 'tick', tickHz: 5 });
    const [a, b, far] = await players(s, ['ace', 'bob', 'far']);
    far!.sendState({ x: 5000, y: 0, z: 0 });
    a!.sendState({ x: 0, y: 0, z: 0 });
    b!.sendState({ x: 100, y: 0, z: 0 });
    await a!.until(() => statesFrom(a!, b!.slot).length > 0, 10_000, 'a to get b');
    a!.sendState({ x: 0, y: 0, z: 0 }, [chat('anyone out there?'), laser(a!.slot, 1)]);
    await far!.until(() => far!.relayed().some((r) => r.packet.events.length > 0), 10_000, 'far to get the chat');
    await b!.until(() => b!.relayed().some((r) => r.packet.events.length > 0), 10_000, 'b to get the chat');
    expect(statesFrom(far!, a!.slot)).toEqual([]);
    expect(statesFrom(far!, b!.slot)).toEqual([]);
    const carried = far!.relayed().flatMap((r) => r.packet.events);
    expect(carried).toEqual([chat('anyone out there?')]); // the laser stays within the radius
    // The chat travels in a carrier without a ship (wire v10): far learns nothing of where they are.
    for (const r of far!.relayed()) expect(r.packet.header.state).toBeUndefined();
    expect(statesFrom(a!, far!.slot)).toEqual([]);
    const farStats = s.stats().clients.find((c) => c.slot === far!.slot);
    expect(farStats?.statesFiltered).toBeGreaterThanOrEqual(2);
    expect(farStats?.eventsFiltered).toBe(1);
    expect(b!.relayed().flatMap((r) => r.packet.events).map((e) => e.type)).toEqual(['createLaser', 'sendText']);
  });

  it('node-alive packets refresh the sender but are never forwarded', async () => {
    const s = await server();
    const [a, b] = await players(s, ['ace', 'bob']);
    const before = s.stats();
    for (let i = 0; i < 5; i++) a!.sendRaw(a!.packet({ type: PacketType.NodeAlive, joined: false, pos: { x: i, y: 0, z: 0 } }));
    await until('the server to read the five node-alive packets', () => s.stats().nodeAlive - before.nodeAlive >= 5);
    // A state sent after them is the first thing b hears: nothing was forwarded before it.
    a!.sendState({ x: 7, y: 0, z: 0 });
    // Waited for as the first thing relayed from a (the server's own match-state messages to b may come first).
    await b!.until(() => b!.relayed().some((r) => r.slot === a!.slot), 10_000, 'b to get the state');
    expect(statesFrom(b!, a!.slot).map((r) => r.packet.header.state?.pos)).toEqual([{ x: 7, y: 0, z: 0 }]);
    // Of a's packets, b got only the state (the server's own match-state messages aside).
    expect(b!.relays().filter((r) => r.packet.events.some((e) => e.type === 'relayed'))).toHaveLength(1);
    expect(s.stats().nodeAlive - before.nodeAlive).toBe(5);
  });

  it('spoofed datagrams (other port after binding, other address, wrong token, wrong slot, no token, garbage) change nothing and are counted', async () => {
    const s = await server();
    const [a, b] = await players(s, ['ace', 'bob']);
    a!.sendState({ x: 1, y: 2, z: 3 });
    await b!.until(() => statesFrom(b!, a!.slot).length === 1, 10_000, 'b to get a');
    const spoofer = dgram.createSocket('udp4');
    sockets.push(spoofer);
    await new Promise<void>((r) => spoofer.bind(0, '127.0.0.1', () => r()));
    const other = dgram.createSocket('udp4');
    sockets.push(other);
    await new Promise<void>((r) => other.bind(0, '127.0.0.2', () => r()));
    const forged = (o: Parameters<GameClient['packet']>[0]) => encodePacket(a!.packet({ pos: { x: 999, y: 0, z: 0 }, ...o }));
    const to = (sock: dgram.Socket, bytes: Uint8Array) => sock.send(bytes, s.ports.udp ?? 0, '127.0.0.1');
    to(spoofer, forged({}));
    to(other, forged({}));
    to(a!.udp, forged({ token: (a!.token ^ 0x5a5a5a5a) >>> 0 }));
    to(a!.udp, forged({ senderSlot: b!.slot }));
    const noToken = a!.packet({ pos: { x: 999, y: 0, z: 0 } });
    delete noToken.header.token;
    to(a!.udp, encodePacket(noToken));
    to(a!.udp, Uint8Array.from([0x53, 0x4c, WIRE_VERSION, 1, 0]));
    const dropped = () => Object.values(s.stats().drops).reduce((n, d) => n + d, 0);
    await until('the six forgeries to be dropped', () => dropped() >= 6);
    // From a's own bound endpoint, whatever lacks a's token (wrong token, no token, garbage) is a forgery, dropped before decoding.
    expect(s.stats().drops).toMatchObject({ 'wrong-port': 1, 'wrong-address': 1, 'forged-token': 3, 'wrong-slot': 1 });
    expect(statesFrom(b!, a!.slot).map((r) => r.packet.header.state?.pos)).toEqual([{ x: 1, y: 2, z: 3 }]);
    // The real client still gets through.
    a!.sendState({ x: 4, y: 5, z: 6 });
    await b!.until(() => statesFrom(b!, a!.slot).length === 2, 10_000, 'b to get a again');
  });

  it('drops a replayed (duplicate) and a stale message id but forwards a late packet’s events', async () => {
    const s = await server();
    const [a, b] = await players(s, ['ace', 'bob']);
    const p5 = a!.packet({ messageId: 5, events: [chat('five')] });
    a!.sendRaw(p5);
    a!.sendRaw(p5);
    a!.sendRaw(a!.packet({ messageId: 10 }));
    a!.sendRaw(a!.packet({ messageId: 4, events: [chat('four')], pos: { x: 4, y: 4, z: 4 } }));
    a!.sendRaw(a!.packet({ messageId: 50 }));
    a!.sendRaw(a!.packet({ messageId: 12, events: [chat('too old')] }));
    await until('the duplicate and the stale packet to be dropped', () => (s.stats().drops.replayed ?? 0) + (s.stats().drops.stale ?? 0) >= 2);
    await b!.until(() => statesFrom(b!, a!.slot).some((r) => r.packet.header.messageId === 50), 10_000, 'b to get message 50');
    expect(s.stats().drops).toMatchObject({ replayed: 1, stale: 1 });
    const texts = b!.relayed().flatMap((r) => r.packet.events.map((e) => (e.type === 'sendText' ? e.text : e.type)));
    expect(texts).toEqual(['five', 'four']);
    // The late packet's state never replaces a newer one.
    const ids = statesFrom(b!, a!.slot).map((r) => r.packet.header.messageId);
    expect(ids.at(-1)).toBe(50);
    expect(ids).not.toContain(4);
    expect(statesFrom(b!, a!.slot).every((r) => r.packet.header.state?.pos.x === 0)).toBe(true);
  });
});

describe('gameserver bursts', () => {
  const burst = (a: GameClient) => {
    for (let i = 0; i < 20; i++) a.sendState({ x: 0, y: 0, z: 0 }, [laser(a.slot, i), chat(`chat ${i}`)]);
  };
  // Per relay of player traffic (the server's own match-state messages aside), the kinds of events it carried.
  const kinds = (c: GameClient) =>
    c
      .relays()
      .filter((r) => r.packet.events.some((e) => e.type === 'relayed'))
      .map((r) => r.packet.events.flatMap((e) => (e.type === 'relayed' ? e.packet.events.map((x) => x.type) : [])));

  it('with one datagram per tick, lasers go in the first relay, chat follows later, none lost, order kept', async () => {
    // A slow tick, so the whole burst (sent within a millisecond) is read before the first relay.
    const s = await server({ flush: 'tick', maxDatagramsPerTick: 1, tickHz: 4, outdatedMs: 5000 });
    const [a, b] = await players(s, ['ace', 'bob']);
    burst(a!);
    await b!.until(() => b!.relayed().flatMap((r) => r.packet.events).filter((e) => e.type === 'sendText').length === 20, 10_000, 'all chat');
    const perDatagram = kinds(b!);
    const first = perDatagram[0] ?? [];
    expect(first.filter((k) => k === 'createLaser').length).toBeGreaterThanOrEqual(11);
    expect(first.filter((k) => k === 'sendText').length).toBeLessThan(first.filter((k) => k === 'createLaser').length);
    const all = b!.relayed().flatMap((r) => r.packet.events);
    expect(all.filter((e) => e.type === 'createLaser').map((e) => (e.type === 'createLaser' ? e.id & 0xffff : -1))).toEqual([...Array(20).keys()]);
    expect(all.filter((e) => e.type === 'sendText').map((e) => (e.type === 'sendText' ? e.text : ''))).toEqual(Array.from({ length: 20 }, (_, i) => `chat ${i}`));
    // Every laser is out before the last chat line.
    expect(all.map((e) => e.type).lastIndexOf('createLaser')).toBeLessThan(all.map((e) => e.type).lastIndexOf('sendText'));
    for (const r of b!.relays()) expect(r.bytes).toBeLessThanOrEqual(MAX_RELAY_BYTES);
  });

  it('forwarding on arrival: the first relay carries lasers, every datagram puts lasers before chat, nothing is lost', async () => {
    const s = await server();
    const [a, b] = await players(s, ['ace', 'bob']);
    burst(a!);
    await b!.until(() => b!.relayed().flatMap((r) => r.packet.events).filter((e) => e.type === 'sendText').length === 20, 10_000, 'all chat');
    const perDatagram = kinds(b!);
    expect(perDatagram[0]).toContain('createLaser');
    for (const k of perDatagram) expect(k.indexOf('sendText') < 0 || k.lastIndexOf('createLaser') < k.indexOf('sendText')).toBe(true);
    expect(perDatagram.flat().filter((k) => k === 'createLaser')).toHaveLength(20);
    for (const r of b!.relays()) expect(r.bytes).toBeLessThanOrEqual(MAX_RELAY_BYTES);
  });
});

describe('gameserver sessions', () => {
  it('removes a player that sent no game datagram for the timeout, telling it why and a 1.1 player that it timed out; node-alive keeps another one', async () => {
    // Virtual time: the default 10 s timeout passes in 100 ms steps, each after alive's node-alive has arrived.
    const clock = new VirtualClock();
    const s = await server({ clock, gatherMs: 0 });
    // Quiet sends nothing at all, not even the acknowledgements of the server's reliable messages (the match, the extras).
    const quiet = await join(s, 'quiet', { answerReliable: false });
    const alive = await join(s, 'alive', { version: '1.1' });
    // Each hears of the other; each says hello once (quiet's last word).
    await alive.tcp.next();
    await quiet.tcp.next();
    quiet.hello();
    alive.hello();
    await until('both bound', () => s.stats().clients.every((c) => c.udp !== null));
    let removed = false;
    // It is told why before `removing you`.
    void quiet!.tcp.next(60_000).then((line) => (removed = line === 'removed: no game datagram for 10 s'));
    for (let t = 0; t <= 10_200 && !removed; t += 100) {
      const heard = s.stats().nodeAlive;
      alive!.sendRaw(alive!.packet({ type: PacketType.NodeAlive, joined: false }));
      // Polled every millisecond: the datagram takes well under one on loopback, and this runs 100 times.
      await until('the server to hear alive', () => s.stats().nodeAlive > heard, 10_000, 1);
      clock.advance(100);
      if (t < 10_000) expect(s.players().map((p) => p.name), `both still in at ${t + 100} ms`).toEqual(['quiet', 'alive']);
    }
    expect(await alive!.tcp.next()).toBe(`remove ip: 127.0.0.1:${quiet!.udpPort} left: timed out`);
    await until('quiet to hear why it was removed', () => removed);
    expect(await quiet!.tcp.next()).toBe('removing you');
    expect(s.players().map((p) => p.name)).toEqual(['alive']);
  });

  it('measures ping, reports per-client stats in the status JSON, and says goodbye on close', async () => {
    const s = await server({ pingIntervalMs: 100 });
    const [a, b] = await players(s, ['ace', '<b>']);
    a!.sendState({ x: 0, y: 0, z: 0 });
    b!.sendState({ x: 0, y: 0, z: 0 });
    await a!.until(() => s.stats().clients.every((c) => c.pingMs !== null), 10_000, 'pings');
    const { html, json } = renderGameserverStatus(s);
    const status = JSON.parse(json) as { players: { name: string; pingMs: number; udp: string; statesSent: number }[]; packetsIn: number; cpu: { userMs: number } };
    expect(status.players.map((p) => p.name)).toEqual(['ace', '<b>']);
    expect(status.players[0]?.udp).toBe(`127.0.0.1:${a!.udpPort}`);
    expect(status.players[0]?.statesSent).toBe(1);
    expect(status.packetsIn).toBeGreaterThanOrEqual(2);
    expect(status.cpu.userMs).toBeGreaterThan(0);
    expect(html).toContain('&#60;b&#62;');
    expect(html).not.toContain('<b>');
    await s.close();
    expect(await a!.tcp.next()).toBe('removing you');
    expect(await b!.tcp.next()).toBe('removing you');
  });
});
