import { describe, expect, it } from 'vitest';
import { floatStream as rng } from '../../../src/shared/sim/prng';
import fc from 'fast-check';
import {
  ACCEL_HORIZON_MS,
  DEFAULT_CONVERGE_MS,
  MAX_EXTRAPOLATED_ACCEL,
  MAX_CONVERGE_MS,
  RemoteShipTrack,
  nlerpFromIdentityInto,
  quatFromAngularVelocityInto,
  quatMulInto,
} from '../../../src/shared/net/smoothing';
import { quatMul, quatNormalise } from '../../../src/shared/sim/vec';
import type { Quat, Vec3 } from '../../../src/shared/sim/types';
import type { ShipState } from '../../../src/shared/wire/types';

const FRAME_MS = 1000 / 60;
const I: Quat = { x: 0, y: 0, z: 0, w: 1 };

const state = (pos: Vec3, vel: Vec3, rot: Quat = I, angVel: Vec3 = { x: 0, y: 0, z: 0 }): ShipState => ({
  pos,
  vel,
  rot,
  angVel,
  energy: 100,
  damage: 0,
});

const at = (p: Vec3, v: Vec3, s: number): Vec3 => ({ x: p.x + v.x * s, y: p.y + v.y * s, z: p.z + v.z * s });
/** The acceleration a track believes between velocity `v0` and `v1`, `dtMs` apart (capped). */
const accelOf = (v0: Vec3, v1: Vec3, dtMs: number): Vec3 => {
  const a = { x: ((v1.x - v0.x) * 1000) / dtMs, y: ((v1.y - v0.y) * 1000) / dtMs, z: ((v1.z - v0.z) * 1000) / dtMs };
  const n = Math.hypot(a.x, a.y, a.z);
  return n <= MAX_EXTRAPOLATED_ACCEL ? a : { x: (a.x * MAX_EXTRAPOLATED_ACCEL) / n, y: (a.y * MAX_EXTRAPOLATED_ACCEL) / n, z: (a.z * MAX_EXTRAPOLATED_ACCEL) / n };
};
/** Second-order track: p + v·t + a·ta·(t − ta/2), ta = min(t, ACCEL_HORIZON). */
const at2 = (p: Vec3, v: Vec3, a: Vec3, s: number): Vec3 => {
  const ta = Math.min(s, ACCEL_HORIZON_MS / 1000);
  const k = ta * (s - ta / 2);
  return { x: p.x + v.x * s + a.x * k, y: p.y + v.y * s + a.y * k, z: p.z + v.z * s + a.z * k };
};
const dist = (a: Vec3, b: Vec3): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
const speed = (v: Vec3): number => Math.hypot(v.x, v.y, v.z);
const qlen = (q: Quat): number => Math.hypot(q.x, q.y, q.z, q.w);
/** Angle-free distance between rotations (q and −q are equal). */
const qdist = (a: Quat, b: Quat): number => 1 - Math.abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
/** Exact rotation exp(½·ω·t) with trig, for reference. */
function refExp(w: Vec3, t: number): Quat {
  const mag = Math.hypot(w.x, w.y, w.z);
  if (mag === 0) return { ...I };
  const h = (mag * t) / 2;
  const s = Math.sin(h) / mag;
  return { x: w.x * s, y: w.y * s, z: w.z * s, w: Math.cos(h) };
}
const snapshot = (v: Vec3): Vec3 => ({ x: v.x, y: v.y, z: v.z });


describe('trig-free rotation helpers', () => {
  it('quatFromAngularVelocityInto matches exp(½ωt) computed with sin/cos', () => {
    const w = fc.double({ min: -100, max: 100, noNaN: true });
    fc.assert(
      fc.property(w, w, w, fc.double({ min: 0, max: 1, noNaN: true }), (x, y, z, t) => {
        const got = quatFromAngularVelocityInto({ x: 9, y: 9, z: 9, w: 9 }, { x, y, z }, t);
        expect(qdist(got, refExp({ x, y, z }, t))).toBeLessThan(1e-12);
        expect(Math.abs(qlen(got) - 1)).toBeLessThan(1e-14);
      }),
    );
  });

  it('non-finite rates give the identity, and nlerp hits both ends the short way', () => {
    expect(quatFromAngularVelocityInto({ ...I }, { x: NaN, y: 0, z: 0 }, 1)).toEqual(I);
    expect(quatFromAngularVelocityInto({ ...I }, { x: Infinity, y: 0, z: 0 }, 1)).toEqual(I);
    const q = quatNormalise({ x: 0.3, y: -0.5, z: 0.1, w: -0.8 });
    expect(qdist(nlerpFromIdentityInto({ ...I }, q, 0), I)).toBe(0);
    const end = nlerpFromIdentityInto({ ...I }, q, 1);
    expect(qdist(end, q)).toBeLessThan(1e-15);
    expect(end.w).toBeGreaterThan(0); // −q: the short way
    const a = { x: 0.1, y: 0.2, z: 0.3, w: 0.9 };
    expect(quatMulInto(a, a, q)).toEqual(quatMul({ x: 0.1, y: 0.2, z: 0.3, w: 0.9 }, q));
  });
});

describe('RemoteShipTrack', () => {
  it('extrapolates a constant velocity exactly and integrates the spin in the body frame', () => {
    const rot = quatNormalise({ x: 0.2, y: 0.4, z: -0.1, w: 0.9 });
    const w = { x: 0.3, y: -1.2, z: 2 };
    const s = state({ x: 10, y: -5, z: 300 }, { x: 40, y: -3, z: -110 }, rot, w);
    const track = new RemoteShipTrack();
    track.onState(s, 5000);
    for (let f = 0; f <= 60; f++) {
      const now = 5000 + f * FRAME_MS;
      const got = track.sample(now);
      const t = (now - 5000) / 1000;
      expect(got.pos).toEqual(at(s.pos, s.vel, t));
      expect(got.vel).toEqual(s.vel);
      expect(qdist(got.rot, quatMul(rot, refExp(w, t)))).toBeLessThan(1e-12);
    }
  });

  it('a lost packet keeps the ship moving, then holds it after the extrapolation cap', () => {
    const v = { x: 0, y: 0, z: -100 };
    const track = new RemoteShipTrack({ maxExtrapolateMs: 1000 });
    track.onState(state({ x: 0, y: 0, z: 0 }, v), 0);
    let prev = snapshot(track.sample(0).pos);
    for (let now = FRAME_MS; now < 1000; now += FRAME_MS) {
      const pos = track.sample(now).pos;
      expect(prev.z - pos.z).toBeCloseTo(100 * (FRAME_MS / 1000), 9); // still flying
      prev = snapshot(pos);
    }
    const held = snapshot(track.sample(1500).pos);
    expect(held).toEqual({ x: 0, y: 0, z: -100 });
    expect(track.sample(4000).pos).toEqual(held);
    expect(track.sample(4000).vel).toEqual({ x: 0, y: 0, z: 0 });
  });

  it('a 20-unit correction is spread over convergeMs: no frame moves more than own motion + 20/frames', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 50, max: 500 }), // convergeMs
        fc.double({ min: 0, max: 1, noNaN: true }), // arrival phase within a frame
        fc.record({ x: fc.double({ min: -1, max: 1, noNaN: true }), y: fc.double({ min: -1, max: 1, noNaN: true }), z: fc.double({ min: -1, max: 1, noNaN: true }) }),
        fc.boolean(), // the sender also changed velocity
        (convergeMs, phase, dirRaw, turn) => {
          const n = Math.hypot(dirRaw.x, dirRaw.y, dirRaw.z);
          const dir = n > 1e-3 ? { x: dirRaw.x / n, y: dirRaw.y / n, z: dirRaw.z / n } : { x: 1, y: 0, z: 0 };
          const v0 = { x: 30, y: 0, z: -80 };
          const v1 = turn ? { x: -60, y: 25, z: -40 } : v0;
          const track = new RemoteShipTrack({ convergeMs });
          track.onState(state({ x: 0, y: 0, z: 0 }, v0), 0);
          const arrival = (10 + phase) * FRAME_MS;
          const predicted = at({ x: 0, y: 0, z: 0 }, v0, arrival / 1000);
          const corrected = { x: predicted.x + 20 * dir.x, y: predicted.y + 20 * dir.y, z: predicted.z + 20 * dir.z };
          const frames = convergeMs / FRAME_MS;
          // The new track may speed up by its believed acceleration over the horizon.
          const extra = speed(accelOf(v0, v1, arrival)) * (ACCEL_HORIZON_MS / 1000);
          const bound = (Math.max(speed(v0), speed(v1)) + extra) * (FRAME_MS / 1000) + 20 / frames + 1e-9;
          let prev = snapshot(track.sample(0).pos);
          let delivered = false;
          for (let f = 1; f < 120; f++) {
            const now = f * FRAME_MS;
            if (!delivered && now >= arrival) {
              track.onState(state(corrected, v1), arrival);
              delivered = true;
            }
            const pos = track.sample(now).pos;
            expect(dist(pos, prev)).toBeLessThanOrEqual(bound);
            prev = snapshot(pos);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('after convergeMs the ship is exactly on the new track (position and rotation)', () => {
    const track = new RemoteShipTrack({ convergeMs: 200 });
    track.onState(state({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: -50 }, I, { x: 0, y: 1, z: 0 }), 0);
    const rot = quatNormalise({ x: 0, y: 0.3, z: 0, w: 1 });
    const s = state({ x: 15, y: 5, z: -20 }, { x: 10, y: 0, z: -60 }, rot, { x: 0.5, y: 0, z: 0 });
    track.onState(s, 300);
    expect(dist(track.sample(300).pos, s.pos)).toBeGreaterThan(10); // still where it was shown
    const a = accelOf({ x: 0, y: 0, z: -50 }, s.vel, 300);
    for (const now of [500, 520, 700, 1100]) {
      const got = track.sample(now);
      const t = (now - 300) / 1000;
      expect(dist(got.pos, at2(s.pos, s.vel, a, t))).toBeLessThan(1e-9);
      expect(qdist(got.rot, quatMul(rot, refExp(s.angVel, t)))).toBeLessThan(1e-12);
    }
  });

  it('a turning ship is extrapolated along its curve, not off at a tangent', () => {
    // A ship circling at 64 units/s, 0.56 rad/s (the bots' pilot), states every 100 ms.
    const R = 64 / 0.56;
    const w = 0.56;
    const truth = (t: number) => ({ x: R * Math.cos(w * t), y: 0, z: R * Math.sin(w * t) });
    const vel = (t: number) => ({ x: -R * w * Math.sin(w * t), y: 0, z: R * w * Math.cos(w * t) });
    const track = new RemoteShipTrack({ convergeMs: 0 });
    for (let k = 0; k <= 10; k++) track.onState(state(truth(k / 10), vel(k / 10)), k * 100);
    // 250 ms after the last state (lag plus the send interval): a straight line is off by ~1.1 units.
    const curved = dist(track.sample(1250).pos, truth(1.25));
    const straight = dist(at(truth(1), vel(1), 0.25), truth(1.25));
    expect(straight).toBeGreaterThan(1);
    expect(curved).toBeLessThan(0.1 * straight);
    // A coasting ship (constant velocity) stays exactly on its line; a respawn cut carries no acceleration over.
    const coast = new RemoteShipTrack({ convergeMs: 0 });
    coast.onState(state({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: -40 }), 0);
    coast.onState(state({ x: 0, y: 0, z: -4 }, { x: 0, y: 0, z: -40 }), 100);
    expect(dist(coast.sample(400).pos, { x: 0, y: 0, z: -16 })).toBeLessThan(1e-9);
    coast.reset(state({ x: 100, y: 0, z: 0 }, { x: 10, y: 0, z: 0 }), 500);
    expect(dist(coast.sample(1000).pos, { x: 105, y: 0, z: 0 })).toBeLessThan(1e-9);
  });

  it('convergeMs 0 snaps; far corrections snap; reset snaps; convergeMs is clamped', () => {
    const v = { x: 0, y: 0, z: -10 };
    const snap = new RemoteShipTrack({ convergeMs: 0 });
    snap.onState(state({ x: 0, y: 0, z: 0 }, v), 0);
    snap.onState(state({ x: 20, y: 0, z: 0 }, v), 100);
    expect(snap.sample(100).pos).toEqual({ x: 20, y: 0, z: 0 });

    const far = new RemoteShipTrack({ snapDistance: 100 });
    far.onState(state({ x: 0, y: 0, z: 0 }, v), 0);
    far.onState(state({ x: 500, y: 0, z: 0 }, v), 100);
    expect(far.sample(100).pos).toEqual({ x: 500, y: 0, z: 0 });
    far.onState(state({ x: 520, y: 0, z: 0 }, v), 200); // near: blends
    expect(far.sample(200).pos.x).toBeCloseTo(500, 9);
    far.reset(state({ x: 0, y: 0, z: 0 }, v), 300);
    expect(far.sample(300).pos).toEqual({ x: 0, y: 0, z: 0 });

    const t = new RemoteShipTrack();
    expect(t.hasState).toBe(false);
    expect(t.sample(0).pos).toEqual({ x: 0, y: 0, z: 0 });
    expect(t.convergeMs).toBe(DEFAULT_CONVERGE_MS);
    t.convergeMs = 1e9;
    expect(t.convergeMs).toBe(MAX_CONVERGE_MS);
    t.convergeMs = -5;
    expect(t.convergeMs).toBe(0);
    t.convergeMs = NaN;
    expect(t.convergeMs).toBe(DEFAULT_CONVERGE_MS);
  });

  it('rotations stay unit length for any states, spins and sample times', () => {
    const c = fc.double({ min: -1.001, max: 1.001, noNaN: true });
    const w = fc.double({ min: -100, max: 100, noNaN: true });
    const q = fc.record({ x: c, y: c, z: c, w: c });
    const av = fc.record({ x: w, y: w, z: w });
    fc.assert(
      fc.property(fc.array(fc.tuple(q, av, fc.double({ min: 0, max: 2000, noNaN: true })), { minLength: 1, maxLength: 8 }), (steps) => {
        const track = new RemoteShipTrack();
        let now = 0;
        for (const [rot, angVel, gap] of steps) {
          track.onState(state({ x: 0, y: 0, z: 0 }, { x: 1, y: 2, z: 3 }, rot, angVel), now);
          for (const dt of [0, 7, gap / 2, gap]) expect(Math.abs(qlen(track.sample(now + dt).rot) - 1)).toBeLessThan(1e-12);
          now += gap;
        }
      }),
    );
  });

  it('runs through minutes of jittery, lossy traffic reusing one result object and staying on track', () => {
    const next = rng(42);
    const track = new RemoteShipTrack();
    const result = track.sample(0);
    let truePos = { x: 0, y: 0, z: 0 };
    let vel = { x: 0, y: 0, z: -60 };
    let rot: Quat = { ...I };
    const angVel = { x: 0.2, y: -0.4, z: 0.1 };
    let sendAt = 0;
    let worst = 0;
    const frames = 60 * 60 * 10; // 10 simulated minutes at 60 Hz
    for (let f = 0; f < frames; f++) {
      const now = f * FRAME_MS;
      truePos = at(truePos, vel, FRAME_MS / 1000);
      rot = quatNormalise(quatMul(rot, refExp(angVel, FRAME_MS / 1000)));
      if (now >= sendAt) {
        if (next() < 0.02) vel = { x: (next() - 0.5) * 200, y: (next() - 0.5) * 200, z: (next() - 0.5) * 200 };
        if (next() > 0.3) track.onState(state(truePos, vel, rot, angVel), now + next() * 5); // 30 % lost, jitter
        sendAt = now + 50;
      }
      const got = track.sample(now);
      expect(got).toBe(result);
      if (!Number.isFinite(got.pos.x + got.pos.y + got.pos.z) || Math.abs(qlen(got.rot) - 1) > 1e-12) {
        expect.fail(`bad sample at frame ${f}: ${JSON.stringify(got)}`);
      }
      worst = Math.max(worst, dist(got.pos, truePos));
    }
    // A velocity change shows after one state (≤ ~0.2 s of 170 u/s) plus the correction time.
    expect(worst).toBeLessThan(120);
  });
});
