/**
 * The world codec (src/shared/lockstep/worldCodec.ts): real worlds of a
 * golden run survive the round trip bit for bit, and hostile bytes (random,
 * truncated, corrupted) are refused without a throw — whatever is accepted
 * re-encodes to the very same bytes.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGoldenWorld, GOLDEN_RUN, inputScript, stepOnce } from '../../../src/shared/game/goldenRun';
import { hashWorld } from '../../../src/shared/game/hash';
import { MATCH_OVER, MATCH_OWNER, type EnergyField, type ObjectKind, type World } from '../../../src/shared/game/types';
import { decodeWorld, encodeWorld, WORLD_FORMAT_VERSION, WORLD_LIMITS } from '../../../src/shared/lockstep/worldCodec';
import { NO_TARGET } from '../../../src/shared/sim/types';
import { WireEncodeError } from '../../../src/shared/wire/stream';

const SHIPS = 8;
const TICKS = 4000;
const EVERY = 250;
const KINDS: readonly ObjectKind[] = ['laser', 'missile', 'mine', 'emp', 'extra', 'field'];

/** What a world shows that takes a different path through the codec: each object kind, and the integers that are −1 or a slot. */
function featuresOf(w: World): string[] {
  const out: string[] = w.objects.map((o) => o.kind);
  if (w.objects.some((o) => o.kind === 'emp' && o.reached.length > 0)) out.push('emp that reached a ship');
  if (w.objects.some((o) => o.kind === 'missile' && o.target !== NO_TARGET)) out.push('homing missile');
  if (w.ships.some((s) => s.respawnIn > 0)) out.push('destroyed ship');
  if (w.ships.some((s) => s.lastHitBy >= 0)) out.push('ship hit by a player');
  if (w.match.phase === MATCH_OVER) out.push('match over');
  return out;
}

/** Decodes `bytes`, failing the test with the reason if they are refused. */
function decoded(bytes: Uint8Array): World {
  const r = decodeWorld(bytes);
  if (!r.ok) throw new Error(`decodeWorld refused: ${r.reason}`);
  return r.world;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Index of the first byte where `a` and `b` differ. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/** Where the 8 big-endian bytes of the f64 `v` start in `bytes` (exactly once). */
function offsetOfF64(bytes: Uint8Array, v: number): number {
  const pattern = new Uint8Array(8);
  new DataView(pattern.buffer).setFloat64(0, v);
  const hits: number[] = [];
  for (let i = 0; i + 8 <= bytes.length; i++) if (sameBytes(bytes.subarray(i, i + 8), pattern)) hits.push(i);
  expect(hits).toHaveLength(1);
  return hits[0]!;
}

/** The run's sampled worlds: every EVERY ticks, and the first world showing each feature not sampled yet. */
const sampled: { tick: number; world: World; bytes: Uint8Array }[] = [];
/** The sampled world with the most object kinds at once: the hostile tests corrupt its encoding. */
let rich: { world: World; bytes: Uint8Array };

beforeAll(() => {
  let world = createGoldenWorld(GOLDEN_RUN.seed, SHIPS);
  const script = inputScript(GOLDEN_RUN.seed, SHIPS);
  const seen = new Set<string>();
  for (let tick = 1; tick <= TICKS; tick++) {
    world = stepOnce(world, script(world)).world;
    const features = featuresOf(world);
    if (tick % EVERY !== 0 && features.every((f) => seen.has(f))) continue;
    for (const f of features) seen.add(f);
    sampled.push({ tick, world, bytes: encodeWorld(world) });
  }
  const kindCount = (w: World): number => new Set(w.objects.map((o) => o.kind)).size;
  rich = sampled.reduce((best, s) => (kindCount(s.world) > kindCount(best.world) ? s : best));
});

describe('round trip of real worlds', () => {
  it('gives back every world of the golden run equal to the original, with the same hash', () => {
    for (const { world, bytes } of sampled) {
      const back = decoded(bytes);
      expect(back).toStrictEqual(world);
      expect(hashWorld(back)).toBe(hashWorld(world));
      expect(sameBytes(encodeWorld(back), bytes)).toBe(true);
    }
    const largest = sampled.reduce((a, b) => (b.bytes.length > a.bytes.length ? b : a));
    console.log(
      `worldCodec: ${sampled.length} worlds round-tripped; largest ${largest.bytes.length} bytes ` +
        `(tick ${largest.tick}: ${largest.world.ships.length} ships, ${largest.world.objects.length} objects, ${largest.world.asteroids.length} asteroids + ${largest.world.field.length} in the field)`,
    );
  });

  it('round-tripped every object kind, EMP pulses that reached ships, homing missiles, destroyed ships and a match over', () => {
    const covered = new Set(sampled.flatMap((s) => featuresOf(s.world)));
    for (const kind of KINDS) expect(covered).toContain(kind);
    for (const f of ['emp that reached a ship', 'homing missile', 'destroyed ship', 'ship hit by a player', 'match over']) expect(covered).toContain(f);
  });

  it('keeps -0 wherever a float holds it', () => {
    const w = createGoldenWorld(GOLDEN_RUN.seed, 2);
    w.ships[0]!.pos.x = -0;
    w.ships[1]!.rot.y = -0;
    w.ships[1]!.damage = -0;
    w.asteroids[0]!.vel.z = -0;
    (w.objects[0] as EnergyField).radius = -0;
    const back = decoded(encodeWorld(w));
    expect(Object.is(back.ships[0]!.pos.x, -0)).toBe(true);
    expect(Object.is(back.ships[1]!.rot.y, -0)).toBe(true);
    expect(Object.is(back.ships[1]!.damage, -0)).toBe(true);
    expect(Object.is(back.asteroids[0]!.vel.z, -0)).toBe(true);
    expect(Object.is((back.objects[0] as EnergyField).radius, -0)).toBe(true);
    expect(hashWorld(back)).toBe(hashWorld(w));
  });

  it('keeps the field frozen, as createWorld makes it', () => {
    expect(Object.isFrozen(decoded(sampled[0]!.bytes).field)).toBe(true);
  });
});

describe('hostile bytes', () => {
  /** Decoding `bytes` does not throw, and anything accepted re-encodes to exactly `bytes`. */
  function checkHostile(bytes: Uint8Array): boolean {
    const r = decodeWorld(bytes);
    if (r.ok) expect(sameBytes(encodeWorld(r.world), bytes)).toBe(true);
    return r.ok;
  }

  it('refuses random bytes without throwing', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        checkHostile(bytes);
      }),
      { seed: 0x3e1d, numRuns: 2000 },
    );
  });

  it('survives random bytes after the version byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (tail) => {
        checkHostile(Uint8Array.from([WORLD_FORMAT_VERSION, ...tail]));
      }),
      { seed: 0x3e1e, numRuns: 2000 },
    );
  });

  it('refuses every truncation of a real encoding as truncated', () => {
    const { bytes } = rich;
    for (let n = 0; n < bytes.length; n++) {
      const r = decodeWorld(bytes.subarray(0, n));
      if (r.ok || r.reason !== 'truncated') expect({ length: n, result: r }).toEqual({ length: n, result: { ok: false, reason: 'truncated' } });
    }
  });

  it('never throws on a real encoding with one byte changed, and what it accepts is canonical', () => {
    const { bytes } = rich;
    let accepted = 0;
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 }), (at, value) => {
        const corrupt = bytes.slice();
        corrupt[at] = value;
        if (checkHostile(corrupt)) accepted++;
      }),
      { seed: 0x3e1f, numRuns: 5000 },
    );
    // Most bytes are float bits, so most corruptions still decode (to another valid world).
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('specific rejections', () => {
  const base = (): World => createGoldenWorld(GOLDEN_RUN.seed, 2);

  it('refuses another format version', () => {
    const bytes = encodeWorld(base());
    expect(bytes[0]).toBe(WORLD_FORMAT_VERSION);
    for (const v of [0, 1, 3, 255]) {
      bytes[0] = v;
      expect(decodeWorld(bytes)).toEqual({ ok: false, reason: 'bad-version' });
    }
  });

  it('refuses a trailing byte', () => {
    expect(decodeWorld(Uint8Array.from([...encodeWorld(base()), 0]))).toEqual({ ok: false, reason: 'trailing-bytes' });
  });

  it('refuses an empty buffer as truncated', () => {
    expect(decodeWorld(new Uint8Array(0))).toEqual({ ok: false, reason: 'truncated' });
  });

  it('refuses NaN or an infinity in a ship position', () => {
    const w = base();
    w.ships[1]!.pos.y = 1234.5678;
    const bytes = encodeWorld(w);
    const at = offsetOfF64(bytes, 1234.5678);
    for (const bad of [NaN, Infinity, -Infinity]) {
      const corrupt = bytes.slice();
      new DataView(corrupt.buffer).setFloat64(at, bad);
      expect(decodeWorld(corrupt)).toEqual({ ok: false, reason: 'non-finite' });
    }
  });

  it('refuses a non-finite quaternion component', () => {
    const w = base();
    w.ships[0]!.rot.w = 0.875;
    const bytes = encodeWorld(w);
    new DataView(bytes.buffer).setFloat64(offsetOfF64(bytes, 0.875), NaN);
    expect(decodeWorld(bytes)).toEqual({ ok: false, reason: 'non-finite' });
  });

  it('refuses an object kind code that does not exist', () => {
    const field: EnergyField = { kind: 'field', id: 7, owner: MATCH_OWNER, pos: { x: 1, y: 2, z: 3 }, radius: 4 };
    const empty = encodeWorld({ ...base(), objects: [] });
    const one = encodeWorld({ ...base(), objects: [field] });
    // The object count's last byte differs; the kind code follows it.
    const code = firstDifference(empty, one) + 1;
    expect(decoded(one).objects).toEqual([field]);
    for (const bad of [0, 7, 255]) {
      const corrupt = one.slice();
      corrupt[code] = bad;
      expect(decodeWorld(corrupt)).toEqual({ ok: false, reason: 'unknown-type' });
    }
  });

  it(`refuses a ship count of ${WORLD_LIMITS.ships + 1}`, () => {
    const w = createGoldenWorld(GOLDEN_RUN.seed, WORLD_LIMITS.ships);
    const bytes = encodeWorld(w);
    const count = firstDifference(encodeWorld({ ...w, ships: [] }), bytes);
    expect(bytes[count]).toBe(WORLD_LIMITS.ships);
    bytes[count] = WORLD_LIMITS.ships + 1;
    expect(decodeWorld(bytes)).toEqual({ ok: false, reason: 'bad-list' });
  });

  it('refuses a ship slot twice or beyond the last slot', () => {
    const w = base();
    const [a, b] = w.ships as [World['ships'][0], World['ships'][0]];
    const bytes = encodeWorld({ ...w, ships: [a, { ...b, slot: 1 }] });
    const second = firstDifference(bytes, encodeWorld({ ...w, ships: [a, { ...b, slot: 2 }] }));
    for (const bad of [a.slot, 16, 255]) {
      const corrupt = bytes.slice();
      corrupt[second] = bad;
      expect(decodeWorld(corrupt)).toEqual({ ok: false, reason: 'bad-slot' });
    }
  });
});

describe('encoding a world the format cannot carry', () => {
  it('throws a WireEncodeError naming the field', () => {
    const refusal = (mutate: (w: World) => void): string => {
      const w = createGoldenWorld(GOLDEN_RUN.seed, 2);
      mutate(w);
      try {
        encodeWorld(w);
      } catch (e) {
        expect(e).toBeInstanceOf(WireEncodeError);
        return (e as WireEncodeError).message;
      }
      return 'encoded';
    };
    expect(refusal((w) => (w.ships[0]!.pos.x = NaN))).toMatch(/ships\[0\]\.pos\.x/);
    expect(refusal((w) => (w.ships[1]!.slot = 0))).toMatch(/twice/);
    expect(refusal((w) => (w.ships[1]!.slot = 16))).toMatch(/ships\[1\]\.slot/);
    expect(refusal((w) => (w.objects[0]!.id = 1.5))).toMatch(/objects\[0\] \(field\)\.id/);
    expect(refusal((w) => (w.tick = -1))).toMatch(/tick/);
  });
});
