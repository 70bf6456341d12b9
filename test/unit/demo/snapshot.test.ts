/**
 * The game snapshot a client demo starts from (src/shared/demo/snapshot.ts):
 * exact to the bit, references and freezing kept, and as untrusted as any
 * demo byte — a mutated snapshot is refused with a reason, never a throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot, SnapshotError, type SnapshotClasses } from '../../../src/shared/demo/snapshot';
import { GAME_CLASSES } from '../../../src/shared/demo/gameClasses';
import { ClientGame } from '../../../src/shared/game/clientGame';
import { hashWorld } from '../../../src/shared/game/hash';
import { NO_INPUT, STEP_MS } from '../../../src/shared/sim/types';

class Point {
  constructor(
    public x: number,
    public label: string,
  ) {}
  norm(): number {
    return Math.abs(this.x);
  }
}
const POINTS: SnapshotClasses = { classes: new Map([['Point', Point]]), omit: new Map([['Point', ['label']]]) };

describe('a game snapshot', () => {
  it('keeps every number to the bit, shared and cyclic references, maps, sets, bytes, frozen objects and classes', () => {
    const shared = Object.freeze({ v: -0 });
    const loop: { self?: unknown; n: number } = { n: Number.NaN };
    loop.self = loop;
    const value = { a: [0.1 + 0.2, -0, Number.NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 31), 2 ** 31], shared, again: shared, loop, map: new Map<unknown, unknown>([[1, 'one'], ['k', shared]]), set: new Set([3, 'x']), bytes: Uint8Array.of(1, 2, 3), p: new Point(-2.5, 'secret'), u: undefined, t: true, f: false, z: null };
    const read = decodeSnapshot(encodeSnapshot(value, POINTS), POINTS);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const back = read.value as typeof value;
    expect(Object.is(back.a[1], -0)).toBe(true);
    expect(back.a).toEqual(value.a);
    expect(back.shared).toBe(back.again);
    expect(Object.isFrozen(back.shared)).toBe(true);
    expect(Object.is(back.shared.v, -0)).toBe(true);
    expect(back.loop.self).toBe(back.loop);
    expect(back.map.get('k')).toBe(back.shared);
    expect([...back.set]).toEqual([3, 'x']);
    expect([...back.bytes]).toEqual([1, 2, 3]);
    expect(back.p).toBeInstanceOf(Point);
    expect(back.p.norm()).toBe(2.5);
    expect(back.p.label).toBeNull();
    expect('u' in back && back.u === undefined && back.t && !back.f && back.z === null).toBe(true);
  });

  it('refuses what it cannot hold, naming where: a function, a class it does not know', () => {
    expect(() => encodeSnapshot({ f: () => 1 }, POINTS)).toThrow(SnapshotError);
    expect(() => encodeSnapshot({ inner: { d: new Date(0) } }, POINTS)).toThrow(/game\.inner\.d: an instance of Date, a class the snapshot does not know/);
  });

  it('of a game that has flown a while is the same game: it steps on to the same worlds', () => {
    const game = new ClientGame();
    game.addBot();
    for (let t = 0; t < 300; t++) game.step({ ...NO_INPUT, thrust: 1, yaw: 0.3, fire: t % 5 === 0 }, t * STEP_MS, new Map([[1, { ...NO_INPUT, fire: true }]]));
    const read = decodeSnapshot(encodeSnapshot(game, GAME_CLASSES), GAME_CLASSES);
    if (!read.ok) throw new Error(read.reason);
    const copy = read.value as ClientGame;
    expect(copy).toBeInstanceOf(ClientGame);
    for (let t = 300; t < 600; t++) {
      const input = { ...NO_INPUT, thrust: 0.5, pitch: 0.2, fire: t % 3 === 0 };
      game.step(input, t * STEP_MS, new Map([[1, NO_INPUT]]));
      copy.step(input, t * STEP_MS, new Map([[1, NO_INPUT]]));
    }
    expect(hashWorld(copy.curr)).toBe(hashWorld(game.curr));
  });

  it('mutated or cut, is refused with a reason and never throws (5,000 files)', () => {
    const game = new ClientGame();
    game.addBot();
    for (let t = 0; t < 120; t++) game.step({ ...NO_INPUT, thrust: 1, fire: true }, t * STEP_MS, new Map([[1, NO_INPUT]]));
    const bytes = encodeSnapshot(game, GAME_CLASSES);
    let refused = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 0, max: 255 }), fc.boolean(), (at, value, cut) => {
        const b = cut ? bytes.slice(0, at) : bytes.slice();
        if (!cut) b[at] = value;
        const read = decodeSnapshot(b, GAME_CLASSES);
        if (!read.ok) {
          refused++;
          expect(read.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 5_000, seed: 2049 },
    );
    console.log(`${refused} of 5,000 mutated snapshots refused (${bytes.length} bytes each)`);
    expect(refused).toBeGreaterThan(1_000);
  });
});
