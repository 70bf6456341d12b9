/**
 * Swept-sphere tests: the earliest fraction of a tick at which a moving point
 * touches a sphere. Exact and allocation-free (objects × targets run every tick).
 */
import { SHIP_RADIUS } from './kinds/ship';
import type { StepContext } from './registry';
import type { Vec3 } from './types';

/**
 * Earliest fraction s in [0, 1] of a tick at which a point moving linearly
 * from (x0, y0, z0) to (x1, y1, z1), relative to a sphere's centre, is inside
 * radius r; -1 if never.
 */
function sweep(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, r: number): number {
  const c = x0 * x0 + y0 * y0 + z0 * z0 - r * r;
  if (c <= 0) return 0;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const dz = z1 - z0;
  const b = x0 * dx + y0 * dy + z0 * dz;
  if (b >= 0) return -1; // not approaching
  const a = dx * dx + dy * dy + dz * dz;
  const disc = b * b - a * c;
  if (disc < 0) return -1;
  const s = (-b - Math.sqrt(disc)) / a;
  return s <= 1 ? s : -1;
}

/** Sweep of a point (p0 → p1) against a sphere moving (c0 → c1) this tick. */
export function sweepMoving(p0: Vec3, p1: Vec3, c0: Vec3, c1: Vec3, r: number): number {
  return sweep(p0.x - c0.x, p0.y - c0.y, p0.z - c0.z, p1.x - c1.x, p1.y - c1.y, p1.z - c1.z, r);
}

/** What a projectile touched first this tick: an asteroid or a ship (index into the context's arrays), or nothing. */
export type Contact = { asteroid: number; ship: -1 } | { asteroid: -1; ship: number } | null;

/**
 * The first asteroid or flying ship a point moving p0 → p1 this tick touches,
 * the ships' radius grown by `reach`. Ships of slot `skip` (the owner) and
 * ships this world does not decide hits on are passed through.
 */
export function firstContact(ctx: StepContext, p0: Vec3, p1: Vec3, reach: number, skip: number): Contact {
  const { before, ships, asteroids } = ctx;
  let best = 2;
  let contact: Contact = null;
  for (let j = 0; j < asteroids.length; j++) {
    const after = asteroids[j]!;
    const s = sweepMoving(p0, p1, before.asteroids[j]!.pos, after.pos, after.radius);
    if (s >= 0 && s < best) {
      best = s;
      contact = { asteroid: j, ship: -1 };
    }
  }
  for (let j = 0; j < ships.length; j++) {
    const after = ships[j]!;
    if (after.slot === skip || after.respawnIn > 0 || !ctx.decidesHitsOn(after.slot)) continue;
    const s = sweepMoving(p0, p1, before.ships[j]!.pos, after.pos, SHIP_RADIUS + reach);
    if (s >= 0 && s < best) {
      best = s;
      contact = { asteroid: -1, ship: j };
    }
  }
  return contact;
}
