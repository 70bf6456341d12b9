import * as THREE from 'three';
import type { Laser, Quat, Vec3, World } from '../../../shared/sim/types';

const CHASE_OFFSET = new THREE.Vector3(0, 3.2, 13);

/**
 * The three.js view of a World. It owns every GPU object it makes and frees
 * them in `dispose`. `render(prev, curr, alpha)` draws the state `alpha` of
 * the way from `prev` to `curr` (matched by object id), so motion is smooth
 * at any display rate although the simulation runs at 40 Hz.
 */
export class SceneView {
  readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(70, 1, 0.5, 5000);
  private readonly stars: THREE.Points;
  private readonly asteroidGeometry = new THREE.IcosahedronGeometry(1, 1);
  private readonly asteroidMaterial = new THREE.MeshStandardMaterial({ color: 0x8a8278, flatShading: true, roughness: 0.9 });
  private readonly shipGeometry = makeShipGeometry();
  private readonly shipMaterial = new THREE.MeshStandardMaterial({ color: 0x9fc4ff, flatShading: true, metalness: 0.3, roughness: 0.5 });
  private readonly laserGeometry = new THREE.BoxGeometry(0.25, 0.25, 6);
  private readonly laserMaterial = new THREE.MeshBasicMaterial({ color: 0xff4040 });
  private readonly meshes = new Map<string, THREE.Mesh>();
  private readonly tmpA = new THREE.Quaternion();
  private readonly tmpB = new THREE.Quaternion();
  private readonly resizeObserver: ResizeObserver;

  constructor(
    private readonly container: HTMLElement,
    private localShipId: number,
  ) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    container.appendChild(this.renderer.domElement);
    this.scene.background = new THREE.Color(0x000004);
    this.scene.add(new THREE.AmbientLight(0x404860, 1.2));
    const sun = new THREE.DirectionalLight(0xfff4e0, 2.2);
    sun.position.set(0.6, 0.8, 0.3);
    this.scene.add(sun);
    this.stars = makeStars(3000, 2500);
    this.scene.add(this.stars);
    this.scene.add(this.camera);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  /** The canvas (pointer lock target). */
  get canvas(): HTMLCanvasElement {
    return this.renderer.domElement;
  }

  private resize(): void {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  render(prev: World, curr: World, alpha: number): void {
    const seen = new Set<string>();
    const prevShips = indexById(prev.ships);
    for (const ship of curr.ships) {
      const mesh = this.mesh(`s${ship.id}`, this.shipGeometry, this.shipMaterial, 1);
      this.place(mesh, prevShips.get(ship.id) ?? ship, ship, alpha);
      seen.add(`s${ship.id}`);
      if (ship.id === this.localShipId) this.chase(mesh);
    }
    const prevRocks = indexById(prev.asteroids);
    for (const rock of curr.asteroids) {
      const mesh = this.mesh(`a${rock.id}`, this.asteroidGeometry, this.asteroidMaterial, rock.radius);
      this.place(mesh, prevRocks.get(rock.id) ?? rock, rock, alpha);
      seen.add(`a${rock.id}`);
    }
    const prevLasers = indexById(prev.lasers);
    for (const laser of curr.lasers) {
      const mesh = this.mesh(`l${laser.id}`, this.laserGeometry, this.laserMaterial, 1);
      const from = prevLasers.get(laser.id) ?? laser;
      lerpInto(mesh.position, from.pos, laser.pos, alpha);
      orientAlong(mesh, laser);
      seen.add(`l${laser.id}`);
    }
    for (const [key, mesh] of this.meshes) {
      if (!seen.has(key)) {
        this.scene.remove(mesh);
        this.meshes.delete(key);
      }
    }
    this.stars.position.copy(this.camera.position);
    this.renderer.render(this.scene, this.camera);
  }

  private mesh(key: string, geometry: THREE.BufferGeometry, material: THREE.Material, scale: number): THREE.Mesh {
    let mesh = this.meshes.get(key);
    if (!mesh) {
      mesh = new THREE.Mesh(geometry, material);
      mesh.scale.setScalar(scale);
      this.meshes.set(key, mesh);
      this.scene.add(mesh);
    }
    return mesh;
  }

  private place(mesh: THREE.Object3D, a: { pos: Vec3; rot: Quat }, b: { pos: Vec3; rot: Quat }, alpha: number): void {
    lerpInto(mesh.position, a.pos, b.pos, alpha);
    this.tmpA.set(a.rot.x, a.rot.y, a.rot.z, a.rot.w);
    this.tmpB.set(b.rot.x, b.rot.y, b.rot.z, b.rot.w);
    mesh.quaternion.slerpQuaternions(this.tmpA, this.tmpB, alpha);
  }

  private chase(ship: THREE.Object3D): void {
    this.camera.quaternion.copy(ship.quaternion);
    this.camera.position.copy(CHASE_OFFSET).applyQuaternion(ship.quaternion).add(ship.position);
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    for (const mesh of this.meshes.values()) this.scene.remove(mesh);
    this.meshes.clear();
    this.stars.geometry.dispose();
    (this.stars.material as THREE.Material).dispose();
    for (const d of [this.asteroidGeometry, this.asteroidMaterial, this.shipGeometry, this.shipMaterial, this.laserGeometry, this.laserMaterial]) d.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}

function indexById<T extends { id: number }>(items: readonly T[]): Map<number, T> {
  const m = new Map<number, T>();
  for (const it of items) m.set(it.id, it);
  return m;
}

function lerpInto(out: THREE.Vector3, a: Vec3, b: Vec3, t: number): void {
  out.set(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}

const FORWARD = new THREE.Vector3(0, 0, -1);
const dir = new THREE.Vector3();
function orientAlong(mesh: THREE.Object3D, laser: Laser): void {
  dir.set(laser.vel.x, laser.vel.y, laser.vel.z);
  if (dir.lengthSq() > 1e-9) mesh.quaternion.setFromUnitVectors(FORWARD, dir.normalize());
}

/** A small arrow-shaped hull: nose at -Z (the simulation's forward). */
function makeShipGeometry(): THREE.BufferGeometry {
  const v = [
    [0, 0, -4], // nose
    [-2.6, 0, 2], // left wing
    [2.6, 0, 2], // right wing
    [0, 1, 1.6], // canopy
    [0, -0.6, 1.8], // keel
  ];
  const faces = [
    [0, 3, 1], [0, 2, 3], [1, 3, 2], // top
    [0, 1, 4], [0, 4, 2], [1, 2, 4], // bottom
  ];
  const pos: number[] = [];
  for (const f of faces) for (const i of f) pos.push(...(v[i] as number[]));
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.computeVertexNormals();
  return g;
}

/** Stars on a far sphere that follows the camera (so they never get closer). Visual only: Math.random is fine here. */
function makeStars(count: number, radius: number): THREE.Points {
  const pos = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    const u = Math.random() * 2 - 1;
    const t = Math.random() * Math.PI * 2;
    const s = Math.sqrt(1 - u * u);
    pos.set([radius * s * Math.cos(t), radius * u, radius * s * Math.sin(t)], i * 3);
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  return new THREE.Points(g, new THREE.PointsMaterial({ color: 0xffffff, size: 2, sizeAttenuation: false }));
}

