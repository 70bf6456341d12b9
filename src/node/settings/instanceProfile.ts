/**
 * One settings folder per running instance. The first Starlane to start uses
 * the user-data folder itself; while it runs, a second one (README's LAN
 * recipe runs two browser shells) uses `<userData>/instance-2`, a third
 * `instance-3`, and so on, each with its own settings.json — own name,
 * history and cvars, kept across restarts. A folder is held by a lock file
 * naming the process; a lock whose process is gone (a crash) is taken over.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Settings } from '../../shared/settings/settings';
import { PLAYER_NAME_MAX } from '../../shared/wire/strings';
import { processStartTime } from '../processStart';

/** The lock file in a settings folder while an instance uses it. */
export const LOCK_FILE = 'starlane.lock';
/** Most instances on one machine (the client UDP port has as many fallbacks). */
export const MAX_INSTANCES = 16;

/** The folder an instance uses, and how to give it back. */
export interface InstanceProfile {
  /** Folder of this instance's settings.json. */
  readonly dir: string;
  /** 1: the user-data folder itself; n ≥ 2: `<userData>/instance-n`. */
  readonly instance: number;
  /** For instance ≥ 2: the process holding the user-data folder when this one started. */
  readonly mainHeldBy: number | null;
  /** Removes the lock (idempotent; also done when the process exits without calling it). */
  release(): void;
}

interface LockHolder {
  pid: number;
  /** The process's start time where the system tells it (Linux), so a reused pid is told apart; '' elsewhere. */
  started: string;
}

/** Folder of instance `n` (1 = the user-data folder). */
export function instanceDir(userDataDir: string, n: number): string {
  return n === 1 ? userDataDir : join(userDataDir, `instance-${n}`);
}

/** Whether the process that wrote `holder` still runs. */
function running(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else; ESRCH: gone.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.started === '') return true;
  const now = processStartTime(holder.pid);
  return now === '' || now === holder.started;
}

function parseHolder(text: string): LockHolder | null {
  try {
    const raw = JSON.parse(text) as Partial<LockHolder>;
    if (typeof raw.pid !== 'number' || !Number.isSafeInteger(raw.pid) || raw.pid <= 0) return null;
    return { pid: raw.pid, started: typeof raw.started === 'string' ? raw.started : '' };
  } catch {
    return null;
  }
}

/**
 * Takes the lock of `dir` for this process, or returns who holds it. The lock
 * is created whole (written aside, then hard-linked into place, which fails
 * if it exists), so no instance ever reads a half-written one. A lock whose
 * process is gone, or that cannot be read, is removed and taken over. (Two
 * instances starting in the same instant after a crash could both take it;
 * that is left to chance.)
 */
async function tryLock(dir: string, me: LockHolder): Promise<{ ok: true } | { ok: false; holder: LockHolder }> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const aside = `${path}.${me.pid}-${Date.now()}`;
  await writeFile(aside, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(aside, path);
        return { ok: true };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = parseHolder(await readFile(path, 'utf8').catch(() => ''));
      if (holder && running(holder)) return { ok: false, holder };
      await unlink(path).catch(() => undefined);
    }
    throw new Error(`could not take the lock ${path}: it keeps reappearing`);
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

/**
 * Claims the first free settings folder under `userDataDir` for this process
 * (the folder itself, else instance-2, instance-3, …) and holds it until
 * {@link InstanceProfile.release} or the process exits. Throws when all
 * {@link MAX_INSTANCES} are in use or the folder cannot be written.
 */
export async function claimInstanceProfile(userDataDir: string): Promise<InstanceProfile> {
  const me: LockHolder = { pid: process.pid, started: processStartTime(process.pid) };
  let mainHeldBy: number | null = null;
  for (let n = 1; n <= MAX_INSTANCES; n++) {
    const dir = instanceDir(userDataDir, n);
    const result = await tryLock(dir, me);
    if (!result.ok) {
      if (n === 1) mainHeldBy = result.holder.pid;
      continue;
    }
    const lockPath = join(dir, LOCK_FILE);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      process.off('exit', release);
      try {
        // Only our own lock: never one a later instance took over.
        const holder = parseHolder(readFileSync(lockPath, 'utf8'));
        if (holder?.pid === me.pid && holder.started === me.started) unlinkSync(lockPath);
      } catch {
        /* already gone */
      }
    };
    process.on('exit', release);
    return { dir, instance: n, mainHeldBy: n === 1 ? null : mainHeldBy, release };
  }
  throw new Error(`${MAX_INSTANCES} Starlane instances already use the settings in ${userDataDir}`);
}

/**
 * The first settings of a new instance folder: the main settings, with the
 * player name marked by the instance number (`pilot` → `pilot-2`), so two
 * instances on one machine do not play under one name. Pure.
 */
export function seedInstanceSettings(main: Settings, instance: number): Settings {
  const suffix = `-${instance}`;
  const base = main.playerName.slice(0, PLAYER_NAME_MAX - suffix.length).trimEnd();
  return { ...structuredClone(main), playerName: `${base}${suffix}` };
}
