/**
 * The scene's effects, drawn from one particle pool (particlePool.ts) in a
 * single Points draw, and a few pooled shock rings: explosions (a flash,
 * fire, sparks, slow grey debris and a ring), shield hits (blue sparks), hull hits (orange
 * sparks), smoke from badly damaged ships, missile exhaust trails, the
 * sparkle of an extra taken (in its colour), the glints drifting round an
 * energy field, an EMP's blue shock ring, and the camera shake when our own
 * ship is hit. Visual only: the simulation never
 * sees any of it, so Math.random is fine here.
 */
import * as THREE from 'three';
import type { Vec3 } from '../../../shared/sim/types';
import { ParticlePool } from './particlePool';

/** Particles in the pool: enough for 300 missile trails and 20 explosions at once. */
export const PARTICLE_CAPACITY = 6000;
const RINGS = 20;
const RING_MS = 600;

/** How long an explosion counts as burning (ms): its fire's longest life. */
const EXPLOSION_MS = 1200;

/** Missile trail particles per second of each missile. */
const TRAIL_RATE = 60;

const VERTEX = `
  attribute float size;
  attribute vec3 tint;
  varying vec3 vTint;
  uniform float scale;
  void main() {
    vTint = tint;
    vec4 mv = modelViewMatrix * vec4(position, 1.0);
    gl_PointSize = size * scale / max(0.1, -mv.z);
    gl_Position = projectionMatrix * mv;
  }`;
const FRAGMENT = `
  varying vec3 vTint;
  void main() {
    vec2 d = gl_PointCoord - vec2(0.5);
    float a = smoothstep(0.5, 0.0, length(d));
    if (a <= 0.0) discard;
    gl_FragColor = vec4(vTint * a, a);
  }`;

/** Colour of an explosion's shock ring. */
const FIRE_RING = 0xffd8a0;

/** Glints round an energy field per second (each field; fewer when the field is far). */
const GLINT_RATE = 5;

/** One of the pooled shock rings (made once; `live` while it grows). */
interface Ring {
  mesh: THREE.Mesh;
  material: THREE.MeshBasicMaterial;
  startMs: number;
  size: number;
  ms: number;
  live: boolean;
}

export class Effects {
  readonly pool = new ParticlePool(PARTICLE_CAPACITY);
  private readonly geometry = new THREE.BufferGeometry();
  private readonly positions = new Float32Array(PARTICLE_CAPACITY * 3);
  private readonly tints = new Float32Array(PARTICLE_CAPACITY * 3);
  private readonly sizes = new Float32Array(PARTICLE_CAPACITY);
  private readonly material = new THREE.ShaderMaterial({
    uniforms: { scale: { value: 300 } },
    vertexShader: VERTEX,
    fragmentShader: FRAGMENT,
    transparent: true,
    depthWrite: false,
    blending: THREE.AdditiveBlending,
  });
  private readonly points: THREE.Points;
  private readonly ringGeometry = new THREE.RingGeometry(0.8, 1, 48);
  /** Every ring, made once; the live ones are drawn, the oldest is reused when all are. */
  private readonly rings: Ring[] = [];
  /** When each explosion still burning started (ms, the clock `update` is given). */
  private readonly explosionsAt: number[] = [];
  /** Pickup sparkles and EMP rings started since the view was made (for tests: the `scene()` page hook). */
  sparkles = 0;
  empRings = 0;
  /** Glints emitted round energy fields since the view was made. */
  glints = 0;
  /** Glints owed to the fields (fractions carried between frames). */
  private glintDebt = 0;

  private lastMs: number | null = null;
  /** Trail particles owed to each missile (fractions carried between frames). */
  private trailDebt = 0;
  private shake = 0;
  /** Off (`r_effects 0`): nothing is emitted or drawn, and the camera keeps still. */
  private on = true;
  private readonly shakeOffset = new THREE.Vector3();

  /** Turns the effects on or off; off clears what is flying. */
  setEnabled(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    this.points.visible = on;
    if (!on) {
      this.pool.clear();
      for (const r of this.rings) this.endRing(r);
      this.explosionsAt.length = 0;
      this.shake = 0;
    }
  }

  get enabled(): boolean {
    return this.on;
  }

  constructor(private readonly scene: THREE.Scene) {
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage));
    this.geometry.setAttribute('tint', new THREE.BufferAttribute(this.tints, 3).setUsage(THREE.DynamicDrawUsage));
    this.geometry.setAttribute('size', new THREE.BufferAttribute(this.sizes, 1).setUsage(THREE.DynamicDrawUsage));
    this.points = new THREE.Points(this.geometry, this.material);
    this.points.frustumCulled = false;
    this.points.renderOrder = 5;
    scene.add(this.points);
    for (let i = 0; i < RINGS; i++) {
      const material = new THREE.MeshBasicMaterial({ color: FIRE_RING, transparent: true, opacity: 0.8, blending: THREE.AdditiveBlending, depthWrite: false, side: THREE.DoubleSide });
      const mesh = new THREE.Mesh(this.ringGeometry, material);
      mesh.visible = false;
      mesh.renderOrder = 5;
      scene.add(mesh);
      this.rings.push({ mesh, material, startMs: 0, size: 0, ms: RING_MS, live: false });
    }
  }

  /** A ship (or anything big) blowing up at `pos`. */
  explosion(pos: Vec3, nowMs: number, drift?: Vec3): void {
    if (!this.on) return;
    const at = { x: pos.x, y: pos.y, z: pos.z, ...(drift ? { drift } : {}) };
    this.pool.emit({ ...at, count: 90, speed: [4, 28], life: [0.5, 1.2], colour: 0xd07028, size: [2, 4], drag: 1.2 });
    this.pool.emit({ ...at, count: 50, speed: [30, 70], life: [0.3, 0.8], colour: 0xfff0b0, size: [0.8, 1.6], drag: 0.6 });
    this.pool.emit({ ...at, count: 24, speed: [5, 15], life: [1.5, 3], colour: 0x606468, size: [1.2, 2.2], drag: 0.3 });
    // The flash: a few large, short-lived, almost white particles.
    this.pool.emit({ ...at, count: 5, speed: [0, 3], life: [0.12, 0.25], colour: 0xfff0d0, size: [12, 18] });
    this.ring(pos, nowMs, 26, RING_MS, FIRE_RING);
    this.explosionsAt.push(nowMs);
  }

  /** An extra taken at `pos`: a short sparkle of bright points in its `colour` (0xRRGGBB), with a white glitter. */
  sparkle(pos: Vec3, colour: number): void {
    if (!this.on) return;
    this.pool.emit({ x: pos.x, y: pos.y, z: pos.z, count: 26, speed: [6, 18], life: [0.3, 0.8], colour, size: [0.8, 1.8], drag: 2.5 });
    this.pool.emit({ x: pos.x, y: pos.y, z: pos.z, count: 8, speed: [2, 8], life: [0.2, 0.5], colour: 0xffffff, size: [0.5, 1], drag: 2 });
    this.sparkles++;
  }

  /** An EMP set off at `pos`: a flat blue shock ring growing to `radius` (the pulse's reach) over `ms`. */
  empRing(pos: Vec3, nowMs: number, radius: number, ms: number): void {
    if (!this.on) return;
    this.ring(pos, nowMs, radius, ms, 0x80a0ff);
    this.empRings++;
  }

  /**
   * An energy field of `radius` at `pos` shimmers: now and then a slow glint
   * on its surface drifts and fades. Called every frame for every field drawn;
   * `share` (0..1) thins them out (a far field needs few).
   */
  fieldGlints(pos: Vec3, radius: number, dtS: number, share = 1): void {
    if (!this.on) return;
    this.glintDebt += GLINT_RATE * share * Math.min(0.1, dtS);
    while (this.glintDebt >= 1) {
      this.glintDebt -= 1;
      // A point on (or just inside) the field's surface, in a random direction.
      const u = Math.random() * 2 - 1;
      const t = Math.random() * Math.PI * 2;
      const s = Math.sqrt(1 - u * u);
      const r = radius * (0.85 + 0.15 * Math.random());
      this.pool.emit({ x: pos.x + r * s * Math.cos(t), y: pos.y + r * u, z: pos.z + r * s * Math.sin(t), count: 1, speed: [0.5, 2], life: [1.2, 2.4], colour: 0xa0ffc8, size: [2.2, 4], drag: 0.2 });
      this.glints++;
    }
  }

  /** Explosions still burning (for tests: the `scene()` page hook). */
  get explosions(): number {
    return this.explosionsAt.length;
  }

  /** Something hit a shield at `pos`. */
  shieldHit(pos: Vec3): void {
    if (!this.on) return;
    this.pool.emit({ x: pos.x, y: pos.y, z: pos.z, count: 18, speed: [8, 22], life: [0.2, 0.5], colour: 0x60b0ff, size: [1, 2], drag: 2 });
  }

  /** Something hit the hull at `pos`. */
  hullHit(pos: Vec3): void {
    if (!this.on) return;
    this.pool.emit({ x: pos.x, y: pos.y, z: pos.z, count: 14, speed: [10, 30], life: [0.2, 0.6], colour: 0xffb050, size: [0.7, 1.4], drag: 1 });
  }

  /** A puff of smoke from a damaged ship at `pos` (called often: it emits only sometimes). */
  smoke(pos: Vec3, drift: Vec3, share: number): void {
    if (!this.on || Math.random() > share) return;
    this.pool.emit({ x: pos.x, y: pos.y, z: pos.z, count: 1, speed: [1, 3], life: [0.8, 1.6], colour: 0x3a3a40, size: [2, 3.5], drift, drag: 0.5 });
  }

  /** Exhaust behind each missile in `missiles` for the time since the last frame. */
  trails(missiles: readonly THREE.Object3D[], dtS: number): void {
    if (!this.on) return;
    this.trailDebt += TRAIL_RATE * Math.min(0.1, dtS);
    const each = Math.floor(this.trailDebt);
    this.trailDebt -= each;
    if (each === 0) return;
    for (const m of missiles) {
      this.pool.emit({ x: m.position.x, y: m.position.y, z: m.position.z, count: each, speed: [0.5, 2], life: [0.4, 0.9], colour: 0xffa860, size: [1, 2], drag: 1 });
    }
  }

  /** Our own ship was hit: the camera shakes a little, more for a harder hit (0..1). */
  jolt(strength: number): void {
    if (!this.on) return;
    this.shake = Math.min(1, this.shake + strength);
  }

  /** The camera's shake for this frame (added to its position), decaying. */
  shakeFor(dtS: number): THREE.Vector3 {
    this.shake = Math.max(0, this.shake - dtS * 2.5);
    const a = 0.6 * this.shake * this.shake;
    return this.shakeOffset.set((Math.random() - 0.5) * a, (Math.random() - 0.5) * a, 0);
  }

  /** Moves everything on to `nowMs`; rings turn to face `camera`. Returns seconds since the last frame. */
  update(nowMs: number, camera: THREE.Camera, viewHeightPx: number): number {
    const dt = this.lastMs === null ? 0 : Math.min(0.1, Math.max(0, (nowMs - this.lastMs) / 1000));
    this.lastMs = nowMs;
    const pool = this.pool;
    pool.step(dt);
    for (let i = 0; i < pool.capacity; i++) {
      const f = pool.fade(i);
      for (let a = 0; a < 3; a++) {
        this.positions[i * 3 + a] = pool.pos[i * 3 + a]!;
        this.tints[i * 3 + a] = pool.colour[i * 3 + a]! * f;
      }
      this.sizes[i] = f > 0 ? pool.size[i]! : 0;
    }
    for (const name of ['position', 'tint', 'size']) (this.geometry.getAttribute(name) as THREE.BufferAttribute).needsUpdate = true;
    this.material.uniforms['scale']!.value = viewHeightPx;
    while (this.explosionsAt.length > 0 && nowMs - this.explosionsAt[0]! >= EXPLOSION_MS) this.explosionsAt.shift();
    for (const r of this.rings) {
      if (!r.live) continue;
      const t = (nowMs - r.startMs) / r.ms;
      if (t >= 1 || t < 0) {
        this.endRing(r);
        continue;
      }
      r.mesh.quaternion.copy(camera.quaternion);
      // Quick at first, slowing as it spreads (an ease-out), so a big EMP ring reads as a blast.
      const grow = 1 - (1 - t) * (1 - t);
      r.mesh.scale.setScalar(1 + r.size * grow);
      r.material.opacity = 0.8 * (1 - t);
    }
    return dt;
  }

  /** Rings growing now. */
  get ringsLive(): number {
    let n = 0;
    for (const r of this.rings) if (r.live) n++;
    return n;
  }

  dispose(): void {
    for (const r of this.rings) {
      this.scene.remove(r.mesh);
      r.material.dispose();
    }
    this.rings.length = 0;

    this.scene.remove(this.points);
    this.geometry.dispose();
    this.material.dispose();
    this.ringGeometry.dispose();
  }

  /** Starts a ring from the pool: a free one, else the one started longest ago. */
  private ring(pos: Vec3, nowMs: number, size: number, ms: number, colour: number): void {
    let r = this.rings.find((x) => !x.live);
    if (!r) r = this.rings.reduce((a, b) => (b.startMs < a.startMs ? b : a));
    r.live = true;
    r.startMs = nowMs;
    r.size = size;
    r.ms = ms;
    r.material.color.setHex(colour);
    r.material.opacity = 0.8;
    r.mesh.scale.setScalar(1);
    r.mesh.position.set(pos.x, pos.y, pos.z);
    r.mesh.visible = true;
  }

  private endRing(r: Ring): void {
    r.live = false;
    r.mesh.visible = false;
  }
}
