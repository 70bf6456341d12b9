/**
 * The binary form of a whole simulation World (game/types.ts), exact to the
 * bit: what the lockstep protocol sends to bring a peer to another peer's
 * state (and, later, a netgame's state transfer). docs/PROTOCOL.md will
 * describe the layout byte by byte.
 *
 * Layout: one format-version byte (WORLD_FORMAT_VERSION), then the World's
 * fields — tick, rng, nextId, extraIn, field, asteroids, match, scores,
 * ships, objects (the variable-length parts last, so two states a few frames
 * apart line up byte for byte) — and every record its fields in
 * declaration order (types.ts), all big-endian. Every non-integer number is
 * an IEEE 754 f64, so every bit survives (-0 included); a Vec3 is x, y, z and
 * a Quat x, y, z, w. An integer field has a range [min, max] (the codecs
 * below) and is written as the unsigned value − min in the fewest of 1, 2 or
 * 4 bytes that hold max − min: a slot is one byte, an owner, `lastHitBy` or
 * missile `target` (−1 = none, or a slot) one byte holding value + 1. A list
 * is a count (an integer of range 0..its limit, so one or two bytes), then
 * its items; an object is its kind code (one byte, see KINDS) and then its
 * kind's fields without `kind`.
 *
 * Encoding validates the trusted world and throws WireEncodeError (with the
 * field's path) for a value it cannot carry. Decoding validates untrusted
 * bytes and never throws: it returns a DropReason (wire/stream.ts). Each
 * value has exactly one encoding, so whatever decodes re-encodes to the very
 * same bytes. Pure TypeScript: no Node or DOM API.
 */
import { EXTRA_KINDS } from '../game/combat';
import { MATCH_OVER, MATCH_PLAYING } from '../game/types';
import type { Asteroid, GameObject, Match, ObjectKind, Quat, Score, Ship, Vec3, World } from '../game/types';
import { struct, type Codec } from '../wire/fields';
import { ByteWriter, DecodeFailure, fail, Measurer, Reader, refuse, WireEncodeError } from '../wire/stream';
import type { DropReason, Sink } from '../wire/stream';
import { SMALL_GAME_SLOTS } from '../wire/types';

/** The first byte of every encoded world; bytes with another version are refused (`bad-version`). */
export const WORLD_FORMAT_VERSION = 2;

/** Most items of each list a world may carry (`bad-list` beyond). */
export const WORLD_LIMITS = Object.freeze({
  ships: SMALL_GAME_SLOTS,
  objects: 4096,
  asteroids: 1024,
  field: 1024,
  scores: SMALL_GAME_SLOTS,
  /** Slots one EMP pulse has reached. */
  empReached: SMALL_GAME_SLOTS,
});

/** Result of {@link decodeWorld}. */
export type WorldDecodeResult = { ok: true; world: World } | { ok: false; reason: DropReason };

// ---- Numbers -------------------------------------------------------------------

/**
 * An integer in [min, max] (max − min < 2^32), written as value − min in 1, 2
 * or 4 bytes. Decoding a value beyond max fails `reason`.
 */
function int(min: number, max: number, reason: DropReason = 'out-of-range'): Codec<number> {
  const span = max - min;
  const width = span <= 0xff ? 1 : span <= 0xffff ? 2 : 4;
  return {
    write(s, v) {
      if (!Number.isInteger(v) || v < min || v > max) refuse(`${String(v)} is not an integer in ${min}..${max}`);
      if (width === 1) s.u8(v - min);
      else if (width === 2) s.u16(v - min);
      else s.u32(v - min);
    },
    read(r) {
      const raw = width === 1 ? r.u8() : width === 2 ? r.u16() : r.u32();
      if (raw > span) fail(reason);
      return raw + min;
    },
  };
}

/** Ids, the PRNG state, tick counts and scores: any uint32. */
const u32 = int(0, 0xffffffff);
/** Short countdowns in ticks (cooldowns, ttl, arming, respawn, invulnerability, the next extra). */
const ticks = int(0, 0xffff);
/** Ammunition and the laser level. */
const small = int(0, 0xff);
const slot = int(0, SMALL_GAME_SLOTS - 1, 'bad-slot');
/** A slot or −1, which is MATCH_OWNER (owner), NO_ATTACKER (lastHitBy) and NO_TARGET (missile target) alike. */
const slotOrNone = int(-1, SMALL_GAME_SLOTS - 1, 'bad-slot');

/** Big-endian f64 through two u32 halves (the Sink/Reader have no f64); only finite values (`non-finite`). */
const halves = new DataView(new ArrayBuffer(8));
const f64: Codec<number> = {
  write(s, v) {
    if (typeof v !== 'number' || !Number.isFinite(v)) refuse(`${String(v)} is not a finite number`);
    halves.setFloat64(0, v);
    s.u32(halves.getUint32(0));
    s.u32(halves.getUint32(4));
  },
  read(r) {
    halves.setUint32(0, r.u32());
    halves.setUint32(4, r.u32());
    const v = halves.getFloat64(0);
    if (!Number.isFinite(v)) fail('non-finite');
    return v;
  },
};

const vec3 = struct<Vec3>({ x: f64, y: f64, z: f64 });
const quat = struct<Quat>({ x: f64, y: f64, z: f64, w: f64 });

// ---- Lists ---------------------------------------------------------------------

/** A count in 0..max (`bad-list` beyond, checked before any item is read), then the items. */
function list<T>(item: Codec<T>, max: number): Codec<T[]> {
  const count = int(0, max, 'bad-list');
  return {
    write(s, v) {
      if (!Array.isArray(v)) refuse(`${String(v)} is not an array`);
      count.write(s, v.length);
      v.forEach((x: T, i) => {
        try {
          item.write(s, x);
        } catch (e) {
          throw e instanceof WireEncodeError ? e.within(`[${i}]`) : e;
        }
      });
    },
    read(r) {
      const n = count.read(r);
      const out: T[] = [];
      for (let i = 0; i < n; i++) out.push(item.read(r));
      return out;
    },
  };
}

/** `inner` with no two items of the same slot (`bad-slot`). */
function slotsOnce<T>(inner: Codec<T[]>, slotOf: (item: T) => number): Codec<T[]> {
  const repeated = (items: readonly T[]): boolean => new Set(items.map(slotOf)).size !== items.length;
  return {
    write(s, v) {
      inner.write(s, v);
      if (repeated(v)) refuse('a slot appears twice');
    },
    read(r) {
      const v = inner.read(r);
      if (repeated(v)) fail('bad-slot');
      return v;
    },
  };
}

// ---- Records -------------------------------------------------------------------

const ship = struct<Ship>({
  slot,
  pos: vec3,
  vel: vec3,
  rot: quat,
  angVel: vec3,
  energy: f64,
  shield: f64,
  damage: f64,
  fireCooldown: ticks,
  missileCooldown: ticks,
  mineCooldown: ticks,
  empCooldown: ticks,
  missiles: small,
  mines: small,
  laserLevel: small,
  invulnerable: ticks,
  lastHitBy: slotOrNone,
  respawnIn: ticks,
});

/** The fields of object kind K after its `kind`. */
type Body<K extends ObjectKind> = Omit<Extract<GameObject, { kind: K }>, 'kind'>;

/** Each object kind's code byte and fields (every kind of the registry: the mapped type makes a missing one a type error). */
const KINDS: { readonly [K in ObjectKind]: { readonly code: number; readonly body: Codec<Body<K>> } } = {
  laser: { code: 1, body: struct<Body<'laser'>>({ id: u32, owner: slotOrNone, pos: vec3, vel: vec3, ttl: ticks }) },
  missile: { code: 2, body: struct<Body<'missile'>>({ id: u32, owner: slotOrNone, pos: vec3, vel: vec3, target: slotOrNone, ttl: ticks }) },
  mine: { code: 3, body: struct<Body<'mine'>>({ id: u32, owner: slotOrNone, pos: vec3, vel: vec3, arm: ticks, ttl: ticks }) },
  emp: {
    code: 4,
    body: struct<Body<'emp'>>({ id: u32, owner: slotOrNone, pos: vec3, radius: f64, reached: slotsOnce(list(slot, WORLD_LIMITS.empReached), (s) => s) }),
  },
  extra: { code: 5, body: struct<Body<'extra'>>({ id: u32, owner: slotOrNone, type: int(0, EXTRA_KINDS.length - 1), pos: vec3, ttl: ticks }) },
  field: { code: 6, body: struct<Body<'field'>>({ id: u32, owner: slotOrNone, pos: vec3, radius: f64 }) },
};

/** The kind of each code byte. */
const KIND_OF_CODE = new Map<number, ObjectKind>((Object.keys(KINDS) as ObjectKind[]).map((k) => [KINDS[k].code, k]));

const object: Codec<GameObject> = {
  write(s, o) {
    const kind: unknown = typeof o === 'object' && o !== null ? o.kind : undefined;
    if (typeof kind !== 'string' || !Object.hasOwn(KINDS, kind)) refuse(`${String(kind)} is not an object kind`);
    const entry = KINDS[o.kind];
    s.u8(entry.code);
    try {
      // The body codec of `o`'s own kind (TypeScript cannot pair the two through the union).
      (entry.body as Codec<GameObject>).write(s, o);
    } catch (e) {
      throw e instanceof WireEncodeError ? e.within(`(${o.kind})`) : e;
    }
  },
  read(r) {
    const kind = KIND_OF_CODE.get(r.u8());
    if (kind === undefined) fail('unknown-type');
    return { kind, ...KINDS[kind].body.read(r) } as GameObject;
  },
};

const asteroid = struct<Asteroid>({ id: u32, pos: vec3, vel: vec3, rot: quat, spin: vec3, radius: f64, wear: f64 });

const score = struct<Score>({ slot, kills: u32, deaths: u32 });

const match = struct<Match>({
  killLimit: u32,
  timeLimitTicks: u32,
  phase: int(MATCH_PLAYING, MATCH_OVER),
  // −1 while playing without a time limit.
  ticksLeft: int(-1, 0xfffffffe),
  round: u32,
  playedTicks: u32,
});

// The parts whose size rarely changes first and the objects (born and gone every few frames) last, so
// the bytes of two worlds a few frames apart line up: a netgame state difference (XOR) then packs small.
const world = struct<World>({
  tick: u32,
  rng: u32,
  nextId: u32,
  extraIn: ticks,
  field: list(asteroid, WORLD_LIMITS.field),
  asteroids: list(asteroid, WORLD_LIMITS.asteroids),
  match,
  scores: slotsOnce(list(score, WORLD_LIMITS.scores), (s) => s.slot),
  ships: slotsOnce(list(ship, WORLD_LIMITS.ships), (s) => s.slot),
  objects: list(object, WORLD_LIMITS.objects),
});

// ---- Entry points --------------------------------------------------------------

function writeAll(s: Sink, w: World): void {
  s.u8(WORLD_FORMAT_VERSION);
  world.write(s, w);
}

/**
 * The bytes of `w`. Throws WireEncodeError (naming the field, e.g.
 * `ships[0].pos.x`) for a world this format cannot carry: a non-finite
 * number, an integer out of its range, a list over WORLD_LIMITS, a slot
 * twice, an unknown object kind.
 */
export function encodeWorld(w: World): Uint8Array {
  const m = new Measurer();
  writeAll(m, w);
  const out = new ByteWriter(m.size);
  writeAll(out, w);
  return out.buf;
}

/**
 * The world `bytes` encode, or why they do not. Never throws on any input
 * (an exception other than a DecodeFailure would be a codec bug); its work is
 * linear in the length of `bytes`. The world shares no memory with `bytes`,
 * and its `field` is frozen as createWorld makes it.
 */
export function decodeWorld(bytes: Uint8Array): WorldDecodeResult {
  const r = new Reader(bytes);
  try {
    if (r.u8() !== WORLD_FORMAT_VERSION) fail('bad-version');
    const w = world.read(r);
    if (r.remaining() > 0) fail('trailing-bytes');
    Object.freeze(w.field);
    return { ok: true, world: w };
  } catch (e) {
    // Only decode failures are expected here; anything else is a codec bug and must surface in tests.
    if (e instanceof DecodeFailure) return { ok: false, reason: e.reason };
    throw e;
  }
}
