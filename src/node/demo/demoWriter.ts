/**
 * Writes a demo file (docs/DEMO.md) append-only. The magic and the header
 * go to the disk at once; chunks gather in memory and are written, and
 * synced to the disk (fdatasync), every DEMO_FLUSH_MS and at `close`. So a
 * crash or a power cut loses at most the last DEMO_FLUSH_MS of the recording
 * and leaves a file that plays up to its last whole chunk. A file never
 * overwrites another (it is created exclusively), and a write that fails
 * stops the recording with the reason instead of throwing at the game.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { encodeChunk, encodeDemoStart, textBody, DemoKind, type DemoHeader } from '../../shared/demo/demoFormat';
import { systemClock, type Clock } from '../../shared/time/clock';
import { crc32 } from './demoCrc';

/** How often gathered chunks are written and synced (ms): the most a crash can lose. */
export const DEMO_FLUSH_MS = 500;

export interface DemoWriterStats {
  /** Chunks added, and of those written and synced to the disk. */
  chunks: number;
  chunksWritten: number;
  /** Bytes written and synced (magic and header included). */
  bytes: number;
  flushes: number;
  /** The time of the last chunk on the disk (ms since the recording started). */
  writtenUpToMs: number;
}

export class DemoWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** The writes so far, one after another. */
  private chain: Promise<void> = Promise.resolve();
  private readonly timer: unknown;
  private closed = false;
  /** Why the recording stopped early (a failed write), or null. */
  failed: string | null = null;
  /** Told once, when a write fails (the recording stops there). */
  private onFailed: ((reason: string) => void) | null = null;
  readonly stats: DemoWriterStats = { chunks: 0, chunksWritten: 0, bytes: 0, flushes: 0, writtenUpToMs: 0 };
  /** The chunks gathered since the last flush: how many, and the time of the newest. */
  private pendingUpToMs = 0;

  private constructor(
    private readonly file: FileHandle,
    readonly path: string,
    private readonly clock: Clock,
    private readonly startedAt: number,
    flushMs: number,
  ) {
    this.timer = clock.setInterval(() => void this.flush(), flushMs);
  }

  /** Creates `path` (refusing one that exists) with `header`, written and synced before this resolves. */
  static async create(path: string, header: DemoHeader, o: { clock?: Clock; flushMs?: number; onFailed?: (reason: string) => void } = {}): Promise<DemoWriter> {
    const start = encodeDemoStart(header, crc32);
    const file = await open(path, 'wx');
    try {
      await file.write(start);
      await file.datasync();
    } catch (err) {
      await file.close();
      throw err;
    }
    const clock = o.clock ?? systemClock;
    const w = new DemoWriter(file, path, clock, clock.now(), o.flushMs ?? DEMO_FLUSH_MS);
    w.stats.bytes = start.length;
    if (o.onFailed) w.onFailed = o.onFailed;
    return w;
  }

  /** Milliseconds since the recording started. */
  get timeMs(): number {
    return Math.max(0, Math.floor(this.clock.now() - this.startedAt));
  }

  /** Adds a chunk at the current time (nothing once closed or failed). */
  add(kind: DemoKind, body: Uint8Array): void {
    if (this.closed || this.failed) return;
    const timeMs = this.timeMs;
    const chunk = encodeChunk(kind, timeMs, body, crc32);
    this.pending.push(chunk);
    this.pendingUpToMs = timeMs;
    this.pendingBytes += chunk.length;
    this.stats.chunks += 1;
  }

  /** Writes and syncs what has gathered (the timer does this every DEMO_FLUSH_MS). */
  flush(): Promise<void> {
    if (this.pending.length === 0 || this.failed) return this.chain;
    const bytes = new Uint8Array(this.pendingBytes);
    let at = 0;
    for (const c of this.pending) {
      bytes.set(c, at);
      at += c.length;
    }
    const count = this.pending.length;
    const upTo = this.pendingUpToMs;
    this.pending = [];
    this.pendingBytes = 0;
    this.chain = this.chain.then(async () => {
      if (this.failed) return;
      try {
        await this.file.write(bytes);
        await this.file.datasync();
        this.stats.bytes += bytes.length;
        this.stats.flushes += 1;
        this.stats.chunksWritten += count;
        this.stats.writtenUpToMs = upTo;
      } catch (err) {
        this.failed = `could not write ${this.path}: ${(err as Error).message}`;
        this.onFailed?.(this.failed);
      }
    });
    return this.chain;
  }

  /** Ends the recording with an end chunk naming `reason`, writes everything and closes the file. */
  async close(reason: string): Promise<void> {
    if (this.closed) return this.chain;
    this.add(DemoKind.End, textBody(reason));
    this.closed = true;
    this.clock.clearInterval(this.timer);
    await this.flush();
    await this.file.close();
  }
}
