/**
 * Galaxy files (src/shared/servers/galaxyMap.ts): a written galaxy reads
 * back to itself, the default galaxy is today's arena, every mistake is
 * refused naming its line and why, and no file — mutated, truncated or
 * random — makes the reader throw.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultGalaxy, galaxyRefusal, MAX_GATES, MAX_SYSTEMS, readGalaxy, writeGalaxy, type Galaxy } from '../../../src/shared/servers/galaxyMap';
import { WORLD_SEED } from '../../../src/shared/game/clientGame';
import { DEFAULT_ASTEROIDS, DEFAULT_FIELD_RADIUS } from '../../../src/shared/game/world';
import { RULES } from '../../../src/shared/game/rules';

const FIVE = `starlane galaxy 1
# a small universe's first galaxy
galaxy Orion
system Sol
  gate Alpha 1200 0 0     # to a system of this galaxy
  gate Vega -1200 0 0     # to one another server hosts
system Alpha
  seed 7
  asteroids 40
  radius 900
  fields 2
  gate Sol -1200 0 0.5
`;

const refusal = (text: string) => {
  const r = readGalaxy(text);
  return r.ok ? 'read' : galaxyRefusal('orion.galaxy', r);
};

describe('galaxy files', () => {
  it('reads systems, their arenas and gates; what a system does not say is the default arena', () => {
    const r = readGalaxy(FIVE);
    expect(r).toEqual({
      ok: true,
      galaxy: {
        name: 'Orion',
        systems: [
          { name: 'Sol', seed: WORLD_SEED, asteroids: DEFAULT_ASTEROIDS, radius: DEFAULT_FIELD_RADIUS, fields: RULES.fields.count, gates: [{ to: 'Alpha', pos: { x: 1200, y: 0, z: 0 } }, { to: 'Vega', pos: { x: -1200, y: 0, z: 0 } }] },
          { name: 'Alpha', seed: 7, asteroids: 40, radius: 900, fields: 2, gates: [{ to: 'Sol', pos: { x: -1200, y: 0, z: 0.5 } }] },
        ],
      },
    });
  });

  it('the default galaxy is one system with today\'s arena and no gate', () => {
    expect(defaultGalaxy()).toEqual({ name: 'Starlane', systems: [{ name: 'Sol', seed: WORLD_SEED, asteroids: DEFAULT_ASTEROIDS, radius: DEFAULT_FIELD_RADIUS, fields: RULES.fields.count, gates: [] }] });
    expect(readGalaxy(writeGalaxy(defaultGalaxy()))).toEqual({ ok: true, galaxy: defaultGalaxy() });
  });

  it('every mistake is refused naming its line and why', () => {
    expect(refusal('')).toBe('galaxy file orion.galaxy: the file is empty (it must begin "starlane galaxy 1")');
    expect(refusal('galaxy Orion\n')).toBe('galaxy file orion.galaxy, line 1: the file must begin "starlane galaxy 1" (got "galaxy Orion")');
    expect(refusal('starlane galaxy 2\n')).toBe('galaxy file orion.galaxy, line 1: galaxy format 2 is not one this Starlane reads (it reads 1)');
    expect(refusal('starlane galaxy 1\ngalaxy Orion\n')).toBe('galaxy file orion.galaxy: the galaxy has no system (add a "system <name>" line)');
    expect(refusal('starlane galaxy 1\nseed 4\n')).toBe('galaxy file orion.galaxy, line 2: seed belongs to a system: put it after a "system <name>" line');
    expect(refusal('starlane galaxy 1\nsystem Sol\nsystem sol\n')).toBe('galaxy file orion.galaxy, line 3: there is already a system sol');
    expect(refusal('starlane galaxy 1\nsystem Sol System\n')).toBe('galaxy file orion.galaxy, line 2: system needs one name of 1 to 31 letters, digits, dots, underscores or dashes');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  asteroids 1001\n')).toBe('galaxy file orion.galaxy, line 3: asteroids needs one whole number from 0 to 1000 (got "1001")');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  radius 400\n  radius 500\n')).toBe('galaxy file orion.galaxy, line 4: radius is given twice for system Sol');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  gate Alpha 1 2\n')).toBe('galaxy file orion.galaxy, line 3: gate needs the system it leads to and its position x y z (got "Alpha 1 2")');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  gate Alpha 1 2 9000\n')).toBe('galaxy file orion.galaxy, line 3: gate position must be three numbers within ±5000 units (got "1 2 9000")');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  gate Sol 0 0 900\n')).toBe('galaxy file orion.galaxy, line 3: a gate of Sol cannot lead to Sol itself');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  gate Alpha 0 0 900\n  gate alpha 0 900 0\n')).toBe('galaxy file orion.galaxy, line 4: Sol already has a gate to alpha (one gate per destination: a jump arrives at the matching gate)');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  gate Alpha 0 0 900\n  gate Vega 0 100 900\n')).toBe('galaxy file orion.galaxy, line 4: the gate to Vega is less than 200 units from the gate to Alpha');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  nebula 3\n')).toBe('galaxy file orion.galaxy, line 3: unknown statement "nebula" (galaxy, system, seed, asteroids, radius, fields, gate or entry)');
    expect(refusal('starlane galaxy 1\nsystem Sol\n  entry now\n')).toBe('galaxy file orion.galaxy, line 3: entry takes nothing after it');
    expect(refusal('starlane galaxy 1\nentry\n')).toBe('galaxy file orion.galaxy, line 2: entry belongs to a system: put it after a "system <name>" line');
    expect(refusal('starlane galaxy 1\nsystem Sol\ngalaxy Orion\n')).toBe('galaxy file orion.galaxy, line 3: the galaxy is named before its first system');
    expect(refusal('starlane galaxy 1\nsystem S\u00f6l\n')).toBe('galaxy file orion.galaxy, line 2: only printable ASCII, spaces and tabs may be used');
    const many = ['starlane galaxy 1', ...Array.from({ length: MAX_SYSTEMS + 1 }, (_, i) => `system S${i}`)].join('\n');
    expect(refusal(many)).toBe(`galaxy file orion.galaxy, line ${MAX_SYSTEMS + 2}: a galaxy has at most ${MAX_SYSTEMS} systems`);
    const gates = ['starlane galaxy 1', 'system Sol', ...Array.from({ length: MAX_GATES + 1 }, (_, i) => `gate G${i} ${i * 300} 0 0`)].join('\n');
    expect(refusal(gates)).toBe(`galaxy file orion.galaxy, line ${MAX_GATES + 3}: a system has at most ${MAX_GATES} gates`);
  });

  it('any galaxy written reads back to itself', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9._-]{1,31}$/);
    const galaxy: fc.Arbitrary<Galaxy> = fc
      .record({
        name,
        systems: fc.uniqueArray(
          fc.record({ name, seed: fc.integer({ min: 0, max: 0xffffffff }), asteroids: fc.integer({ min: 0, max: 1000 }), radius: fc.integer({ min: 1, max: 1500 }), fields: fc.integer({ min: 0, max: 6 }), gates: fc.constant([]) }),
          { minLength: 1, maxLength: MAX_SYSTEMS, selector: (s) => s.name.toLowerCase() },
        ),
      })
      .chain((g) =>
        fc.record({
          name: fc.constant(g.name),
          systems: fc.tuple(
            ...g.systems.map((s, i) =>
              fc.uniqueArray(name.filter((to) => to.toLowerCase() !== s.name.toLowerCase()), { maxLength: MAX_GATES, selector: (to) => to.toLowerCase() }).map((tos) => ({ ...s, gates: tos.map((to, k) => ({ to, pos: { x: k * 250 - 1000, y: i, z: -0.5 } })) })),
            ),
          ),
        }),
      );
    fc.assert(
      fc.property(galaxy, (g) => {
        expect(readGalaxy(writeGalaxy(g))).toEqual({ ok: true, galaxy: g });
      }),
      { numRuns: 300 },
    );
  });

  it('no mutated, truncated or random file makes the reader throw; every refusal has a line and a reason', () => {
    const good = FIVE;
    let refused = 0;
    fc.assert(
      fc.property(fc.nat({ max: good.length }), fc.string({ maxLength: 12 }), fc.nat({ max: good.length }), (at, insert, cut) => {
        const text = (good.slice(0, at) + insert + good.slice(at)).slice(0, Math.max(at, cut));
        const r = readGalaxy(text);
        if (!r.ok) {
          refused += 1;
          expect(r.error.length).toBeGreaterThan(0);
          expect(r.line).toBeGreaterThanOrEqual(0);
          expect(r.line).toBeLessThanOrEqual(text.split('\n').length);
        }
      }),
      { numRuns: 20_000 },
    );
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => void readGalaxy(text)), { numRuns: 5_000 });
    console.log(`galaxy fuzz: 20,000 mutated or truncated files, ${refused} refused with a line and a reason; 5,000 random strings; none threw`);
  });

  it('entry marks the systems players join, and writes back', () => {
    const r = readGalaxy('starlane galaxy 1\nsystem Sol\nsystem Vega\n  entry\nsystem Rigel\n  entry\n');
    if (!r.ok) throw new Error(r.error);
    expect(r.galaxy.systems.map((x) => x.entry === true)).toEqual([false, true, true]);
    expect(readGalaxy(writeGalaxy(r.galaxy))).toEqual(r);
  });

  it("docs/GALAXY.md's example is a galaxy the reader takes, as the page describes it", () => {
    const page = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'GALAXY.md'), 'utf8');
    const example = /## Example\s+```\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const r = readGalaxy(example);
    if (!r.ok) throw new Error(galaxyRefusal('docs/GALAXY.md', r));
    expect(r.galaxy.name).toBe('Orion');
    expect(r.galaxy.systems.map((x) => [x.name, x.gates.map((g) => g.to)])).toEqual([
      ['Sol', ['Vega', 'Rigel']],
      ['Vega', ['Sol']],
      ['Rigel', ['Sol', 'Betelgeuse']],
    ]);
    expect(r.galaxy.systems[0]?.seed).toBe(WORLD_SEED);
  });
});
