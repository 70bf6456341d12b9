/**
 * The particles of every effect in one fixed pool (no allocation while
 * playing): position, velocity, colour, size and life per particle in flat
 * arrays, so 300 missile trails and 20 explosions cost one draw call. A full
 * pool reuses its oldest particle. Pure data and arithmetic; the scene copies
 * the live ones into a three.js Points buffer (effects.ts).
 */

export interface Burst {
  x: number;
  y: number;
  z: number;
  /** Particles to emit. */
  count: number;
  /** Speed range of the particles (units/s), in random directions. */
  speed: [number, number];
  /** Life range (s). */
  life: [number, number];
  /** Colour (0xRRGGBB) the particles start with; they fade to nothing. */
  colour: number;
  /** Size range (units). */
  size: [number, number];
  /** Velocity the whole burst carries (the ship or missile it came from), units/s. */
  drift?: { x: number; y: number; z: number };
  /** Slowing per second (0: none, 1: stops in about a second). */
  drag?: number;
}

export class ParticlePool {
  readonly pos: Float32Array;
  readonly vel: Float32Array;
  readonly colour: Float32Array;
  readonly size: Float32Array;
  readonly age: Float32Array;
  readonly life: Float32Array;
  readonly drag: Float32Array;
  /** The next slot to use (a ring: when full, the oldest is reused). */
  private next = 0;

  constructor(
    readonly capacity: number,
    private readonly random: () => number = Math.random,
  ) {
    this.pos = new Float32Array(capacity * 3);
    this.vel = new Float32Array(capacity * 3);
    this.colour = new Float32Array(capacity * 3);
    this.size = new Float32Array(capacity);
    this.age = new Float32Array(capacity).fill(1);
    this.life = new Float32Array(capacity).fill(1);
    this.drag = new Float32Array(capacity);
  }

  /** Particles alive now. */
  alive(): number {
    let n = 0;
    for (let i = 0; i < this.capacity; i++) if (this.age[i]! < this.life[i]!) n++;
    return n;
  }

  /** Emits `b.count` particles from one point in random directions. */
  emit(b: Burst): void {
    const r = (b.colour >> 16) / 255;
    const g = ((b.colour >> 8) & 0xff) / 255;
    const bl = (b.colour & 0xff) / 255;
    for (let k = 0; k < b.count; k++) {
      const i = this.next;
      this.next = (this.next + 1) % this.capacity;
      // A random direction: a point in the unit ball, pushed out to its surface.
      let dx: number, dy: number, dz: number, len: number;
      do {
        dx = this.random() * 2 - 1;
        dy = this.random() * 2 - 1;
        dz = this.random() * 2 - 1;
        len = Math.hypot(dx, dy, dz);
      } while (len > 1 || len < 1e-3);
      const speed = between(b.speed, this.random());
      this.pos.set([b.x, b.y, b.z], i * 3);
      this.vel.set([(dx / len) * speed + (b.drift?.x ?? 0), (dy / len) * speed + (b.drift?.y ?? 0), (dz / len) * speed + (b.drift?.z ?? 0)], i * 3);
      this.colour.set([r, g, bl], i * 3);
      this.size[i] = between(b.size, this.random());
      this.age[i] = 0;
      this.life[i] = Math.max(0.01, between(b.life, this.random()));
      this.drag[i] = b.drag ?? 0;
    }
  }

  /** Ends every particle. */
  clear(): void {
    this.age.fill(1);
    this.life.fill(1);
  }

  /** Moves every live particle on by `dt` seconds. */
  step(dt: number): void {
    if (!(dt > 0)) return;
    for (let i = 0; i < this.capacity; i++) {
      if (this.age[i]! >= this.life[i]!) continue;
      this.age[i] = this.age[i]! + dt;
      const keep = Math.max(0, 1 - this.drag[i]! * dt);
      for (let a = 0; a < 3; a++) {
        const j = i * 3 + a;
        this.vel[j] = this.vel[j]! * keep;
        this.pos[j] = this.pos[j]! + this.vel[j]! * dt;
      }
    }
  }

  /** How much of particle i is left, 1 new … 0 gone. */
  fade(i: number): number {
    const t = this.age[i]! / this.life[i]!;
    return t >= 1 ? 0 : 1 - t;
  }
}

const between = (range: [number, number], u: number): number => range[0] + (range[1] - range[0]) * u;
