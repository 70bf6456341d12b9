/**
 * The golden run in Node: 10,000 ticks of 8 scripted ships end on the pinned
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
    console.log(
      `golden run in Node: ${golden.ships} ships, ${golden.ticks} ticks, ${golden.lasersFired} lasers fired, ` +
        `${golden.shipHits} ship hits, ${golden.asteroidHits} asteroid hits, hash ${golden.hash}`,
    );
    expect(golden.hash).toBe(GOLDEN_8_SHIPS_10000_TICKS);
  });

  it('the script makes the ships fire and hit ships and asteroids', () => {
    // About 3,700 shots, 90 ship hits and 15 asteroid hits: only a script that stopped flying trips these.
    expect(golden.lasersFired).toBeGreaterThan(1000);
    expect(golden.shipHits).toBeGreaterThan(20);
    expect(golden.asteroidHits).toBeGreaterThan(3);
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
