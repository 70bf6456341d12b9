/**
 * Ships are timed by the game time stamped in their states (stateTime), not
 * by when the states arrive: a ship flown by the real simulation whose
 * states are held for up to the silence timeout and then arrive in one burst
 * is never corrected; the stamp is read across the u32 wrap and held within
 * its window, and a track's time never goes back, so a lying stamp buys at
 * most the window once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkShipState, newShipTrack, SHIP_LIMITS, stateTime } from '../../../src/shared/game/shipValidation';
import { createWorld, MAX_SPEED, stepWorld, type World } from '../../../src/shared/game';
import { floatStream, NO_INPUT, STEP_MS, type ShipInput } from '../../../src/shared/sim';
import type { ShipState } from '../../../src/shared/wire/types';
import { shipState } from '../../support/ships';

const FAR = { x: 1e6, y: 1e6, z: 1e6 };

describe('stateTime', () => {
  it('reads a stamp next to the receiver’s time across the u32 wrap', () => {
    const now = 2 ** 32 + 500; // the receiver's common time has wrapped once
    expect(stateTime(400, now)).toBe(2 ** 32 + 400);
    expect(stateTime(2 ** 32 - 100, 2 ** 32 + 50)).toBe(2 ** 32 - 100);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: -SHIP_LIMITS.stampLagMs, max: SHIP_LIMITS.stampLeadMs }), (receiver, lag) => {
        expect(stateTime((receiver + lag) >>> 0, receiver)).toBe(receiver + lag);
      }),
    );
  });

  it('holds a stamp within [now − stampLagMs, now + stampLeadMs]', () => {
    expect(stateTime(100_000 + 60_000, 100_000)).toBe(100_000 + SHIP_LIMITS.stampLeadMs);
    expect(stateTime(100_000 - 60_000, 100_000)).toBe(100_000 - SHIP_LIMITS.stampLagMs);
    expect(stateTime(0, 100_000)).toBe(100_000 - SHIP_LIMITS.stampLagMs);
  });
});

describe('a ship timed by its stamps', () => {
  it('flown by the simulation, its states held for up to 10 s and then arriving in one burst, is never corrected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0xffffffff }), fc.integer({ min: 2_000, max: 20_000 }), fc.integer({ min: 0, max: SHIP_LIMITS.stampLagMs - 200 }), (seed, stallAt, stallMs) => {
        const rand = floatStream(seed);
        let world: World = createWorld(seed, { ships: 1, asteroids: 0 });
        let input: ShipInput = { ...NO_INPUT };
        const track = newShipTrack(0);
        // Common game time 10 s on (the server has been up a while); each state stamped when sent.
        const base = 10_000;
        for (let tick = 1; tick <= 1200; tick++) {
          // Full thrust ahead most of the time: the ship goes far during a stall.
          if (tick % 40 === 1) input = { thrust: rand() < 0.8 ? 1 : -1, yaw: rand() * 0.4 - 0.2, pitch: rand() * 0.4 - 0.2, roll: 0, fire: false };
          world = stepWorld(world, new Map([[0, input]]));
          if (tick % 2 !== 0) continue;
          const s = world.ships[0]!;
          const sent = base + tick * STEP_MS;
          // Held while the stall lasts, then everything arrives at its end; 5 ms of latency otherwise.
          const held = sent >= base + stallAt && sent < base + stallAt + stallMs;
          const arrive = held ? base + stallAt + stallMs : sent + 5;
          const state: ShipState = { pos: s.pos, rot: s.rot, vel: s.vel, angVel: s.angVel, energy: s.energy, damage: s.damage };
          const r = checkShipState(state, track, stateTime(Math.floor(sent) >>> 0, arrive), FAR);
          expect(r.violations).toEqual([]);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('an older stamp after a newer one earns nothing: the track’s time never goes back', () => {
    const track = newShipTrack(0);
    const at = (x: number) => shipState({ pos: { x, y: 0, z: 0 } });
    expect(checkShipState(at(0), track, 10_000, FAR).violations).toEqual([]);
    // Stamped 10 s earlier: no travel for it, and the track stays at 10 000.
    expect(checkShipState(at(0), track, 0, FAR).violations).toEqual([]);
    expect(track.at).toBe(10_000);
    // Back at 10 000 with ten seconds' worth of flight: a teleport, not ten seconds of allowance.
    const r = checkShipState(at(10 * MAX_SPEED), track, 10_000, FAR);
    expect(r.violations.map((v) => v.kind)).toEqual(['teleport']);
  });
});
