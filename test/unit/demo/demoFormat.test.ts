/**
 * The demo file format (src/shared/demo/demoFormat.ts, docs/DEMO.md): what
 * is written reads back exactly; a recording cut off anywhere (a crash) or
 * ended in zeros (a power cut) plays up to its last whole chunk; bad bytes
 * before the end stop reading at that chunk, with the reason and the
 * offset; a file that is no demo, or one of another format, is refused
 * naming why; and 100,000 mutated and truncated files never make the reader
 * throw or hang, each stop with a reason.
 */
import { describe, expect, it } from 'vitest';
import {
  CHUNK_OVERHEAD,
  DEMO_MAGIC,
  DemoKind,
  bodyText,
  digestBody,
  encodeChunk as encodeChunkWith,
  encodeDemoStart as encodeDemoStartWith,
  readDemo as readDemoWith,
  readDigest,
  textBody,
  type DemoHeader,
  type DemoRead,
} from '../../../src/shared/demo/demoFormat';
import { crc32 } from '../../../src/node/demo/demoCrc';
import { demoHeader } from '../../support/demoHeader';

/** The format's functions with Node's CRC-32, as the writer and the tool use them. */
const encodeChunk = (kind: DemoKind, timeMs: number, body: Uint8Array) => encodeChunkWith(kind, timeMs, body, crc32);
const encodeDemoStart = (header: DemoHeader) => encodeDemoStartWith(header, crc32);
const readDemo = (bytes: Uint8Array) => readDemoWith(bytes, crc32);

const HEADER: DemoHeader = demoHeader();

/** encodeChunk(Text, 1000 ms, "hi"): length 7, kind 4, time 0x3e8, "hi", CRC-32. */
const GOLDEN_TEXT_CHUNK = '0000000704000003e86869452dedc8';

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const bytes = (...xs: number[]) => Uint8Array.from(xs);

/** A recording of every kind of chunk, its chunks and where each starts. */
function recording(end: string | null = 'stop') {
  const chunks = [
    { kind: DemoKind.Delivery, timeMs: 0, body: bytes(0x53, 0x4c, 1, 2, 3) },
    { kind: DemoKind.Local, timeMs: 50, body: bytes(9, 8, 7) },
    { kind: DemoKind.Text, timeMs: 60, body: textBody('bob: gg, é ✓') },
    { kind: DemoKind.Frame, timeMs: 100, body: bytes(1) },
    { kind: DemoKind.Digest, timeMs: 1000, body: digestBody(40, '0123456789abcdef') },
    { kind: DemoKind.Delivery, timeMs: 1000, body: new Uint8Array(1200).fill(7) },
  ];
  const start = encodeDemoStart(HEADER);
  const encoded = chunks.map((c) => encodeChunk(c.kind, c.timeMs, c.body));
  const offsets: number[] = [];
  let at = start.length;
  for (const e of encoded) {
    offsets.push(at);
    at += e.length;
  }
  const parts = [start, ...encoded];
  if (end !== null) parts.push(encodeChunk(DemoKind.End, 1200, textBody(end)));
  return { file: concat(parts), chunks, offsets, headerEnd: start.length, bodyEnd: at };
}

const ok = (r: DemoRead) => {
  if (!r.ok) throw new Error(`not read: ${r.why} ${r.detail}`);
  return r;
};

describe('demo files', () => {
  it('read back exactly what was written, header, chunks of every kind, length and the clean end with its reason', () => {
    const { file, chunks } = recording('protocol switch to p2p');
    const r = ok(readDemo(file));
    expect(r.header).toEqual(HEADER);
    expect(r.chunks.map((c) => ({ kind: c.kind, timeMs: c.timeMs, body: [...c.body] }))).toEqual(chunks.map((c) => ({ ...c, body: [...c.body] })));
    expect(r.durationMs).toBe(1200);
    expect(r.stop).toEqual({ how: 'clean', reason: 'protocol switch to p2p', offset: file.length });
    expect(bodyText(r.chunks[2]!.body)).toBe('bob: gg, é ✓');
    expect(readDigest(r.chunks[4]!.body)).toEqual({ tick: 40, hash: '0123456789abcdef' });
  });

  it('frames each chunk as length, kind, time, body and a CRC-32 (golden bytes)', () => {
    expect([...DEMO_MAGIC]).toEqual([...new TextEncoder().encode('SLDEMO\r\n')]);
    // CRC-32 of the standard check string, as zlib and PNG have it.
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    const chunk = encodeChunk(DemoKind.Text, 1000, textBody('hi'));
    const hex = Buffer.from(chunk).toString('hex');
    expect(hex.slice(0, 22)).toBe('00000007' + '04' + '000003e8' + '6869');
    expect(chunk.length).toBe(CHUNK_OVERHEAD + 2);
    expect(hex.slice(22)).toBe(crc32(chunk.subarray(4, 11)).toString(16).padStart(8, '0'));
    expect(hex).toBe(GOLDEN_TEXT_CHUNK);
  });

  it('cut off anywhere inside a chunk (a crash), the file plays every whole chunk before it and says it was cut there', () => {
    const { file, offsets, bodyEnd } = recording(null);
    for (let cut = offsets[0]!; cut <= bodyEnd; cut++) {
      const r = ok(readDemo(file.subarray(0, cut)));
      const whole = offsets.filter((o, i) => (offsets[i + 1] ?? bodyEnd) <= cut).length;
      expect(r.chunks.length, `cut at ${cut}`).toBe(whole);
      expect(r.stop.how).toBe('cut');
      if (r.stop.how !== 'clean') expect(r.stop.offset).toBe(whole === offsets.length ? bodyEnd : offsets[whole]);
    }
  });

  it('ending in zeros (a power cut after the length grew), the file plays up to them and counts as cut, not damaged', () => {
    const { file, offsets } = recording(null);
    const powerCut = concat([file.subarray(0, offsets[3]!), new Uint8Array(4096)]);
    const r = ok(readDemo(powerCut));
    expect(r.chunks.length).toBe(3);
    expect(r.stop).toMatchObject({ how: 'cut', offset: offsets[3] });
  });

  it('a damaged chunk before the end stops reading there, naming why and where; the chunks before it play', () => {
    const cases: [string, (f: Uint8Array, at: number) => void, string][] = [
      ['a flipped bit in its body', (f, at) => void (f[at + 10]! ^= 0x10), 'bad-crc'],
      ['a length beyond any chunk', (f, at) => new DataView(f.buffer).setUint32(at, 0x00ff_ffff), 'bad-length'],
      ['a length too short for a chunk', (f, at) => new DataView(f.buffer).setUint32(at, 2), 'bad-length'],
    ];
    for (const [what, spoil, why] of cases) {
      const { file, offsets } = recording();
      const f = file.slice();
      spoil(f, offsets[2]!);
      const r = ok(readDemo(f));
      expect(r.chunks.length, what).toBe(2);
      expect(r.stop, what).toMatchObject({ how: 'damaged', why, offset: offsets[2] });
    }
  });

  it('chunks that are whole but wrong stop reading too: an unknown kind, time going back, a second header, bad text, bytes after the end', () => {
    const start = encodeDemoStart(HEADER);
    const good = encodeChunk(DemoKind.Local, 500, bytes(1));
    const raw = (kind: number, time: number, body: Uint8Array) => {
      const c = encodeChunk(DemoKind.Local, time, body);
      c[4] = kind;
      new DataView(c.buffer).setUint32(c.length - 4, crc32(c.subarray(4, c.length - 4)));
      return c;
    };
    const cases: [Uint8Array, string][] = [
      [raw(9, 600, bytes(1)), 'unknown-kind'],
      [encodeChunk(DemoKind.Local, 400, bytes(1)), 'time-backwards'],
      [encodeChunk(DemoKind.Header, 600, new TextEncoder().encode(JSON.stringify(HEADER))), 'header-twice'],
      [encodeChunk(DemoKind.Text, 600, bytes(0xff, 0xfe)), 'bad-body'],
      [encodeChunk(DemoKind.Digest, 600, bytes(1, 2, 3)), 'bad-body'],
      [concat([encodeChunk(DemoKind.End, 600, textBody('stop')), bytes(1, 2, 3)]), 'after-end'],
    ];
    for (const [bad, why] of cases) {
      const r = ok(readDemo(concat([start, good, bad, good])));
      expect(r.chunks.length, why).toBe(1);
      expect(r.stop, why).toMatchObject({ how: 'damaged', why });
    }
  });

  it('no demo at all is refused naming why: too short, no magic, nothing after it, no header first, a header that is no JSON or misses fields, another format', () => {
    const magic = DEMO_MAGIC;
    const headerChunk = (body: unknown) => encodeChunk(DemoKind.Header, 0, new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)));
    const cases: [Uint8Array, string, RegExp][] = [
      [bytes(0x53, 0x4c), 'too-short', /not even the magic/],
      [new TextEncoder().encode('PK\x03\x04 a zip file, not a demo'), 'bad-magic', /no SLDEMO magic/],
      [magic, 'no-header', /nothing else/],
      [concat([magic, encodeChunk(DemoKind.Local, 0, bytes(1))]), 'no-header', /not the header/],
      [concat([magic, headerChunk('{"demo":1,')]), 'bad-header', /not JSON/],
      [concat([magic, headerChunk({ ...HEADER, protocol: 'quake' })]), 'bad-header', /protocol "quake" is none of/],
      [concat([magic, headerChunk({ ...HEADER, sim: 'x' })]), 'bad-header', /simulation hash/],
      [concat([magic, headerChunk({ ...HEADER, players: [{ slot: 300, name: 'x' }] })]), 'bad-header', /player/],
      [concat([magic, headerChunk({ ...HEADER, demo: 2 })]), 'other-format', /format 2: this Starlane reads demo format 1/],
    ];
    for (const [file, why, detail] of cases) {
      const r = readDemo(file);
      expect(r.ok, why).toBe(false);
      if (!r.ok) {
        expect(r.why, String(detail)).toBe(why);
        expect(r.detail).toMatch(detail);
      }
    }
    expect(() => encodeDemoStart({ ...HEADER, protocol: 'quake' as never })).toThrow(/not a demo header: protocol/);
  });

  it('100,000 mutated and truncated files never make the reader throw or hang; every stop has a reason and an offset inside the file', () => {
    const { file } = recording();
    let seed = 0x2545f491;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return Math.floor((seed / 0x1_0000_0000) * n);
    };
    const seen = new Map<string, number>();
    const bad: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      let f = file.slice(0, rand(4) === 0 ? rand(file.length + 1) : file.length);
      const flips = rand(4);
      for (let k = 0; k < flips && f.length > 0; k++) f[rand(f.length)] = rand(256);
      if (rand(8) === 0) f = concat([f.subarray(0, rand(f.length + 1)), Uint8Array.from({ length: rand(40) }, () => rand(256)), f.subarray(rand(f.length + 1))]);
      const r = readDemo(f);
      const why = r.ok ? (r.stop.how === 'clean' ? 'clean' : `${r.stop.how}:${r.stop.why}`) : `refused:${r.why}`;
      seen.set(why, (seen.get(why) ?? 0) + 1);
      const offset = r.ok ? r.stop.offset : r.offset;
      const detail = !r.ok ? r.detail : r.stop.how === 'clean' ? 'clean' : r.stop.detail;
      if (!(offset >= 0 && offset <= f.length) || detail.length === 0) bad.push(`file ${i}: ${why} at ${offset} of ${f.length}: "${detail}"`);
    }
    expect(bad).toEqual([]);
    console.log(`demo fuzz: 100,000 files read: ${[...seen].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    expect(seen.get('clean') ?? 0).toBeGreaterThan(0);
    expect([...seen.keys()].some((k) => k.startsWith('damaged:'))).toBe(true);
    expect([...seen.keys()].some((k) => k.startsWith('cut:'))).toBe(true);
  });
});
