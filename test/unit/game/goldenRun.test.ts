/**
 * The golden run in Node: 10,000 ticks of 8 scripted ships fighting with
 * every weapon, picking up every kind of extra, end on the pinned
 * hash that the game page in Chromium must compute too
 * (test/e2e/determinism.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_8_SHIPS_10000_TICKS, GOLDEN_RUN, goldenRun, type GoldenRunResult, type InputChange } from '../../../src/shared/game/goldenRun';

describe('the golden run (Node)', () => {
  let golden: GoldenRunResult;
  beforeAll(() => {
    golden = goldenRun(GOLDEN_RUN);
  });

  it('10,000 ticks of 8 scripted ships end on the pinned hash', () => {
    const { hash, ...figures } = golden;
    console.log(`golden run in Node: hash ${hash}, ${JSON.stringify(figures)}`);
    expect(golden.hash).toBe(GOLDEN_8_SHIPS_10000_TICKS);
  });

  it('the script fights with every weapon, picks up every kind of extra, breaks asteroids and kills', () => {
    // Each figure is far above 0 (about 1,500 bolts, 90 missiles, 70 mines, 12 pulses, 12 deaths): only a
    // script or a rule that stopped working trips these.
    expect(golden.lasersFired).toBeGreaterThan(500);
    expect(golden.missilesFired).toBeGreaterThan(0);
    expect(golden.homingMissiles).toBeGreaterThan(0);
    expect(golden.minesLaid).toBeGreaterThan(0);
    expect(golden.empPulses).toBeGreaterThan(0);
    expect(golden.drained).toBeGreaterThan(0);
    for (const cause of ['laser', 'missile', 'mine', 'asteroid']) expect(golden.shipHits[cause], cause).toBeGreaterThan(0);
    expect(golden.asteroidHits).toBeGreaterThan(0);
    expect(golden.asteroidsBroken).toBeGreaterThan(0);
    expect(golden.extrasSpawned).toBeGreaterThan(0);
    for (const [kind, n] of Object.entries(golden.pickups)) expect(n, kind).toBeGreaterThan(0);
    expect(golden.kills).toBeGreaterThan(0);
    expect(golden.deaths).toBeGreaterThanOrEqual(golden.kills);
    // The run's matches (kill limit 2, 90 s) end and start again.
    expect(golden.matchesEnded).toBeGreaterThan(0);
  });

  it('one changed input (one ship, one tick, one field) gives another hash', () => {
    const change: InputChange = { tick: 5000, ship: 3, field: 'yaw', value: -0.5 };
    const changed = goldenRun({ ...GOLDEN_RUN, change });
    console.log(`golden run with ship 3's yaw at tick 5000 set to -0.5: hash ${changed.hash}`);
    expect(changed.hash).not.toBe(GOLDEN_8_SHIPS_10000_TICKS);
  });

  it('a change outside the run is refused rather than ignored', () => {
    expect(() => goldenRun({ ...GOLDEN_RUN, change: { tick: GOLDEN_RUN.ticks, ship: 0, field: 'fire', value: true } })).toThrow(RangeError);
    expect(() => goldenRun({ ...GOLDEN_RUN, change: { tick: 0, ship: GOLDEN_RUN.ships, field: 'thrust', value: 1 } })).toThrow(RangeError);
  });
});
