/**
 * Flying geometry for computer pilots: where a point lies in a ship's body
 * frame, the stick that turns the nose towards it, where to aim so a bolt
 * meets a moving ship (lead), and how to fly to a point and slow down there.
 * Only + - * / and sqrt: deterministic on every engine, like the simulation.
 */
import { MAX_PITCH_RATE, MAX_YAW_RATE } from '../kinds/ship';
import type { Ship, Vec3 } from '../types';
import { dot, forwardOf, rightOf, upOf } from '../../sim/vec';

/** A point as a ship sees it: right (+X), up (+Y) and ahead (along the nose) of it, and how far. */
export interface BodyPoint {
  right: number;
  up: number;
  ahead: number;
  dist: number;
}

/** Yaw and pitch of a stick. */
export interface Stick {
  yaw: number;
  pitch: number;
}

/** Gain of the nose's turn: rad/s of turn rate wanted per radian off the nose (critically damped enough with the ship's angular response). */
const TURN_GAIN = 5;

export const clamp1 = (v: number): number => (v > 1 ? 1 : v < -1 ? -1 : v);

/** `to` in the body frame of `ship` (relative to its position). */
export function bodyPoint(ship: Ship, to: Vec3): BodyPoint {
  return bodyDir(ship, { x: to.x - ship.pos.x, y: to.y - ship.pos.y, z: to.z - ship.pos.z });
}

/** The world direction `d` in the body frame of `ship`. */
export function bodyDir(ship: Ship, d: Vec3): BodyPoint {
  const right = dot(d, rightOf(ship.rot));
  const up = dot(d, upOf(ship.rot));
  const ahead = dot(d, forwardOf(ship.rot));
  return { right, up, ahead, dist: Math.sqrt(right * right + up * up + ahead * ahead) };
}

/** How far off the nose `p` lies, as a share of its distance (0 dead ahead; 1 or more abeam or behind). */
export function offNose(p: BodyPoint): number {
  if (p.dist < 1e-9) return 0;
  if (p.ahead <= 0) return 1 + -p.ahead / p.dist;
  return Math.sqrt(p.right * p.right + p.up * p.up) / p.dist;
}

/**
 * The stick that turns the nose towards `p`: a turn rate in proportion to
 * the angle (its sine, for small angles) off the nose; full turn towards
 * its side when it is behind.
 */
export function stickTowards(p: BodyPoint): Stick {
  if (p.dist < 1e-9) return { yaw: 0, pitch: 0 };
  if (p.ahead <= 0) {
    const side = Math.abs(p.right) + Math.abs(p.up);
    if (side < 1e-9) return { yaw: 1, pitch: 0 };
    return { yaw: clamp1((2 * p.right) / side), pitch: clamp1((2 * p.up) / side) };
  }
  return {
    yaw: clamp1((TURN_GAIN * p.right) / p.dist / MAX_YAW_RATE),
    pitch: clamp1((TURN_GAIN * p.up) / p.dist / MAX_PITCH_RATE),
  };
}

/**
 * Where `shooter` must aim for a projectile of muzzle speed `speed` (plus
 * the shooter's own velocity, as lasers fly) to meet `target` flying on
 * straight: the target's position after the flight time t, seen from the
 * shooter's moving frame (|r + v t| = speed·t, r and v relative).
 */
export function leadPoint(shooter: Ship, target: Ship, speed: number): Vec3 {
  const rx = target.pos.x - shooter.pos.x;
  const ry = target.pos.y - shooter.pos.y;
  const rz = target.pos.z - shooter.pos.z;
  const vx = target.vel.x - shooter.vel.x;
  const vy = target.vel.y - shooter.vel.y;
  const vz = target.vel.z - shooter.vel.z;
  const a = vx * vx + vy * vy + vz * vz - speed * speed;
  const b = 2 * (rx * vx + ry * vy + rz * vz);
  const c = rx * rx + ry * ry + rz * rz;
  let t = 0;
  if (a < -1e-9) {
    // a < 0 and c ≥ 0: one root is ≥ 0, the other ≤ 0.
    t = (-b - Math.sqrt(Math.max(0, b * b - 4 * a * c))) / (2 * a);
    if (!(t >= 0)) t = 0;
  }
  return { x: target.pos.x + vx * t, y: target.pos.y + vy * t, z: target.pos.z + vz * t };
}

/** Stick and thrust that fly a ship to a point. */
export interface Flight extends Stick {
  thrust: number;
}

/**
 * Flies `ship` to `to`, arriving at `arrive` units/s (0: stop there): the
 * velocity wanted points at `to`, as fast as `cruise` allows and slow enough
 * to brake in time; the nose turns along the change of velocity needed
 * (thrust only pushes along it) and the thrust is given when the nose is
 * roughly there (reverse when it points the other way).
 */
export function flyTo(ship: Ship, to: Vec3, cruise: number, arrive = 0): Flight {
  const dx = to.x - ship.pos.x;
  const dy = to.y - ship.pos.y;
  const dz = to.z - ship.pos.z;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  // Braking at about half the thrust, a speed v stops within v²/60 units.
  const speed = Math.min(cruise, arrive + Math.sqrt(60 * dist));
  const k = dist > 1e-9 ? speed / dist : 0;
  const need = { x: dx * k - ship.vel.x, y: dy * k - ship.vel.y, z: dz * k - ship.vel.z };
  const p = bodyDir(ship, need);
  if (p.dist < 2) return { yaw: 0, pitch: 0, thrust: 0 };
  // A small correction against a large one: nose at the point itself, trim with thrust.
  const stick = stickTowards(p);
  const along = p.ahead / p.dist;
  const push = clamp1(p.dist / 30);
  return { ...stick, thrust: along > 0.6 ? push : along < -0.8 ? -push : 0 };
}
