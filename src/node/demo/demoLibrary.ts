/**
 * The user-data `demos/` folder (docs/DEMO.md): where a demo of a given
 * name lives, a name for a recording nobody named, and the list `demos`
 * prints (name, date, length, protocol, players), each file read and
 * validated like any demo.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readDemo, type DemoRead } from '../../shared/demo/demoFormat';
import { crc32 } from './demoCrc';

export const DEMO_EXTENSION = '.sldemo';
/** A demo name: letters, digits, dot, dash and underscore, 1–64 of them (no folders). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What is wrong with `name` as a demo name, or null. */
export function demoNameProblem(name: string): string | null {
  if (!NAME.test(name)) return `"${name.slice(0, 80)}" is not a demo name: 1 to 64 letters, digits, dots, dashes and underscores, starting with a letter or a digit`;
  return null;
}

/** A name for a recording started at `at` in a `protocol` game: 2026-12-02_14-05-09_gameserver. */
export function defaultDemoName(at: Date, protocol: string): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}_${p(at.getHours())}-${p(at.getMinutes())}-${p(at.getSeconds())}_${protocol}`;
}

/** The file of demo `name` in `dir` (a name given with its extension keeps it). */
export function demoFile(dir: string, name: string): string {
  return join(dir, name.endsWith(DEMO_EXTENSION) ? name : `${name}${DEMO_EXTENSION}`);
}

export async function ensureDemoDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}

/** One demo of the folder as `demos` lists it. */
export interface DemoEntry {
  name: string;
  bytes: number;
  read: DemoRead;
}

/** Every .sldemo file in `dir`, newest first (an absent folder: none). */
export async function listDemos(dir: string): Promise<DemoEntry[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(DEMO_EXTENSION));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: (DemoEntry & { mtime: number })[] = [];
  for (const n of names) {
    const path = join(dir, n);
    const [bytes, info] = await Promise.all([readFile(path), stat(path)]);
    out.push({ name: n.slice(0, -DEMO_EXTENSION.length), bytes: bytes.length, read: readDemo(new Uint8Array(bytes), crc32), mtime: info.mtimeMs });
  }
  return out.sort((a, b) => b.mtime - a.mtime || a.name.localeCompare(b.name)).map(({ name, bytes, read }) => ({ name, bytes, read }));
}

/** The `demos` line of one entry. */
export function demoListLine(e: DemoEntry): string {
  const r = e.read;
  if (!r.ok) return `${e.name}: not a demo (${r.detail})`;
  const h = r.header;
  const when = h.startedAt.replace('T', ' ').slice(0, 19);
  const cut = r.stop.how === 'clean' ? '' : r.stop.how === 'cut' ? ', cut off (plays up to there)' : ', damaged (plays up to the damage)';
  return `${e.name}  ${when}  ${(r.durationMs / 1000).toFixed(1)} s  ${h.protocol}  ${h.players.length} player${h.players.length === 1 ? '' : 's'}${cut}`;
}

/** Reads demo `name` from `dir`: the file read, or why it cannot be played at all. */
export async function openDemoFile(dir: string, name: string): Promise<{ ok: true; read: DemoRead & { ok: true }; path: string } | { ok: false; reason: string }> {
  const path = name.includes('/') || name.includes('\\') ? name : demoFile(dir, name);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `no demo ${name} in ${dir} (demos lists them)` : `cannot read ${path}: ${code ?? (err as Error).message}` };
  }
  const read = readDemo(new Uint8Array(bytes), crc32);
  if (!read.ok) return { ok: false, reason: `${path} is not a Starlane demo: ${read.detail} (${read.why})` };
  return { ok: true, read, path };
}
