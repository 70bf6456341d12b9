/**
 * The one clock of a client (src/shared/protocol/gameDriver.ts), on a virtual
 * clock: 40 Hz ticks on the host's clock, creations stamped with their own
 * tick's time (so a laser fired in a catch-up batch starts where it was when
 * it was fired), deliveries applied to the game, stalls clamped.
 */
import { describe, expect, it } from 'vitest';
import { DESTROYED_DAMAGE, LASER_DAMAGE, SHIELD_MAX, type GameNotice } from '../../../src/shared/game';
import { GameDriver, MAX_CATCH_UP_TICKS } from '../../../src/shared/protocol/gameDriver';
import { NO_INPUT, STEP_MS, type ShipInput } from '../../../src/shared/sim';
import { NEUTRAL_STATE } from '../../../src/shared/p2p';
import { PacketType, type PacketHeader } from '../../../src/shared/wire/types';
import { VirtualClock } from '../../support/virtualClock';

function driver(input: () => ShipInput = () => NO_INPUT) {
  const clock = new VirtualClock();
  const notices: GameNotice[] = [];
  const d = new GameDriver({
    clock,
    playerName: () => 'alpha',
    sendFrequency: () => 20,
    autoJoin: () => true,
    input,
    onTick: (_g, n) => notices.push(...n),
  });
  return { clock, d, notices };
}

const header = (gameTime: number): PacketHeader => ({ type: PacketType.GameState, senderSlot: 0, messageId: 0, gameTime, joined: true, state: NEUTRAL_STATE });

describe('GameDriver', () => {
  it('steps the game at 40 Hz on the clock it is given, and stops when told', () => {
    const { clock, d } = driver();
    d.start();
    clock.advance(1000);
    expect(d.game.curr.tick).toBe(40);
    d.stop();
    clock.advance(1000);
    expect(d.game.curr.tick).toBe(40);
    expect(clock.pending).toBe(0);
  });

  it('a laser fired in a catch-up batch after a stall is sent from where it was at its own tick, moved on to the send time', () => {
    let fire = false;
    const { clock, d } = driver(() => ({ ...NO_INPUT, fire }));
    // As a session says while our ship is in a game.
    d.events.setScope('joined');
    d.start();
    clock.advance(100);
    // The process freezes for 200 ms with the trigger held: 8 ticks run in one wake-up.
    fire = true;
    clock.stall(200);
    const now = clock.now();
    const laser = d.game.curr.objects.find((o) => o.owner === 0 && o.kind === 'laser')!;
    if (laser?.kind !== 'laser') throw new Error('no laser fired');
    const packet = d.events.take(header(0), 0, now);
    const sent = packet.events.find((e) => e.type === 'createLaser');
    if (sent?.type !== 'createLaser') throw new Error('no laser sent');
    // The world's tick stands for host time `now - (now % 25)`; the laser is then moved on to `now`.
    const lastTickAt = now - (now % STEP_MS);
    const s = (now - lastTickAt) / 1000;
    expect(sent.pos.z).toBeCloseTo(laser.pos.z + laser.vel.z * s, 3);
    expect(sent.ttl).toBe(laser.ttl);
    // It was fired on the first tick of the batch, 7 ticks (175 ms) before the newest: it has flown 105 units.
    expect(laser.ttl).toBe(40 - 7);
  });

  it('runs at most a second of ticks after a long stall and counts the time it dropped', () => {
    const { clock, d } = driver();
    d.start();
    clock.advance(STEP_MS);
    expect(d.game.curr.tick).toBe(1);
    clock.stall(5000);
    expect(d.game.curr.tick).toBe(1 + MAX_CATCH_UP_TICKS);
    expect(d.counters.dropped).toBe(200 - MAX_CATCH_UP_TICKS);
    // Then it goes on in step with the clock.
    clock.advance(STEP_MS);
    expect(d.game.curr.tick).toBe(2 + MAX_CATCH_UP_TICKS);
  });

  it('while our ship is destroyed the protocol sends its last state with damage 100', () => {
    const { clock, d, notices } = driver();
    d.events.setScope('joined');
    d.start();
    clock.advance(STEP_MS);
    expect(d.localShip()?.damage).toBe(0);
    d.deliver({ kind: 'players', players: [{ slot: 0, name: 'alpha', joined: true, local: true, address: 'a' }, { slot: 1, name: 'bravo', joined: true, local: false, address: 'b' }], localSlot: 0, status: 'ok' });
    // Enough bolts for a full shield and hull, with two to spare for the shield's recharge.
    for (let i = 0; i < Math.ceil((SHIELD_MAX + DESTROYED_DAMAGE) / LASER_DAMAGE) + 2; i++) {
      d.deliver({ kind: 'event', slot: 1, event: { type: 'createLaser', id: (1 << 16) | (100 + i), pos: { x: 0, y: 0, z: -30 - 4 * i }, vel: { x: 0, y: 0, z: 300 }, ttl: 40 } });
    }
    clock.advance(20 * STEP_MS);
    expect(d.game.dead).toBe(true);
    expect(notices).toEqual([expect.objectContaining({ slot: 0, killerSlot: 1, local: true })]);
    expect(d.localShip()).toMatchObject({ damage: 100, vel: { x: 0, y: 0, z: 0 } });
    const packet = d.events.take(header(0), 0, clock.now());
    // Shot down by lasers: the announcement names the weapon (wire v9 cause 1, killCause.ts).
    expect(packet.events).toContainEqual({ type: 'killObject', id: 0, killerSlot: 1, cause: 1 });
  });

  it('offline practice queues nothing for a later game: every weapon fired raises no event for a session to send later', () => {
    let tick = 0;
    // Lasers, a missile, a mine and an EMP, one after another, for 3 s.
    const { clock, d } = driver(() => {
      tick++;
      return { ...NO_INPUT, fire: tick % 4 === 0, missile: tick === 20, mine: tick === 40, emp: tick === 60 };
    });
    d.start();
    clock.advance(3000);
    const kinds = new Set(d.game.curr.objects.filter((o) => o.owner === 0).map((o) => o.kind));
    expect(d.events.refusedCount).toBeGreaterThan(0);
    expect(d.events.pending).toBe(0);
    expect(d.events.scope).toBe('none');
    console.log(`offline practice, 3 s: ${d.events.refusedCount} events refused, none queued; own objects flying: ${[...kinds].join(', ')}`);
  });
});
