/**
 * Initial world construction. Deterministic: the same seed and options give
 * the same world, bit for bit (asteroids are placed with the seeded PRNG and
 * only + - * / sqrt are used).
 */
import { nextRange, seedRng } from '../sim/prng';
import { spawnPoints } from '../sim/spawn';
import { identityQuat, quatNormalise } from '../sim/vec';
import { createShip } from './kinds/ship';
import { asteroidId, ROOT } from './kinds/asteroid';
import { createMatch, type MatchLimits } from './match';
import { RULES } from './rules';
import { MATCH_OWNER, type Asteroid, type EnergyField, type Ship, type Vec3, type World } from './types';

/** Options of {@link createWorld}. Counts are floored and clamped; bad values fall back to defaults. */
export interface CreateWorldOptions {
  /** Number of ships, 0…MAX_SHIPS (default 1). */
  ships?: number;
  /** Number of asteroids, 0…MAX_ASTEROIDS (default DEFAULT_ASTEROIDS). */
  asteroids?: number;
  /** Radius of the sphere asteroids are placed in (default DEFAULT_FIELD_RADIUS, at most MAX_FIELD_RADIUS). */
  radius?: number;
  /** Number of energy fields, 0…FIELD_SPOTS.length (default RULES.fields.count). */
  fields?: number;
  /** The match's kill and time limits (default RULES.match). */
  match?: Partial<MatchLimits>;
}

/** Where energy fields go, in order: RULES.fields.distance out along these axes. */
export const FIELD_SPOTS: readonly Vec3[] = Object.freeze([
  { x: 1, y: 0, z: 0 },
  { x: -1, y: 0, z: 0 },
  { x: 0, y: 1, z: 0 },
  { x: 0, y: -1, z: 0 },
  { x: 0, y: 0, z: 1 },
  { x: 0, y: 0, z: -1 },
]);

/** Most ships a world may be created with. */
export const MAX_SHIPS = 64;
/** Most asteroids a world may be created with. */
export const MAX_ASTEROIDS = 1000;
/** Default asteroid count. */
export const DEFAULT_ASTEROIDS = 24;
/** Default radius of the asteroid field. */
export const DEFAULT_FIELD_RADIUS = 400;
/** Largest accepted field radius (asteroids bounce back at ASTEROID_BOUND, see kinds/asteroid.ts). */
export const MAX_FIELD_RADIUS = 1500;
/** No asteroid surface starts closer than this to any ship's spawn position (or any of the SPAWN_CHOICES spawn points). */
export const ASTEROID_CLEARANCE = 60;
/** Smallest asteroid radius (inclusive). */
export const ASTEROID_MIN_RADIUS = 6;
/** Largest asteroid radius (exclusive). */
export const ASTEROID_MAX_RADIUS = 30;
/** Largest initial drift speed per axis (units/s). */
export const ASTEROID_MAX_DRIFT = 3;
/** Largest initial spin per axis (rad/s); laser kicks can raise it to twice this (see kinds/laser.ts). */
export const ASTEROID_MAX_SPIN = 0.5;
function count(v: number | undefined, fallback: number, max: number): number {
  if (v === undefined || !Number.isFinite(v)) return fallback;
  return Math.min(max, Math.max(0, Math.floor(v)));
}

/**
 * Create the initial world for `seed` (any number; see `seedRng`).
 * Ships take slots 0…n-1, each at its slot's spawn point (sim/spawn.ts), each
 * with a zero score; energy fields (owned by the match) get ids 1…fields, at
 * FIELD_SPOTS; asteroids get ids by their index (kinds/asteroid.ts, asteroidId), a radius in [6, 30), a random orientation, a slow
 * drift and spin, and a centre inside a sphere of `radius` with their surface
 * at least ASTEROID_CLEARANCE from every ship, spawn point and field centre. The radius is raised if needed
 * so that this is always possible. `tick` starts at 0; `rng` holds the PRNG
 * state after placement.
 */
export function createWorld(seed: number, options: CreateWorldOptions = {}): World {
  const shipCount = count(options.ships, 1, MAX_SHIPS);
  const asteroidCount = count(options.asteroids, DEFAULT_ASTEROIDS, MAX_ASTEROIDS);
  const requested =
    options.radius !== undefined && Number.isFinite(options.radius) && options.radius > 0
      ? Math.min(options.radius, MAX_FIELD_RADIUS)
      : DEFAULT_FIELD_RADIUS;
  const fieldCount = count(options.fields, RULES.fields.count, FIELD_SPOTS.length);
  const ships: Ship[] = [];
  let nextId = 1;
  for (let slot = 0; slot < shipCount; slot++) ships.push(createShip(slot));
  const fields: EnergyField[] = [];
  for (let i = 0; i < fieldCount; i++) {
    const d = FIELD_SPOTS[i]!;
    const k = RULES.fields.distance;
    fields.push({ kind: 'field', id: nextId++, owner: MATCH_OWNER, pos: { x: d.x * k, y: d.y * k, z: d.z * k }, radius: RULES.fields.radius });
  }
  // Every spawn point a player may be put on, every ship and every field starts clear of asteroids.
  const clearOf = [...spawnPoints(), ...ships.map((s) => s.pos), ...fields.map((f) => f.pos)];
  // Farthest of them from the origin; the placement sphere must reach past every clearance zone.
  const spread = clearOf.reduce((far, p) => Math.max(far, Math.sqrt(p.x * p.x + p.y * p.y + p.z * p.z)), 0);
  const minRadius = spread + ASTEROID_CLEARANCE + ASTEROID_MAX_RADIUS + 10;
  const fieldRadius = Math.max(requested, minRadius);

  let rng = seedRng(seed);
  const draw = (min: number, max: number): number => {
    const [v, next] = nextRange(rng, min, max);
    rng = next;
    return v;
  };
  const asteroids: Asteroid[] = [];
  for (let i = 0; i < asteroidCount; i++) {
    const radius = draw(ASTEROID_MIN_RADIUS, ASTEROID_MAX_RADIUS);
    let pos: Vec3 = { x: fieldRadius, y: 0, z: 0 };
    // Rejection sampling: uniform in the ball, outside every ship's clearance zone.
    for (let attempt = 0; attempt < 1000; attempt++) {
      const p = { x: draw(-fieldRadius, fieldRadius), y: draw(-fieldRadius, fieldRadius), z: draw(-fieldRadius, fieldRadius) };
      const d2 = p.x * p.x + p.y * p.y + p.z * p.z;
      if (d2 > fieldRadius * fieldRadius) continue;
      const clear = ASTEROID_CLEARANCE + radius;
      const tooClose = clearOf.some((s) => {
        const dx = p.x - s.x;
        const dy = p.y - s.y;
        const dz = p.z - s.z;
        return dx * dx + dy * dy + dz * dz < clear * clear;
      });
      if (tooClose) continue;
      pos = p;
      break;
    }
    // Random orientation without trig: a uniform point in the 4-ball, normalised.
    let rot = identityQuat();
    for (let attempt = 0; attempt < 100; attempt++) {
      const q = { x: draw(-1, 1), y: draw(-1, 1), z: draw(-1, 1), w: draw(-1, 1) };
      const n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
      if (n2 > 1 || n2 < 1e-6) continue;
      rot = quatNormalise(q);
      break;
    }
    const vel = { x: draw(-ASTEROID_MAX_DRIFT, ASTEROID_MAX_DRIFT), y: draw(-ASTEROID_MAX_DRIFT, ASTEROID_MAX_DRIFT), z: draw(-ASTEROID_MAX_DRIFT, ASTEROID_MAX_DRIFT) };
    const spin = { x: draw(-ASTEROID_MAX_SPIN, ASTEROID_MAX_SPIN), y: draw(-ASTEROID_MAX_SPIN, ASTEROID_MAX_SPIN), z: draw(-ASTEROID_MAX_SPIN, ASTEROID_MAX_SPIN) };
    asteroids.push({ id: asteroidId(i, ROOT), pos, vel, rot, spin, radius, wear: 0 });
  }
  const scores = ships.map((s) => ({ slot: s.slot, kills: 0, deaths: 0 }));
  return { tick: 0, rng, nextId, extraIn: RULES.extras.spawnEveryTicks, ships, objects: fields, asteroids, field: Object.freeze(asteroids.slice()), scores, match: createMatch(options.match) };
}
