/**
 * The asteroid: drift, spin, bounce back inward beyond ASTEROID_BOUND. Solid:
 * a ship that runs into one bounces off with damage by its closing speed
 * (collideShip); lasers wear it down until it breaks in two smaller pieces,
 * and the smallest vanish (breakAsteroid). Scenery of the match.
 */
import { nextRange, seedRng } from '../../sim/prng';
import { STEP_S } from '../../sim/types';
import { addScaled, copyVec, dot, integrateRotation, lengthSq } from '../../sim/vec';
import type { Hasher } from '../hasher';
import { RULES } from '../rules';
import type { Asteroid, Ship, Vec3 } from '../types';
import { SHIP_RADIUS } from './ship';

/**
 * Asteroid ids name their place in the field, the same on every node: the
 * index of the asteroid the field began with, plus ROOTS × its place in that
 * asteroid's tree of pieces (heap order: the original is ROOT, the pieces of
 * `h` are 2h and 2h + 1). So a break announced by id means the same pieces
 * everywhere (arena.ts).
 */
export const ROOTS = 1024;
/** Heap place of an asteroid the field began with. */
export const ROOT = 1;
/** Pieces deeper than this many breaks vanish whatever their size (ids stay below 2^31). */
const MAX_HEAP = 1 << 20;

/** Id of the asteroid at heap place `heap` of the tree of the field's asteroid `index` (< ROOTS). */
export function asteroidId(index: number, heap: number): number {
  return heap * ROOTS + index;
}

/** Asteroids drifting beyond this distance from the origin have their outward velocity reflected. */
export const ASTEROID_BOUND = 2000;

/** One asteroid's tick. Returns a fresh asteroid. */
export function stepAsteroid(a: Asteroid): Asteroid {
  const pos = addScaled(a.pos, a.vel, STEP_S);
  let vel = copyVec(a.vel);
  const d2 = lengthSq(pos);
  const outward = dot(pos, vel);
  if (d2 > ASTEROID_BOUND * ASTEROID_BOUND && outward > 0) {
    const k = (2 * outward) / d2; // v - 2 (v·n) n with n = pos / |pos|
    vel = { x: vel.x - k * pos.x, y: vel.y - k * pos.y, z: vel.z - k * pos.z };
  }
  return { id: a.id, pos, vel, rot: integrateRotation(a.rot, a.spin, STEP_S), spin: copyVec(a.spin), radius: a.radius, wear: a.wear };
}

const A = RULES.asteroid;

/**
 * A flying ship against asteroid `a` after both moved: if they overlap, the
 * ship is put back on the surface and, when it was closing in, its velocity
 * along the contact normal is reflected (keeping RULES.asteroid.restitution of
 * it). Returns the ship and the closing speed (0: no impact).
 */
export function collideShip(s: Ship, a: Asteroid): { ship: Ship; impact: number } {
  const dx = s.pos.x - a.pos.x;
  const dy = s.pos.y - a.pos.y;
  const dz = s.pos.z - a.pos.z;
  const reach = a.radius + SHIP_RADIUS;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (d2 >= reach * reach) return { ship: s, impact: 0 };
  const d = Math.sqrt(d2);
  const n: Vec3 = d > 1e-9 ? { x: dx / d, y: dy / d, z: dz / d } : { x: 0, y: 1, z: 0 };
  const closing = -((s.vel.x - a.vel.x) * n.x + (s.vel.y - a.vel.y) * n.y + (s.vel.z - a.vel.z) * n.z);
  const pos = addScaled(a.pos, n, reach);
  const vel = closing > 0 ? addScaled(s.vel, n, (1 + A.restitution) * closing) : s.vel;
  return { ship: { ...s, pos, vel }, impact: closing > 0 ? closing : 0 };
}

/** Hull damage of an impact at `closing` units/s. */
export function impactDamage(closing: number): number {
  return closing > A.harmlessSpeed ? (closing - A.harmlessSpeed) * A.damagePerSpeed : 0;
}

/** Whether lasers have worn `a` down to breaking. */
export function isBroken(a: Asteroid): boolean {
  return a.wear >= A.strengthPerRadius * a.radius;
}

/**
 * The pieces of broken asteroid `a`: two of RULES.asteroid.pieceFactor its
 * radius flying apart along a random direction, or none when they would be
 * smaller than RULES.asteroid.minPieceRadius. A function of `a` alone — the
 * direction is drawn from a PRNG seeded with its id, the pieces' ids are its
 * children's — so every node that breaks the same asteroid gets the same pieces.
 */
export function breakAsteroid(a: Asteroid): Asteroid[] {
  const radius = a.radius * A.pieceFactor;
  const index = a.id % ROOTS;
  const heap = (a.id - index) / ROOTS;
  if (radius < A.minPieceRadius || heap >= MAX_HEAP) return [];
  let rng = seedRng(a.id);
  const draw = (): number => {
    const [v, next] = nextRange(rng, -1, 1);
    rng = next;
    return v;
  };
  // A random direction without trig: a point in the unit ball, normalised (axis +X if the draws give none).
  let u: Vec3 = { x: 1, y: 0, z: 0 };
  for (let attempt = 0; attempt < 16; attempt++) {
    const p = { x: draw(), y: draw(), z: draw() };
    const l2 = lengthSq(p);
    if (l2 > 1 || l2 < 1e-6) continue;
    const l = Math.sqrt(l2);
    u = { x: p.x / l, y: p.y / l, z: p.z / l };
    break;
  }
  const piece = (side: number, id: number): Asteroid => ({
    id,
    pos: addScaled(a.pos, u, side * radius),
    vel: addScaled(a.vel, u, side * A.splitSpeed),
    rot: a.rot,
    spin: { x: a.spin.z * side, y: a.spin.x, z: a.spin.y * side },
    radius,
    wear: 0,
  });
  return [piece(1, asteroidId(index, heap * 2)), piece(-1, asteroidId(index, heap * 2 + 1))];
}

/** Feeds every field of `a` to the hash, in declaration order. */
export function hashAsteroid(h: Hasher, a: Asteroid): void {
  h.num(a.id);
  h.vec(a.pos);
  h.vec(a.vel);
  h.quat(a.rot);
  h.vec(a.spin);
  h.num(a.radius);
  h.num(a.wear);
}
