/**
 * World hashing for determinism checks (lockstep desync detection, tests).
 *
 * FNV-1a 64-bit over the little-endian float64 bit pattern of every numeric
 * field, in a fixed order (counts included, so moving an entity between
 * arrays changes the hash). Any difference in any field, down to one ulp or
 * the sign of zero, changes the hash with overwhelming probability. The
 * 64-bit multiply is done in two 32-bit halves with Math.imul, so results are
 * identical on every engine. When a field is added to a shape in types.ts it
 * must be added here too.
 */
import type { Asteroid, Laser, Quat, Ship, Vec3, World } from './types';

/** Incremental FNV-1a 64 state as two uint32 halves. */
class Fnv1a64 {
  private hi = 0xcbf29ce4;
  private lo = 0x84222325;
  private readonly view = new DataView(new ArrayBuffer(8));

  byte(b: number): void {
    const lo = (this.lo ^ b) >>> 0;
    // (hi·2^32 + lo) · (2^40 + 0x1b3) mod 2^64
    const loMul = lo * 0x1b3; // < 2^41: exact
    const carry = Math.floor(loMul / 4294967296);
    this.lo = loMul >>> 0;
    this.hi = (Math.imul(this.hi, 0x1b3) + carry + (lo << 8)) >>> 0;
  }

  num(v: number): void {
    if (v !== v) {
      // Canonical quiet NaN: engines may write different NaN payloads.
      this.view.setUint32(0, 0, true);
      this.view.setUint32(4, 0x7ff80000, true);
    } else {
      this.view.setFloat64(0, v, true);
    }
    for (let i = 0; i < 8; i++) this.byte(this.view.getUint8(i));
  }

  vec(v: Vec3): void {
    this.num(v.x);
    this.num(v.y);
    this.num(v.z);
  }

  quat(q: Quat): void {
    this.num(q.x);
    this.num(q.y);
    this.num(q.z);
    this.num(q.w);
  }

  hex(): string {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}

function ship(h: Fnv1a64, s: Ship): void {
  h.num(s.id);
  h.num(s.slot);
  h.vec(s.pos);
  h.vec(s.vel);
  h.quat(s.rot);
  h.vec(s.angVel);
  h.num(s.energy);
  h.num(s.damage);
  h.num(s.fireCooldown);
  h.num(s.lastHitBy);
}

function laser(h: Fnv1a64, l: Laser): void {
  h.num(l.id);
  h.num(l.owner);
  h.vec(l.pos);
  h.vec(l.vel);
  h.num(l.ttl);
}

function asteroid(h: Fnv1a64, a: Asteroid): void {
  h.num(a.id);
  h.vec(a.pos);
  h.vec(a.vel);
  h.quat(a.rot);
  h.vec(a.spin);
  h.num(a.radius);
}

/**
 * 16 hex digits: FNV-1a 64 of every numeric field of `world` in a fixed order
 * (tick, rng, nextId, then ships, lasers, asteroids, each preceded by its
 * count, each entity's fields in declaration order). Pure; does not mutate.
 */
export function hashWorld(world: World): string {
  const h = new Fnv1a64();
  h.num(world.tick);
  h.num(world.rng);
  h.num(world.nextId);
  h.num(world.ships.length);
  for (const s of world.ships) ship(h, s);
  h.num(world.lasers.length);
  for (const l of world.lasers) laser(h, l);
  h.num(world.asteroids.length);
  for (const a of world.asteroids) asteroid(h, a);
  return h.hex();
}
