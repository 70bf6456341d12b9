/**
 * Field codecs (numbers, vectors, structs, lists; strings and addresses are in
 * `strings.ts`): each one is a single definition of how a value is written to
 * a {@link Sink} and read back from a {@link Reader}, with its validation on
 * both sides. Sizes come from running `write` on a {@link Measurer}, so a
 * message's size, encoding and decoding all come from the same definition.
 *
 * Encoding validates trusted local data and throws {@link WireEncodeError}
 * for a programmer mistake; decoding validates untrusted bytes and fails with
 * a {@link DropReason}. The limits are the same on both sides, so anything
 * `decode` accepts, `encode` accepts again.
 */
import type { Quat, Vec3 } from '../sim/types';
import { MAX_WIRE_SLOTS, NO_SLOT, SMALL_GAME_SLOTS } from './types';
import { fail, Measurer, refuse, WireEncodeError } from './stream';
import type { DropReason, Reader, Sink } from './stream';

/** How one value of type T goes on and comes off the wire. */
export interface Codec<T> {
  /** Validates `v` (throws {@link WireEncodeError}) and writes it. */
  write(s: Sink, v: T): void;
  /** Reads and validates one value (fails with a DropReason on bad bytes). */
  read(r: Reader): T;
}

/** Encoded size of `v` in bytes (validates like encoding does). */
export function measure<T>(codec: Codec<T>, v: T): number {
  const m = new Measurer();
  codec.write(m, v);
  return m.size;
}

/** Largest |coordinate|, |velocity component| and radius accepted, in units. */
export const MAX_COORD = 1e6;
/** Angular rates are sent as i16 milli-rad/s, so they are clamped to ±32.767 rad/s on encode. */
export const MAX_ANGULAR_RATE = 32.767;
/** Scale of a quaternion component on the wire (i16). */
export const QUAT_SCALE = 32767;

function requireUint(v: number, max: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > max) refuse(`${String(v)} is not ${what}`);
}

// --- integers ---------------------------------------------------------------

/** Unsigned 8-bit integer (kinds and similar opaque bytes). */
export const u8: Codec<number> = {
  write(s, v) {
    requireUint(v, 0xff, 'a u8 (integer 0..255)');
    s.u8(v);
  },
  read: (r) => r.u8(),
};

/** Unsigned 16-bit integer (ttl in ticks). */
export const u16: Codec<number> = {
  write(s, v) {
    requireUint(v, 0xffff, 'a u16 (integer 0..65535)');
    s.u16(v);
  },
  read: (r) => r.u16(),
};

/** Unsigned 32-bit integer (object ids, message ids, game time); wrap with `>>> 0` before encoding. */
export const u32: Codec<number> = {
  write(s, v) {
    requireUint(v, 0xffffffff, 'a u32 (integer 0..4294967295)');
    s.u32(v);
  },
  read: (r) => r.u32(),
};

/** A u8 restricted to `allowed` values; anything else fails `reason`. */
export function oneOf<T extends number>(allowed: readonly T[], reason: DropReason, what: string): Codec<T> {
  const set = new Set<number>(allowed);
  return {
    write(s, v) {
      if (!set.has(v)) refuse(`${String(v)} is not ${what}`);
      s.u8(v);
    },
    read(r) {
      const v = r.u8();
      if (!set.has(v)) fail(reason);
      return v as T;
    },
  };
}

const slots = Array.from({ length: MAX_WIRE_SLOTS }, (_, i) => i);
/** A player slot 0..MAX_WIRE_SLOTS-1 (u8); anything else fails `bad-slot`. */
export const slot = oneOf(slots, 'bad-slot', `a slot (0..${MAX_WIRE_SLOTS - 1})`);
/** A slot of a game that holds few players (a peer-to-peer slot table): 0..SMALL_GAME_SLOTS-1 (u8); anything else fails `bad-slot`. */
export const smallGameSlot = oneOf(slots.slice(0, SMALL_GAME_SLOTS), 'bad-slot', `a slot (0..${SMALL_GAME_SLOTS - 1})`);
/** A player slot or NO_SLOT (255) for "none" (u8); anything else fails `bad-slot`. */
export const slotOrNone = oneOf([...slots, NO_SLOT], 'bad-slot', `a slot (0..${MAX_WIRE_SLOTS - 1}) or NO_SLOT (${NO_SLOT})`);

/**
 * Energy or damage in percent, one u8 0..100. Encoding rounds to the nearest
 * whole percent (the simulation keeps fractions; ±0.5 is plenty for a HUD).
 */
export const percent: Codec<number> = {
  write(s, v) {
    if (!Number.isFinite(v) || v < 0 || v > 100) refuse(`${String(v)} is not a percentage (0..100)`);
    s.u8(Math.round(v));
  },
  read(r) {
    const v = r.u8();
    if (v > 100) fail('out-of-range');
    return v;
  },
};

/** A boolean in a flags byte: bit 0 carries it, the other bits must be 0 (`bad-flags`) so they stay free for later versions. */
export const flagBit: Codec<boolean> = {
  write(s, v) {
    if (typeof v !== 'boolean') refuse(`${String(v)} is not a boolean`);
    s.u8(v ? 1 : 0);
  },
  read(r) {
    const v = r.u8();
    if (v > 1) fail('bad-flags');
    return v === 1;
  },
};

// --- floats -----------------------------------------------------------------

/** An f32 in [min, max]; NaN/Infinity fail `non-finite`, other values outside fail `out-of-range`. */
export function f32(min: number, max: number): Codec<number> {
  return {
    write(s, v) {
      // Check the value that will actually be sent: a finite double can still overflow f32.
      const f = typeof v === 'number' ? Math.fround(v) : NaN;
      if (!Number.isFinite(f)) refuse(`${String(v)} is not a finite f32`);
      if (f < min || f > max) refuse(`${String(v)} is outside ${min}..${max}`);
      s.f32(f);
    },
    read(r) {
      const v = r.f32();
      if (!Number.isFinite(v)) fail('non-finite');
      if (v < min || v > max) fail('out-of-range');
      return v;
    },
  };
}

/** Fields are written and read in the key order of `fields`. */
type Fields<T> = { readonly [K in keyof T]-?: Codec<T[K]> };

/**
 * A fixed sequence of named fields, in the key order of `fields` (object
 * literal order, which JavaScript preserves for non-numeric keys). Encode
 * errors get the field name prepended to their path.
 */
export function struct<T extends object>(fields: Fields<T>): Codec<T> {
  const entries = Object.entries(fields) as [keyof T & string, Codec<unknown>][];
  return {
    write(s, v) {
      if (typeof v !== 'object' || v === null) refuse(`${String(v)} is not an object`);
      for (const [key, codec] of entries) {
        try {
          codec.write(s, v[key]);
        } catch (e) {
          throw e instanceof WireEncodeError ? e.within(key) : e;
        }
      }
    },
    read(r) {
      const out: Record<string, unknown> = {};
      for (const [key, codec] of entries) out[key] = codec.read(r);
      return out as T;
    },
  };
}

/** A Vec3 as three f32, each component in ±limit. */
export function vec3(limit: number): Codec<Vec3> {
  const c = f32(-limit, limit);
  return struct<Vec3>({ x: c, y: c, z: c });
}

/** Positions: 3×f32, each within ±MAX_COORD. */
export const position = vec3(MAX_COORD);
/** Velocities: 3×f32, each within ±MAX_COORD units/s. */
export const velocity = vec3(MAX_COORD);
/** Radius: f32 in 0..MAX_COORD. */
export const radius = f32(0, MAX_COORD);

/**
 * A unit quaternion as 4×i16 (x, y, z, w), each component × 32767.
 * Encoding normalises first; decoding divides by the received length, so the
 * result is unit length again. Precision: each component within about 3e-5 of
 * the original. A received length outside 0.9..1.1 cannot come from an honest
 * encoder and fails `bad-quat` (that also refuses the all-zero quaternion).
 */
export const unitQuat: Codec<Quat> = {
  write(s, q) {
    if (typeof q !== 'object' || q === null) refuse(`${String(q)} is not a quaternion`);
    const { x, y, z, w } = q;
    const len = [x, y, z, w].every((c) => typeof c === 'number') ? Math.hypot(x, y, z, w) : NaN;
    if (!Number.isFinite(len)) refuse('quaternion has a non-finite component');
    if (len < 1e-6) refuse('quaternion has zero length');
    s.i16(Math.round((x / len) * QUAT_SCALE));
    s.i16(Math.round((y / len) * QUAT_SCALE));
    s.i16(Math.round((z / len) * QUAT_SCALE));
    s.i16(Math.round((w / len) * QUAT_SCALE));
  },
  read(r) {
    const x = r.i16();
    const y = r.i16();
    const z = r.i16();
    const w = r.i16();
    const len = Math.hypot(x, y, z, w);
    if (len < 0.9 * QUAT_SCALE || len > 1.1 * QUAT_SCALE) fail('bad-quat');
    return { x: x / len, y: y / len, z: z / len, w: w / len };
  },
};

const rate: Codec<number> = {
  write(s, v) {
    if (!Number.isFinite(v)) refuse(`${String(v)} is not a finite angular rate`);
    // Spinning faster than ±32.767 rad/s is clamped rather than refused: it is physics, not a mistake.
    const clamped = Math.max(-MAX_ANGULAR_RATE, Math.min(MAX_ANGULAR_RATE, v));
    s.i16(Math.round(clamped * 1000));
  },
  read: (r) => r.i16() / 1000,
};

/** Angular velocity as 3×i16 milli-rad/s; precision ±0.0005 rad/s, clamped to ±MAX_ANGULAR_RATE on encode. */
export const angularRate = struct<Vec3>({ x: rate, y: rate, z: rate });

// --- lists ------------------------------------------------------------------

/** u8 count + items, at most `max` of them (`bad-list` beyond). Errors get `[i]` in their path. */
export function list<T>(item: Codec<T>, max: number): Codec<T[]> {
  return {
    write(s, v) {
      if (!Array.isArray(v)) refuse(`${String(v)} is not an array`);
      if (v.length > max) refuse(`list has ${v.length} items, more than ${max}`);
      s.u8(v.length);
      v.forEach((x: T, i) => {
        try {
          item.write(s, x);
        } catch (e) {
          throw e instanceof WireEncodeError ? e.within(`[${i}]`) : e;
        }
      });
    },
    read(r) {
      const n = r.u8();
      // Checked before reading items, so a hostile count costs nothing.
      if (n > max) fail('bad-list');
      const out: T[] = [];
      for (let i = 0; i < n; i++) out.push(item.read(r));
      return out;
    },
  };
}

/** Adds a whole-value rule to a codec: `problem(v)` returns null when fine, else the encode error text; decode fails `reason`. */
export function refine<T>(codec: Codec<T>, problem: (v: T) => string | null, reason: DropReason): Codec<T> {
  return {
    write(s, v) {
      // The inner codec first: it checks the shape that `problem` relies on.
      codec.write(s, v);
      const p = problem(v);
      if (p !== null) refuse(p);
    },
    read(r) {
      const v = codec.read(r);
      if (problem(v) !== null) fail(reason);
      return v;
    },
  };
}
