/**
 * A gameserver's galaxy (`--galaxy <file>`, issue 29; the CESCG paper §4):
 * its solar systems, each an arena of its own — its asteroid field's seed,
 * size and spread, its energy fields — and the stargates in it, each leading
 * to a solar system by name (on this server or, once the masterserver routes
 * jumps, on another). The file is text, one statement a line:
 *
 *   starlane galaxy 1            the format and its version (first)
 *   galaxy <name>                the galaxy's name (once, before any system)
 *   system <name>                a solar system begins (1..MAX_SYSTEMS)
 *     seed <0..4294967295>       its arena's seed (default: from its name; the first system: WORLD_SEED)
 *     asteroids <0..1000>        asteroids in its field (default 24)
 *     radius <1..1500>           the field's radius, units (default 400)
 *     fields <0..6>              energy fields (default 3)
 *     gate <system> <x> <y> <z>  a stargate to that system, at that point (0..MAX_GATES)
 *     entry                      players join here (several: the one with fewest players);
 *                                no system says so: the first
 *
 * `#` starts a comment; blank lines and indentation mean nothing. Names are
 * 1..31 of A–Z a–z 0–9 . _ - ; system names are one per galaxy (any case).
 * Reading never throws: a bad file is refused naming its first bad line and
 * why. The default galaxy is one system, today's arena, with no gates. Pure.
 */
import { DEFAULT_ASTEROIDS, DEFAULT_FIELD_RADIUS, MAX_ASTEROIDS, MAX_FIELD_RADIUS, FIELD_SPOTS } from '../game/world';
import { WORLD_SEED } from '../game/clientGame';
import { RULES } from '../game/rules';
import type { Vec3 } from '../sim/types';

/** The galaxy file format this reads and writes. */
export const GALAXY_FORMAT = 1;
/** Most solar systems one gameserver hosts, and stargates in one system. */
export const MAX_SYSTEMS = 16;
export const MAX_GATES = 8;
/** How far from a system's centre a gate may stand (units, each axis). */
export const MAX_GATE_DISTANCE = 5000;
/** Two gates of one system at least this far apart (units): a ship arriving beyond one is not in the other. */
export const MIN_GATE_SPACING = 200;
/** Most bytes and lines a galaxy file may have. */
export const MAX_GALAXY_BYTES = 64 * 1024;
export const MAX_GALAXY_LINES = 2000;

export interface Stargate {
  /** The solar system it leads to. */
  to: string;
  pos: Vec3;
}

export interface SolarSystem {
  name: string;
  seed: number;
  asteroids: number;
  radius: number;
  fields: number;
  gates: Stargate[];
  /** Players join here (galaxy file `entry`); when no system is, the first is. */
  entry?: true;
}

export interface Galaxy {
  name: string;
  systems: SolarSystem[];
}

export type GalaxyRead = { ok: true; galaxy: Galaxy } | { ok: false; line: number; error: string };

const NAME = /^[A-Za-z0-9._-]{1,31}$/;

/** Whether `name` may name a galaxy or a solar system. */
export function isGalaxyName(name: string): boolean {
  return NAME.test(name);
}

/** A system's arena seed when its file gives none: the first system's is WORLD_SEED (today's arena), another's from its name (FNV-1a). */
export function defaultSeed(name: string, first: boolean): number {
  if (first) return WORLD_SEED;
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A solar system named `name` with the default arena and no gates. */
export function defaultSystem(name: string, first: boolean): SolarSystem {
  return { name, seed: defaultSeed(name, first), asteroids: DEFAULT_ASTEROIDS, radius: DEFAULT_FIELD_RADIUS, fields: RULES.fields.count, gates: [] };
}

/** A gameserver's galaxy without a file: one solar system, today's arena, no gates. */
export function defaultGalaxy(name = 'Starlane', system = 'Sol'): Galaxy {
  return { name, systems: [defaultSystem(system, true)] };
}

/** A whole number from `lo` to `hi` written as digits, or null. */
function whole(text: string | undefined, lo: number, hi: number): number | null {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= lo && n <= hi ? n : null;
}

/** A coordinate: an optional minus, digits, an optional fraction, within ±MAX_GATE_DISTANCE; or null. */
function coordinate(text: string | undefined): number | null {
  if (text === undefined || !/^-?\d{1,5}(\.\d{1,3})?$/.test(text)) return null;
  const n = Number(text);
  return Math.abs(n) <= MAX_GATE_DISTANCE ? n : null;
}

const distance = (a: Vec3, b: Vec3): number => Math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2);

/** Reads a galaxy file. Never throws: a bad file is refused with its first bad line (1-based; 0: the file as a whole) and why. */
export function readGalaxy(text: string): GalaxyRead {
  const refuse = (line: number, error: string): GalaxyRead => ({ ok: false, line, error });
  if (typeof text !== 'string') return refuse(0, 'not text');
  if (text.length > MAX_GALAXY_BYTES) return refuse(0, `more than ${MAX_GALAXY_BYTES} bytes`);
  const lines = text.split(/\r?\n/);
  if (lines.length > MAX_GALAXY_LINES) return refuse(0, `more than ${MAX_GALAXY_LINES} lines`);
  let format = false;
  let name: string | null = null;
  const systems: SolarSystem[] = [];
  /** What each system's file said, to refuse a statement given twice. */
  let given = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = lines[i] as string;
    if (/[^\t\x20-\x7e]/.test(raw)) return refuse(n, 'only printable ASCII, spaces and tabs may be used');
    const words = raw.replace(/#.*$/, '').trim().split(/[ \t]+/).filter((w) => w !== '');
    const [keyword, ...args] = words;
    if (keyword === undefined) continue;
    if (!format) {
      if (keyword !== 'starlane' || args[0] !== 'galaxy' || args.length !== 2) return refuse(n, `the file must begin "starlane galaxy ${GALAXY_FORMAT}" (got "${words.join(' ')}")`);
      if (args[1] !== String(GALAXY_FORMAT)) return refuse(n, `galaxy format ${args[1]} is not one this Starlane reads (it reads ${GALAXY_FORMAT})`);
      format = true;
      continue;
    }
    const system = systems[systems.length - 1];
    const one = (): string | null => (args.length === 1 ? (args[0] as string) : null);
    switch (keyword) {
      case 'galaxy': {
        const value = one();
        if (name !== null) return refuse(n, 'the galaxy is named once');
        if (system) return refuse(n, 'the galaxy is named before its first system');
        if (value === null || !isGalaxyName(value)) return refuse(n, 'galaxy needs one name of 1 to 31 letters, digits, dots, underscores or dashes');
        name = value;
        break;
      }
      case 'system': {
        const value = one();
        if (value === null || !isGalaxyName(value)) return refuse(n, 'system needs one name of 1 to 31 letters, digits, dots, underscores or dashes');
        if (systems.some((s) => s.name.toLowerCase() === value.toLowerCase())) return refuse(n, `there is already a system ${value}`);
        if (systems.length >= MAX_SYSTEMS) return refuse(n, `a galaxy has at most ${MAX_SYSTEMS} systems`);
        systems.push(defaultSystem(value, systems.length === 0));
        given = new Set();
        break;
      }
      case 'seed':
      case 'asteroids':
      case 'radius':
      case 'fields': {
        if (!system) return refuse(n, `${keyword} belongs to a system: put it after a "system <name>" line`);
        if (given.has(keyword)) return refuse(n, `${keyword} is given twice for system ${system.name}`);
        const [lo, hi] = keyword === 'seed' ? [0, 0xffffffff] : keyword === 'asteroids' ? [0, MAX_ASTEROIDS] : keyword === 'radius' ? [1, MAX_FIELD_RADIUS] : [0, FIELD_SPOTS.length];
        const value = whole(one() ?? undefined, lo, hi);
        if (value === null) return refuse(n, `${keyword} needs one whole number from ${lo} to ${hi} (got "${args.join(' ')}")`);
        given.add(keyword);
        system[keyword] = value;
        break;
      }
      case 'gate': {
        if (!system) return refuse(n, 'a gate belongs to a system: put it after a "system <name>" line');
        const [to, ...xyz] = args;
        const [x, y, z] = xyz.map(coordinate);
        if (to === undefined || !isGalaxyName(to) || xyz.length !== 3) return refuse(n, `gate needs the system it leads to and its position x y z (got "${args.join(' ')}")`);
        if (x === null || y === null || z === null || x === undefined || y === undefined || z === undefined) return refuse(n, `gate position must be three numbers within ±${MAX_GATE_DISTANCE} units (got "${xyz.join(' ')}")`);
        if (to.toLowerCase() === system.name.toLowerCase()) return refuse(n, `a gate of ${system.name} cannot lead to ${system.name} itself`);
        if (system.gates.some((g) => g.to.toLowerCase() === to.toLowerCase())) return refuse(n, `${system.name} already has a gate to ${to} (one gate per destination: a jump arrives at the matching gate)`);
        if (system.gates.length >= MAX_GATES) return refuse(n, `a system has at most ${MAX_GATES} gates`);
        const pos = { x, y, z };
        const near = system.gates.find((g) => distance(g.pos, pos) < MIN_GATE_SPACING);
        if (near) return refuse(n, `the gate to ${to} is less than ${MIN_GATE_SPACING} units from the gate to ${near.to}`);
        system.gates.push({ to, pos });
        break;
      }
      case 'entry':
        if (!system) return refuse(n, 'entry belongs to a system: put it after a "system <name>" line');
        if (args.length > 0) return refuse(n, 'entry takes nothing after it');
        if (system.entry) return refuse(n, `entry is given twice for system ${system.name}`);
        system.entry = true;
        break;
      default:
        return refuse(n, `unknown statement "${keyword}" (galaxy, system, seed, asteroids, radius, fields, gate or entry)`);
    }
  }
  if (!format) return refuse(0, `the file is empty (it must begin "starlane galaxy ${GALAXY_FORMAT}")`);
  if (systems.length === 0) return refuse(0, 'the galaxy has no system (add a "system <name>" line)');
  return { ok: true, galaxy: { name: name ?? 'Starlane', systems } };
}

/** The galaxy as a file readGalaxy reads back to the same galaxy. */
export function writeGalaxy(g: Galaxy): string {
  const out = [`starlane galaxy ${GALAXY_FORMAT}`, `galaxy ${g.name}`];
  for (const s of g.systems) {
    out.push(`system ${s.name}`, `  seed ${s.seed}`, `  asteroids ${s.asteroids}`, `  radius ${s.radius}`, `  fields ${s.fields}`);
    for (const gate of s.gates) out.push(`  gate ${gate.to} ${gate.pos.x} ${gate.pos.y} ${gate.pos.z}`);
    if (s.entry) out.push('  entry');
  }
  return `${out.join('\n')}\n`;
}

/** The one line an admin reads for a refused galaxy file. */
export function galaxyRefusal(file: string, r: Extract<GalaxyRead, { ok: false }>): string {
  return r.line === 0 ? `galaxy file ${file}: ${r.error}` : `galaxy file ${file}, line ${r.line}: ${r.error}`;
}
