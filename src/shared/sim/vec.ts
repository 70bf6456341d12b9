/**
 * Vector and quaternion helpers for the simulation.
 *
 * Conventions: right-handed coordinates; a body's axes are right = +X,
 * up = +Y, forward (nose) = -Z, as for three.js cameras. Quaternions are
 * Hamilton quaternions `{x, y, z, w}` (w scalar) rotating body → world.
 *
 * Determinism: only + - * / and Math.sqrt are used (IEEE 754 requires these
 * to be correctly rounded, and every engine uses the hardware instructions),
 * never Math.sin/cos/atan/exp, whose last bits vary between engines and CPUs.
 * Every function is pure and returns a fresh object; inputs are never mutated.
 */
import type { Quat, Vec3 } from './types';

/** A new vector (x, y, z). */
export function vec3(x = 0, y = 0, z = 0): Vec3 {
  return { x, y, z };
}

/** A fresh copy of `v`. */
export function copyVec(v: Vec3): Vec3 {
  return { x: v.x, y: v.y, z: v.z };
}

/** a + b. */
export function add(a: Vec3, b: Vec3): Vec3 {
  return { x: a.x + b.x, y: a.y + b.y, z: a.z + b.z };
}

/** a - b. */
export function sub(a: Vec3, b: Vec3): Vec3 {
  return { x: a.x - b.x, y: a.y - b.y, z: a.z - b.z };
}

/** v * s. */
export function scale(v: Vec3, s: number): Vec3 {
  return { x: v.x * s, y: v.y * s, z: v.z * s };
}

/** a + b * s (one rounding per multiply and add; no fused multiply-add in JS). */
export function addScaled(a: Vec3, b: Vec3, s: number): Vec3 {
  return { x: a.x + b.x * s, y: a.y + b.y * s, z: a.z + b.z * s };
}

/** Dot product a · b. */
export function dot(a: Vec3, b: Vec3): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/** Cross product a × b. */
export function cross(a: Vec3, b: Vec3): Vec3 {
  return { x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x };
}

/** Squared length |v|². */
export function lengthSq(v: Vec3): number {
  return v.x * v.x + v.y * v.y + v.z * v.z;
}

/** Length |v|. */
export function length(v: Vec3): number {
  return Math.sqrt(lengthSq(v));
}

/** v / |v|; the zero vector (or a non-finite one) gives (0, 0, 0). */
export function normalise(v: Vec3): Vec3 {
  const len = length(v);
  if (!(len > 0) || !Number.isFinite(len)) return { x: 0, y: 0, z: 0 };
  return { x: v.x / len, y: v.y / len, z: v.z / len };
}

/** The identity rotation (a fresh object). */
export function identityQuat(): Quat {
  return { x: 0, y: 0, z: 0, w: 1 };
}

/** A fresh copy of `q`. */
export function copyQuat(q: Quat): Quat {
  return { x: q.x, y: q.y, z: q.z, w: q.w };
}

/** Hamilton product a ⊗ b: the rotation "first b, then a". */
export function quatMul(a: Quat, b: Quat): Quat {
  return {
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  };
}

/** Conjugate of q (the inverse rotation for a unit quaternion). */
export function quatConjugate(q: Quat): Quat {
  return { x: -q.x, y: -q.y, z: -q.z, w: q.w };
}

/** Squared norm of q. */
export function quatLengthSq(q: Quat): number {
  return q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
}

/** q / |q|; a zero or non-finite quaternion gives the identity. */
export function quatNormalise(q: Quat): Quat {
  const len = Math.sqrt(quatLengthSq(q));
  if (!(len > 0) || !Number.isFinite(len)) return identityQuat();
  return { x: q.x / len, y: q.y / len, z: q.z / len, w: q.w / len };
}

/** Rotate vector v by unit quaternion q (q v q*), via v + w·t + qv × t with t = 2 qv × v. */
export function rotate(q: Quat, v: Vec3): Vec3 {
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  return {
    x: v.x + q.w * tx + (q.y * tz - q.z * ty),
    y: v.y + q.w * ty + (q.z * tx - q.x * tz),
    z: v.z + q.w * tz + (q.x * ty - q.y * tx),
  };
}

/** World-space direction of the body's nose (body -Z) for unit quaternion q. */
export function forwardOf(q: Quat): Vec3 {
  return {
    x: -2 * (q.x * q.z + q.w * q.y),
    y: -2 * (q.y * q.z - q.w * q.x),
    z: -(1 - 2 * (q.x * q.x + q.y * q.y)),
  };
}

/** World-space direction of the body's up axis (body +Y) for unit quaternion q. */
export function upOf(q: Quat): Vec3 {
  return {
    x: 2 * (q.x * q.y - q.w * q.z),
    y: 1 - 2 * (q.x * q.x + q.z * q.z),
    z: 2 * (q.y * q.z + q.w * q.x),
  };
}

/** World-space direction of the body's right axis (body +X) for unit quaternion q. */
export function rightOf(q: Quat): Vec3 {
  return {
    x: 1 - 2 * (q.y * q.y + q.z * q.z),
    y: 2 * (q.x * q.y + q.w * q.z),
    z: 2 * (q.x * q.z - q.w * q.y),
  };
}

/**
 * Advance orientation q by a body-frame angular velocity ω (rad/s) over dt
 * seconds: q' = normalise(q + ½·dt·(q ⊗ ω)), ω as a pure quaternion.
 * First-order and trig-free (hence bit-deterministic); renormalising every
 * call keeps q unit length. Accurate for the small |ω|·dt of one tick.
 */
export function integrateRotation(q: Quat, angVel: Vec3, dt: number): Quat {
  const h = 0.5 * dt;
  const wx = angVel.x;
  const wy = angVel.y;
  const wz = angVel.z;
  return quatNormalise({
    x: q.x + h * (q.w * wx + q.y * wz - q.z * wy),
    y: q.y + h * (q.w * wy - q.x * wz + q.z * wx),
    z: q.z + h * (q.w * wz + q.x * wy - q.y * wx),
    w: q.w + h * (-q.x * wx - q.y * wy - q.z * wz),
  });
}
