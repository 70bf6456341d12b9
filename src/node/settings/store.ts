import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { sanitizeSettings, type Settings } from '../../shared/settings/settings';

export const SETTINGS_FILE = 'settings.json';

/** What opening the store found, for one clear line to the player. */
export interface SettingsLoadReport {
  /**
   * 'missing' on first run, 'seeded' (first run of a folder, started from the `seed` settings),
   * 'ok', 'repaired' (some fields reset), or 'corrupt' (unreadable; defaults used).
   */
  status: 'missing' | 'seeded' | 'ok' | 'repaired' | 'corrupt';
  /** Human-readable problems (fields reset, parse error). */
  issues: string[];
  /** Where an unreadable file was moved so nothing is lost. */
  backupPath?: string;
}

/**
 * Player settings on disk, written atomically (temp file, fsync, rename) so a
 * crash mid-write leaves the previous file intact. Writes are serialised and
 * coalesced: changes made while a write is in flight go out in one more write.
 */
export class SettingsStore {
  private current: Settings;
  private writing: Promise<void> | null = null;
  private dirty = false;
  private lastError: Error | null = null;

  private constructor(
    readonly dir: string,
    initial: Settings,
  ) {
    this.current = initial;
  }

  /**
   * Opens (or creates) the store in `dir`. Never throws for a bad file: it reports and uses defaults.
   * Where `dir` has no settings file yet, `seed` may give the first settings (written at once).
   */
  static async open(dir: string, options: { seed?: () => Promise<Settings | null> } = {}): Promise<{ store: SettingsStore; report: SettingsLoadReport }> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, SETTINGS_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        const seeded = (await options.seed?.()) ?? null;
        if (seeded === null) return { store: new SettingsStore(dir, sanitizeSettings({}).settings), report: { status: 'missing', issues: [] } };
        const store = new SettingsStore(dir, sanitizeSettings(seeded).settings);
        await store.save();
        return { store, report: { status: 'seeded', issues: [] } };
      }
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      const backupPath = `${path}.corrupt-${Date.now()}`;
      await rename(path, backupPath);
      const store = new SettingsStore(dir, sanitizeSettings({}).settings);
      await store.save();
      return { store, report: { status: 'corrupt', issues: [(err as Error).message], backupPath } };
    }
    const { settings, issues } = sanitizeSettings(parsed);
    const store = new SettingsStore(dir, settings);
    if (issues.length > 0) await store.save();
    return { store, report: { status: issues.length > 0 ? 'repaired' : 'ok', issues } };
  }

  get path(): string {
    return join(this.dir, SETTINGS_FILE);
  }

  /** The current settings without a copy, for hot paths. Callers must not mutate it (use update). */
  peek(): Readonly<Settings> {
    return this.current;
  }

  /** A copy of the current settings. */
  get(): Settings {
    return structuredClone(this.current);
  }

  /** Applies `change` to a copy and schedules a write; returns the new settings. */
  update(change: (s: Settings) => void): Settings {
    const next = structuredClone(this.current);
    change(next);
    this.current = next;
    void this.save();
    return structuredClone(next);
  }

  /** The last write error, if the most recent write failed (reported by the host). */
  get error(): Error | null {
    return this.lastError;
  }

  /** Writes now (coalescing with a write in flight); resolves when the file on disk is current. */
  save(): Promise<void> {
    this.dirty = true;
    if (!this.writing) {
      this.writing = this.drain().finally(() => {
        this.writing = null;
      });
    }
    return this.writing;
  }

  private async drain(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeAtomic(this.path, `${JSON.stringify(this.current, null, 2)}\n`);
        this.lastError = null;
      } catch (err) {
        this.lastError = err as Error;
      }
    }
  }
}

/** The settings saved in `dir` (checked like any untrusted file), or null when there are none or they cannot be read. */
export async function readSettingsFile(dir: string): Promise<Settings | null> {
  try {
    return sanitizeSettings(JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8'))).settings;
  } catch {
    return null;
  }
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
