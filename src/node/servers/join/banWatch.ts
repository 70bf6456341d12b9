/**
 * A ban file that applies without a restart: read at start (a missing or
 * unreadable file fails the start), then read again whenever it changes and
 * whenever {@link BanWatch.reload} is called (the CLI calls it on SIGHUP).
 *
 * Changes are noticed with `fs.watchFile` (a stat poll, every `pollMs`,
 * default 1 s), not `fs.watch`: editors save by writing a new file and
 * renaming it over the old one, which ends an inotify watch on Linux, and
 * `fs.watch` reports no file name on some platforms and misses changes on
 * network file systems; polling stat behaves the same on Linux, macOS and
 * Windows and keeps watching a path that is replaced or deleted and created
 * again. A re-read that fails (the file is gone or half-written) keeps the
 * bans in force and logs a warning; the next change tries again.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type { Logger } from '../../log';
import { loadBanList, type BanList } from './banList';

export interface BanWatchOptions {
  log: Logger;
  /** Called with the new list after every successful re-read (not for the first read). Must not throw. */
  onChange(list: BanList): void;
  /** Stat poll interval (default 1000 ms). */
  pollMs?: number;
}

export interface BanWatch {
  /** The bans in force. */
  readonly list: BanList;
  /** Reads the file again now (`why` goes into the log line); resolves once the new list is in force or the read failed. */
  reload(why: string): Promise<void>;
  /** Stops watching. */
  close(): void;
}

/** Reads `path` and starts watching it; rejects when the first read fails. */
export async function watchBanList(path: string, options: BanWatchOptions): Promise<BanWatch> {
  const { log } = options;
  const read = async () => {
    const loaded = await loadBanList(path);
    for (const w of loaded.warnings) log.warn({ file: path, line: w.line, text: w.text }, `ban file: ${w.reason}`);
    return loaded.list;
  };
  let list = await read();
  log.info({ file: path, entries: list.size }, 'ban list loaded');
  let closed = false;
  // Reloads run one after another, so an older read never overwrites a newer one.
  let queue = Promise.resolve();
  const reload = (why: string): Promise<void> => {
    queue = queue.then(async () => {
      if (closed) return;
      try {
        const next = await read();
        if (closed) return;
        list = next;
        log.info({ file: path, entries: next.size, why }, 'ban list reloaded');
        try {
          options.onChange(next);
        } catch (err) {
          log.error({ err }, 'ban list onChange threw');
        }
      } catch (err) {
        log.warn({ file: path, why, err: (err as Error).message }, 'ban file could not be read again; the bans in force stay');
      }
    });
    return queue;
  };
  const onStat = (curr: Stats, prev: Stats) => {
    // A poll that finds the file missing (both times) changes nothing worth a read.
    if (curr.mtimeMs === prev.mtimeMs && curr.size === prev.size && curr.ino === prev.ino) return;
    void reload('file changed');
  };
  watchFile(path, { interval: options.pollMs ?? 1000, persistent: false }, onStat);
  return {
    get list() {
      return list;
    },
    reload,
    close() {
      if (closed) return;
      closed = true;
      unwatchFile(path, onStat);
    },
  };
}
