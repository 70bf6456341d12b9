/**
 * Asteroid avoidance for computer pilots: the asteroid a ship is about to
 * fly into (on its present velocity, within a couple of seconds), and the
 * point beside it to steer for instead.
 */
import { SHIP_RADIUS } from '../kinds/ship';
import type { Asteroid, Ship, Vec3 } from '../types';
import { rightOf } from '../../sim/vec';

/** Seconds ahead a pilot looks for asteroids in its way. */
export const LOOK_AHEAD_S = 2;
/** Clearance a pilot keeps from an asteroid's surface. */
export const CLEARANCE = 14;

/** The asteroid `ship` would hit soonest on its present course within LOOK_AHEAD_S (with CLEARANCE to spare), or null. */
export function asteroidInTheWay(ship: Ship, asteroids: readonly Asteroid[]): Asteroid | null {
  const v = ship.vel;
  const vv = v.x * v.x + v.y * v.y + v.z * v.z;
  let best: Asteroid | null = null;
  let bestT = Infinity;
  for (const a of asteroids) {
    const rx = a.pos.x - ship.pos.x;
    const ry = a.pos.y - ship.pos.y;
    const rz = a.pos.z - ship.pos.z;
    const reach = a.radius + SHIP_RADIUS + CLEARANCE;
    const rr = rx * rx + ry * ry + rz * rz;
    const closing = rx * v.x + ry * v.y + rz * v.z;
    if (rr < reach * reach) {
      // Already too close and still closing: the most urgent of all.
      if (closing > 0 && (best === null || bestT > 0)) {
        best = a;
        bestT = 0;
      }
      continue;
    }
    if (vv < 1) continue;
    // Closest approach on the straight course, relative to the asteroid's drift (slow; ignored).
    const t = closing / vv;
    if (t <= 0 || t > LOOK_AHEAD_S || t >= bestT) continue;
    const cx = rx - v.x * t;
    const cy = ry - v.y * t;
    const cz = rz - v.z * t;
    if (cx * cx + cy * cy + cz * cz < reach * reach) {
      best = a;
      bestT = t;
    }
  }
  return best;
}

/**
 * A point to steer for to pass `a`: beside it, on the side the ship's
 * course already passes (to the ship's right when it flies straight at its
 * centre), clear of its surface.
 */
export function pointBeside(ship: Ship, a: Asteroid): Vec3 {
  const v = ship.vel;
  const vv = v.x * v.x + v.y * v.y + v.z * v.z;
  const rx = ship.pos.x - a.pos.x;
  const ry = ship.pos.y - a.pos.y;
  const rz = ship.pos.z - a.pos.z;
  // The ship's offset from the asteroid, less its part along the course.
  const k = vv > 1e-9 ? (rx * v.x + ry * v.y + rz * v.z) / vv : 0;
  let ox = rx - v.x * k;
  let oy = ry - v.y * k;
  let oz = rz - v.z * k;
  let ol = Math.sqrt(ox * ox + oy * oy + oz * oz);
  if (ol < 1e-6) {
    const r = rightOf(ship.rot);
    ox = r.x;
    oy = r.y;
    oz = r.z;
    ol = 1;
  }
  const out = a.radius + SHIP_RADIUS + 2 * CLEARANCE;
  return { x: a.pos.x + (ox / ol) * out, y: a.pos.y + (oy / ol) * out, z: a.pos.z + (oz / ol) * out };
}
