import { beginRun, deadRuns, reapRun } from './testRun';

/**
 * Once per `vitest run`: reap what killed runs left (their processes and
 * `starlane-*` folders), start this run's ledger, and at the end fail the run
 * if anything this run started or made is still there (after removing it).
 * The e2e browser is chosen and announced by the e2e project's own setup.
 */
export function setup(): () => void {
  for (const run of deadRuns()) {
    const left = reapRun(run);
    if (left.processes + left.folders > 0) {
      console.log(`test run: reaped what an earlier, interrupted run (${run}) left: ${left.processes} processes, ${left.folders} folders`);
    }
  }
  const run = beginRun();
  return () => {
    const left = reapRun(run);
    console.log(`test run: ${left.processes} processes and ${left.folders} starlane-* temporary folders outlived their tests`);
    if (left.processes + left.folders > 0) {
      for (const line of left.details) console.log(`  left behind: ${line}`);
      // A throw here would not change vitest's exit code.
      process.exitCode = 1;
    }
  };
}
