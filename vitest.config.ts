import { defineConfig } from 'vitest/config';

/**
 * Four suites. `npm test` builds first, then runs the first three:
 * - unit: pure logic in src/shared and src/node without sockets;
 * - integration: real sockets and processes on loopback;
 * - e2e: the built renderer in headless Chromium through the browser shell.
 * `npm run test:soak` runs the fourth, which CI runs too:
 * - soak: real-time runs that earn their minutes (matches of bots to a kill
 *   limit, hostile floods, lockstep on a virtual LAN, stalls, time sync and
 *   smoothness through the link conditioner), kept apart so `npm test`
 *   stays within ten minutes on a 2-core machine.
 * The suites run one after another (group order), so the CPU-heavy unit races
 * do not starve the real-time tests on a 2-core machine.
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
