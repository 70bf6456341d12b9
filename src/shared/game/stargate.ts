/**
 * Stargates (issue 29; the CESCG paper §4): a ring in a solar system's space
 * that leads to another system by name. Flying through one — the ship's path
 * between two of its states passing within GATE_RADIUS of the ring's centre —
 * is a jump; the ship arrives just beyond the destination's matching gate
 * (the one leading back), facing out of it, at the speed it flew in.
 *
 * A gate faces its system's centre: its axis points from the ring to the
 * origin (a gate at the origin faces -Z, the way a ship's nose points at
 * rest), so a ship arriving flies into the arena, not out of it. Pure, and
 * only square roots (correctly rounded on every engine).
 */
import { cross, dot, length, normalise } from '../sim/vec';
import type { Quat, Vec3 } from '../sim/types';
import type { WireStargate as Stargate } from '../wire/types';

/** A ship whose path comes this close to a gate's centre goes through it (units). */
export const GATE_RADIUS = 40;
/** How far beyond the destination gate's centre, along its axis, a jumping ship arrives (clear of the ring). */
export const ARRIVAL_DISTANCE = 120;
/** The nose of a ship at rest (body -Z: vec.ts forwardOf). */
const NOSE: Vec3 = { x: 0, y: 0, z: -1 };

/** Which way a gate at `pos` faces: towards its system's centre, unit length. */
export function gateAxis(pos: Vec3): Vec3 {
  const d = length(pos);
  return d < 1e-6 ? NOSE : { x: -pos.x / d, y: -pos.y / d, z: -pos.z / d };
}

/** The rotation that turns a ship's nose (body -Z) to the unit direction `d`. */
export function facing(d: Vec3): Quat {
  const c = dot(NOSE, d);
  // Nose to the opposite way: half a turn about the up axis.
  if (c < -0.999999) return { x: 0, y: 1, z: 0, w: 0 };
  const a = cross(NOSE, d);
  const w = 1 + c;
  const n = Math.sqrt(a.x * a.x + a.y * a.y + a.z * a.z + w * w);
  return { x: a.x / n, y: a.y / n, z: a.z / n, w: w / n };
}

/** Squared distance from `p` to the segment `a`–`b`. */
function segmentDistanceSq(a: Vec3, b: Vec3, p: Vec3): number {
  const ab = { x: b.x - a.x, y: b.y - a.y, z: b.z - a.z };
  const ap = { x: p.x - a.x, y: p.y - a.y, z: p.z - a.z };
  const len2 = dot(ab, ab);
  const t = len2 > 0 ? Math.min(1, Math.max(0, dot(ap, ab) / len2)) : 0;
  const dx = ap.x - ab.x * t;
  const dy = ap.y - ab.y * t;
  const dz = ap.z - ab.z * t;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * The gate of `gates` a ship flying from `from` to `to` went through (the one
 * nearest `from` if its path crossed several), or null. `from` null: the
 * ship's first state, judged where it is.
 */
export function gateCrossed(gates: readonly Stargate[], from: Vec3 | null, to: Vec3): Stargate | null {
  let best: Stargate | null = null;
  let bestFrom = Infinity;
  const start = from ?? to;
  for (const g of gates) {
    if (segmentDistanceSq(start, to, g.pos) > GATE_RADIUS * GATE_RADIUS) continue;
    const d = (g.pos.x - start.x) ** 2 + (g.pos.y - start.y) ** 2 + (g.pos.z - start.z) ** 2;
    if (d < bestFrom) {
      best = g;
      bestFrom = d;
    }
  }
  return best;
}

/** Where a ship arrives in a system, and how it flies on. */
export interface Arrival {
  pos: Vec3;
  rot: Quat;
  vel: Vec3;
}

/**
 * Where a ship that jumped from system `from` arrives in `dest`: beyond the
 * gate of `dest` leading back to `from`, facing out of it, flying on at
 * `speed` (units/s). A destination with no gate back (another server's
 * galaxy may lack one) gets the ship at its centre's edge, facing in: just
 * beyond the point ARRIVAL_DISTANCE out along +Z.
 */
export function arrivalAt(dest: { gates: readonly Stargate[] }, from: string, speed: number): Arrival {
  const back = dest.gates.find((g) => g.to.toLowerCase() === from.toLowerCase());
  const gate = back?.pos ?? { x: 0, y: 0, z: ARRIVAL_DISTANCE * 4 };
  const axis = gateAxis(gate);
  const pos = { x: gate.x + axis.x * ARRIVAL_DISTANCE, y: gate.y + axis.y * ARRIVAL_DISTANCE, z: gate.z + axis.z * ARRIVAL_DISTANCE };
  const s = Number.isFinite(speed) && speed > 0 ? speed : 0;
  const dir = normalise(axis);
  return { pos, rot: facing(dir), vel: { x: dir.x * s, y: dir.y * s, z: dir.z * s } };
}
