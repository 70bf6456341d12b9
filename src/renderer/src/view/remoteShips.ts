/**
 * The other players' ships in the scene (scene.ts): each frame every remote
 * ship is drawn where interpolation puts it, in its pilot's look, with its
 * name tag above it (shipLabels.ts: decluttered, and none on the targeted
 * ship, whose brackets carry its name); a ship not drawn in a frame leaves
 * the scene and frees its tag.
 */
import * as THREE from 'three';
import type { Quat, Vec3 } from '../../../shared/sim/types';
import type { ShipView } from '../../../shared/game/view';
import { DESTROYED_DAMAGE, SHIELD_MAX } from '../../../shared/game/kinds/ship';
import type { SceneHookState } from '../../../shared/host/sceneHooks';
import type { ShipModel, ShipModels } from './shipModels';
import { lookOfSlot, type ShipLook } from './shipLooks';
import { declutter, disposeTag, makeTag, setTag, type ShipTag, type TagPlace } from './shipLabels';

/** One remote ship to draw this frame, where interpolation puts it. Objects are reused between frames. */
export interface RemoteView {
  slot: number;
  name: string;
  pos: Vec3;
  rot: Quat;
  /** Shield and hull left, 0..1 (the tag's bars). */
  shield: number;
  hull: number;
  /** How hard its engine burns (engineLevel). */
  engine: number;
}

/** Height of a name label above its ship, along the camera's up axis (units). */
const LABEL_LIFT = 7;

interface RemoteShipView {
  model: ShipModel;
  tag: ShipTag;
  /** Frame stamp of the last render that drew it (older ones are removed). */
  seen: number;
}

export class RemoteShips {
  private readonly ships = new Map<number, RemoteShipView>();
  private frameStamp = 0;
  private readonly pool = new Map<number, RemoteView>();
  private readonly tagPlaces: TagPlace[] = [];
  private readonly ndcPool: THREE.Vector3[] = [];
  private readonly camUp = new THREE.Vector3();
  private readonly tmpA = new THREE.Quaternion();
  private readonly tmpB = new THREE.Quaternion();

  /** `lookChange`: slot `slot`'s look when `model` is not already it, else null (the scene's chosen looks). */
  constructor(
    private readonly scene: THREE.Scene,
    private readonly camera: THREE.PerspectiveCamera,
    private readonly models: ShipModels,
    private readonly lookChange: (slot: number, model: ShipModel | undefined) => ShipLook | null,
  ) {}

  /** The view of remote `slot` interpolated `alpha` of the way from `a` to `b`. */
  at(slot: number, name: string, a: ShipView, b: ShipView, alpha: number, engine: number): RemoteView {
    let r = this.pool.get(slot);
    if (!r) this.pool.set(slot, (r = { slot, name, pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, shield: 1, hull: 1, engine: 0 }));
    r.name = name;
    r.shield = b.shield / SHIELD_MAX;
    r.hull = 1 - b.damage / DESTROYED_DAMAGE;
    r.engine = engine;
    r.pos.x = a.pos.x + (b.pos.x - a.pos.x) * alpha;
    r.pos.y = a.pos.y + (b.pos.y - a.pos.y) * alpha;
    r.pos.z = a.pos.z + (b.pos.z - a.pos.z) * alpha;
    this.tmpA.set(a.rot.x, a.rot.y, a.rot.z, a.rot.w);
    this.tmpB.set(b.rot.x, b.rot.y, b.rot.z, b.rot.w);
    this.tmpA.slerp(this.tmpB, alpha);
    r.rot.x = this.tmpA.x;
    r.rot.y = this.tmpA.y;
    r.rot.z = this.tmpA.z;
    r.rot.w = this.tmpA.w;
    return r;
  }

  /** Draws `remotes` this frame (the camera placed already), tags decluttered but `targetSlot`'s; the ships not among them leave. */
  draw(remotes: readonly RemoteView[], nowMs: number, targetSlot = -1): void {
    const stamp = ++this.frameStamp;
    this.camUp.set(0, 1, 0).applyQuaternion(this.camera.quaternion).multiplyScalar(LABEL_LIFT);
    const places = this.tagPlaces;
    places.length = 0;
    for (const r of remotes) {
      let v = this.ships.get(r.slot);
      const look = this.lookChange(r.slot, v?.model);
      if (!v) {
        v = { model: this.models.make(look ?? lookOfSlot(r.slot)), tag: makeTag(), seen: stamp };
        this.ships.set(r.slot, v);
        this.scene.add(v.model.group, v.tag.sprite);
      } else if (look) {
        // The pilot chose another look: a new model in the old one's place.
        this.scene.remove(v.model.group);
        v.model = this.models.make(look);
        this.scene.add(v.model.group);
      }
      setTag(v.tag, r.name, r.shield, r.hull);
      v.seen = stamp;
      v.model.group.position.set(r.pos.x, r.pos.y, r.pos.z);
      v.model.group.quaternion.set(r.rot.x, r.rot.y, r.rot.z, r.rot.w);
      this.models.setEngine(v.model, r.engine, nowMs);
      v.tag.sprite.position.copy(v.model.group.position).add(this.camUp);
      const ndc = (this.ndcPool[places.length] ??= new THREE.Vector3()).copy(v.tag.sprite.position).project(this.camera);
      places.push({ tag: v.tag, slot: r.slot, ndc, distance: v.model.group.position.distanceTo(this.camera.position) });
    }
    declutter(places, this.camera.aspect, targetSlot);
    for (const [slot, v] of this.ships) {
      if (v.seen === stamp) continue;
      this.scene.remove(v.model.group, v.tag.sprite);
      disposeTag(v.tag);
      this.ships.delete(slot);
    }
  }

  /** The remote ships the last frame drew, for the `scene()` page hook. */
  drawn(): SceneHookState['ships'] {
    const ships: SceneHookState['ships'] = [];
    for (const [slot, v] of this.ships) {
      if (v.seen === this.frameStamp) ships.push({ slot, design: v.model.look.design, colour: v.model.look.colour, own: false, tag: v.tag.sprite.visible });
    }
    return ships;
  }
}
