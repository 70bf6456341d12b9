/**
 * An in-memory demo for the playback tests: a chunk sink (the recorder's
 * side) whose chunks become a demo file's bytes, read back as the player
 * reads one.
 */
import { crc32 } from '../../src/node/demo/demoCrc';
import { encodeChunk, encodeDemoStart, readDemo, type DemoHeader, type DemoKind, type DemoRead } from '../../src/shared/demo/demoFormat';
import type { ChunkSink } from '../../src/shared/demo/gameRecorder';

export class MemoryDemo implements ChunkSink {
  readonly chunks: { kind: DemoKind; timeMs: number; body: Uint8Array }[] = [];
  /** Demo time of the next chunk added (a test moves it on as its game's clock goes). */
  timeMs = 0;

  add(kind: DemoKind, body: Uint8Array): void {
    this.chunks.push({ kind, timeMs: Math.floor(this.timeMs), body: body.slice() });
  }

  bytes(header: DemoHeader): Uint8Array {
    const parts = [encodeDemoStart(header, crc32), ...this.chunks.map((c) => encodeChunk(c.kind, c.timeMs, c.body, crc32))];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  read(header: DemoHeader): DemoRead & { ok: true } {
    const read = readDemo(this.bytes(header), crc32);
    if (!read.ok) throw new Error(`the test's demo does not read: ${read.why}`);
    return read;
  }
}
