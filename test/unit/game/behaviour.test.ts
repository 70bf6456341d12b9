import { describe, it, expect } from 'vitest';
import { dot, forwardOf, NO_INPUT, quatLengthSq, rightOf, rotate, upOf } from '../../../src/shared/sim';
import type { ShipInput } from '../../../src/shared/sim';
import { createWorld, FIRE_COOLDOWN_TICKS, LASER_DAMAGE, LASER_ENERGY_COST, LASER_TTL_TICKS, MAX_SPEED, NO_ATTACKER, SHIELD_MAX, stepWorld as stepBySlot } from '../../../src/shared/game';
import type { Laser, World } from '../../../src/shared/game';

const input = (over: Partial<ShipInput>): ShipInput => ({ ...NO_INPUT, ...over });

/** Inputs listed in slot order (slot i steers ships[i] of these worlds). */
const stepWorld = (world: World, inputs: (ShipInput | undefined)[]): World =>
  stepBySlot(world, new Map(inputs.flatMap((input, slot) => (input ? [[slot, input] as const] : []))));

function steps(world: World, n: number, inputs: (ShipInput | undefined)[]): World {
  for (let i = 0; i < n; i++) world = stepWorld(world, inputs);
  return world;
}

/** A world with no asteroids or energy fields, so nothing gets in the way. */
const empty = (ships = 1): World => createWorld(1, { ships, asteroids: 0, fields: 0 });

/** The world's laser bolts (extras the match spawns are not what these tests are about). */
const lasers = (world: World): Laser[] => world.objects.filter((o): o is Laser => o.kind === 'laser');

describe('ship and laser behaviour', () => {
  it('a new ship sits at the origin facing -Z with up +Y and right +X', () => {
    const ship = empty().ships[0]!;
    expect(ship.pos).toEqual({ x: 0, y: 0, z: 0 });
    expect(forwardOf(ship.rot)).toEqual({ x: -0, y: -0, z: -1 });
    expect(upOf(ship.rot)).toEqual({ x: 0, y: 1, z: 0 });
    expect(rightOf(ship.rot)).toEqual({ x: 1, y: 0, z: 0 });
  });

  it('createWorld keeps every asteroid at least 60 units (surface) from the origin ship', () => {
    const world = createWorld(3);
    expect(world.asteroids).toHaveLength(24);
    for (const a of world.asteroids) {
      expect(Math.hypot(a.pos.x, a.pos.y, a.pos.z) - a.radius).toBeGreaterThanOrEqual(60);
      expect(Math.hypot(a.pos.x, a.pos.y, a.pos.z)).toBeLessThanOrEqual(400);
    }
  });

  it('thrust makes the ship move along its nose, up to the speed cap', () => {
    const world = steps(empty(), 40, [input({ thrust: 1 })]);
    const ship = world.ships[0]!;
    expect(ship.pos.z).toBeLessThan(-10);
    expect(Math.abs(ship.pos.x)).toBeLessThan(1e-9);
    expect(Math.abs(ship.pos.y)).toBeLessThan(1e-9);
    const later = steps(world, 400, [input({ thrust: 1 })]).ships[0]!;
    expect(Math.hypot(later.vel.x, later.vel.y, later.vel.z)).toBeCloseTo(MAX_SPEED, 6);
  });

  it('yaw turns the nose right and pitch turns it up; releasing the stick stops the turn', () => {
    const yawed = steps(empty(), 20, [input({ yaw: 1 })]).ships[0]!;
    const nose = forwardOf(yawed.rot);
    expect(nose.x).toBeGreaterThan(0.3);
    expect(Math.abs(nose.y)).toBeLessThan(1e-9);
    const pitched = forwardOf(steps(empty(), 20, [input({ pitch: 1 })]).ships[0]!.rot);
    expect(pitched.y).toBeGreaterThan(0.3);
    const rolled = rightOf(steps(empty(), 20, [input({ roll: 1 })]).ships[0]!.rot);
    expect(rolled.y).toBeLessThan(-0.3); // right wing down
    const coasting = steps(steps(empty(), 20, [input({ yaw: 1 })]), 80, [NO_INPUT]).ships[0]!;
    expect(Math.abs(coasting.angVel.y)).toBeLessThan(1e-6);
  });

  it('a fired laser leaves the nose, moves away and expires after its ttl', () => {
    let world = stepWorld(empty(), [input({ fire: true })]);
    expect(lasers(world)).toHaveLength(1);
    const laser = lasers(world)[0]!;
    expect(laser.owner).toBe(world.ships[0]!.slot);
    expect(laser.ttl).toBe(LASER_TTL_TICKS);
    expect(laser.pos.z).toBeLessThan(0);
    const z0 = laser.pos.z;
    world = steps(world, LASER_TTL_TICKS - 1, [NO_INPUT]);
    expect(lasers(world)).toHaveLength(1);
    expect(lasers(world)[0]!.ttl).toBe(1);
    expect(lasers(world)[0]!.pos.z).toBeCloseTo(z0 - 600 * 0.025 * (LASER_TTL_TICKS - 1), 6);
    world = stepWorld(world, [NO_INPUT]);
    expect(lasers(world)).toHaveLength(0);
  });

  it('firing is limited by the cooldown and by energy', () => {
    let world = empty();
    const fireTicks: number[] = [];
    for (let t = 0; t < 300; t++) {
      world = stepWorld(world, [input({ fire: true })]);
      // A shot is the newest bolt at full ttl.
      if (lasers(world).some((l) => l.ttl === LASER_TTL_TICKS)) fireTicks.push(t);
    }
    // Full energy: one shot every FIRE_COOLDOWN_TICKS ticks at first.
    expect(fireTicks.slice(0, 5)).toEqual([0, 1, 2, 3, 4].map((k) => k * FIRE_COOLDOWN_TICKS));
    // Later the shots are limited by energy regeneration (12/s = one 6-energy shot per 20 ticks).
    const late = fireTicks.filter((t) => t >= 200);
    expect(late.length).toBeGreaterThan(0);
    for (let i = 1; i < late.length; i++) expect(late[i]! - late[i - 1]!).toBe(20);
    expect(world.ships[0]!.energy).toBeLessThan(LASER_ENERGY_COST + 10);
  });

  it('a laser hitting another ship takes its shield down (not its owner\'s), remembers the shooter, and is removed', () => {
    let world = empty(2);
    const target = world.ships[1]!;
    world = { ...world, ships: [world.ships[0]!, { ...target, pos: { x: 0, y: 0, z: -100 } }] };
    expect(world.ships[1]!.lastHitBy).toBe(NO_ATTACKER);
    world = stepWorld(world, [input({ fire: true })]);
    expect(lasers(world)).toHaveLength(1);
    world = steps(world, 10, [NO_INPUT, NO_INPUT]);
    expect(lasers(world)).toHaveLength(0);
    // The shield recharges a little each tick after the hit; the hull is untouched while it holds.
    expect(world.ships[1]!.shield).toBeLessThan(SHIELD_MAX - LASER_DAMAGE + 3);
    expect(world.ships[1]!.damage).toBe(0);
    expect(world.ships[1]!.lastHitBy).toBe(world.ships[0]!.slot);
    expect(world.ships[0]!.shield).toBe(SHIELD_MAX);
    expect(world.ships[0]!.lastHitBy).toBe(NO_ATTACKER);
  });

  it('lastHitBy names the owner of the latest laser that hit, even an owner not in the world', () => {
    let world = empty(1);
    const foreignOwner = 3; // e.g. a laser replicated from a remote player
    const laser: Laser = { kind: 'laser', id: 9999, owner: foreignOwner, pos: { x: 0, y: 0, z: -50 }, vel: { x: 0, y: 0, z: 600 }, ttl: 40 };
    world = { ...world, objects: [laser] };
    world = steps(world, 10, [NO_INPUT]);
    expect(lasers(world)).toHaveLength(0);
    expect(world.ships[0]!.shield).toBeLessThan(SHIELD_MAX);
    expect(world.ships[0]!.lastHitBy).toBe(foreignOwner);
  });

  it('a laser hitting an asteroid is removed and kicks its spin', () => {
    let world = createWorld(2, { ships: 1, asteroids: 1, fields: 0 });
    const a = world.asteroids[0]!;
    world = { ...world, asteroids: [{ ...a, pos: { x: 0, y: 0, z: -150 }, vel: { x: 0, y: 0, z: 0 } }] };
    world = stepWorld(world, [input({ fire: true })]);
    world = steps(world, 12, [NO_INPUT]);
    expect(lasers(world)).toHaveLength(0);
    expect(world.asteroids[0]!.spin).not.toEqual(a.spin);
  });

  it('asteroids drift and spin', () => {
    const world = createWorld(4, { ships: 0, asteroids: 3 });
    const later = steps(world, 40, []);
    for (let i = 0; i < 3; i++) {
      const a = world.asteroids[i]!;
      const b = later.asteroids[i]!;
      expect(b.pos.x).toBeCloseTo(a.pos.x + a.vel.x, 9);
      expect(b.rot).not.toEqual(a.rot);
    }
  });

  it('a world that does not decide hits on a ship lets lasers pass through it (the victim decides)', () => {
    let world = empty(2);
    world = { ...world, ships: [world.ships[0]!, { ...world.ships[1]!, pos: { x: 0, y: 0, z: -100 } }] };
    world = stepBySlot(world, new Map([[0, input({ fire: true })]]), { decidesHitsOn: (slot) => slot === 0 });
    for (let i = 0; i < 10; i++) world = stepBySlot(world, new Map(), { decidesHitsOn: (slot) => slot === 0 });
    expect(lasers(world)).toHaveLength(1);
    expect(world.ships[1]!.shield).toBe(SHIELD_MAX);
    expect(world.ships[1]!.damage).toBe(0);
  });

  it('quaternions stay unit length after 10,000 ticks of spinning', () => {
    let world = createWorld(5, { ships: 2, asteroids: 4 });
    const spin = [input({ yaw: 1, pitch: 0.7, roll: -1 }), input({ yaw: -0.3, pitch: -1, roll: 1 })];
    world = steps(world, 10_000, spin);
    for (const q of [...world.ships.map((s) => s.rot), ...world.asteroids.map((a) => a.rot)]) {
      expect(Math.abs(quatLengthSq(q) - 1)).toBeLessThan(1e-12);
    }
    // The body axes stay orthonormal.
    const q = world.ships[0]!.rot;
    expect(dot(forwardOf(q), upOf(q))).toBeCloseTo(0, 12);
    expect(dot(rotate(q, { x: 0, y: 0, z: -1 }), forwardOf(q))).toBeCloseTo(1, 12);
  });
});
