/**
 * The servers' one admission ladder (common/seatAdmission.ts): each rung's
 * drop reason, the gameserver's and the netgame server's configurations of
 * it, and both servers' datagram handlers dropping the same datagrams for
 * the same reasons (a replay, a move to another port too early or with an
 * old number, a wrong address, slot or token), the type each in its own words.
 */
import { systemClock } from '../../../src/shared/time/clock';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Connection } from '../../../src/shared/net/connection';
import type { NodeAddress } from '../../../src/shared/net/packetApi';
import { DropCounters, encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, type PacketHeader } from '../../../src/shared/wire/types';
import { DiscoveryResponder } from '../../../src/node/servers/common/discoveryResponder';
import { A2sResponder } from '../../../src/node/servers/common/a2sResponder';
import { MIGRATE_AFTER_QUIET_MS, SeatAdmission, settleSeat, type AdmissionSeat, type SeatAdmissionRules, type SeatDrop } from '../../../src/node/servers/common/seatAdmission';
import type { ServerUdp, UdpEndpoint } from '../../../src/node/servers/common/serverUdp';
import { SourceGuard } from '../../../src/node/servers/common/strikes';
import { ServerTimeService } from '../../../src/node/servers/common/timeService';
import { Forwarder } from '../../../src/node/servers/game/forwarder';
import { GAME_ADMISSION, GameDatagrams } from '../../../src/node/servers/game/gameDatagrams';
import { BacklogProbe } from '../../../src/node/servers/game/receiveBacklog';
import { resolveGameserverOptions } from '../../../src/node/servers/game/gameserverOptions';
import { NETGAME_ADMISSION, NetgameDatagrams, newSeat, type NetSeat } from '../../../src/node/servers/netgame/netgameDatagrams';
import { oneRoom } from '../../support/oneRoom';

const ADDRESS = '10.0.0.7';
const SLOT = 3;
const TOKEN = 0x5eed1234;
const NODE = {} as NodeAddress;

/** An endpoint of the player's address (as a dual-stack socket reports it) or of `address`. */
const at = (port: number, address = `::ffff:${ADDRESS}`): UdpEndpoint => ({ node: NODE, address, port });

function datagram(messageId: number, over: Partial<PacketHeader> = {}): Uint8Array {
  return encodePacket({ header: { type: PacketType.NodeAlive, senderSlot: SLOT, messageId, joined: false, token: TOKEN, ...over }, events: [] });
}

function ladder(rules: SeatAdmissionRules, ended: ReadonlySet<number> = new Set()) {
  const seat: AdmissionSeat = { slot: SLOT, address: ADDRESS, token: TOKEN, udp: null, udpHeardAt: 0, lastHeard: 0, connection: new Connection(1) };
  const drops: SeatDrop[] = [];
  const codecDrops = new DropCounters();
  const admission = new SeatAdmission({ rules, seatByToken: (t) => (t === TOKEN ? seat : undefined), endedLately: (t) => ended.has(t), codecDrops, drop: (r) => drops.push(r) });
  return { seat, drops, codecDrops, admission };
}

describe('the admission ladder', () => {
  it('drops on each rung with its reason, in order, and counts each drop once', () => {
    const { seat, drops, codecDrops, admission } = ladder(GAME_ADMISSION, new Set([0xdead]));
    const refused = (msg: Uint8Array, from = at(5000), now = 0) => {
      const a = admission.admit(msg, from, now);
      return a.ok ? 'taken' : a.reason;
    };
    expect(refused(new Uint8Array([1, 2, 3]))).toBe('bad-magic');
    expect(codecDrops.snapshot()).toEqual({ 'bad-magic': 1 });
    expect(refused(datagram(10, { token: undefined }))).toBe('no-token');
    expect(refused(datagram(10, { token: 99 }))).toBe('unknown-token');
    // A token of a session that ended lately: counted like any unknown one, but excused.
    expect(admission.admit(datagram(10, { token: 0xdead }), at(5000), 0)).toEqual({ ok: false, reason: 'unknown-token', excused: true });
    expect(refused(datagram(10), at(5000, '10.0.0.8'))).toBe('wrong-address');
    expect(refused(datagram(10, { senderSlot: 4 }))).toBe('wrong-slot');
    expect(refused(datagram(10, { type: PacketType.Disconnect }))).toBe('unexpected-type');
    expect(refused(datagram(10, { type: PacketType.GameState }))).toBe('no-state');
    // The wrong type never reached the window (10 was not taken by it); the GameState without a ship did.
    const taken = admission.admit(datagram(12), at(5000), 0);
    expect(taken).toMatchObject({ ok: true, seat, seq: { verdict: 'newest', behind: 0 }, moved: false });
    expect(refused(datagram(10, { type: PacketType.GameState }))).toBe('replayed');
    expect(admission.admit(datagram(11), at(5000), 0)).toMatchObject({ ok: true, seq: { verdict: 'late', behind: 1 } });
    expect(drops).toEqual(['no-token', 'unknown-token', 'unknown-token', 'wrong-address', 'wrong-slot', 'unexpected-type', 'no-state', 'replayed']);
  });

  it('moves a seat to another port only after its bound port was quiet, and only with a number newer than any taken', () => {
    const { seat, drops, admission } = ladder(NETGAME_ADMISSION);
    const first = admission.admit(datagram(100), at(5000), 0);
    expect(first.ok).toBe(true);
    expect(settleSeat(seat, at(5000), 30, 0)).toBeNull();
    expect(seat.udp?.port).toBe(5000);
    expect(seat.connection.counters).toMatchObject({ datagramsIn: 1, bytesIn: 30 });
    const later = MIGRATE_AFTER_QUIET_MS;
    expect(admission.admit(datagram(101), at(5001), later - 1)).toMatchObject({ ok: false, reason: 'wrong-port' });
    expect(admission.admit(datagram(99), at(5001), later)).toMatchObject({ ok: false, reason: 'wrong-port' });
    const moved = admission.admit(datagram(102), at(5001), later);
    expect(moved).toMatchObject({ ok: true, moved: true });
    expect(settleSeat(seat, at(5001), 30, later)?.port).toBe(5000);
    expect(seat).toMatchObject({ udp: { port: 5001 }, udpHeardAt: later, lastHeard: later });
    // The old port is the other port now.
    expect(admission.admit(datagram(103), at(5000), later + 1)).toMatchObject({ ok: false, reason: 'wrong-port' });
    expect(drops).toEqual(['wrong-port', 'wrong-port', 'wrong-port']);
  });

  it('is configured per side: the type each allows and names, and whether a GameState needs a ship', () => {
    expect(GAME_ADMISSION.typeDrop).toBe('unexpected-type');
    expect(NETGAME_ADMISSION.typeDrop).toBe('wrong-type');
    expect(GAME_ADMISSION.types.has(PacketType.Pong)).toBe(true);
    expect(NETGAME_ADMISSION.types.has(PacketType.Pong)).toBe(false);
    const net = ladder(NETGAME_ADMISSION);
    expect(net.admission.admit(datagram(1, { type: PacketType.GameState }), at(5000), 0).ok).toBe(true);
    expect(net.admission.admit(datagram(2, { type: PacketType.Relay }), at(5000), 0)).toMatchObject({ ok: false, reason: 'wrong-type' });
  });
});

/** One server's datagram handler with one seat at (ADDRESS, SLOT, TOKEN), on a clock of our own. */
interface Side {
  receive(msg: Uint8Array, from: UdpEndpoint): void;
  drops(): Record<string, number>;
  seat: AdmissionSeat;
  clock: { now: number };
  sent: Uint8Array[];
}

function fakeUdp(sent: Uint8Array[]): ServerUdp {
  return {
    port: 6500,
    multicastListener: false,
    multicastJoins: () => [],
    send: (_to: UdpEndpoint, bytes: Uint8Array) => sent.push(bytes) > 0,
  } as unknown as ServerUdp;
}

function gameserverSide(): Side {
  const clock = { now: 0 };
  const sent: Uint8Array[] = [];
  const udp = fakeUdp(sent);
  const log = pino({ level: 'silent' });
  const config = resolveGameserverOptions({ name: 'ladder', log });
  const fwd = new Forwarder({ radius: config.radius, outdatedMs: config.outdatedMs, budget: config.budget, queueCap: config.queueCap, levelOfDetail: config.levelOfDetail });
  const sources = new SourceGuard({ datagramsPerSecond: config.udpRate, strangersPerSecond: config.strangerRate, strikes: { limit: config.sourceStrikeLimit, windowMs: 10_000 }, blockMs: config.blockMs });
  const now = () => clock.now;
  const d = new GameDatagrams({ udp, rooms: oneRoom(fwd), sources, discovery: new DiscoveryResponder({ udp, log, info: () => null }), a2s: new A2sResponder({ udp, log, clock: now, source: { info: () => null, players: () => [], rules: () => [] } }), time: new ServerTimeService(udp, now), backlog: new BacklogProbe(), config, log, clock: now, timers: systemClock, kick: () => undefined });
  const seat = fwd.add(SLOT, ADDRESS, () => TOKEN, 0);
  return { receive: (m, f) => d.onDatagram(m, f), drops: () => ({ ...d.codecDrops.snapshot(), ...Object.fromEntries(d.serverDrops) }), seat, clock, sent };
}

function netgameSide(): Side {
  const clock = { now: 0 };
  const sent: Uint8Array[] = [];
  const udp = fakeUdp(sent);
  const log = pino({ level: 'silent' });
  const now = () => clock.now;
  const seats = new Map<number, NetSeat>();
  const seat = newSeat(SLOT, ADDRESS, TOKEN, 0);
  seats.set(SLOT, seat);
  const d = new NetgameDatagrams({ udp, sources: new SourceGuard({ datagramsPerSecond: 200 }), discovery: new DiscoveryResponder({ udp, log, info: () => null }), a2s: new A2sResponder({ udp, log, clock: now, source: { info: () => null, players: () => [], rules: () => [] } }), time: new ServerTimeService(udp, now), seats, clock: now, deliver: () => undefined, envelopes: () => undefined });
  return { receive: (m, f) => d.onDatagram(m, f), drops: () => ({ ...d.codecDrops.snapshot(), ...Object.fromEntries(d.serverDrops) }), seat, clock, sent };
}

describe('both servers run the one ladder', () => {
  for (const [name, side, typeDrop] of [
    ['gameserver', gameserverSide, 'unexpected-type'],
    ['netgame server', netgameSide, 'wrong-type'],
  ] as const) {
    it(`${name}: a replay, early and old-numbered port moves, a stranger's address, slot and token are dropped by the shared reasons`, () => {
      const s = side();
      const first = datagram(100);
      s.receive(first, at(5000));
      expect(s.seat.udp?.port).toBe(5000);
      expect(s.seat.connection.counters).toMatchObject({ datagramsIn: 1, bytesIn: first.length });
      s.receive(first, at(5000));
      s.receive(datagram(101), at(5001));
      s.clock.now = MIGRATE_AFTER_QUIET_MS;
      s.receive(datagram(99), at(5001));
      expect(s.seat.udp?.port).toBe(5000);
      s.receive(datagram(102), at(5001));
      expect(s.seat.udp?.port).toBe(5001);
      s.receive(datagram(103), at(5000));
      // From a port of no seat (at a bound endpoint the gameserver takes another token for a forgery, before the ladder).
      s.receive(datagram(104), at(5002, '10.0.0.8'));
      s.receive(datagram(105, { senderSlot: 4 }), at(5001));
      s.receive(datagram(106, { token: 99 }), at(6000));
      s.receive(datagram(107, { token: undefined }), at(6000));
      s.receive(datagram(108, { type: PacketType.Disconnect }), at(5001));
      s.receive(new Uint8Array([1, 2, 3]), at(6000));
      expect(s.drops()).toEqual({ 'bad-magic': 1, replayed: 1, 'wrong-port': 3, 'wrong-address': 1, 'wrong-slot': 1, 'unknown-token': 1, 'no-token': 1, [typeDrop]: 1 });
      // Taken: the first datagram and the move; each counted on the seat's connection.
      expect(s.seat.connection.counters.datagramsIn).toBe(2);
      // The server's own datagrams are numbered by the connection: a ping is answered with the next number.
      const before = s.seat.connection.counters.datagramsOut;
      s.receive(datagram(109, { type: PacketType.Ping, gameTime: 5 }), at(5001));
      expect(s.seat.connection.counters.datagramsOut).toBe(before + 1);
      expect(s.sent.length).toBeGreaterThan(0);
    });
  }

  it('the gameserver counts a move as a migration and shows its seat counters under their old names', () => {
    const clock = { now: 0 };
    const log = pino({ level: 'silent' });
    const udp = fakeUdp([]);
    const config = resolveGameserverOptions({ name: 'ladder', log });
    const fwd = new Forwarder({ radius: config.radius, outdatedMs: config.outdatedMs, budget: config.budget, queueCap: config.queueCap, levelOfDetail: config.levelOfDetail });
    const sources = new SourceGuard({ datagramsPerSecond: config.udpRate });
    const now = () => clock.now;
    const d = new GameDatagrams({ udp, rooms: oneRoom(fwd), sources, discovery: new DiscoveryResponder({ udp, log, info: () => null }), a2s: new A2sResponder({ udp, log, clock: now, source: { info: () => null, players: () => [], rules: () => [] } }), time: new ServerTimeService(udp, now), backlog: new BacklogProbe(), config, log, clock: now, timers: systemClock, kick: () => undefined });
    const seat = fwd.add(SLOT, ADDRESS, () => TOKEN, 0);
    d.onDatagram(datagram(1), at(5000));
    clock.now = MIGRATE_AFTER_QUIET_MS;
    d.onDatagram(datagram(2), at(5001));
    expect(d.totals.migrations).toBe(1);
    const first = seat.connection.stamp();
    d.send(seat, { header: d.header(seat, PacketType.Ping, 0), events: [] });
    expect(d.header(seat, PacketType.Ping, 0).messageId).toBe((first + 2) >>> 0);
    expect({ ...seat.counters }).toMatchObject({ packetsIn: 2, bytesIn: datagram(1).length + datagram(2).length, datagramsSent: 1 });
    expect(seat.counters.bytesSent).toBe(seat.connection.counters.bytesOut);
  });
});
