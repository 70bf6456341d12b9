/**
 * The compact ship state (src/shared/wire/shipStateCodec.ts): what a player
 * could see of its quantisation, and partial updates against a base.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteWriter, Measurer, Reader, DecodeFailure } from '../../../src/shared/wire/stream';
import { ALL_PORTIONS, FULL_STATE_SIZE, measureState, PORTION_BASE, PORTION_POSITION, quantiseState, readState, writeState, type StateBase, type StateBases } from '../../../src/shared/wire/shipStateCodec';
import type { ShipState } from '../../../src/shared/wire/types';
import { arbShipState } from '../../support/wireArbitraries';

/** The documented precision (shipStateCodec.ts's header), as the largest error of a decoded value. */
const POSITION_ERROR = 1 / 16;
const ORIENTATION_ERROR_DEG = 0.01;
const VELOCITY_ERROR = 1 / 32;
const SPIN_ERROR = 0.0005;

function encode(state: ShipState, base?: StateBase): Uint8Array {
  const m = new Measurer();
  writeState(m, state, base);
  const w = new ByteWriter(m.size);
  writeState(w, state, base);
  expect(w.pos).toBe(measureState(state, base));
  return w.buf;
}

function decode(bytes: Uint8Array, messageId = 100, bases?: StateBases): ShipState | string {
  const r = new Reader(bytes);
  try {
    const s = readState(r, messageId, bases);
    return r.remaining() === 0 ? s : 'trailing';
  } catch (e) {
    if (e instanceof DecodeFailure) return e.reason;
    throw e;
  }
}

/** Holds `state` as the one that came in message `id`. */
const holding = (id: number, state: ShipState): StateBases => ({ at: (n) => (n === id ? state : undefined) });

/** Degrees between two rotations (q and −q alike). */
function angleDeg(a: ShipState['rot'], b: ShipState['rot']): number {
  const dot = Math.min(1, Math.abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w));
  return (2 * Math.acos(dot) * 180) / Math.PI;
}

describe('the compact ship state (wire v13)', () => {
  it('any valid state comes back within the documented precision: position 1/16 unit, orientation 0.01°, velocity 1/32 unit/s, spin 0.0005 rad/s, whole percents', () => {
    let worstAngle = 0;
    fc.assert(
      fc.property(arbShipState, (s) => {
        const bytes = encode(s);
        expect(bytes.length).toBe(FULL_STATE_SIZE);
        const d = decode(bytes);
        if (typeof d === 'string') throw new Error(d);
        for (const c of ['x', 'y', 'z'] as const) {
          expect(Math.abs(d.pos[c] - s.pos[c])).toBeLessThanOrEqual(POSITION_ERROR);
          expect(Math.abs(d.vel[c] - s.vel[c])).toBeLessThanOrEqual(VELOCITY_ERROR);
          expect(Math.abs(d.angVel[c] - s.angVel[c])).toBeLessThanOrEqual(SPIN_ERROR + 1e-9);
        }
        const angle = angleDeg(d.rot, s.rot);
        worstAngle = Math.max(worstAngle, angle);
        expect(angle).toBeLessThanOrEqual(ORIENTATION_ERROR_DEG);
        expect(Math.hypot(d.rot.x, d.rot.y, d.rot.z, d.rot.w)).toBeCloseTo(1, 9);
        expect([d.energy, d.damage]).toEqual([Math.round(s.energy), Math.round(s.damage)]);
      }),
      { numRuns: 2000 },
    );
    console.log(`compact state: worst orientation error over 2,000 states ${worstAngle.toFixed(5)}°`);
  });

  it('a partial update applied to the base it names reproduces the full state exactly, and carries only the portions that changed', () => {
    fc.assert(
      fc.property(arbShipState, arbShipState, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), fc.integer({ min: 1, max: 255 }), fc.array(fc.double({ min: -5000, max: 5000, noNaN: true }), { minLength: 3, maxLength: 3 }), (a, b, keep, distance, move) => {
        // The base as the receiver holds it: what a full state of `a` decodes to (the sender keeps the bits it sent).
        const base = decode(encode(a)) as ShipState;
        const clamp = (v: number) => Math.max(-1e6, Math.min(1e6, v));
        const moved = { x: clamp(base.pos.x + (move[0] as number)), y: clamp(base.pos.y + (move[1] as number)), z: clamp(base.pos.z + (move[2] as number)) };
        // The new state keeps some of the base's portions and changes the others (its position moved up to 5,000 units).
        const next: ShipState = {
          pos: keep[0] ? base.pos : moved,
          rot: keep[1] ? base.rot : b.rot,
          vel: keep[2] ? base.vel : b.vel,
          angVel: keep[3] ? base.angVel : b.angVel,
          energy: keep[4] ? base.energy : b.energy,
          damage: keep[4] ? base.damage : b.damage,
        };
        const id = 1000;
        const against = { distance, sent: quantiseState(a) };
        if (measureState(next, against) > FULL_STATE_SIZE) {
          // Moved farther than a partial state says (±4,095 units): it can only go full.
          expect(Math.max(...['x', 'y', 'z'].map((c) => Math.abs(next.pos[c as 'x'] - base.pos[c as 'x'])))).toBeGreaterThan(4095);
          expect(() => encode(next, against)).toThrow(/send it full/);
          return;
        }
        const partial = encode(next, against);
        expect((partial[0] as number) & PORTION_BASE).toBe(PORTION_BASE);
        // A kept portion is never sent.
        if (keep[0]) expect((partial[0] as number) & PORTION_POSITION).toBe(0);
        expect(partial.length).toBeLessThanOrEqual(FULL_STATE_SIZE - 2);
        const whole = decode(encode(next), id);
        expect(decode(partial, id, holding(id - distance, base))).toEqual(whole);
      }),
      { numRuns: 1000 },
    );
  });

  it('a state its base already says is two bytes: portions and base, nothing else', () => {
    const s: ShipState = { pos: { x: 10, y: 0, z: -3 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 };
    const bytes = encode(s, { distance: 3, sent: quantiseState(s) });
    expect([...bytes]).toEqual([PORTION_BASE, 3]);
    expect(decode(bytes, 50, holding(47, s))).toEqual(s);
  });

  it('a partial against a base the receiver does not hold is dropped as unknown-base, whatever it holds instead', () => {
    fc.assert(
      fc.property(arbShipState, fc.integer({ min: 1, max: 255 }), fc.integer({ min: 0, max: 0xffffffff }), (s, distance, id) => {
        const partial = encode(s, { distance, sent: quantiseState(s) });
        expect(decode(partial, id)).toBe('unknown-base');
        expect(decode(partial, id, holding((id - distance + 1) >>> 0, s))).toBe('unknown-base');
        expect(decode(partial, id, holding((id - distance) >>> 0, s))).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });

  it('any bytes as a state section, with every base held or none, are read or dropped with a reason, never thrown on', () => {
    const held = decode(encode({ pos: { x: 1, y: 2, z: 3 }, rot: { x: 0, y: 0.6, z: 0, w: 0.8 }, vel: { x: 5, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 1 }, energy: 50, damage: 10 })) as ShipState;
    const everything: StateBases = { at: () => held };
    const reasons = new Map<string, number>();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.boolean(), (bytes, withBases) => {
        const d = decode(bytes, 77, withBases ? everything : undefined);
        const key = typeof d === 'string' ? d : 'read';
        reasons.set(key, (reasons.get(key) ?? 0) + 1);
        if (typeof d !== 'string') expect(Math.hypot(d.rot.x, d.rot.y, d.rot.z, d.rot.w)).toBeCloseTo(1, 6);
      }),
      { numRuns: 3000 },
    );
    console.log(`compact state under fuzzing: ${JSON.stringify(Object.fromEntries(reasons))}`);
  });

  it('portions a state cannot have are dropped as bad-portions: bits 6 and 7, a full state missing a portion, a base 0 ids back', () => {
    const full = encode({ pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 1, damage: 2 });
    for (const portions of [0x40 | ALL_PORTIONS, 0x80 | ALL_PORTIONS, ALL_PORTIONS & ~PORTION_POSITION, 0]) {
      const bytes = full.slice();
      bytes[0] = portions;
      expect(decode(bytes)).toBe('bad-portions');
    }
    expect(decode(Uint8Array.from([PORTION_BASE, 0]))).toBe('bad-portions');
  });
});
