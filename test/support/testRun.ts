import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processStartTime } from '../../src/node/processStart';
import { repoRoot } from './paths';

/**
 * What a test run starts, and what it must leave behind: nothing.
 *
 * The global setup gives the run an id (`STARLANE_TEST_RUN`, inherited by the
 * test workers) and a ledger folder in node_modules/.cache. Every process a
 * test starts goes through {@link spawnTracked}: it carries the mark
 * `STARLANE_TEST_CHILD=<run id>` in its environment (so do its own children,
 * and the browsers the e2e tests launch), leads its own process group, and its
 * pid is written to the ledger. Every temporary folder comes from
 * {@link tempDir} (`starlane-<label>-…`, recorded likewise).
 *
 * Each test file's `afterAll` (test/support/fileSetup.ts) kills the process
 * groups and removes the folders that file made, whether its tests passed,
 * failed or timed out. The global teardown then checks the ledger and the
 * process table: anything still there is killed or removed, listed, and fails
 * the run. A run that was itself killed never reaches its teardown, so the
 * next run's setup reaps what every dead run left.
 */
export const TEST_RUN_ENV = 'STARLANE_TEST_RUN';
export const TEST_CHILD_ENV = 'STARLANE_TEST_CHILD';

const ledgerRoot = join(repoRoot, 'node_modules', '.cache', 'starlane-test-runs');

/** This run's id; a process outside a vitest run (a bench script) gets one of its own. */
export function testRunId(): string {
  process.env[TEST_RUN_ENV] ??= `solo-${process.pid}-${Date.now()}`;
  return process.env[TEST_RUN_ENV] as string;
}

function ledger(run: string): string {
  const dir = join(ledgerRoot, run);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'owner'), `${process.pid} ${processStartTime(process.pid)}`);
  }
  return dir;
}

const started: ChildProcess[] = [];
const folders: string[] = [];

/**
 * `child_process.spawn` for tests: marked, in its own process group (POSIX),
 * recorded, and killed with its whole group by the file's teardown.
 */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const run = testRunId();
  const child = spawn(command, args, {
    ...options,
    detached: process.platform !== 'win32',
    env: { ...(options.env ?? process.env), [TEST_CHILD_ENV]: run },
  });
  if (child.pid !== undefined) appendFileSync(join(ledger(run), 'pids'), `${child.pid}\n`);
  started.push(child);
  return child;
}

/** A fresh `starlane-<label>-…` folder in the system's temporary folder, removed by the file's teardown. */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `starlane-${label}-`));
  appendFileSync(join(ledger(testRunId()), 'dirs'), `${dir}\n`);
  folders.push(dir);
  return dir;
}

/** Kills a process and its group (POSIX); quiet when it is already gone. */
function killGroup(pid: number): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** The file's teardown: kills what it started and removes what it made. */
export async function cleanUpFile(): Promise<void> {
  const exits = started.splice(0).map((child) => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child.pid as number);
    return exited;
  });
  // Group members (e.g. a bench script's servers) may outlive their leader by a moment.
  await Promise.all(exits);
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Whether `pid` is alive (and, on Linux, still one of `run`'s processes rather than a reused pid). */
function aliveIn(pid: number, run: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  return markOf(pid) === run;
}

/** The run mark in a process's environment (Linux), or null. */
function markOf(pid: number): string | null {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, 'latin1');
    const m = new RegExp(`(?:^|\\0)${TEST_CHILD_ENV}=([^\\0]*)`).exec(env);
    return m?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Processes carrying a run's mark: ledger pids everywhere, plus any marked process on Linux (grandchildren, browsers). */
function marked(run: string, dir: string): number[] {
  const pids = new Set<number>();
  const file = join(dir, 'pids');
  if (existsSync(file)) for (const line of readFileSync(file, 'utf8').split('\n')) if (/^\d+$/.test(line)) pids.add(Number(line));
  if (process.platform === 'linux') {
    for (const entry of readdirSync('/proc')) if (/^\d+$/.test(entry) && markOf(Number(entry)) === run) pids.add(Number(entry));
  }
  return [...pids].filter((pid) => pid !== process.pid && aliveIn(pid, run));
}

function recordedDirs(dir: string): string[] {
  const file = join(dir, 'dirs');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((d) => d !== '' && existsSync(d));
}

export interface Leftovers {
  processes: number;
  folders: number;
  /** One line per leftover, for the report. */
  details: string[];
}

/** What a run left behind: kills the processes and removes the folders, and returns what there was. */
export function reapRun(run: string): Leftovers {
  const dir = join(ledgerRoot, run);
  const pids = marked(run, dir);
  const details: string[] = [];
  for (const pid of pids) {
    let what = '';
    try {
      what = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      /* not Linux */
    }
    details.push(`process ${pid} ${what}`.trim());
    killGroup(pid);
  }
  const dirs = recordedDirs(dir);
  for (const d of dirs) {
    details.push(`folder ${d}`);
    rmSync(d, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  return { processes: pids.length, folders: dirs.length, details };
}

/** Runs whose owner (the vitest process) is gone: a killed run never cleaned up after itself. */
export function deadRuns(): string[] {
  if (!existsSync(ledgerRoot)) return [];
  return readdirSync(ledgerRoot).filter((run) => {
    const ownerFile = join(ledgerRoot, run, 'owner');
    const [pid, started = ''] = (existsSync(ownerFile) ? readFileSync(ownerFile, 'utf8') : '').split(' ');
    const owner = Number(pid);
    if (!Number.isInteger(owner) || owner <= 0) return true;
    try {
      process.kill(owner, 0);
    } catch {
      return true;
    }
    return processStartTime(owner) !== started;
  });
}

/** Starts a run: a fresh id and ledger owned by this process. */
export function beginRun(): string {
  const run = `run-${process.pid}-${Date.now()}`;
  process.env[TEST_RUN_ENV] = run;
  ledger(run);
  return run;
}
