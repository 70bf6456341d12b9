/**
 * The hash function of determinism checks: FNV-1a 64-bit over the
 * little-endian float64 bit pattern of each number fed in. Any difference,
 * down to one ulp or the sign of zero, changes the result with overwhelming
 * probability. The 64-bit multiply is done in two 32-bit halves with
 * Math.imul, so results are identical on every engine (Node and Chromium).
 * What is fed in, and in which order, is hash.ts's and each entity kind's
 * business (registry.ts).
 */
import type { Quat, Vec3 } from './types';

/** Incremental FNV-1a 64 state as two uint32 halves. */
export class Hasher {
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

  /** A short ASCII tag (an object kind's name): its char codes, then its length. */
  text(t: string): void {
    for (let i = 0; i < t.length; i++) this.byte(t.charCodeAt(i) & 0xff);
    this.byte(t.length & 0xff);
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
