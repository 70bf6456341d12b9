/**
 * The rest of the lockstep seed sweep (the unit suite runs seeds 1–200,
 * test/unit/lockstep/engine.test.ts): seeds 201–1,000 on the simulated lossy
 * network, every peer computing the same world at every frame it completes.
 * Virtual time, but ~20 s of CPU: a soak, not a unit test.
 */
import { describe, expect, it } from 'vitest';
import { sweepLockstepSeeds } from '../support/lockstepSweep';

describe('lockstep on a lossy simulated network, the long sweep', () => {
  it('every peer computes the same world at every frame it completes: seeds 201–1,000, 2–4 peers, 5 % loss, duplication, reordering', () => {
    const { compared, seeds } = sweepLockstepSeeds(201, 1000);
    expect(compared).toBeGreaterThan(seeds * 40);
  }, 240_000);
});
