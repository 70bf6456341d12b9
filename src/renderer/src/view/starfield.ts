/**
 * The sky, in three layers so motion reads: a backdrop (a sphere of soft
 * nebula bands on near-black, coloured per vertex), the stars on a far sphere
 * (both follow the camera, so they never get closer), and near dust: specks
 * in world space, in a cube round the camera, that the ship flies past
 * (parallax). A speck that falls out of the cube on one side comes back on
 * the other, so there are always some near; the specks fade towards the
 * cube's faces so none pops in. Three draws in all (one Points each for stars
 * and dust). Visual only: the simulation never sees any of it, so
 * Math.random is fine (the backdrop uses a fixed seed: the same sky every run).
 */
import * as THREE from 'three';
import type { Vec3 } from '../../../shared/sim/types';
import { MAX_DUST, MAX_STARS, QUALITY, type QualityProfile } from './quality';

/** Side of the cube of dust round the camera (units). */
export const DUST_BOX = 360;
const STAR_RADIUS = 2500;
/** Beyond the stars, inside the camera's far plane (5000). */
const BACKDROP_RADIUS = 3200;

const DUST_VERTEX = `
  attribute float shade;
  varying float vA;
  uniform float scale;
  uniform float reach;
  void main() {
    vec4 mv = modelViewMatrix * vec4(position, 1.0);
    float d = length(mv.xyz);
    gl_PointSize = clamp(0.35 * scale / max(0.5, -mv.z), 1.0, 3.5);
    // Faint far off (where the cube wraps) and right at the lens.
    vA = shade * (1.0 - smoothstep(0.45 * reach, reach, d)) * smoothstep(1.5, 6.0, d);
    gl_Position = projectionMatrix * mv;
  }`;
const DUST_FRAGMENT = `
  varying float vA;
  void main() {
    vec2 c = gl_PointCoord - vec2(0.5);
    float a = vA * smoothstep(0.5, 0.15, length(c));
    if (a <= 0.0) discard;
    gl_FragColor = vec4(vec3(0.72, 0.78, 0.9) * a, a);
  }`;

export class Starfield {
  private readonly stars: THREE.Points;
  private readonly dust: THREE.Points;
  private readonly backdrop: THREE.Mesh;
  /** The dust's world positions (x, y, z per speck), wrapped into the cube round the camera by `update`. */
  readonly dustPositions: Float32Array;
  private readonly dustMaterial: THREE.ShaderMaterial;
  private dustCount: number;

  constructor(private readonly scene: THREE.Scene, quality: QualityProfile = QUALITY.medium) {
    this.stars = makeStars(MAX_STARS, STAR_RADIUS);
    this.backdrop = makeBackdrop(BACKDROP_RADIUS);
    this.dustPositions = new Float32Array(MAX_DUST * 3);
    const shade = new Float32Array(MAX_DUST);
    for (let i = 0; i < MAX_DUST; i++) {
      for (let a = 0; a < 3; a++) this.dustPositions[i * 3 + a] = (Math.random() - 0.5) * DUST_BOX;
      shade[i] = 0.35 + 0.65 * Math.random() ** 2;
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(this.dustPositions, 3).setUsage(THREE.DynamicDrawUsage));
    g.setAttribute('shade', new THREE.BufferAttribute(shade, 1));
    this.dustMaterial = new THREE.ShaderMaterial({
      uniforms: { scale: { value: 500 }, reach: { value: DUST_BOX / 2 } },
      vertexShader: DUST_VERTEX,
      fragmentShader: DUST_FRAGMENT,
      transparent: true,
      depthWrite: false,
      blending: THREE.AdditiveBlending,
    });
    this.dust = new THREE.Points(g, this.dustMaterial);
    // Its points move every frame: the bounding sphere would go stale.
    this.dust.frustumCulled = false;
    this.dustCount = quality.dust;
    this.setQuality(quality);
    scene.add(this.backdrop, this.stars, this.dust);
  }

  /** Stars and dust of `q` (a level draws the first of each). */
  setQuality(q: QualityProfile): void {
    this.stars.geometry.setDrawRange(0, q.stars);
    this.dustCount = q.dust;
    this.dust.geometry.setDrawRange(0, q.dust);
  }

  /** Stars and specks of dust drawn (for tests: the `scene()` page hook). */
  get drawn(): { stars: number; dust: number; backdrop: boolean } {
    return { stars: this.stars.visible ? this.stars.geometry.drawRange.count : 0, dust: this.dust.visible ? this.dustCount : 0, backdrop: this.backdrop.visible };
  }

  /**
   * For the frame about to be drawn from `camera` at `camera.position`: the far
   * layers centred on it, each speck of dust that left the cube round it put
   * back on the far side; `viewHeightPx` (the drawing buffer's height over the
   * view's height at distance 1) sizes the specks.
   */
  update(camera: Vec3, viewHeightPx: number): void {
    this.stars.position.set(camera.x, camera.y, camera.z);
    this.backdrop.position.set(camera.x, camera.y, camera.z);
    this.dustMaterial.uniforms['scale']!.value = viewHeightPx;
    if (wrapDust(this.dustPositions, camera, DUST_BOX)) (this.dust.geometry.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
  }

  dispose(): void {
    this.scene.remove(this.backdrop, this.stars, this.dust);
    for (const o of [this.stars, this.dust, this.backdrop]) {
      o.geometry.dispose();
      (o.material as THREE.Material).dispose();
    }
  }
}

/**
 * Puts every point of `pos` (x, y, z each) that lies outside the cube of side
 * `box` centred on `centre` back inside it, moved by whole sides along each
 * axis (so the pattern stays the same, only shifted). Returns whether any moved.
 */
export function wrapDust(pos: Float32Array, centre: Vec3, box: number): boolean {
  const half = box / 2;
  const c = [centre.x, centre.y, centre.z];
  let moved = false;
  for (let i = 0; i < pos.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const d = pos[i + a]! - c[a]!;
      if (d >= -half && d < half) continue;
      pos[i + a] = c[a]! + (((((d + half) % box) + box) % box) - half);
      moved = true;
    }
  }
  return moved;
}

/** Stars on a far sphere that follows the camera (so they never get closer), a few brighter and tinted. */
function makeStars(count: number, radius: number): THREE.Points {
  const pos = new Float32Array(count * 3);
  const colour = new Float32Array(count * 3);
  const tints = [
    [1, 1, 1],
    [0.75, 0.85, 1],
    [1, 0.9, 0.75],
  ];
  for (let i = 0; i < count; i++) {
    const u = Math.random() * 2 - 1;
    const t = Math.random() * Math.PI * 2;
    const s = Math.sqrt(1 - u * u);
    pos.set([radius * s * Math.cos(t), radius * u, radius * s * Math.sin(t)], i * 3);
    const tint = tints[i % 3]!;
    const b = 0.45 + 0.55 * Math.random() ** 3;
    colour.set([tint[0]! * b, tint[1]! * b, tint[2]! * b], i * 3);
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  g.setAttribute('color', new THREE.BufferAttribute(colour, 3));
  const stars = new THREE.Points(g, new THREE.PointsMaterial({ size: 2, sizeAttenuation: false, vertexColors: true, depthWrite: false }));
  stars.renderOrder = -9;
  stars.frustumCulled = false;
  return stars;
}

/** A seeded stand-in for Math.random: the backdrop is the same every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * The backdrop: a sphere seen from inside, near-black with a faint cool
 * gradient, crossed by a few soft nebula bands (each a great circle, its
 * brightness broken up by a couple of waves), coloured per vertex: one draw,
 * no texture.
 */
function makeBackdrop(radius: number): THREE.Mesh {
  const random = seeded(25);
  const g = new THREE.SphereGeometry(radius, 96, 48);
  const unit = (): THREE.Vector3 => new THREE.Vector3(random() * 2 - 1, random() * 2 - 1, random() * 2 - 1).normalize();
  const bands = [
    { colour: new THREE.Color(0x5a2a78), strength: 0.17 },
    { colour: new THREE.Color(0x1e5a74), strength: 0.11 },
    { colour: new THREE.Color(0x6a3424), strength: 0.1 },
  ].map((b) => ({ ...b, normal: unit(), width: 0.12 + random() * 0.16, waves: [0, 1].map(() => ({ axis: unit(), k: 3 + random() * 5, phase: random() * 6.28 })) }));
  const pos = g.getAttribute('position') as THREE.BufferAttribute;
  const colours = new Float32Array(pos.count * 3);
  const d = new THREE.Vector3();
  const c = new THREE.Color();
  for (let i = 0; i < pos.count; i++) {
    d.fromBufferAttribute(pos, i).normalize();
    // Near-black, a touch bluer overhead.
    c.setRGB(0.0006, 0.0006, 0.002 + 0.002 * (0.5 + 0.5 * d.y));
    for (const b of bands) {
      const x = d.dot(b.normal);
      const across = Math.exp(-(x * x) / (b.width * b.width));
      const [w1, w2] = b.waves;
      const wave = 0.5 + 0.5 * Math.sin(d.dot(w1!.axis) * w1!.k + w1!.phase) * Math.sin(d.dot(w2!.axis) * w2!.k + w2!.phase);
      const f = b.strength * across * (0.25 + 0.75 * wave);
      c.r += b.colour.r * f;
      c.g += b.colour.g * f;
      c.b += b.colour.b * f;
    }
    colours.set([c.r, c.g, c.b], i * 3);
  }
  g.setAttribute('color', new THREE.BufferAttribute(colours, 3));
  const mesh = new THREE.Mesh(g, new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.BackSide, depthWrite: false, depthTest: false, fog: false }));
  mesh.renderOrder = -10;
  mesh.frustumCulled = false;
  return mesh;
}
