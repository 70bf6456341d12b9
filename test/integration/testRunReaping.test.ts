/**
 * What a killed test run leaves is reaped by the next one: an "earlier run"
 * is staged as the ledger a run keeps (test/support/testRun.ts) — an owner
 * that is gone, a process it started that still runs, a starlane-* folder it
 * made — and the reaper must kill the one and remove the other.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';
import { deadRuns, reapRun, TEST_CHILD_ENV } from '../support/testRun';
import { waitFor } from '../support/waitFor';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a test run that was killed', () => {
  it('leaves a process and a folder that the next run finds, kills and removes, and says how many', async () => {
    const run = `run-staged-${process.pid}-${Date.now()}`;
    const ledger = join(repoRoot, 'node_modules', '.cache', 'starlane-test-runs', run);
    mkdirSync(ledger, { recursive: true });
    // Its owner: a process that has exited (a vitest that was SIGKILLed).
    const owner = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((r) => owner.once('exit', r));
    writeFileSync(join(ledger, 'owner'), `${owner.pid} 0`);
    // What it started and made, written down as a run does (not through spawnTracked: this run must not own them).
    const orphan = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true, env: { ...process.env, [TEST_CHILD_ENV]: run } });
    orphan.unref();
    appendFileSync(join(ledger, 'pids'), `${orphan.pid}\n`);
    const folder = mkdtempSync(join(tmpdir(), 'starlane-orphan-'));
    appendFileSync(join(ledger, 'dirs'), `${folder}\n`);

    expect(deadRuns()).toContain(run);
    const left = reapRun(run);
    console.log(`reaped a staged earlier run: ${left.processes} processes, ${left.folders} folders (${left.details.join('; ')})`);
    expect(left).toMatchObject({ processes: 1, folders: 1 });
    await waitFor('the orphan to be gone', () => !alive(orphan.pid as number));
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(ledger)).toBe(false);
    expect(deadRuns()).not.toContain(run);
  });

  it('is not mistaken for this run: the live run owns its ledger', () => {
    expect(deadRuns()).not.toContain(process.env.STARLANE_TEST_RUN);
  });
});
