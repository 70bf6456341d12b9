/** The asteroid: drift, spin, bounce back inward beyond ASTEROID_BOUND. Scenery every node simulates. */
import { STEP_S } from '../../sim/types';
import { addScaled, copyVec, dot, integrateRotation, lengthSq } from '../../sim/vec';
import type { Hasher } from '../hasher';
import type { Asteroid } from '../types';

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
  return { id: a.id, pos, vel, rot: integrateRotation(a.rot, a.spin, STEP_S), spin: copyVec(a.spin), radius: a.radius };
}

/** Feeds every field of `a` to the hash, in declaration order. */
export function hashAsteroid(h: Hasher, a: Asteroid): void {
  h.num(a.id);
  h.vec(a.pos);
  h.vec(a.vel);
  h.quat(a.rot);
  h.vec(a.spin);
  h.num(a.radius);
}
