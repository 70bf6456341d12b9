/**
 * The gameserver's flush on arrival gathers what arrives for gatherMs on the
 * server's clock (default 4 ms) before relaying it: states of two players
 * arriving a millisecond apart reach a third in one datagram, 4 ms after the
 * first came; with gatherMs 0 each burst read is relayed at once, one
 * datagram per arrival.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../support/virtualClock';
import { decodedRelays } from '../../support/relayDatagrams';
import type { NodeAddress } from '../../../src/shared/net/packetApi';
import { encodePacket } from '../../../src/shared/wire/codec';
import { PacketType } from '../../../src/shared/wire/types';
import { DiscoveryResponder } from '../../../src/node/servers/common/discoveryResponder';
import { A2sResponder } from '../../../src/node/servers/common/a2sResponder';
import type { ServerUdp, UdpEndpoint } from '../../../src/node/servers/common/serverUdp';
import { SourceGuard } from '../../../src/node/servers/common/strikes';
import { ServerTimeService } from '../../../src/node/servers/common/timeService';
import { Forwarder } from '../../../src/node/servers/game/forwarder';
import { GameDatagrams } from '../../../src/node/servers/game/gameDatagrams';
import { BacklogProbe } from '../../../src/node/servers/game/receiveBacklog';
import { resolveGameserverOptions } from '../../../src/node/servers/game/gameserverOptions';
import { oneRoom } from '../../support/oneRoom';

const NODE = {} as NodeAddress;
const address = (slot: number) => `10.0.0.${slot + 1}`;
const from = (slot: number): UdpEndpoint => ({ node: NODE, address: address(slot), port: 5000 + slot });

/** A gameserver's datagram handler with `players` seated players (slots 0, 1, 2, ...), on a virtual clock; what it sent to whom. */
function server(gatherMs: number, players = 3) {
  const clock = new VirtualClock();
  const sent: { port: number; bytes: Uint8Array }[] = [];
  const udp = { port: 6500, multicastListener: false, multicastJoins: () => [], send: (to: UdpEndpoint, bytes: Uint8Array) => sent.push({ port: to.port, bytes }) > 0 } as unknown as ServerUdp;
  const log = pino({ level: 'silent' });
  const config = resolveGameserverOptions({ name: 'gather', log, gatherMs });
  const fwd = new Forwarder({ radius: config.radius, outdatedMs: config.outdatedMs, budget: config.budget, queueCap: config.queueCap, levelOfDetail: config.levelOfDetail });
  const now = () => clock.now();
  const sources = new SourceGuard({ datagramsPerSecond: config.udpRate });
  const d = new GameDatagrams({ udp, rooms: oneRoom(fwd), sources, discovery: new DiscoveryResponder({ udp, log, info: () => null }), a2s: new A2sResponder({ udp, log, clock: now, source: { info: () => null, players: () => [], rules: () => [] } }), time: new ServerTimeService(udp, now), backlog: new BacklogProbe(), config, log, clock: now, timers: clock, kick: () => undefined });
  const seats = Array.from({ length: players }, (_, slot) => slot).map((slot) => fwd.add(slot, address(slot), () => 0x1000 + slot, 0));
  let id = 1;
  const state = (slot: number) => {
    const s = seats[slot]!;
    const bytes = encodePacket({
      header: { type: PacketType.GameState, senderSlot: slot, messageId: id++, gameTime: clock.now(), joined: true, token: s.token, state: { pos: { x: slot * 10, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 } },
      events: [],
    });
    d.onDatagram(bytes, from(slot));
  };
  /** The slots whose states each datagram to `slot` carried, in order. */
  const relayedTo = (slot: number) => decodedRelays(sent.filter((s) => s.port === from(slot).port).map((s) => s.bytes)).map((p) => p.events.flatMap((e) => (e.type === 'relayed' && e.packet.header.state ? [e.slot] : [])));
  return { clock, state, relayedTo, tick: () => {
      // What the gameserver's tick does for the flush: every seat's budget of datagrams renewed, then everything due relayed.
      for (const seat of seats) seat.budget = config.budget;
      d.flushAll();
    }, close: () => d.close() };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the flush on arrival', () => {
  it('gathers for 4 ms on the server clock: two states a millisecond apart reach a third player in one datagram', async () => {
    const s = server(4);
    s.state(2);
    s.clock.advance(10);
    expect(s.relayedTo(2)).toEqual([]);
    s.state(0);
    s.clock.advance(1);
    s.state(1);
    s.clock.advance(2);
    await turn();
    expect(s.relayedTo(2)).toEqual([]);
    s.clock.advance(1);
    expect(s.relayedTo(2)).toEqual([[0, 1]]);
    s.close();
  });

  it("a tick's flush cancels the gathering it overtook: with states arriving every millisecond a player still gets one datagram per gathering", () => {
    const s = server(8, 6);
    s.state(5);
    // A second of play: players 0..4 each send a state every 5 ms, one a millisecond after another; the server ticks at 20 Hz.
    for (let t = 0; t < 1000; t++) {
      s.state(t % 5);
      if (t % 50 === 25) s.tick();
      s.clock.advance(1);
    }
    const datagrams = s.relayedTo(5);
    const perPlayer = [0, 1, 2, 3, 4].map((slot) => datagrams.flat().filter((x) => x === slot).length);
    console.log(`gathering 8 ms, 5 players sending 200 states a second each, ticks at 20 Hz: the sixth got ${datagrams.length} datagrams carrying ${perPlayer.join(', ')} of their states`);
    // A gathering starts with an arrival and relays 8 ms later: at most one every 8 ms, and the ticks' own (a tick
    // that left the gathering it overtook running started a second one beside it, and soon a flush ran every millisecond).
    expect(datagrams.length).toBeLessThanOrEqual(1000 / 8 + 20);
    // Each gathering (8 ms, longer than a player's 5) carries each player's newest state; a tick's flush only what came since.
    for (const n of perPlayer) expect(n).toBeGreaterThanOrEqual(datagrams.length - 20);
    s.close();
  });

  it('with gatherMs 0 relays after each burst read: one datagram per arrival', async () => {
    const s = server(0);
    s.state(2);
    await turn();
    s.state(0);
    await turn();
    s.state(1);
    await turn();
    expect(s.relayedTo(2)).toEqual([[0], [1]]);
    s.close();
  });
});
