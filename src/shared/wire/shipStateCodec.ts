/**
 * The compact ship state (wire v13): the header's state section (flags bit
 * 4), quantised and cut into portions that a partial update may leave out.
 *
 *   [portions u8]   bit 0 position, 1 orientation, 2 velocity, 3 spin,
 *                   4 status (energy and damage), 5 a base follows;
 *                   bits 6 and 7 are 0
 *   [base u8]       only with bit 5: how many message ids back the state
 *                   this one builds on was sent (1..255)
 *   position        full: 3 × i24, 1/8 unit (±1,048,575 units; MAX_COORD
 *                   fits); partial: 3 × i16, the change from the base's in
 *                   eighths (±4,095 units; a ship that moved farther goes full)
 *   orientation     the smallest three of the unit quaternion, 48 bits:
 *                   the largest component's index (2 bits, the component
 *                   made positive and left out), the other three as 15-bit
 *                   steps 0..32766 over ±1/√2 (16383 is 0), a 0 bit
 *   velocity        3 × i16, 1/16 unit/s (±2,047 units/s)
 *   spin            3 × i16, milli-rad/s (clamped to ±32.767 rad/s)
 *   status          energy u8, damage u8 (whole percent)
 *
 * A state without a base is full: all five portions (else `bad-portions`),
 * 30 bytes (40 before wire v13); a partial one is 2 to 27. A partial names its base and carries only the portions that
 * differ from it, quantised; the others are the base's. The receiver looks
 * the base up by message id among the states it holds from the sender
 * ({@link StateBases}); one it does not hold drops the datagram as
 * `unknown-base`, and the sender's next full state repairs it.
 *
 * Precision a player could see (the largest error of a decoded value):
 * position 1/16 unit (0.0625), orientation under 0.01° (each stored
 * component within 2.2e-5), velocity 1/32 unit/s, spin 0.0005 rad/s,
 * energy and damage half a percent.
 */
import type { Quat, Vec3 } from '../sim/types';
import { MAX_ANGULAR_RATE, MAX_COORD } from './fields';
import { fail, refuse, WireEncodeError } from './stream';
import type { Reader, Sink } from './stream';
import type { ShipState } from './types';

/** Portion bits of the state section's first byte. */
export const PORTION_POSITION = 0x01;
export const PORTION_ORIENTATION = 0x02;
export const PORTION_VELOCITY = 0x04;
export const PORTION_SPIN = 0x08;
export const PORTION_STATUS = 0x10;
/** Every portion: what a full state carries. */
export const ALL_PORTIONS = 0x1f;
/** Bit 5: a base distance follows; the state is partial. */
export const PORTION_BASE = 0x20;

/** Steps per unit of a position component. */
export const POSITION_STEPS = 8;
/** Steps per unit/s of a velocity component. */
export const VELOCITY_STEPS = 16;
/** Largest |velocity component| a compact state carries (units/s); a ship's top speed is far below. */
export const MAX_WIRE_SPEED = 2047;
/** Bytes of a full compact state: portions 1, position 9, orientation 6, velocity 6, spin 6, status 2. */
export const FULL_STATE_SIZE = 1 + 9 + 6 + 6 + 6 + 2;
/** Bytes of the largest state section (a full state): what budgets count. */
export const MAX_STATE_SIZE = FULL_STATE_SIZE;

/** Bytes each portion adds (a partial state's position is 3 × i16 of change: PARTIAL_POSITION_BYTES). */
const PORTION_BYTES: readonly [number, number][] = [
  [PORTION_POSITION, 9],
  [PORTION_ORIENTATION, 6],
  [PORTION_VELOCITY, 6],
  [PORTION_SPIN, 6],
  [PORTION_STATUS, 2],
];

/** The quantised integers of a state, portion by portion: what is compared and written. */
export interface QuantisedState {
  pos: [number, number, number];
  /** Orientation as 48 bits: high 16 and low 32. */
  rot: [number, number];
  vel: [number, number, number];
  spin: [number, number, number];
  status: [number, number];
}

/**
 * A base a partial state builds on: how many ids back it was sent, and the
 * quantised state sent then (the bits the receiver decoded: a portion left
 * out is one whose bits are the same, so the receiver's copy of it is
 * exactly what a full state would have given).
 */
export interface StateBase {
  distance: number;
  sent: QuantisedState;
}

/** The states a receiver holds from one sender, by the message id they came in. */
export interface StateBases {
  /** The state that came in message `id`, or undefined when it is not held. */
  at(id: number): ShipState | undefined;
  /**
   * A gameserver client's bases for the player in `slot` relayed by this
   * sender (by that player's own message ids, which its relayed datagrams
   * keep): what a relayed partial state names (wire v14). Undefined: none.
   */
  relayed?(slot: number): StateBases | undefined;
}

/** A stored quaternion component is a step of 0..32766 over ±1/√2: step 16383 is exactly 0. */
const Q_HALF = 16383;
const MAX_I24 = 0x7fffff;

/** Refuses `detail` at field path `at` (dotted: `pos.x`), as the struct codecs name their fields. */
function refuseAt(at: string, detail: string): never {
  const e = new WireEncodeError(detail);
  for (const segment of at.split('.').reverse()) e.within(segment);
  throw e;
}

function finite(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) refuseAt(what, `${String(v)} is not a finite number`);
  return v;
}

function quantiseVec(v: Vec3, what: string, limit: number, steps: number): [number, number, number] {
  if (typeof v !== 'object' || v === null) refuseAt(what, `${String(v)} is not a vector`);
  const q = (c: unknown, axis: string): number => {
    const n = finite(c, `${what}.${axis}`);
    if (n < -limit || n > limit) refuseAt(`${what}.${axis}`, `${n} is outside ±${limit}`);
    return Math.round(n * steps);
  };
  return [q(v.x, 'x'), q(v.y, 'y'), q(v.z, 'z')];
}

function quantiseSpin(v: Vec3): [number, number, number] {
  if (typeof v !== 'object' || v === null) refuseAt('angVel', `${String(v)} is not a vector`);
  // Spinning faster than ±32.767 rad/s is clamped rather than refused: it is physics, not a mistake.
  const q = (c: unknown, axis: string): number => Math.round(Math.max(-MAX_ANGULAR_RATE, Math.min(MAX_ANGULAR_RATE, finite(c, `angVel.${axis}`))) * 1000);
  return [q(v.x, 'x'), q(v.y, 'y'), q(v.z, 'z')];
}

function quantisePercent(v: unknown, what: string): number {
  const n = finite(v, what);
  if (n < 0 || n > 100) refuseAt(what, `${n} is not a percentage (0..100)`);
  return Math.round(n);
}

/** The smallest three of `q` (normalised first) as 48 bits. */
function quantiseRot(q: Quat): [number, number] {
  if (typeof q !== 'object' || q === null) refuseAt('rot', `${String(q)} is not a quaternion`);
  const c = [finite(q.x, 'rot.x'), finite(q.y, 'rot.y'), finite(q.z, 'rot.z'), finite(q.w, 'rot.w')];
  const len = Math.hypot(c[0] as number, c[1] as number, c[2] as number, c[3] as number);
  if (len < 1e-6) refuseAt('rot', 'quaternion has zero length');
  let largest = 0;
  for (let i = 1; i < 4; i++) if (Math.abs(c[i] as number) > Math.abs(c[largest] as number)) largest = i;
  // q and −q turn a ship alike: the left-out component is made positive.
  const sign = (c[largest] as number) < 0 ? -1 : 1;
  let bits = largest;
  for (let i = 0; i < 4; i++) {
    if (i === largest) continue;
    const v = (sign * (c[i] as number)) / len;
    const step = Math.round(v * Math.SQRT2 * Q_HALF) + Q_HALF;
    bits = bits * 0x8000 + Math.max(0, Math.min(2 * Q_HALF, step));
  }
  // 2 + 3 × 15 = 47 bits, then the 0 bit: 48 in all.
  bits *= 2;
  return [Math.floor(bits / 0x100000000), bits % 0x100000000];
}

/**
 * Frozen states (a relaying server freezes every state it keeps, with its
 * vectors) quantised once: a state encoded for many clients, full and
 * against several bases, is not quantised again for each.
 */
const quantisedFrozen = new WeakMap<ShipState, QuantisedState>();

/** `state`'s quantised portions (throws WireEncodeError for what cannot be sent); a frozen state's are computed once. */
export function quantiseState(state: ShipState): QuantisedState {
  if (typeof state !== 'object' || state === null) refuse(`${String(state)} is not a ship state`);
  const frozen = Object.isFrozen(state) && Object.isFrozen(state.pos) && Object.isFrozen(state.rot) && Object.isFrozen(state.vel) && Object.isFrozen(state.angVel);
  if (!frozen) return quantiseFresh(state);
  let q = quantisedFrozen.get(state);
  if (q === undefined) {
    q = quantiseFresh(state);
    for (const part of [q.pos, q.rot, q.vel, q.spin, q.status, q]) Object.freeze(part);
    quantisedFrozen.set(state, q);
  }
  return q;
}

function quantiseFresh(state: ShipState): QuantisedState {
  return {
    pos: quantiseVec(state.pos, 'pos', MAX_COORD, POSITION_STEPS),
    rot: quantiseRot(state.rot),
    vel: quantiseVec(state.vel, 'vel', MAX_WIRE_SPEED, VELOCITY_STEPS),
    spin: quantiseSpin(state.angVel),
    status: [quantisePercent(state.energy, 'energy'), quantisePercent(state.damage, 'damage')],
  };
}

function same(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The portions of `q` that differ from `base` (all of them without a base). */
export function changedPortions(q: QuantisedState, base: QuantisedState | null): number {
  if (!base) return ALL_PORTIONS;
  return (
    (same(q.pos, base.pos) ? 0 : PORTION_POSITION) |
    (same(q.rot, base.rot) ? 0 : PORTION_ORIENTATION) |
    (same(q.vel, base.vel) ? 0 : PORTION_VELOCITY) |
    (same(q.spin, base.spin) ? 0 : PORTION_SPIN) |
    (same(q.status, base.status) ? 0 : PORTION_STATUS)
  );
}

/** Bytes a partial state's position takes: its change from the base, 3 × i16 eighths. */
const PARTIAL_POSITION_BYTES = 6;
/** The largest change of a position component a partial state carries, in eighths (i16). */
const MAX_POSITION_CHANGE = 0x7fff;

/** Bytes a state section with `portions` (and a base when bit 5 is set) takes. */
export function stateSectionSize(portions: number): number {
  const partial = (portions & PORTION_BASE) !== 0;
  let n = 1 + (partial ? 1 : 0);
  for (const [bit, bytes] of PORTION_BYTES) if ((portions & bit) !== 0) n += partial && bit === PORTION_POSITION ? PARTIAL_POSITION_BYTES : bytes;
  return n;
}

/** Whether `q` can go partial against `base`: its position moved less than a partial state's change can say. */
function fitsPartial(q: QuantisedState, base: QuantisedState): boolean {
  for (let i = 0; i < 3; i++) if (Math.abs((q.pos[i] as number) - (base.pos[i] as number)) > MAX_POSITION_CHANGE) return false;
  return true;
}

/**
 * Bytes of `state`'s section: against `base` when given, else full. A state
 * that cannot go partial against `base` (it moved too far) measures
 * FULL_STATE_SIZE + 1: more than full, so a sender sends it full.
 */
export function measureState(state: ShipState, base?: StateBase): number {
  return base ? partialSize(quantiseState(state), base.sent) : FULL_STATE_SIZE;
}

/** Bytes of the section of quantised state `q` partial against `base` (FULL_STATE_SIZE + 1 when it cannot go partial), as measureState. */
export function partialSize(q: QuantisedState, base: QuantisedState): number {
  if (!fitsPartial(q, base)) return FULL_STATE_SIZE + 1;
  return stateSectionSize(changedPortions(q, base) | PORTION_BASE);
}

function writeI24(s: Sink, v: number): void {
  const t = v & 0xffffff;
  s.u8(t >>> 16);
  s.u16(t & 0xffff);
}

function readI24(r: Reader): number {
  const t = (r.u8() << 16) | r.u16();
  return t > MAX_I24 ? t - 0x1000000 : t;
}

/** Writes `state`'s section: full, or against `base` (its distance 1..255) with only the changed portions. */
export function writeState(s: Sink, state: ShipState, base?: StateBase): void {
  const q = quantiseState(state);
  let portions = ALL_PORTIONS;
  if (base) {
    if (!Number.isInteger(base.distance) || base.distance < 1 || base.distance > 255) refuseAt('base', `${String(base.distance)} is not a distance of 1..255 ids`);
    if (!fitsPartial(q, base.sent)) refuseAt('base', 'the position moved farther than a partial state says (±4,095 units): send it full');
    portions = changedPortions(q, base.sent) | PORTION_BASE;
  }
  s.u8(portions);
  if (base) s.u8(base.distance);
  if ((portions & PORTION_POSITION) !== 0) {
    if (base) for (let i = 0; i < 3; i++) s.i16((q.pos[i] as number) - (base.sent.pos[i] as number));
    else for (const v of q.pos) writeI24(s, v);
  }
  if ((portions & PORTION_ORIENTATION) !== 0) {
    s.u16(q.rot[0]);
    s.u32(q.rot[1]);
  }
  if ((portions & PORTION_VELOCITY) !== 0) for (const v of q.vel) s.i16(v);
  if ((portions & PORTION_SPIN) !== 0) for (const v of q.spin) s.i16(v);
  if ((portions & PORTION_STATUS) !== 0) {
    s.u8(q.status[0]);
    s.u8(q.status[1]);
  }
}

function readRot(r: Reader): Quat {
  const hi = r.u16();
  const lo = r.u32();
  if ((lo & 1) !== 0) fail('bad-quat');
  let bits = (hi * 0x100000000 + lo) / 2;
  const parts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const step = bits % 0x8000;
    bits = (bits - step) / 0x8000;
    if (step > 2 * Q_HALF) fail('bad-quat');
    parts.unshift(((step - Q_HALF) / Q_HALF) * Math.SQRT1_2);
  }
  const largest = bits;
  const sum = (parts[0] as number) ** 2 + (parts[1] as number) ** 2 + (parts[2] as number) ** 2;
  // An honest encoder's three smaller components square to at most 3/4 (the largest squares to at least 1/4).
  if (sum > 0.751) fail('bad-quat');
  const out = [0, 0, 0, 0];
  let k = 0;
  for (let i = 0; i < 4; i++) out[i] = i === largest ? Math.sqrt(1 - sum) : (parts[k++] as number);
  return { x: out[0] as number, y: out[1] as number, z: out[2] as number, w: out[3] as number };
}

function readPercent(r: Reader): number {
  const v = r.u8();
  if (v > 100) fail('out-of-range');
  return v;
}

/**
 * Reads a state section of message `messageId`. A partial is completed from
 * the base `bases` holds; without it (or without `bases`) the datagram fails
 * `unknown-base`.
 */
export function readState(r: Reader, messageId: number, bases?: StateBases): ShipState {
  const portions = r.u8();
  if ((portions & ~(ALL_PORTIONS | PORTION_BASE)) !== 0) fail('bad-portions');
  let base: ShipState | undefined;
  if ((portions & PORTION_BASE) !== 0) {
    const distance = r.u8();
    if (distance === 0) fail('bad-portions');
    base = bases?.at((messageId - distance) >>> 0);
  } else if (portions !== ALL_PORTIONS) fail('bad-portions');
  const partial = (portions & PORTION_BASE) !== 0;
  const hasPos = (portions & PORTION_POSITION) !== 0;
  // A full state's position; a partial one's change from its base, in eighths.
  const pos = hasPos && !partial ? readVec(r, readI24, POSITION_STEPS, MAX_COORD) : undefined;
  const moved = hasPos && partial ? [r.i16(), r.i16(), r.i16()] : undefined;
  const rot = (portions & PORTION_ORIENTATION) !== 0 ? readRot(r) : undefined;
  const vel = (portions & PORTION_VELOCITY) !== 0 ? readVec(r, (x) => x.i16(), VELOCITY_STEPS, MAX_WIRE_SPEED) : undefined;
  const angVel = (portions & PORTION_SPIN) !== 0 ? readVec(r, (x) => x.i16(), 1000, MAX_ANGULAR_RATE) : undefined;
  const status = (portions & PORTION_STATUS) !== 0 ? [readPercent(r), readPercent(r)] : undefined;
  if ((portions & PORTION_BASE) === 0) return { pos: pos as Vec3, rot: rot as Quat, vel: vel as Vec3, angVel: angVel as Vec3, energy: (status as number[])[0] as number, damage: (status as number[])[1] as number };
  // Read to the end first, so a datagram cut short is `truncated` whatever its base.
  if (!base) fail('unknown-base');
  return {
    pos: moved ? movedFrom(base.pos, moved) : { ...base.pos },
    rot: rot ?? { ...base.rot },
    vel: vel ?? { ...base.vel },
    angVel: angVel ?? { ...base.angVel },
    energy: status ? (status[0] as number) : base.energy,
    damage: status ? (status[1] as number) : base.damage,
  };
}

/** `from` moved by `steps` eighths on each axis (a base's position is on the eighths' grid); beyond MAX_COORD fails `out-of-range`. */
function movedFrom(from: Vec3, steps: number[]): Vec3 {
  const x = (Math.round(from.x * POSITION_STEPS) + (steps[0] as number)) / POSITION_STEPS;
  const y = (Math.round(from.y * POSITION_STEPS) + (steps[1] as number)) / POSITION_STEPS;
  const z = (Math.round(from.z * POSITION_STEPS) + (steps[2] as number)) / POSITION_STEPS;
  if (Math.abs(x) > MAX_COORD || Math.abs(y) > MAX_COORD || Math.abs(z) > MAX_COORD) fail('out-of-range');
  return { x, y, z };
}

function readVec(r: Reader, read: (r: Reader) => number, steps: number, limit: number): Vec3 {
  const x = read(r) / steps;
  const y = read(r) / steps;
  const z = read(r) / steps;
  if (Math.abs(x) > limit || Math.abs(y) > limit || Math.abs(z) > limit) fail('out-of-range');
  return { x, y, z };
}
