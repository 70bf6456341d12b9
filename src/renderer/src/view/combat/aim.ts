/**
 * The combat HUD's aiming maths, without the DOM or three.js (unit-tested in
 * Node): where to aim so a laser bolt meets a moving ship (the lead point),
 * and where near the window's edge the arrow to an off-screen target goes.
 * Renderer code: it draws, it never feeds the simulation, so it may use any
 * maths it likes.
 */
import type { Vec3 } from '../../../../shared/sim/types';

/** Where to aim at a moving ship, and when the bolt gets there. */
export interface Lead {
  /** The point to put the crosshair on, in world coordinates (at the target's time of now). */
  point: Vec3;
  /** Seconds the bolt flies to meet the target. */
  time: number;
  /** The bolt still lives when it gets there (its lifetime is `maxTime`). */
  inRange: boolean;
}

/**
 * The lead point for a bolt fired from `shooter` (moving at `shooterVel`)
 * at a ship at `target` moving at `targetVel`. A bolt leaves `muzzle` units
 * ahead of the shooter's centre at `boltSpeed` along the nose plus the
 * shooter's own velocity (kinds/laser.ts), so in the shooter's moving frame
 * it flies straight out at `boltSpeed` and the target moves at
 * `targetVel − shooterVel`: the bolt meets it after the smallest t > 0 with
 * |d + w·t| = muzzle + boltSpeed·t (d the target's offset, w its relative
 * velocity), and the nose must point at d + w·t — drawn from the shooter,
 * that is the lead point `target + w·t`. Null when no bolt can catch it
 * (it flies away faster than a bolt). Both ships assumed to keep their
 * velocity: the simulation's bolts fly straight, a ship that turns meanwhile
 * is missed, as a player would expect.
 */
export function leadPoint(shooter: Vec3, shooterVel: Vec3, target: Vec3, targetVel: Vec3, boltSpeed: number, muzzle: number, maxTime: number): Lead | null {
  const dx = target.x - shooter.x;
  const dy = target.y - shooter.y;
  const dz = target.z - shooter.z;
  const wx = targetVel.x - shooterVel.x;
  const wy = targetVel.y - shooterVel.y;
  const wz = targetVel.z - shooterVel.z;
  const dd = dx * dx + dy * dy + dz * dz;
  if (dd <= muzzle * muzzle) return { point: { x: target.x, y: target.y, z: target.z }, time: 0, inRange: true };
  // (w·w − s²) t² + 2 (d·w − m s) t + (d·d − m²) = 0
  const a = wx * wx + wy * wy + wz * wz - boltSpeed * boltSpeed;
  const b = 2 * (dx * wx + dy * wy + dz * wz - muzzle * boltSpeed);
  const c = dd - muzzle * muzzle;
  let t: number;
  if (Math.abs(a) < 1e-9) {
    if (b >= 0) return null;
    t = -c / b;
  } else {
    const disc = b * b - 4 * a * c;
    if (disc < 0) return null;
    const root = Math.sqrt(disc);
    const t1 = (-b - root) / (2 * a);
    const t2 = (-b + root) / (2 * a);
    const lo = Math.min(t1, t2);
    const hi = Math.max(t1, t2);
    t = lo > 0 ? lo : hi;
    if (!(t > 0)) return null;
  }
  return { point: { x: target.x + wx * t, y: target.y + wy * t, z: target.z + wz * t }, time: t, inRange: t <= maxTime };
}

/** A point near the window's edge and the direction there, for an arrow. */
export interface RimPoint {
  x: number;
  y: number;
  /** Angle of the direction in radians, 0 to the right, growing clockwise (screen y points down). */
  angle: number;
}

/**
 * Where the ray from the centre (`cx`, `cy`) in screen direction (`dx`, `dy`)
 * (y down) meets the ellipse of radii `rx`, `ry` round the centre — the
 * window less a margin — for the arrow to an off-screen target. An ellipse
 * rather than the window's rectangle keeps the arrow out of the corners,
 * where the HUD's panels are (radar, ship, players). A zero direction points
 * down (a target dead behind: any turn reaches it).
 */
export function rimPoint(cx: number, cy: number, rx: number, ry: number, dx: number, dy: number): RimPoint {
  if (dx === 0 && dy === 0) dy = 1;
  const s = 1 / Math.sqrt((dx / rx) * (dx / rx) + (dy / ry) * (dy / ry));
  return { x: cx + dx * s, y: cy + dy * s, angle: Math.atan2(dy, dx) };
}
