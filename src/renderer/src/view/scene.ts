/**
 * The game's 3-D view (three.js): the host's world views drawn smoothly
 * between ticks, the camera chasing our ship, the sky (starfield.ts: backdrop,
 * stars, near dust), the asteroids, every object's shape, the halos and the
 * effects; the other players' ships are remoteShips.ts's.
 */
import * as THREE from 'three';
import type { Quat, Vec3 } from '../../../shared/sim/types';
import type { AsteroidView, ObjectView, ShipView, WorldView } from '../../../shared/game/view';
import { EXTRA_COLOURS, ObjectShapes } from './objects';
import { EXTRA_KINDS } from '../../../shared/game/combat';
import { RULES } from '../../../shared/game/rules';
import { STEP_MS } from '../../../shared/sim/types';
import { Starfield } from './starfield';
import { Stargates } from './stargates';
import { ShipModels, type ShipModel } from './shipModels';
import { engineLevel, lookOfSlot, type ShipLook } from './shipLooks';
import { AUTO_LOOK, type ShipLook as ChosenLook } from '../../../shared/wire/shipLook';
import { RemoteShips, type RemoteView } from './remoteShips';
import { Effects } from './effects';
import { DESTROYED_DAMAGE } from '../../../shared/game/kinds/ship';
import { QUALITY } from './quality';
import type { SceneHookState } from '../../../shared/host/sceneHooks';
import { DEFAULT_QUALITY, type QualityLevel } from '../../../shared/settings/display';

const CHASE_OFFSET = new THREE.Vector3(0, 3.2, 13);
/**
 * The three.js view of the host's world views. It owns every GPU object it
 * makes and frees them in `dispose`. `render(prev, curr, alpha)` draws the
 * state `alpha` of the way from `prev` to `curr` (ships matched by slot,
 * everything else by id), so motion is smooth at any display rate although
 * the game runs at 40 Hz. Our ship is followed by the camera; the other
 * players' ships have their names above them (but the targeted one, whose
 * brackets carry its name); each kind of object has its
 * shape (objects.ts), other players' lasers their own colour; invulnerable
 * ships shimmer in a halo, energy fields with drifting glints, an EMP sets
 * off a blue shock ring and an extra taken sparkles in its colour.
 */
export class SceneView {
  readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(70, 1, 0.5, 5000);
  private readonly sky: Starfield;
  private readonly asteroidGeometry = new THREE.IcosahedronGeometry(1, 1);
  private readonly asteroidMaterial = new THREE.MeshStandardMaterial({ color: 0x8a8278, flatShading: true, roughness: 0.9 });
  private readonly models = new ShipModels();
  /** Our ship (by slot: a new slot is a new ship, in its slot's look). */
  private own: { slot: number; model: ShipModel } | null = null;
  private readonly shapes = new ObjectShapes();
  private readonly effects: Effects;
  /** The tick whose hits were last turned into sparks, and each ship's shield and damage then. */
  private hitsTick = -1;
  private readonly lastHull = new Map<number, { shield: number; damage: number }>();
  /** The missiles drawn this frame (their trails), and the energy fields (their glints). */
  private readonly missiles: THREE.Object3D[] = [];
  private readonly fields: THREE.Object3D[] = [];
  /** Energy fields drawn in the last frame (the `scene()` hook). */
  private fieldsDrawn = 0;
  /** Missiles the last frame drew a trail behind (the `scene()` hook). */
  private trailsDrawn = 0;
  private readonly drawSize = new THREE.Vector2();
  private readonly meshes = new Map<string, THREE.Mesh>();
  /** The other players' ships and their name tags. */
  private readonly remoteShips: RemoteShips;
  /** The stargates of the solar system we are in. */
  private readonly stargates: Stargates;
  private readonly seen = new Set<string>();
  // Reused every frame (indexes of the previous world by id), so rendering makes little garbage.
  private readonly prevShips = new Map<number, ShipView>();
  private readonly prevRocks = new Map<number, AsteroidView>();
  private readonly prevObjects = new Map<number, ObjectView>();
  private readonly remotes: RemoteView[] = [];
  private readonly tmpA = new THREE.Quaternion();
  private readonly tmpB = new THREE.Quaternion();
  private readonly resizeObserver: ResizeObserver;
  private qualityLevel: QualityLevel = DEFAULT_QUALITY;

  constructor(private readonly container: HTMLElement) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(QUALITY[this.qualityLevel].pixelRatio(window.devicePixelRatio));
    container.appendChild(this.renderer.domElement);
    this.scene.background = new THREE.Color(0x000004);
    this.scene.add(new THREE.AmbientLight(0x404860, 1.0));
    // A warm sun and a cool light from below, so a ship's dark side still shows its shape.
    this.scene.add(new THREE.HemisphereLight(0x8090b0, 0x201830, 0.8));
    const sun = new THREE.DirectionalLight(0xfff4e0, 2.4);
    sun.position.set(0.6, 0.8, 0.3);
    this.scene.add(sun);
    const rim = new THREE.DirectionalLight(0x6080ff, 0.9);
    rim.position.set(-0.5, -0.3, -0.8);
    this.scene.add(rim);
    this.sky = new Starfield(this.scene, QUALITY[this.qualityLevel]);
    this.scene.add(this.camera);
    this.effects = new Effects(this.scene);
    this.remoteShips = new RemoteShips(this.scene, this.camera, this.models, (slot, model) => this.lookChange(slot, model));
    this.stargates = new Stargates(this.scene);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  /** The canvas (pointer lock target). */
  get canvas(): HTMLCanvasElement {
    return this.renderer.domElement;
  }

  /** The camera as the last frame drew it: the combat HUD projects its marks through it (read only). */
  get viewCamera(): THREE.PerspectiveCamera {
    return this.camera;
  }

  /** The `r_quality` level drawn. */
  get quality(): QualityLevel {
    return this.qualityLevel;
  }

  /** Draws at `level` from the next frame on: the resolution, the stars and the dust change at once. */
  setQuality(level: QualityLevel): void {
    if (level === this.qualityLevel) return;
    this.qualityLevel = level;
    const q = QUALITY[level];
    this.renderer.setPixelRatio(q.pixelRatio(window.devicePixelRatio));
    this.sky.setQuality(q);
  }

  private resize(): void {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  /**
   * Draws `alpha` of the way from `prev` to `curr`, the other players' ships
   * labelled by `nameOf` (all but `targetSlot`'s, -1: none), and the running
   * explosion flashes at `nowMs` (the loop's clock). Returns the remote ships
   * drawn (reused by the next call).
   */
  render(prev: WorldView, curr: WorldView, alpha: number, nameOf: (slot: number) => string, nowMs = 0, targetSlot = -1): readonly RemoteView[] {
    const seen = this.seen;
    seen.clear();
    const remotes = this.remotes;
    remotes.length = 0;
    const prevShips = reindex(this.prevShips, prev.ships, (s) => s.slot);
    const ticks = Math.max(1, curr.tick - prev.tick);
    let ownDrawn = false;
    for (const ship of curr.ships) {
      const from = prevShips.get(ship.slot) ?? ship;
      const engine = engineLevel(from, ship, ticks);
      if (ship.slot !== curr.localSlot) {
        remotes.push(this.remoteShips.at(ship.slot, nameOf(ship.slot), from, ship, alpha, engine));
        continue;
      }
      const model = this.ownModel(ship.slot);
      this.place(model.group, from, ship, alpha);
      this.models.setEngine(model, engine, nowMs);
      model.group.visible = true;
      ownDrawn = true;
      this.chase(model.group);
    }
    if (!ownDrawn && this.own) this.own.model.group.visible = false;
    // A free camera (demo playback, spectating) is placed where the host says, between its last two poses.
    if (curr.camera) this.placeCamera(prev.camera ?? curr.camera, curr.camera, alpha);
    this.stargates.show(curr.system?.name ?? null, curr.system?.gates ?? []);
    const prevRocks = reindex(this.prevRocks, prev.asteroids, (a) => a.id);
    for (const rock of curr.asteroids) {
      const mesh = this.mesh(`a${rock.id}`, this.asteroidGeometry, this.asteroidMaterial, rock.radius);
      this.place(mesh, prevRocks.get(rock.id) ?? rock, rock, alpha);
      seen.add(`a${rock.id}`);
    }
    const objectKey = (o: ObjectView) => o.owner * 0x100000000 + o.id;
    const prevObjects = reindex(this.prevObjects, prev.objects, objectKey);
    for (const o of curr.objects) {
      // One shape per kind: the registry's view says what to draw.
      const key = `${o.kind}${o.owner}:${o.id}`;
      let mesh = this.meshes.get(key);
      if (!mesh) {
        mesh = this.shapes.make(o);
        this.meshes.set(key, mesh);
        this.scene.add(mesh);
        // An EMP set off: its shock ring runs ahead of the wire sphere to the pulse's reach.
        if (o.kind === 'emp') this.effects.empRing(o.pos, nowMs, RULES.emp.maxRadius, Math.max(200, ((RULES.emp.maxRadius - (o.radius ?? 0)) / RULES.emp.growPerTick) * STEP_MS));
      }
      const from = prevObjects.get(objectKey(o)) ?? o;
      lerpInto(mesh.position, from.pos, o.pos, alpha);
      const radius = (from.radius ?? 0) + ((o.radius ?? 0) - (from.radius ?? 0)) * alpha;
      this.shapes.update(mesh, o, o.owner === curr.localSlot, radius, nowMs);
      if (o.kind === 'missile') this.missiles.push(mesh);
      else if (o.kind === 'field') this.fields.push(mesh);
      seen.add(key);
    }
    // Invulnerable ships shimmer: a halo where the ship is drawn this frame.
    for (const ship of curr.ships) {
      if (ship.invulnerable <= 0) continue;
      const key = `h${ship.slot}`;
      let halo = this.meshes.get(key);
      if (!halo) {
        halo = this.shapes.makeHalo();
        this.meshes.set(key, halo);
        this.scene.add(halo);
      }
      const at = ship.slot === curr.localSlot ? this.own?.model.group.position : remotes.find((r) => r.slot === ship.slot)?.pos;
      this.shapes.updateHalo(halo, at ?? ship.pos, nowMs);
      seen.add(key);
    }
    for (const [key, mesh] of this.meshes) {
      if (!seen.has(key)) {
        this.scene.remove(mesh);
        this.meshes.delete(key);
      }
    }
    this.remoteShips.draw(remotes, nowMs, targetSlot);
    this.sparkHits(curr, remotes);
    const heightPx = this.renderer.getDrawingBufferSize(this.drawSize).y;
    // gl_PointSize per unit of size at distance 1: the drawing buffer's height over the view's height there (2 tan 35°).
    const dt = this.effects.update(nowMs, this.camera, heightPx / 1.4);
    this.effects.trails(this.missiles, dt);
    this.trailsDrawn = this.effects.enabled ? this.missiles.length : 0;
    this.missiles.length = 0;
    for (const f of this.fields) this.effects.fieldGlints(f.position, f.scale.x, dt, f.position.distanceTo(this.camera.position) < 800 ? 1 : 0.25);
    this.fieldsDrawn = this.fields.length;
    this.fields.length = 0;
    this.camera.position.add(this.effects.shakeFor(dt));
    this.sky.update(this.camera.position, heightPx / 1.4);
    this.renderer.render(this.scene, this.camera);
    return remotes;
  }

  /**
   * Each world view as it arrives, after `prev` (the one before it): an extra
   * taken sparkles in its colour where it lay (in `prev`; where the ship that
   * took it is, if it was not there).
   */
  onWorld(view: WorldView, prev: WorldView): void {
    for (const p of pickupSparkles(view, prev)) this.effects.sparkle(p.at, p.colour);
  }

  /** An explosion at `pos` at `nowMs` (the clock `render` is given): flash, fire, sparks, debris and a ring. */
  explode(pos: Vec3, nowMs: number): void {
    this.effects.explosion(pos, nowMs);
  }

  /** Effects on or off (`r_effects`): particles, trails, rings, the camera's shake and the bolts' glow. */
  setEffects(on: boolean): void {
    this.effects.setEnabled(on);
    this.shapes.glow = on;
  }

  /** Particles alive in the effects (for tests and the page benchmark). */
  get particles(): number {
    return this.effects.pool.alive();
  }

  /** What the last frame drew, for the `scene()` page hook (read only). */
  state(): SceneHookState {
    const ships: SceneHookState['ships'] = [];
    const own = this.own;
    if (own?.model.group.visible) ships.push({ slot: own.slot, design: own.model.look.design, colour: own.model.look.colour, own: true, tag: false });
    ships.push(...this.remoteShips.drawn());
    ships.sort((a, b) => a.slot - b.slot);
    const fx = this.effects;
    return {
      ships,
      trails: this.trailsDrawn,
      explosions: fx.explosions,
      particles: this.particles,
      sparkles: fx.sparkles,
      empRings: fx.empRings,
      rings: fx.ringsLive,
      fields: this.fieldsDrawn,
      fieldGlints: fx.glints,
      sky: this.sky.drawn,
      gates: this.stargates.destinations,
    };
  }

  /**
   * Once per new tick: a ship whose shield dropped gets blue sparks, one whose
   * hull took damage orange ones (our own ship also jolts the camera); a badly
   * damaged ship smokes every frame.
   */
  private sparkHits(curr: WorldView, remotes: readonly RemoteView[]): void {
    const where = (slot: number): Vec3 | undefined => (slot === curr.localSlot ? this.own?.model.group.position : remotes.find((r) => r.slot === slot)?.pos);
    const fresh = curr.tick !== this.hitsTick;
    for (const ship of curr.ships) {
      const at = where(ship.slot);
      if (!at) continue;
      const hull = ship.damage / DESTROYED_DAMAGE;
      if (hull > 0.5) this.effects.smoke(at, ship.vel, 0.4 * hull);
      if (!fresh) continue;
      const was = this.lastHull.get(ship.slot);
      if (was) {
        const shieldLost = was.shield - ship.shield;
        const hullLost = ship.damage - was.damage;
        if (shieldLost > 0.5) this.effects.shieldHit(at);
        if (hullLost > 0.5) this.effects.hullHit(at);
        if (ship.slot === curr.localSlot && (shieldLost > 0.5 || hullLost > 0.5)) this.effects.jolt(Math.min(1, (Math.max(0, shieldLost) + Math.max(0, hullLost) * 2) / 30));
      }
      this.lastHull.set(ship.slot, { shield: ship.shield, damage: ship.damage });
    }
    if (fresh) this.hitsTick = curr.tick;
  }

  /** The look each pilot chose, by slot (the page sets it from the settings and the slot table; default: all by slot). */
  chosenLook: (slot: number) => ChosenLook = () => AUTO_LOOK;

  /** Slot `slot`'s ship as it should be drawn now, when `model` is not already that. */
  private lookChange(slot: number, model: ShipModel | undefined): ShipLook | null {
    const want = lookOfSlot(slot, this.chosenLook(slot));
    return model && model.look.design === want.design && model.look.colour === want.colour ? null : want;
  }

  /** Our ship's model, made anew when the slot or the look changes. */
  private ownModel(slot: number): ShipModel {
    let own = this.own;
    const look = this.lookChange(slot, own?.slot === slot ? own.model : undefined);
    if (look || !own) {
      if (own) this.scene.remove(own.model.group);
      own = this.own = { slot, model: this.models.make(look ?? lookOfSlot(slot)) };
      this.scene.add(own.model.group);
    }
    return own.model;
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

  private placeCamera(a: { pos: Vec3; rot: Quat }, b: { pos: Vec3; rot: Quat }, alpha: number): void {
    lerpInto(this.camera.position, a.pos, b.pos, alpha);
    this.tmpA.set(a.rot.x, a.rot.y, a.rot.z, a.rot.w);
    this.tmpB.set(b.rot.x, b.rot.y, b.rot.z, b.rot.w);
    this.camera.quaternion.slerpQuaternions(this.tmpA, this.tmpB, alpha);
  }

  private chase(ship: THREE.Object3D): void {
    this.camera.quaternion.copy(ship.quaternion);
    this.camera.position.copy(CHASE_OFFSET).applyQuaternion(ship.quaternion).add(ship.position);
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    for (const mesh of this.meshes.values()) this.scene.remove(mesh);
    this.meshes.clear();
    this.remoteShips.draw([], 0);
    if (this.own) this.scene.remove(this.own.model.group);
    this.sky.dispose();
    this.stargates.dispose();
    for (const d of [this.asteroidGeometry, this.asteroidMaterial]) d.dispose();
    this.models.dispose();
    this.effects.dispose();
    this.shapes.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}

/**
 * The sparkles of the extras taken in `view` (its pickup events), `prev`
 * being the view before: each where its extra lay in `prev` (else where the
 * ship that took it is), in the extra's colour.
 */
export function pickupSparkles(view: WorldView, prev: WorldView): { at: Vec3; colour: number }[] {
  const out: { at: Vec3; colour: number }[] = [];
  for (const e of view.events ?? []) {
    if (e.type !== 'pickup') continue;
    const extra = prev.objects.find((o) => o.kind === 'extra' && o.owner === e.owner && o.id === e.id);
    const at = extra?.pos ?? view.ships.find((s) => s.slot === e.slot)?.pos;
    const kind = EXTRA_KINDS[e.extra];
    if (at) out.push({ at, colour: kind ? EXTRA_COLOURS[kind] : 0xffffff });
  }
  return out;
}

/** Refills `map` with `items` by `key` and returns it. */
function reindex<T>(map: Map<number, T>, items: readonly T[], key: (item: T) => number): Map<number, T> {
  map.clear();
  for (const it of items) map.set(key(it), it);
  return map;
}

function lerpInto(out: THREE.Vector3, a: Vec3, b: Vec3, t: number): void {
  out.set(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}
