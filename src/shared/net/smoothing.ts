/**
 * Display smoothing of remote ships (client-side extrapolation with gradual
 * correction). A peer's ship state arrives a few times a second at best and
 * packets get lost; between states the ship is extrapolated from the newest
 * one, and when a new state disagrees with what is on screen the difference
 * is faded out over a short, adjustable time instead of being applied at
 * once, so a ship never visibly jumps.
 *
 * Pure: no clock (times are passed in, in milliseconds, from any monotonic
 * source), no DOM, no Node. Only + − × ÷ and Math.sqrt (no trigonometry), and
 * no allocation after construction: `sample` fills and returns one reused
 * object.
 */
import type { Quat, Vec3 } from '../sim/types';
import type { ShipState } from '../wire/types';

/** Default correction time in ms (the `net_smooth` cvar's default). */
export const DEFAULT_CONVERGE_MS = 200;
/** Largest accepted correction time in ms; larger values are clamped. */
export const MAX_CONVERGE_MS = 5000;
/** Default longest extrapolation in ms; after that the ship holds still until a state arrives. */
export const DEFAULT_MAX_EXTRAPOLATE_MS = 1000;
/**
 * Default distance beyond which a correction snaps instead of blending: such
 * an error is no packet-loss drift but a teleport (a respawn whose kill event
 * was lost), and sliding across the map would look worse than a cut.
 */
export const DEFAULT_SNAP_DISTANCE = 250;
/**
 * Extrapolation is second order: the acceleration between the last two
 * states (a turning ship's velocity swings round, a coasting one slows) is
 * applied for at most this long, then the ship goes on in a straight line.
 */
export const ACCEL_HORIZON_MS = 500;
/** Largest acceleration believed from two states (units/s²; the simulation's thrust plus drag stay below 90). */
export const MAX_EXTRAPOLATED_ACCEL = 100;
/** States closer together than this (ms) give no acceleration estimate (too noisy). */
const MIN_ACCEL_DT_MS = 20;

/** Options of {@link RemoteShipTrack}; invalid numbers fall back to the defaults. */
export interface RemoteShipTrackOptions {
  /** Correction time in ms, 0..MAX_CONVERGE_MS; 0 snaps to every new state. */
  convergeMs?: number;
  /** Extrapolation cap in ms (≥ 0). */
  maxExtrapolateMs?: number;
  /** Corrections longer than this (units) snap; Infinity never snaps. */
  snapDistance?: number;
}

/** What a track displays at one moment. Owned by the track: valid until its next `sample`. */
export interface TrackSample {
  pos: Vec3;
  /** Unit quaternion, body → world. */
  rot: Quat;
  /** Velocity of the followed track (zero once extrapolation is capped). */
  vel: Vec3;
}

/** `out = a ⊗ b` (Hamilton product: first b, then a). `out` may alias `a` or `b`. Returns `out`. */
export function quatMulInto(out: Quat, a: Quat, b: Quat): Quat {
  const x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  const y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  const z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  const w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  return out;
}

/** Scales `q` to unit length in place; a zero or non-finite `q` becomes the identity. Returns `q`. */
export function quatNormaliseInPlace(q: Quat): Quat {
  const len = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (!(len > 0) || !Number.isFinite(len)) {
    q.x = 0;
    q.y = 0;
    q.z = 0;
    q.w = 1;
    return q;
  }
  q.x /= len;
  q.y /= len;
  q.z /= len;
  q.w /= len;
  return q;
}

/** Below this half-angle the Taylor series below is accurate to ~1e-12 relative. */
const SMALL_HALF_ANGLE = 1 / 16;

/**
 * `out` = the rotation of a body turning at the constant body-frame angular
 * velocity `angVel` (rad/s) for `dtS` seconds, i.e. exp(½·ω·dt) as a unit
 * quaternion — so a body's orientation after dt is `rot ⊗ out`, the same
 * convention as the simulation's `integrateRotation`. Trig-free: the half
 * angle is halved until a short Taylor series is exact to double precision,
 * then the result is squared back up (each squaring doubles the angle).
 * Non-finite input gives the identity. Returns `out`.
 */
export function quatFromAngularVelocityInto(out: Quat, angVel: Vec3, dtS: number): Quat {
  let hx = 0.5 * angVel.x * dtS;
  let hy = 0.5 * angVel.y * dtS;
  let hz = 0.5 * angVel.z * dtS;
  let phi = Math.sqrt(hx * hx + hy * hy + hz * hz);
  out.x = 0;
  out.y = 0;
  out.z = 0;
  out.w = 1;
  if (!(phi > 0) || !Number.isFinite(phi)) return out;
  let doublings = 0;
  // Bounded: 64 halvings take any finite double below the threshold.
  while (phi > SMALL_HALF_ANGLE && doublings < 64) {
    phi *= 0.5;
    hx *= 0.5;
    hy *= 0.5;
    hz *= 0.5;
    doublings++;
  }
  const p2 = phi * phi;
  const cos = 1 - (p2 / 2) * (1 - (p2 / 12) * (1 - p2 / 30));
  const sinc = 1 - (p2 / 6) * (1 - (p2 / 20) * (1 - p2 / 42));
  let x = hx * sinc;
  let y = hy * sinc;
  let z = hz * sinc;
  let w = cos;
  for (let i = 0; i < doublings; i++) {
    // q² for a rotation about a fixed axis: (w² − |v|², 2·w·v).
    const nw = w * w - (x * x + y * y + z * z);
    x *= 2 * w;
    y *= 2 * w;
    z *= 2 * w;
    w = nw;
  }
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  return quatNormaliseInPlace(out);
}

/**
 * `out` = normalise(lerp(identity, q, t)) for t in [0, 1], taking the short
 * way round (q and −q are the same rotation). A cheap, trig-free stand-in for
 * slerp: same endpoints, monotonic in between. `out` may alias `q`. Returns `out`.
 */
export function nlerpFromIdentityInto(out: Quat, q: Quat, t: number): Quat {
  const sign = q.w < 0 ? -1 : 1;
  const s = sign * t;
  out.x = q.x * s;
  out.y = q.y * s;
  out.z = q.z * s;
  out.w = 1 - t + q.w * s;
  return quatNormaliseInPlace(out);
}

const finiteOr = (v: number | undefined, fallback: number, lo: number, hi: number): number =>
  typeof v === 'number' && v === v ? Math.min(hi, Math.max(lo, v)) : fallback;

/**
 * The displayed motion of one remote ship. Feed it every fresh state with
 * {@link onState}; ask {@link sample} where to draw the ship at any time.
 *
 * Between states the ship moves on from the newest state at its velocity,
 * bent by the acceleration seen between the last two states (for at most
 * ACCEL_HORIZON_MS), and turns at its angular velocity (for at most
 * `maxExtrapolateMs`, then holds).
 * A new state starts a correction: the offset between the displayed pose and
 * the new state is faded out linearly over `convergeMs`, so the displayed
 * position is continuous and each frame moves it by at most the ship's own
 * motion plus offset/convergeFrames. A state arriving mid-correction starts a
 * new one from the pose on screen.
 */
export class RemoteShipTrack {
  private has = false;
  /** Time (ms) the newest state describes (its arrival, or earlier by its age). */
  private t0 = 0;
  private readonly pos: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly vel: Vec3 = { x: 0, y: 0, z: 0 };
  /** Acceleration estimated from the last two states (zero after a reset). */
  private readonly acc: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly angVel: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly rot: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** Displayed minus true pose at t0, faded out over `blendMs`. */
  private readonly offPos: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly offRot: Quat = { x: 0, y: 0, z: 0, w: 1 };
  /** Correction time of the running correction (changing `convergeMs` must not make a ship jump). */
  private blendMs = 0;
  /** When the running correction started (the state's arrival; `t0` is the state's own time). */
  private blendFrom = 0;
  private readonly out: TrackSample = { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } };
  private readonly tmpQ: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly conj: Quat = { x: 0, y: 0, z: 0, w: 1 };
  private converge: number;
  private readonly maxExtrapolateMs: number;
  private readonly snapDistance: number;

  constructor(options: RemoteShipTrackOptions = {}) {
    this.converge = finiteOr(options.convergeMs, DEFAULT_CONVERGE_MS, 0, MAX_CONVERGE_MS);
    this.maxExtrapolateMs = finiteOr(options.maxExtrapolateMs, DEFAULT_MAX_EXTRAPOLATE_MS, 0, Number.MAX_VALUE);
    this.snapDistance = finiteOr(options.snapDistance, DEFAULT_SNAP_DISTANCE, 0, Infinity);
  }

  /** Correction time in ms for the next corrections (clamped to 0..MAX_CONVERGE_MS; NaN → default). */
  get convergeMs(): number {
    return this.converge;
  }
  set convergeMs(ms: number) {
    this.converge = finiteOr(ms, DEFAULT_CONVERGE_MS, 0, MAX_CONVERGE_MS);
  }

  /** True once a state has been received. */
  get hasState(): boolean {
    return this.has;
  }

  /**
   * A fresh state of the ship, received at `nowMs`, which was the ship's
   * state at `stateAtMs` (default: `nowMs`). With synchronised clocks the
   * sender's game time says how old a state is, so a ship is placed where it
   * is now (the state moved on by its age), not where it was when the packet
   * left. The state is copied (its rotation normalised); the caller may reuse
   * it. The first state, a correction longer than `snapDistance` and
   * `convergeMs` 0 snap.
   */
  onState(state: ShipState, nowMs: number, stateAtMs: number = nowMs): void {
    const at = Number.isFinite(stateAtMs) && stateAtMs <= nowMs ? stateAtMs : nowMs;
    if (!this.has) {
      this.reset(state, at);
      return;
    }
    // Where the ship is on screen now, before the new state replaces the old track.
    const shown = this.sample(nowMs);
    const sx = shown.pos.x;
    const sy = shown.pos.y;
    const sz = shown.pos.z;
    this.tmpQ.x = shown.rot.x;
    this.tmpQ.y = shown.rot.y;
    this.tmpQ.z = shown.rot.z;
    this.tmpQ.w = shown.rot.w;
    this.store(state, at);
    this.clearOffset();
    // Where the new state says the ship is now (moved on by the state's age).
    const truth = this.sample(nowMs);
    const dx = sx - truth.pos.x;
    const dy = sy - truth.pos.y;
    const dz = sz - truth.pos.z;
    if (this.converge <= 0 || !(dx * dx + dy * dy + dz * dz <= this.snapDistance * this.snapDistance)) return;
    this.offPos.x = dx;
    this.offPos.y = dy;
    this.offPos.z = dz;
    // shown = off ⊗ truth  ⇒  off = shown ⊗ conj(truth) (a world-frame correction).
    const c = this.conj;
    c.x = -truth.rot.x;
    c.y = -truth.rot.y;
    c.z = -truth.rot.z;
    c.w = truth.rot.w;
    quatNormaliseInPlace(quatMulInto(this.offRot, this.tmpQ, c));
    this.blendMs = this.converge;
    this.blendFrom = nowMs;
  }

  /** Jumps straight to `state` (no correction), e.g. when a destroyed ship reappears at its spawn point. */
  reset(state: ShipState, nowMs: number): void {
    this.has = false; // no acceleration across a cut
    this.store(state, nowMs);
    this.clearOffset();
    this.has = true;
  }

  /**
   * The pose to draw at `nowMs`. Returns an object owned by the track,
   * overwritten by the next call (copy what you keep). Before any state:
   * the origin, identity, at rest. Times before the newest state count as
   * its arrival time.
   */
  sample(nowMs: number): TrackSample {
    const out = this.out;
    if (!this.has) {
      out.pos.x = out.pos.y = out.pos.z = 0;
      out.vel.x = out.vel.y = out.vel.z = 0;
      out.rot.x = out.rot.y = out.rot.z = 0;
      out.rot.w = 1;
      return out;
    }
    const since = nowMs > this.t0 ? nowMs - this.t0 : 0; // NaN lands here too
    const held = since > this.maxExtrapolateMs;
    const dtS = (held ? this.maxExtrapolateMs : since) / 1000;
    const blended = nowMs > this.blendFrom ? nowMs - this.blendFrom : 0;
    const k = this.blendMs > 0 && blended < this.blendMs ? 1 - blended / this.blendMs : 0;
    // p + v·t + a·ta·(t − ta/2): ½·a·t² while t ≤ the horizon, then straight on at v + a·ta.
    const ta = dtS < ACCEL_HORIZON_MS / 1000 ? dtS : ACCEL_HORIZON_MS / 1000;
    const accTerm = ta * (dtS - ta / 2);
    out.pos.x = this.pos.x + this.vel.x * dtS + this.acc.x * accTerm + this.offPos.x * k;
    out.pos.y = this.pos.y + this.vel.y * dtS + this.acc.y * accTerm + this.offPos.y * k;
    out.pos.z = this.pos.z + this.vel.z * dtS + this.acc.z * accTerm + this.offPos.z * k;
    out.vel.x = held ? 0 : this.vel.x + this.acc.x * ta;
    out.vel.y = held ? 0 : this.vel.y + this.acc.y * ta;
    out.vel.z = held ? 0 : this.vel.z + this.acc.z * ta;
    quatFromAngularVelocityInto(out.rot, this.angVel, dtS);
    quatMulInto(out.rot, this.rot, out.rot);
    if (k > 0) {
      nlerpFromIdentityInto(this.tmpQ, this.offRot, k);
      quatMulInto(out.rot, this.tmpQ, out.rot);
    }
    quatNormaliseInPlace(out.rot);
    return out;
  }

  private store(state: ShipState, nowMs: number): void {
    this.estimateAcceleration(state.vel, nowMs);
    this.t0 = Number.isFinite(nowMs) ? nowMs : this.t0;
    copyInto(this.pos, state.pos);
    copyInto(this.vel, state.vel);
    copyInto(this.angVel, state.angVel);
    this.rot.x = state.rot.x;
    this.rot.y = state.rot.y;
    this.rot.z = state.rot.z;
    this.rot.w = state.rot.w;
    quatNormaliseInPlace(this.rot);
  }

  /** Acceleration from the stored velocity to `vel` arriving for time `atMs` (zero when there is no usable previous state). */
  private estimateAcceleration(vel: Vec3, atMs: number): void {
    const dt = atMs - this.t0;
    this.acc.x = this.acc.y = this.acc.z = 0;
    if (!this.has || !(dt >= MIN_ACCEL_DT_MS && dt <= this.maxExtrapolateMs)) return;
    const s = 1000 / dt;
    let ax = (vel.x - this.vel.x) * s;
    let ay = (vel.y - this.vel.y) * s;
    let az = (vel.z - this.vel.z) * s;
    const len = Math.sqrt(ax * ax + ay * ay + az * az);
    if (!(len <= MAX_EXTRAPOLATED_ACCEL)) {
      if (!Number.isFinite(len)) return;
      const f = MAX_EXTRAPOLATED_ACCEL / len;
      ax *= f;
      ay *= f;
      az *= f;
    }
    this.acc.x = ax;
    this.acc.y = ay;
    this.acc.z = az;
  }

  private clearOffset(): void {
    this.offPos.x = this.offPos.y = this.offPos.z = 0;
    this.offRot.x = this.offRot.y = this.offRot.z = 0;
    this.offRot.w = 1;
    this.blendMs = 0;
  }
}

function copyInto(out: Vec3, v: Vec3): void {
  out.x = v.x;
  out.y = v.y;
  out.z = v.z;
}
