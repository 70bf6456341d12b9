/**
 * The gameserver's model of a projectile's flight, for hit confirmation
 * (hitConfirm.ts): where a laser, missile, mine or EMP is at a time (the
 * ray along its starting velocity, each kind at its own pace), the bound of
 * every place it is judged at, how far it reaches, and the yes-or-no
 * geometry of a ship coming near it. Pure; the scratch vectors are one
 * server thread's, never kept past a call.
 */
import { MINE_DRAG } from '../../../shared/game/kinds/mine';
import { SHIP_RADIUS } from '../../../shared/game/kinds/ship';
import { RULES } from '../../../shared/game/rules';
import { STEP_MS, STEP_S, TICK_HZ, type Vec3 } from '../../../shared/sim/types';

/** "Near" distances for kill claims (units). */
export const NEAR_LASER = 40;
export const NEAR_MISSILE = 200;
export const NEAR_MARGIN = 40;

export type Kind = 'laser' | 'missile' | 'mine' | 'emp';

export interface Projectile {
  kind: Kind;
  owner: number;
  t0: number;
  end: number;
  pos: Vec3;
  vel: Vec3;
  target: number;
  spent: boolean;
  /** Every place it is judged at lies within `half` of `mid` (see {@link pathBound}). */
  mid: Vec3;
  half: number;
  /** Farther than this from that bound a ship is neither near it nor hit by it (see {@link reachOf}). */
  reach: number;
  /** The last query of the laser grid that visited it (projectileGrid.ts). */
  seen: number;
}

export const sub = (a: Vec3, b: Vec3): Vec3 => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const dot = (a: Vec3, b: Vec3) => a.x * b.x + a.y * b.y + a.z * b.z;
const lerp = (a: Vec3, b: Vec3, k: number): Vec3 => ({ x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k, z: a.z + (b.z - a.z) * k });
export const len = (v: Vec3) => Math.sqrt(dot(v, v));
export const finite = (v: Vec3) => Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);

/**
 * Farther than this from a projectile's path, a ship is neither near it nor
 * hit by it, whatever the kind (the largest of the reaches in hitConfirm.ts's
 * isNear and shipState): a state skips such projectiles with a few multiplications.
 */
const CULL_REACH = Math.max(NEAR_LASER, NEAR_MISSILE, RULES.missile.hitRadius + SHIP_RADIUS, RULES.mine.triggerRadius + SHIP_RADIUS + NEAR_MARGIN, RULES.emp.maxRadius + SHIP_RADIUS + NEAR_MARGIN);
/** A laser's reach: near within NEAR_LASER of its path, a hit within SHIP_RADIUS. */
const LASER_REACH = Math.max(NEAR_LASER, SHIP_RADIUS);

/** A projectile as its weapon event says it flies, before the cull bound is worked out. */
export type Flight = Omit<Projectile, 'mid' | 'half' | 'reach' | 'seen'>;

/** The cull reach of a kind (see {@link Projectile.reach}). */
export function reachOf(kind: Kind): number {
  return kind === 'laser' ? LASER_REACH : CULL_REACH;
}

/**
 * Every model of flight in positionAt keeps to the ray along `vel` from
 * `pos`, so a segment of it from `pos` holds every place the checks judge a
 * projectile at: a laser up to its end (a hit while it flies, near along its
 * whole path), anything else up to 2 s after its end (near 1 s after for
 * mines, 2 s for missiles and EMP).
 */
export function pathBound(p: Flight): { mid: Vec3; half: number } {
  const last = positionAt(p, p.kind === 'laser' ? p.end : p.end + 2000);
  return { mid: lerp(p.pos, last, 0.5), half: len(sub(last, p.pos)) / 2 };
}

/** Where `p` is at time `t` (ms): the server's model of its flight. Written into `out` (a new vector by default), which is returned. */
export function positionAt(p: Flight, t: number, out: Vec3 = { x: 0, y: 0, z: 0 }): Vec3 {
  return along(p, flown(p, t), out);
}

/** `out` set to `p`'s start plus `k` times its velocity (every model of flight keeps to that ray). */
function along(p: Flight, k: number, out: Vec3): Vec3 {
  out.x = p.pos.x + p.vel.x * k;
  out.y = p.pos.y + p.vel.y * k;
  out.z = p.pos.z + p.vel.z * k;
  return out;
}

/** How far along its velocity `p` is at time `t` (ms), in seconds of its starting velocity: positionAt is pos + vel × this. */
function flown(p: Flight, t: number): number {
  const s = Math.max(0, t - p.t0) / 1000;
  switch (p.kind) {
    case 'laser':
      return s;
    case 'missile': {
      const M = RULES.missile;
      const v0 = len(p.vel);
      if (!(v0 > 0)) return 0;
      // Speeding up along its heading to the top speed (from above it, it drops to the top speed at once).
      let d: number;
      if (v0 >= M.maxSpeed) d = v0 * Math.min(s, STEP_S) + M.maxSpeed * Math.max(0, s - STEP_S);
      else {
        const tUp = (M.maxSpeed - v0) / M.accel;
        d = s <= tUp ? v0 * s + 0.5 * M.accel * s * s : v0 * tUp + 0.5 * M.accel * tUp * tUp + M.maxSpeed * (s - tUp);
      }
      return d / v0;
    }
    case 'mine': {
      const n = s * TICK_HZ;
      return (STEP_S * (1 - MINE_DRAG ** n)) / (1 - MINE_DRAG);
    }
    case 'emp':
      return 0;
  }
}

/** Scratch vectors of the geometry below (one server thread; none kept past a call). */
export const PA = { x: 0, y: 0, z: 0 };
const PB = { x: 0, y: 0, z: 0 };

/**
 * Whether `p` comes within `reach` over [a, b] of a ship moving linearly
 * from `s0` (at t0) to `s1` (at t1): its closest approach, piecewise linear
 * and exact per piece. (Every check here answers yes or no: a distance
 * returned from a call would be a boxed number, once per projectile and
 * state.)
 */
export function approaches(p: Projectile, s0: Vec3, t0: number, s1: Vec3, t1: number, a: number, b: number, reach: number): boolean {
  const pieces = p.kind === 'laser' || p.kind === 'emp' ? 1 : Math.max(1, Math.ceil((b - a) / (STEP_MS / 2)));
  const span = t1 - t0;
  for (let i = 0; i < pieces; i++) {
    const ta = a + ((b - a) * i) / pieces;
    const tb = a + ((b - a) * (i + 1)) / pieces;
    // The projectile's offset from the ship at either end of the piece (the ship between its two states, linearly).
    const ka = span > 0 ? (ta - t0) / span : 1;
    const kb = span > 0 ? (tb - t0) / span : 1;
    const pa = positionAt(p, ta, PA);
    const pb = positionAt(p, tb, PB);
    const r0x = pa.x - (s0.x + (s1.x - s0.x) * ka);
    const r0y = pa.y - (s0.y + (s1.y - s0.y) * ka);
    const r0z = pa.z - (s0.z + (s1.z - s0.z) * ka);
    const wx = pb.x - (s0.x + (s1.x - s0.x) * kb) - r0x;
    const wy = pb.y - (s0.y + (s1.y - s0.y) * kb) - r0y;
    const wz = pb.z - (s0.z + (s1.z - s0.z) * kb) - r0z;
    const ww = wx * wx + wy * wy + wz * wz;
    const k = ww > 0 ? Math.min(1, Math.max(0, -(r0x * wx + r0y * wy + r0z * wz) / ww)) : 0;
    const cx = r0x + wx * k;
    const cy = r0y + wy * k;
    const cz = r0z + wz * k;
    if (cx * cx + cy * cy + cz * cz <= reach * reach) return true;
  }
  return false;
}

/** Whether `q` lies within `reach` of the straight segment a–b. */
export function nearSegment(q: Vec3, a: Vec3, b: Vec3, reach: number): boolean {
  const abx = b.x - a.x;
  const aby = b.y - a.y;
  const abz = b.z - a.z;
  const l2 = abx * abx + aby * aby + abz * abz;
  const k = l2 > 0 ? Math.min(1, Math.max(0, ((q.x - a.x) * abx + (q.y - a.y) * aby + (q.z - a.z) * abz) / l2)) : 0;
  const dx = q.x - (a.x + abx * k);
  const dy = q.y - (a.y + aby * k);
  const dz = q.z - (a.z + abz * k);
  return dx * dx + dy * dy + dz * dz <= reach * reach;
}

/** Whether two points are within `reach` of each other. */
export function within(a: Vec3, b: Vec3, reach: number): boolean {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz <= reach * reach;
}
