/**
 * The gameserver's pure parts: the accept line's udp/token extension, the
 * message-id window (u32 wrap-around included), event priorities and the
 * distance filter, and the forwarder's per-client decisions without sockets.
 */
import { ReplayWindow } from '../../../src/shared/net/replayWindow';
import fc from 'fast-check';
import { decodedRelays } from '../../support/relayDatagrams';
import { describe, expect, it } from 'vitest';
import { formatJoinAccepted, parseJoinAccepted, parseServerLine } from '../../../src/shared/servers/joinProtocol';
import { objectId, PacketType, type Packet, type RemoteEvent } from '../../../src/shared/wire/types';
import { stateVerdict, ownedBy, reachesEveryone, tierOf, withinRadius } from '../../../src/node/servers/game/interest';
import { Forwarder } from '../../../src/node/servers/game/forwarder';
import type { UdpEndpoint } from '../../../src/node/servers/common/serverUdp';
import { serverHeader } from '../../../src/node/servers/game/relay';

describe('accept line: udp and token', () => {
  it('round-trips with and without the gameserver fields; the token is 8 lower-case hex digits', () => {
    const line = 'join from ace accepted, slot: 3, server name: Gamma, udp: 6522, token: 00c0ffee';
    expect(parseJoinAccepted(line)).toEqual({ name: 'ace', slot: 3, serverName: 'Gamma', udp: 6522, token: 0xc0ffee });
    expect(formatJoinAccepted({ name: 'ace', slot: 3, serverName: 'Gamma', udp: 6522, token: 0xc0ffee })).toBe(line);
    expect(parseServerLine(line)).toEqual({ kind: 'accepted', accepted: { name: 'ace', slot: 3, serverName: 'Gamma', udp: 6522, token: 0xc0ffee } });
    expect(parseJoinAccepted('join from ace accepted, slot: 3, server name: Gamma')).toEqual({ name: 'ace', slot: 3, serverName: 'Gamma' });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 254 }), (udp, token, slot) => {
        const a = { name: 'x y', slot, serverName: 'S, t', udp, token };
        expect(parseJoinAccepted(formatJoinAccepted(a))).toEqual(a);
      }),
    );
  });

  it('refuses non-canonical or half extensions and server names that would read back differently', () => {
    for (const bad of [', udp: 6522, token: 00C0FFEE', ', udp: 06522, token: 00c0ffee', ', udp: 0, token: 00c0ffee', ', udp: 6522, token: c0ffee', ', udp: 70000, token: 00c0ffee']) {
      const parsed = parseJoinAccepted(`join from ace accepted, slot: 0, server name: G${bad}`);
      expect(parsed?.udp).toBeUndefined();
    }
    expect(() => formatJoinAccepted({ name: 'a', slot: 0, serverName: 'G, udp: 1, token: 00000000' })).toThrow(RangeError);
    expect(() => formatJoinAccepted({ name: 'a', slot: 0, serverName: 'G', udp: 1 })).toThrow(/both or neither/);
    expect(() => formatJoinAccepted({ name: 'a', slot: 0, serverName: 'G', udp: 1, token: 2 ** 32 })).toThrow(/token/);
  });
});

describe('message ids of GameStates (the seat\'s replay window and the late limit)', () => {
  it('takes newer ids, forwards late ones once, drops repeats and ids more than 32 behind, across the u32 wrap', () => {
    for (const base of [1, 0xfffffff0]) {
      const w = new ReplayWindow();
      const check = (d: number) => stateVerdict(w.admit((base + d) >>> 0));
      expect(check(0)).toBe('newest');
      expect(check(0)).toBe('replayed');
      expect(check(40)).toBe('newest');
      expect(check(10)).toBe('late');
      expect(check(10)).toBe('replayed');
      expect(check(7)).toBe('stale');
      expect(check(41)).toBe('newest');
      expect(check(40)).toBe('replayed');
      expect(check(100)).toBe('newest');
      expect(check(68)).toBe('late');
      expect(check(67)).toBe('stale');
    }
  });
});

describe('priorities and interest', () => {
  const laser: RemoteEvent = { type: 'createLaser', id: objectId(2, 1), pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 0 }, ttl: 1 };
  it('lasers and missiles first, world changes next, talk last; slot tables never', () => {
    expect(tierOf(laser)).toBe(0);
    expect(tierOf({ type: 'killObject', id: 1, killerSlot: 255 })).toBe(1);
    expect(tierOf({ type: 'sendText', text: 'hi' })).toBe(2);
    expect(tierOf({ type: 'playerList', players: [] })).toBeNull();
    expect(tierOf({ type: 'connectQueue', addrs: [] })).toBeNull();
    expect(reachesEveryone({ type: 'sendText', text: 'hi' })).toBe(true);
    expect(reachesEveryone(laser)).toBe(false);
    expect(ownedBy(laser, 2)).toBe(true);
    expect(ownedBy(laser, 3)).toBe(false);
    expect(ownedBy({ type: 'sendText', text: 'x' }, 3)).toBe(true);
  });

  it('filters by distance only between known positions', () => {
    expect(withinRadius({ x: 0, y: 0, z: 0 }, { x: 2000, y: 0, z: 0 }, 2000)).toBe(true);
    expect(withinRadius({ x: 0, y: 0, z: 0 }, { x: 1500, y: 1500, z: 0 }, 2000)).toBe(false);
    expect(withinRadius(undefined, { x: 1e6, y: 0, z: 0 }, 1)).toBe(true);
  });
});

describe('Forwarder', () => {
  const state = (slot: number, id: number, x: number, events: RemoteEvent[] = []): Packet => ({
    header: { type: PacketType.GameState, senderSlot: slot, messageId: id, gameTime: 0, joined: true, state: { pos: { x, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 1, damage: 0 }, token: 99 },
    events,
  });
  const setup = () => {
    const f = new Forwarder({ radius: 100, outdatedMs: 500, budget: 4, queueCap: 2, levelOfDetail: false });
    let t = 1;
    const [a, b, c] = [0, 1, 2].map((slot) => f.add(slot, '10.0.0.1', () => t++, 0));
    // A bound endpoint; the forwarder only asks whether there is one.
    for (const s of [a, b, c]) s!.udp = { address: '10.0.0.1', port: 1000 + s!.slot } as UdpEndpoint;
    const flush = (s: typeof a, now = 0) => decodedRelays(f.flush(s!, now, () => serverHeader(PacketType.Relay, 1, 0, s!.token)));
    return { f, a: a!, b: b!, c: c!, flush };
  };

  it('sends each new state once, not to players out of range, and never the sender’s token', () => {
    const { f, a, b, c, flush } = setup();
    f.onGameState(a, state(0, 1, 0), true, 0);
    f.onGameState(b, state(1, 1, 50), true, 0);
    f.onGameState(c, state(2, 1, 500), true, 0);
    const toA = flush(a);
    expect(toA.flatMap((p) => p.events.map((e) => (e.type === 'relayed' ? [e.slot, e.packet.header.token] : [])))).toEqual([[1, undefined]]);
    expect(flush(a)).toEqual([]);
    expect(a.counters).toMatchObject({ statesSent: 1, statesFiltered: 1 });
  });

  it('drops outdated lasers, keeps chat, and pushes the oldest out of a full queue', () => {
    const { f, a, b, flush } = setup();
    f.onGameState(a, state(0, 1, 0, [{ type: 'createLaser', id: objectId(0, 1), pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 0 }, ttl: 1 }, { type: 'sendText', text: 'one' }]), true, 0);
    f.onGameState(a, state(0, 2, 0, [{ type: 'sendText', text: 'two' }, { type: 'sendText', text: 'three' }, { type: 'playerList', players: [] }]), true, 0);
    const packets = flush(b, 1000);
    const events = packets.flatMap((p) => p.events.flatMap((e) => (e.type === 'relayed' ? e.packet.events : [])));
    expect(events).toEqual([{ type: 'sendText', text: 'two' }, { type: 'sendText', text: 'three' }]);
    // b's laser was outdated (c's still waits); b and c each pushed 'one' out of their full talk queue.
    expect(f.eventDrops).toEqual({ outdated: 1, overflow: 2, foreign: 1, farPickup: 0, spectator: 0 });
  });

  it('sends a player’s laser and its new state in one inner packet, and the other states after them in the same datagram', () => {
    const { f, a, b, c, flush } = setup();
    const shot: RemoteEvent = { type: 'createLaser', id: objectId(1, 1), pos: { x: 50, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 0 }, ttl: 1 };
    f.onGameState(b, state(1, 1, 50, [shot]), true, 0);
    f.onGameState(c, state(2, 1, 60), true, 0);
    const toA = flush(a);
    expect(toA).toHaveLength(1);
    const inners = toA[0]!.events.map((e) => (e.type === 'relayed' ? { slot: e.slot, x: e.packet.header.state?.pos.x, events: e.packet.events.map((v) => v.type) } : null));
    expect(inners).toEqual([
      { slot: 1, x: 50, events: ['createLaser'] },
      { slot: 2, x: 60, events: [] },
    ]);
    expect(a.counters).toMatchObject({ statesSent: 2, eventsSent: 1 });
  });

  it('forgets a player who leaves: its token, and what the others still had of it', () => {
    const { f, a, b, flush } = setup();
    f.onGameState(a, state(0, 1, 0, [{ type: 'sendText', text: 'bye' }]), true, 0);
    f.remove(a.slot);
    expect(f.byToken.has(a.token)).toBe(false);
    expect(flush(b)).toEqual([]);
  });
});
