/**
 * What the demo tool says about a demo file (docs/DEMO.md): its header,
 * chunk counts, length and players, and where and why it stops, and the
 * verdict `verify` gives it. Pure: the caller reads the bytes.
 */
import { DemoKind, readDemo, type DemoRead } from '../../shared/demo/demoFormat';
import { crc32 } from './demoCrc';

/** A file's verdict: `clean` (an end chunk), `cut` (a crash's or a power cut's prefix: it plays), `damaged` (bad bytes before its end), `not-a-demo`. */
export type DemoVerdict = 'clean' | 'cut' | 'damaged' | 'not-a-demo';

export function verdictOf(read: DemoRead): DemoVerdict {
  if (!read.ok) return 'not-a-demo';
  return read.stop.how;
}

const KIND_NAMES: Record<number, string> = {
  [DemoKind.Delivery]: 'deliveries',
  [DemoKind.Local]: 'local',
  [DemoKind.Text]: 'text',
  [DemoKind.Frame]: 'frames',
  [DemoKind.Digest]: 'digests',
  [DemoKind.Snapshot]: 'snapshot',
};

/** The lines `npm run demo -- info <file>` prints for `bytes` read from `name`. */
export function infoLines(name: string, bytes: Uint8Array): { lines: string[]; verdict: DemoVerdict } {
  const read = readDemo(bytes, crc32);
  if (!read.ok) return { lines: [`${name}: not a Starlane demo: ${read.detail} (${read.why} at byte ${read.offset})`], verdict: 'not-a-demo' };
  const h = read.header;
  const counts = new Map<number, number>();
  for (const c of read.chunks) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  const byKind = Object.entries(KIND_NAMES).map(([k, n]) => `${n} ${counts.get(Number(k)) ?? 0}`);
  const who = h.recorder.slot === null ? h.recorder.name : `${h.recorder.name} (slot ${h.recorder.slot})`;
  const lines = [
    `${name}: Starlane demo, format ${h.demo}; recorded by Starlane ${h.starlane}, wire version ${h.wire}, simulation ${h.sim}`,
    `  ${h.protocol} game${h.server ? ` on ${h.server}` : ''}${h.seed === null ? '' : `, seed ${h.seed}`}; recorded by ${who} from ${h.startedAt}`,
    `  players (${h.players.length}): ${h.players.length === 0 ? 'none named' : h.players.map((p) => `${p.slot} ${p.name}`).join(', ')}`,
    `  ${read.chunks.length} chunks after the header (${byKind.join(', ')}); ${(read.durationMs / 1000).toFixed(1)} s long`,
    `  ${stopLine(read)}`,
  ];
  return { lines, verdict: read.stop.how };
}

function stopLine(read: Extract<DemoRead, { ok: true }>): string {
  const s = read.stop;
  if (s.how === 'clean') return `ends cleanly: ${s.reason === '' ? 'recording stopped' : s.reason}`;
  if (s.how === 'cut') return `cut off at byte ${s.offset} (${s.detail}): what a crash or a power cut leaves; it plays up to there`;
  return `damaged at byte ${s.offset}: ${s.detail} (${s.why}); it plays up to there`;
}

/** The line `verify` prints for one file. */
export function verifyLine(name: string, bytes: Uint8Array): { line: string; verdict: DemoVerdict } {
  const read = readDemo(bytes, crc32);
  const verdict = verdictOf(read);
  if (!read.ok) return { line: `NOT A DEMO  ${name}: ${read.detail} (${read.why} at byte ${read.offset})`, verdict };
  const length = `${(read.durationMs / 1000).toFixed(1)} s, ${read.chunks.length} chunks`;
  if (read.stop.how === 'clean') return { line: `ok          ${name}: ${length}, ends cleanly`, verdict };
  if (read.stop.how === 'cut') return { line: `ok (cut)    ${name}: ${length}, cut off at byte ${read.stop.offset} (${read.stop.detail})`, verdict };
  return { line: `DAMAGED     ${name}: ${length} readable, then at byte ${read.stop.offset}: ${read.stop.detail} (${read.stop.why})`, verdict };
}
