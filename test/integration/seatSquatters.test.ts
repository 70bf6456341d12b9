/**
 * A seat squatter: one address joining over and over over TCP and never
 * playing. Each host (an IPv4 address; IPv6 per /64, see the addressKey unit
 * test) holds at most `maxPerAddress` seats (the gameserver's default 8; slot-
 * and netgame servers all seats but one), so honest players from other
 * addresses still get seats, and a seat held without UDP traffic expires: one
 * that never proved its endpoint after 5 s (seatProof.test.ts), one that fell
 * silent after the silence timeout. Distinct
 * loopback addresses (127.0.0.x, bound as the client's local address) play
 * distinct hosts.
 */
import dgram from 'node:dgram';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startGameserver, type Gameserver } from '../../src/node/servers/game/gameserver';
import { startSlotserver, type Slotserver } from '../../src/node/servers/slot/slotserver';
import { encodeTimeRequest } from '../../src/shared/time';
import { PacketType } from '../../src/shared/wire/types';
import { GameClient } from '../support/gameClient';
import { SQUATTER, squatterRig } from '../support/squatters';
import { VirtualClock } from '../support/virtualClock';

const { games, sockets, servers, tcpJoin, squat } = squatterRig<Gameserver | Slotserver>();

describe('a seat squatter does not fill the gameserver', () => {
  it('one address joining 16 times without UDP gets 8 seats; 8 honest players from elsewhere still join and play', async () => {
    const s = await startGameserver({ name: 'squat', host: '127.0.0.1', port: 0, udpPort: 0, maxPlayers: 16, log: pino({ level: 'silent' }) });
    servers.push(s);
    const { accepted, refused } = await squat(s.ports.tcp ?? 0, 16);
    const honest: GameClient[] = [];
    for (let i = 0; i < 8; i++) {
      const g = await GameClient.join({ tcpPort: s.ports.tcp ?? 0, name: `pilot${i}` });
      games.push(g);
      honest.push(g);
    }
    console.log(`gameserver, 16 seats: squatter ${SQUATTER} joined 16 times → ${accepted.length} seats, refused ${JSON.stringify(refused)}; honest players from 127.0.0.1 seated ${honest.length} of 8; players ${s.playerCount()}/16`);
    expect(accepted).toHaveLength(8);
    expect(refused).toEqual({ 'server full': 8 });
    expect(honest.map((g) => g.slot).sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
    expect(s.stats().tcp['address-seats']).toBe(8);
  });

  it('a seat held over TCP alone (a line every 2.5 s) is freed 5 s after its join with the reason; a playing seat stays', async () => {
    const clock = new VirtualClock();
    const s = await startGameserver({ name: 'squat', host: '127.0.0.1', port: 0, udpPort: 0, clock, pingIntervalMs: 60_000, log: pino({ level: 'silent' }) });
    servers.push(s);
    const { client: squatter } = await tcpJoin(s.ports.tcp ?? 0, SQUATTER, 'squat', 20_000);
    const player = await GameClient.join({ tcpPort: s.ports.tcp ?? 0, name: 'pilot' });
    games.push(player);
    expect(await squatter.next()).toMatch(/^add ip: 127\.0\.0\.1:\d+ name: pilot in 1$/);
    // 5 s of virtual time in 100 ms steps: the player sends a node-alive each step, the squatter a TCP line every 2.5 s.
    for (let t = 100; t <= 5000; t += 100) {
      const heard = s.stats().nodeAlive;
      player.sendRaw(player.packet({ type: PacketType.NodeAlive, joined: false }));
      await player.until(() => s.stats().nodeAlive > heard, 10_000, 'the server to hear the player');
      if (t % 2500 === 0) {
        squatter.send('my new name: squat');
        expect(await squatter.next()).toBe('new name accepted');
      }
      clock.advance(100);
      expect(s.playerCount(), `both seated at ${t} ms`).toBe(2);
    }
    clock.advance(100);
    expect(await squatter.next()).toBe('removed: no game datagram with your token within 5 s of joining');
    expect(await squatter.next()).toBe('removing you');
    await squatter.closed;
    expect(s.players().map((p) => p.name)).toEqual(['pilot']);
  });
});

describe('a seat squatter does not fill the slotserver', () => {
  it('silent squatters lose their seats after the silence timeout and honest players get them; a host limit of 2 leaves 6 seats free', async () => {
    const clock = new VirtualClock();
    // The silence timeout alone: the 5 s proof rule off, and a LAN party's host limit (all 8 seats).
    const s = await startSlotserver({ name: 'squat', host: '127.0.0.1', port: 0, maxPlayers: 8, maxPerAddress: 8, proveUdpMs: 0, welcome: [], clock, log: pino({ level: 'silent' }) });
    servers.push(s);
    const tcp = s.ports.tcp ?? 0;
    const first = await squat(tcp, 8);
    const refusedBefore = (await tcpJoin(tcp, '127.0.0.1', 'early', 6526)).reply;
    clock.advance(30_000);
    expect(s.playerCount()).toBe(8);
    clock.advance(1000);
    for (const c of first.accepted) await c.closed;
    const late = await tcpJoin(tcp, '127.0.0.1', 'late', 6526);
    console.log(`slotserver, 8 seats, host limit 8, no proof rule: squatter joined 8 silently → ${first.accepted.length} seats; an honest join then: "${refusedBefore}"; after 31 s without time-sync: ${8 - first.accepted.filter((c) => !c.ended).length} squatter seats freed; honest join: "${late.reply.replace(/,.*/, '')}"`);
    expect(first.accepted).toHaveLength(8);
    expect(refusedBefore).toBe('server full');
    expect(late.reply).toMatch(/^join from late accepted/);

    const tight = await startSlotserver({ name: 'tight', host: '127.0.0.1', port: 0, maxPlayers: 8, maxPerAddress: 2, welcome: [], log: pino({ level: 'silent' }) });
    servers.push(tight);
    const second = await squat(tight.ports.tcp ?? 0, 8);
    let honest = 0;
    for (let i = 0; i < 6; i++) if ((await tcpJoin(tight.ports.tcp ?? 0, `127.0.0.${20 + i}`, `pilot${i}`, 6526)).reply.startsWith('join from')) honest += 1;
    console.log(`slotserver, 8 seats, --max-per-address 2: squatter joined 8 times → ${second.accepted.length} seats, refused ${JSON.stringify(second.refused)}; honest players seated ${honest} of 6`);
    expect(second.accepted).toHaveLength(2);
    expect(honest).toBe(6);
  });

  it("a joined player whose address sends time-sync requests keeps its seat; a silent one's expires with the reason", async () => {
    const clock = new VirtualClock();
    const s = await startSlotserver({ name: 'quiet', host: '127.0.0.1', port: 0, maxPlayers: 8, welcome: [], clock, silenceTimeoutMs: 5000, proveUdpMs: 0, log: pino({ level: 'silent' }) });
    servers.push(s);
    const tcp = s.ports.tcp ?? 0;
    const { client: silent } = await tcpJoin(tcp, SQUATTER, 'silent', 6526);
    const { client: syncing } = await tcpJoin(tcp, '127.0.0.1', 'syncing', 6526);
    await silent.next(); // the add of `syncing`
    await syncing.next(); // the add of `silent`
    // `syncing`'s game socket asks the time once a virtual second, as a Starlane client does while joined.
    const udp = dgram.createSocket('udp4');
    sockets.push(udp);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const replies: Buffer[] = [];
    udp.on('message', (m) => replies.push(m));
    for (let t = 1000; t <= 5000; t += 1000) {
      const before = replies.length;
      udp.send(encodeTimeRequest(t, t), s.ports.udp ?? 0, '127.0.0.1');
      await new Promise<void>((resolve) => udp.once('message', () => resolve()));
      expect(replies.length).toBe(before + 1);
      clock.advance(1000);
    }
    clock.advance(1000);
    expect(await silent.next()).toBe('removed: no time-sync datagram from your address for 6 s');
    expect(await silent.next()).toBe('removing you');
    expect(await syncing.next()).toBe(`remove ip: ${SQUATTER}`);
    expect(s.players().map((p) => p.name)).toEqual(['syncing']);
  });
});
