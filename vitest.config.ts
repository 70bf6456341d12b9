import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Four suites. `npm test` builds first, then runs the first three:
 * - unit: pure logic in src/shared and src/node without sockets;
 * - integration: real sockets and processes on loopback;
 * - e2e: the built renderer in headless Chromium through the browser shell.
 * `npm run test:soak` runs the fourth, which CI runs too:
 * - soak: real-time runs that earn their minutes (matches of bots to a kill
 *   limit, hostile floods, lockstep on a virtual LAN, stalls, time sync and
 *   smoothness through the link conditioner) and the long seed sweeps, kept
 *   apart so `npm test` stays within ten minutes on a 2-core machine.
 * The suites run one after another (group order), so the CPU-heavy unit races
 * do not starve the real-time tests on a 2-core machine. Unit files run two at
 * a time (they share no sockets, ports or clocks); the others one at a time,
 * since loopback broadcasts of two files would reach each other's servers.
 *
 * Every run reaps what an interrupted earlier run left, and fails if a process
 * or `starlane-*` folder it made outlives its test (test/support/testRun.ts).
 */
const setupFiles = ['test/support/fileSetup.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/globalSetup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles,
          // Pure logic on virtual clocks: two files at a time even on 2 cores (vitest's default leaves one core idle).
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // A breakage guard, not a speed bound: a 1.5 s property run took over 5 s on a loaded 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          setupFiles,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 30_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'soak',
          include: ['test/soak/**/*.test.ts'],
          environment: 'node',
          setupFiles,
          sequence: { groupOrder: 3 },
          testTimeout: 30_000,
          hookTimeout: 30_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          setupFiles,
          globalSetup: ['test/support/e2eSetup.ts'],
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
