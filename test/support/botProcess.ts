import { botEntry, repoRoot } from './paths';
import { spawnTracked } from './testRun';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** What a `--json` bot printed, parsed. */
export interface BotRecord {
  t: string;
  [key: string]: unknown;
}

export interface BotPlayers {
  localSlot: number | null;
  status: string;
  players: { slot: number; name: string; joined: boolean; local: boolean; address: string }[];
}

/**
 * Follows a `starlane-bot --json` process: every line it prints, its latest
 * slot table, and waiting helpers with clear timeouts.
 */
export class BotWatch {
  readonly records: BotRecord[] = [];
  stderr = '';
  /** The process has ended and its output is read. */
  private closed = false;
  private waiters = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    child.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        this.records.push(JSON.parse(line) as BotRecord);
      } catch {
        this.records.push({ t: 'raw', text: line });
      }
      for (const w of this.waiters) w();
    });
    // 'close', not 'exit': by then every line the bot printed has been read.
    child.once('close', () => {
      this.closed = true;
      for (const w of this.waiters) w();
    });
  }

  /** Resolves with the exit code once the process has ended and all it printed is read (null if killed by a signal). */
  exited(): Promise<number | null> {
    const c = this.child;
    if (this.closed) return Promise.resolve(c.exitCode);
    return new Promise((resolve) => c.once('close', (code) => resolve(code)));
  }

  /** The newest slot table the bot reported. */
  players(): BotPlayers | null {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i] as BotRecord;
      if (r.t === 'players') return r as unknown as BotPlayers;
    }
    return null;
  }

  /** Console lines the bot printed. */
  prints(): string[] {
    return this.records.filter((r) => r.t === 'print').map((r) => String(r.text));
  }

  /** States received per slot, from the newest stats line. */
  received(): Record<string, number> {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i] as BotRecord;
      if (r.t === 'stats') return r.received as Record<string, number>;
    }
    return {};
  }

  /** Resolves when `check` holds (checked on every new line and every 100 ms); rejects after `ms` with `what`. */
  until<T>(what: string, check: () => T | undefined | null | false, ms = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const done = () => {
        const v = check();
        if (v !== undefined && v !== null && v !== false) {
          cleanup();
          resolve(v);
        } else if (this.closed) {
          cleanup();
          reject(new Error(`${this.name} exited (${this.child.exitCode}) before: ${what}\n${this.stderr}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${this.name}: timed out after ${ms} ms waiting for: ${what}\nlast lines: ${JSON.stringify(this.records.slice(-5))}\n${this.stderr}`));
      }, ms);
      const poll = setInterval(done, 100);
      const cleanup = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(done);
      };
      this.waiters.add(done);
      done();
    });
  }
}

/**
 * A circling headless bot (built `out/main/bot.js`, JSON lines) joining the
 * server at `server` (host:port) with `protocol`, on loopback only, tracked so
 * nothing outlives the run.
 */
export function serverBot(protocol: 'slotserver' | 'gameserver' | 'netgame', name: string, server: string, seed: number): BotWatch {
  const child = spawnTracked(
    process.execPath,
    [botEntry, '--json', '--name', name, '--protocol', protocol, '--server', server, '--port', '0', '--broadcast', '127.255.255.255', '--lan-interfaces', 'none', '--pilot', 'circle', '--seed', String(seed)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new BotWatch(name, child);
}

/** Bots `bots` in their games: waits until each shows itself joined (a seat and its ship in). */
export async function botsJoined(bots: readonly BotWatch[], ms = 20_000): Promise<void> {
  await Promise.all(bots.map((b) => b.until(`${b.name} in its game`, () => b.players()?.players.some((p) => p.name === b.name && p.joined) ?? false, ms)));
}

/** Stops `bots` as Ctrl-C would (each leaves its game) and waits for them to exit. */
export async function stopBots(bots: readonly BotWatch[]): Promise<void> {
  for (const b of bots) b.child.kill('SIGINT');
  await Promise.all(bots.map((b) => b.exited()));
}
