import { describe, it, expect } from 'vitest';
import { nextFloat, seedRng } from '../../../src/shared/sim';
import type { ShipInput } from '../../../src/shared/sim';
import { createWorld, hashWorld, KINDS, MATCH_OWNER, stepWorld as stepBySlot } from '../../../src/shared/game';
import type { Extra, World } from '../../../src/shared/game';

/** Inputs listed in slot order. */
const stepWorld = (world: World, inputs: readonly ShipInput[]): World => stepBySlot(world, new Map(inputs.map((input, slot) => [slot, input] as const)));

const SHIPS = 4;

/** A seeded pseudo-random input stream: one ShipInput per ship per tick, ~30% firing. */
function inputStream(seed: number) {
  let rng = seedRng(seed);
  const f = (): number => {
    const [v, next] = nextFloat(rng);
    rng = next;
    return v;
  };
  return (): ShipInput[] =>
    Array.from({ length: SHIPS }, () => ({ thrust: f() * 2 - 1, yaw: f() * 2 - 1, pitch: f() * 2 - 1, roll: f() * 2 - 1, fire: f() < 0.3 }));
}

interface RunStats {
  world: World;
  maxLasers: number;
}

function run(ticks: number, tweak?: (tick: number, inputs: ShipInput[]) => void): RunStats {
  let world = createWorld(1234, { ships: SHIPS });
  const next = inputStream(99);
  let maxLasers = 0;
  for (let t = 0; t < ticks; t++) {
    const inputs = next();
    tweak?.(t, inputs);
    world = stepWorld(world, inputs);
    maxLasers = Math.max(maxLasers, world.objects.length);
  }
  return { world, maxLasers };
}

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** Every [path, value] numeric leaf of a plain-data object. */
function numericLeaves(o: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof o === 'number') return [path];
  if (typeof o !== 'object' || o === null) return [];
  return Object.entries(o).flatMap(([k, v]) => numericLeaves(v, [...path, Array.isArray(o) ? Number(k) : k]));
}

function nudged(world: World, path: (string | number)[]): World {
  const copy = structuredClone(world) as unknown as Record<string | number, unknown>;
  let target = copy;
  for (const k of path.slice(0, -1)) target = target[k] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  const v = target[key] as number;
  // The next representable double above v (one ulp).
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, v === 0 ? 0 : v);
  const bits = buf.getBigUint64(0);
  buf.setBigUint64(0, v < 0 ? bits - 1n : bits + 1n);
  target[key] = buf.getFloat64(0);
  return copy as unknown as World;
}

describe('simulation determinism', () => {
  it('two runs from the same seed and inputs end with the identical hash after 10,000 ticks', () => {
    const a = run(10_000);
    const b = run(10_000);
    expect(a.world.tick).toBe(10_000);
    expect(a.maxLasers).toBeGreaterThan(4); // the run exercised firing
    expect(hashWorld(a.world)).toBe(hashWorld(b.world));
    expect(a.world).toEqual(b.world);
  });

  it('changing one input at one tick changes the final hash', () => {
    const base = run(10_000);
    const changed = run(10_000, (t, inputs) => {
      if (t === 5000) inputs[2] = { ...inputs[2]!, yaw: inputs[2]!.yaw > 0 ? -1 : 1 };
    });
    expect(hashWorld(changed.world)).not.toBe(hashWorld(base.world));
  });

  it('the same seed gives the same world and different seeds give different worlds', () => {
    expect(hashWorld(createWorld(5, { ships: 3 }))).toBe(hashWorld(createWorld(5, { ships: 3 })));
    expect(hashWorld(createWorld(5))).not.toBe(hashWorld(createWorld(6)));
  });

  it('stepWorld does not mutate its (deep-frozen) input and shares no objects with it', () => {
    let world = deepFreeze(createWorld(7, { ships: SHIPS }));
    const next = inputStream(3);
    for (let t = 0; t < 300; t++) {
      const before = hashWorld(world);
      const inputs = deepFreeze(next());
      const after = stepWorld(world, inputs);
      expect(hashWorld(world)).toBe(before);
      expect(after).not.toBe(world);
      expect(after.ships[0]).not.toBe(world.ships[0]);
      expect(after.ships[0]!.pos).not.toBe(world.ships[0]!.pos);
      world = deepFreeze(after);
    }
    expect(world.tick).toBe(300);
  });

  it('NaN, infinite and huge inputs are sanitised and the state stays finite', () => {
    let world = createWorld(11, { ships: 3 });
    const bad = [
      { thrust: NaN, yaw: 1e308, pitch: -Infinity, roll: NaN, fire: true },
      { thrust: Infinity, yaw: NaN, pitch: 1e300, roll: -1e300, fire: true },
      { thrust: -1e9, yaw: -Infinity, pitch: NaN, roll: Infinity, fire: 'yes' as unknown as boolean },
    ];
    for (let t = 0; t < 2000; t++) world = stepWorld(world, bad);
    const leaves = numericLeaves(world);
    expect(leaves.length).toBeGreaterThan(0);
    const all = JSON.stringify(world);
    expect(all).not.toMatch(/null|NaN|Infinity/);
    for (const s of world.ships) {
      expect(Math.abs(s.angVel.x)).toBeLessThanOrEqual(1.6);
      expect(Math.abs(s.angVel.y)).toBeLessThanOrEqual(1.6);
      expect(Math.abs(s.angVel.z)).toBeLessThanOrEqual(2.4);
      expect(Math.hypot(s.vel.x, s.vel.y, s.vel.z)).toBeLessThanOrEqual(120 + 1e-9);
    }
  });

  it('hashWorld changes when any single numeric field of any object kind changes by one ulp', () => {
    let world = createWorld(21, { ships: 2, asteroids: 3 });
    const everything = { thrust: 1, yaw: 0.5, pitch: 0, roll: 0, fire: true, missile: true, mine: true, target: 1 };
    // The pulse (which spends the energy lasers need) goes off after some shots.
    for (let t = 0; t < 10; t++) world = stepWorld(world, [{ ...everything, emp: t === 4 }]);
    const extra: Extra = { kind: 'extra', id: world.nextId, owner: MATCH_OWNER, type: 2, pos: { x: 500, y: 0, z: 0 }, ttl: 99 };
    world = { ...world, nextId: world.nextId + 1, objects: [...world.objects, extra], asteroids: world.asteroids.map((a) => ({ ...a, wear: 3 })) };
    // Every kind of the registry is in it, and the pulse has reached ship 1.
    expect(new Set(world.objects.map((o) => o.kind))).toEqual(new Set(Object.keys(KINDS)));
    expect(world.objects.some((o) => o.kind === 'emp' && o.reached.length > 0)).toBe(true);
    const leaves = numericLeaves(world);
    const hashes = new Set([hashWorld(world)]);
    for (const path of leaves) hashes.add(hashWorld(nudged(world, path)));
    expect(hashes.size).toBe(leaves.length + 1);
  });
});
