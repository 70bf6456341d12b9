import { expect } from 'vitest';
import { LockstepSim } from './lockstepSim';

/** What a sweep of seeds saw, for the line it prints. */
export interface SweepFigures {
  seeds: number;
  /** (epoch, frame) pairs compared between peers. */
  compared: number;
  /** State transfers taken. */
  transfers: number;
  /** Fewest frames any peer completed in its 3 s. */
  slowest: number;
}

/**
 * Lockstep on a lossy simulated network for seeds `first`..`last`: 2–4 peers
 * (by the seed), 5 % loss, 3 % duplication, 5 % reordering, 2–8 ms latency,
 * 3 s of virtual time each. Asserts, per seed, that no two peers computed a
 * different world for a frame both completed and that every peer played more
 * than a second of frames. The unit suite sweeps the first seeds, the soak
 * suite the rest (test/soak/lockstepSeeds.test.ts): 1,000 in all.
 */
export function sweepLockstepSeeds(first: number, last: number): SweepFigures {
  const figures: SweepFigures = { seeds: last - first + 1, compared: 0, transfers: 0, slowest: Infinity };
  for (let seed = first; seed <= last; seed++) {
    const peers = 2 + (seed % 3);
    const sim = new LockstepSim({ peers, seed, lossPct: 5, dupPct: 3, reorderPct: 5, latencyMs: 2 + (seed % 7), jitterMs: 2 });
    sim.runUntil(3000);
    expect(sim.mismatches, `seed ${seed}`).toEqual([]);
    figures.compared += sim.framesCompared;
    figures.transfers += sim.noticesOf('adopted').length;
    figures.slowest = Math.min(figures.slowest, ...sim.completed);
    // Every peer plays: at least a second of frames after the start (the first transfer needs ~1 s at worst).
    for (const done of sim.completed) expect(done, `seed ${seed}`).toBeGreaterThan(40);
  }
  console.log(`lockstep seeds ${first}–${last}: ${figures.compared} (epoch, frame) pairs compared between peers, ${figures.transfers} state transfers taken, slowest peer completed ${figures.slowest} frames in 3 s`);
  return figures;
}
