/**
 * Level of detail at the gameserver (src/node/servers/game/levelOfDetail.ts):
 * the tier of a pair by distance with hysteresis, and the forwarder sending
 * far players' states at their tier's rate on a virtual clock — every state
 * near, at most 10 a second mid, 5 far, every state again while the two
 * fight (a missile lock), and a held-back state sent once its interval has
 * passed when no newer one came.
 */
import { decodedRelays } from '../../support/relayDatagrams';
import { describe, expect, it } from 'vitest';
import { DetailEdges, OUT, SeatDetail } from '../../../src/node/servers/game/levelOfDetail';
import { Forwarder } from '../../../src/node/servers/game/forwarder';
import type { UdpEndpoint } from '../../../src/node/servers/common/serverUdp';
import { serverHeader } from '../../../src/node/servers/game/relay';
import { NO_SLOT, objectId, PacketType, type Packet, type RemoteEvent } from '../../../src/shared/wire/types';

describe('detail tiers by distance (radius 1000: edges 500, 750, 1000, hysteresis 50)', () => {
  const edges = new DetailEdges(1000);
  const at = (prev: number, d: number) => edges.tier(prev, d * d);

  it('a pair coming into range takes the tier of its distance, and none beyond the radius', () => {
    expect([100, 500, 501, 750, 751, 1000, 1001, 1040].map((d) => at(OUT, d))).toEqual([0, 0, 1, 1, 2, 2, OUT, OUT]);
  });

  it('moves out a tier only 50 units past its edge, in only 50 units inside, and leaves the radius at 1,050', () => {
    expect([at(0, 540), at(0, 551), at(1, 460), at(1, 449), at(1, 790), at(1, 801)]).toEqual([0, 1, 1, 0, 1, 2]);
    expect([at(2, 1040), at(2, 1050), at(2, 1051), at(2, 699), at(0, 5000)]).toEqual([2, 2, OUT, 1, OUT]);
  });
});

describe('a pair whose position was not known', () => {
  it('is near until both are known, and then enters at the plain edges (a ship at 1,040 of a radius of 1,000 stays out)', () => {
    const d = new SeatDetail<{ slot: number }>();
    const edges = new DetailEdges(1000);
    const other = { slot: 7 };
    expect(d.judge(edges, other, { x: 1040, y: 0, z: 0 }, undefined, 0)).toBe(0);
    expect(d.judge(edges, other, { x: 1040, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, 0)).toBe(OUT);
    expect(d.judge(edges, other, { x: 520, y: 0, z: 0 }, undefined, 0)).toBe(0);
    expect(d.judge(edges, other, { x: 520, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, 0)).toBe(1);
  });
});

describe('the forwarder sends far players less often', () => {
  const ship = (x: number) => ({ pos: { x, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 1, damage: 0 });
  const state = (slot: number, id: number, x: number, events: RemoteEvent[] = []): Packet => ({
    header: { type: PacketType.GameState, senderSlot: slot, messageId: id, gameTime: 0, joined: true, state: ship(x), token: 99 },
    events,
  });

  /** An observer at the origin and one player at each distance, every one sending 20 states a second for `ms` of virtual time; what the observer was sent of each. */
  function play(distances: number[], ms: number, eventsOf: (slot: number, step: number) => RemoteEvent[] = () => [], slowdown = 1, levelOfDetail = true) {
    const f = new Forwarder({ radius: 1000, outdatedMs: 500, budget: 32, queueCap: 64, levelOfDetail });
    f.slowdown = slowdown;
    let t = 1;
    const seats = [0, ...distances].map((_, slot) => f.add(slot, '10.0.0.1', () => t++, 0));
    for (const s of seats) s.udp = { address: '10.0.0.1', port: 1000 + s.slot } as UdpEndpoint;
    const observer = seats[0]!;
    const got = new Map<number, number>();
    let id = 1;
    for (let now = 0, step = 0; now < ms; now += 50, step++) {
      f.onGameState(observer, state(0, id++, 0), true, now);
      distances.forEach((d, i) => f.onGameState(seats[i + 1]!, state(i + 1, id++, d, eventsOf(i + 1, step)), true, now));
      // The tick: held-back states whose interval passed, then the flush.
      f.releaseHeld(now);
      for (const p of decodedRelays(f.flush(observer, now, () => serverHeader(PacketType.Relay, 1, 0, observer.token)))) {
        for (const e of p.events) if (e.type === 'relayed' && e.packet.header.state) got.set(e.slot, (got.get(e.slot) ?? 0) + 1);
      }
      observer.budget = 32;
    }
    return { got: distances.map((_, i) => got.get(i + 1) ?? 0), counters: observer.counters };
  }

  it('in 2 s at 20 Hz: every state of a near player, at most 10 a second of a mid one and 5 of a far one, none beyond the radius', () => {
    const { got, counters } = play([200, 600, 900, 1200], 2000);
    expect(got).toEqual([40, 20, 10, 0]);
    // Held back: 20 of the mid player's 40 and 30 of the far one's; the one beyond the radius filtered.
    expect(counters).toMatchObject({ statesThinned: 50, statesFiltered: 40, statesSent: 70 });
  });

  it('an overloaded server (slowdown 2) halves the mid and far rates and keeps every near state', () => {
    const { got } = play([200, 600, 900], 2000, undefined, 2);
    expect(got).toEqual([40, 10, 5]);
  });

  it('at its last step (slowdown 8) an overloaded server sends near players 10 states a second too, mid and far stay at a quarter; with level of detail off, everyone 10 a second', () => {
    expect(play([200, 600, 900], 2000, undefined, 8).got).toEqual([20, 5, 3]);
    expect(play([200, 600, 900], 2000, undefined, 4).got).toEqual([40, 5, 3]);
    expect(play([200, 600, 900], 2000, undefined, 8, false).got).toEqual([20, 20, 20]);
    expect(play([200, 600, 900], 2000, undefined, 4, false).got).toEqual([40, 40, 40]);
  });

  it('two players fighting (a missile locked on the observer) get every state whatever the tier, for 3 s after the lock', () => {
    const missile = (slot: number): RemoteEvent => ({ type: 'createMissile', id: objectId(slot, 1), pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 0 }, targetSlot: 0, ttl: 100 });
    const { got } = play([900, 900], 2000, (slot, step) => (slot === 1 && step === 0 ? [missile(slot)] : []));
    expect(got).toEqual([40, 10]);
    const after = play([900], 5000, (slot, step) => (step === 0 ? [missile(slot)] : []));
    // 3 s engaged (60 states), then 2 s at 5 a second.
    expect(after.got[0]).toBe(60 + 10);
  });

  it('a far player that stops sending still has its newest state sent once its interval passes', () => {
    const f = new Forwarder({ radius: 1000, outdatedMs: 500, budget: 32, queueCap: 64, levelOfDetail: true });
    let t = 1;
    const [o, far] = [0, 1].map((slot) => f.add(slot, '10.0.0.1', () => t++, 0)) as [ReturnType<Forwarder['add']>, ReturnType<Forwarder['add']>];
    for (const s of [o, far]) s.udp = { address: '10.0.0.1', port: 1000 + s.slot } as UdpEndpoint;
    const sentTo = (now: number) => decodedRelays(f.flush(o, now, () => serverHeader(PacketType.Relay, 1, 0, o.token))).flatMap((p) => p.events.filter((e) => e.type === 'relayed').map((e) => (e.type === 'relayed' ? e.packet.header.state?.pos.x : NO_SLOT)));
    f.onGameState(o, state(0, 1, 0), true, 0);
    f.onGameState(far, state(1, 2, 900), true, 0);
    expect(sentTo(0)).toEqual([900]);
    // A newer state 50 ms later is held back (far: one per 200 ms), and nothing newer comes.
    f.onGameState(far, state(1, 3, 901), true, 50);
    expect(sentTo(50)).toEqual([]);
    f.releaseHeld(150);
    expect(sentTo(150)).toEqual([]);
    f.releaseHeld(200);
    expect(sentTo(200)).toEqual([901]);
  });
});
