/**
 * The shapes of the game's objects, one per kind of the world view (the
 * registry's ObjectView): laser bolts, missiles (body and exhaust, along
 * their flight; homing ones in another tint), mines, EMP pulses (a growing
 * wire sphere), extras (turning, one colour per type) and energy fields (a
 * large soft sphere that breathes and pulses); and the halo of an
 * invulnerable ship. Geometries and
 * materials are made once and shared by every mesh; the scene pools the
 * meshes by object id.
 */
import * as THREE from 'three';
import type { ObjectView } from '../../../shared/game/view';
import { EXTRA_KINDS, type ExtraKind } from '../../../shared/game/combat';
import { NO_TARGET, type Vec3 } from '../../../shared/sim/types';

/** Colour of each kind of extra (the HUD and the scene share them). */
export const EXTRA_COLOURS: Readonly<Record<ExtraKind, number>> = {
  energy: 0x40c0ff,
  repair: 0x40ff60,
  missiles: 0xffa020,
  mines: 0xff40c0,
  laser: 0xff3030,
  invulnerability: 0xffffff,
};

const FORWARD = new THREE.Vector3(0, 0, -1);

/** Shared geometries and materials of the object shapes; `make` builds a mesh for a kind, `update` places it. */
export class ObjectShapes {
  private readonly laserGeometry = new THREE.BoxGeometry(0.25, 0.25, 6);
  private readonly laserMaterial = new THREE.MeshBasicMaterial({ color: 0xff4040 });
  private readonly remoteLaserMaterial = new THREE.MeshBasicMaterial({ color: 0x60ff90 });
  // A laser bolt glows: a wider, longer soft box around its core, added light.
  private readonly boltGlowGeometry = new THREE.BoxGeometry(0.55, 0.55, 6.6);
  private readonly boltGlowMaterial = additive(0xff6050, 0.22);
  private readonly remoteBoltGlowMaterial = additive(0x70ffa0, 0.22);
  // Missile: a slim body along -Z (nose forward) and an exhaust glow behind it.
  private readonly missileGeometry = new THREE.CylinderGeometry(0.35, 0.5, 3.2, 8).rotateX(-Math.PI / 2);
  private readonly missileMaterial = new THREE.MeshStandardMaterial({ color: 0xc8ccd4, metalness: 0.5, roughness: 0.4 });
  private readonly homingMaterial = new THREE.MeshStandardMaterial({ color: 0xff7040, emissive: 0x602010, metalness: 0.5, roughness: 0.4 });
  private readonly exhaustGeometry = new THREE.ConeGeometry(0.5, 2.4, 8).rotateX(-Math.PI / 2).translate(0, 0, 2.6);
  private readonly exhaustMaterial = additive(0xffd070, 0.9);
  private readonly mineGeometry = new THREE.OctahedronGeometry(1.6, 0);
  private readonly mineMaterial = new THREE.MeshStandardMaterial({ color: 0xd02020, emissive: 0x500000, flatShading: true, metalness: 0.6, roughness: 0.3 });
  private readonly sphereGeometry = new THREE.IcosahedronGeometry(1, 3);
  private readonly empMaterial = new THREE.MeshBasicMaterial({ color: 0x80a0ff, wireframe: true, transparent: true, opacity: 0.35, depthWrite: false, blending: THREE.AdditiveBlending });
  private readonly fieldMaterial = new THREE.MeshBasicMaterial({ color: 0x40ff80, transparent: true, opacity: 0.12, depthWrite: false, side: THREE.DoubleSide });
  private readonly extraGeometry = new THREE.IcosahedronGeometry(1.8, 0);
  private readonly extraMaterials = EXTRA_KINDS.map((k) => EXTRA_COLOURS[k]).map((c) => new THREE.MeshStandardMaterial({ color: c, emissive: c, emissiveIntensity: 0.5, flatShading: true }));
  private readonly haloGeometry = new THREE.IcosahedronGeometry(6, 2);
  private readonly haloMaterial = new THREE.MeshBasicMaterial({ color: 0xfff0a0, wireframe: true, transparent: true, opacity: 0.45, depthWrite: false, blending: THREE.AdditiveBlending });
  private readonly dir = new THREE.Vector3();
  /** Laser bolts glow (`r_effects`). */
  glow = true;

  /** A new mesh for an object of `o`'s kind (its material and size are set by `update`). */
  make(o: ObjectView): THREE.Mesh {
    switch (o.kind) {
      case 'laser': {
        const bolt = new THREE.Mesh(this.laserGeometry, this.laserMaterial);
        bolt.add(new THREE.Mesh(this.boltGlowGeometry, this.boltGlowMaterial));
        return bolt;
      }
      case 'missile': {
        const body = new THREE.Mesh(this.missileGeometry, this.missileMaterial);
        body.add(new THREE.Mesh(this.exhaustGeometry, this.exhaustMaterial));
        return body;
      }
      case 'mine':
        return new THREE.Mesh(this.mineGeometry, this.mineMaterial);
      case 'emp':
        return new THREE.Mesh(this.sphereGeometry, this.empMaterial);
      case 'extra':
        return new THREE.Mesh(this.extraGeometry, this.extraMaterials[0]);
      case 'field':
        return new THREE.Mesh(this.sphereGeometry, this.fieldMaterial);
    }
  }

  /**
   * Dresses `mesh` for `o` at this frame: its material (ours or another
   * player's laser, homing or dumb missile, the extra's type), its size
   * (`radius` of a sphere, interpolated by the caller) and its turn; the
   * caller has placed it.
   */
  update(mesh: THREE.Mesh, o: ObjectView, local: boolean, radius: number, nowMs: number): void {
    switch (o.kind) {
      case 'laser': {
        mesh.material = local ? this.laserMaterial : this.remoteLaserMaterial;
        const glow = mesh.children[0];
        if (glow instanceof THREE.Mesh) {
          glow.material = local ? this.boltGlowMaterial : this.remoteBoltGlowMaterial;
          glow.visible = this.glow;
        }
        this.orientAlong(mesh, o.vel);
        break;
      }
      case 'missile': {
        mesh.material = o.type !== undefined && o.type !== NO_TARGET ? this.homingMaterial : this.missileMaterial;
        this.orientAlong(mesh, o.vel);
        // The exhaust flickers (visual only).
        const flame = mesh.children[0];
        if (flame) flame.scale.set(1, 1, 0.8 + 0.4 * Math.abs(Math.sin(nowMs * 0.05 + o.id)));
        break;
      }
      case 'mine':
        mesh.rotation.set(0, nowMs * 0.001 + o.id, 0);
        break;
      case 'emp':
        mesh.scale.setScalar(Math.max(0.01, radius));
        mesh.rotation.y = nowMs * 0.0005;
        break;
      case 'field': {
        // The field shimmers: it breathes a little (each at its own phase) and its glow pulses (the scene adds drifting glints).
        const phase = nowMs * 0.0021 + o.id * 1.7;
        mesh.scale.setScalar(Math.max(0.01, radius * (1 + 0.025 * Math.sin(phase))));
        mesh.rotation.set(nowMs * 0.00013, nowMs * 0.0002 + o.id, 0);
        this.fieldMaterial.opacity = 0.1 + 0.04 * Math.sin(nowMs * 0.0017);
        break;
      }
      case 'extra':
        mesh.material = this.extraMaterials[o.type ?? 0] ?? this.extraMaterials[0]!;
        mesh.rotation.set(nowMs * 0.0013 + o.id, nowMs * 0.002, 0);
        break;
    }
  }

  /** A new halo for an invulnerable ship. */
  makeHalo(): THREE.Mesh {
    return new THREE.Mesh(this.haloGeometry, this.haloMaterial);
  }

  /** Places `halo` at `pos`, shimmering (its size and turn follow the clock). */
  updateHalo(halo: THREE.Mesh, pos: Vec3, nowMs: number): void {
    halo.position.set(pos.x, pos.y, pos.z);
    halo.scale.setScalar(1 + 0.08 * Math.sin(nowMs * 0.012));
    halo.rotation.set(nowMs * 0.0011, nowMs * 0.0017, 0);
  }

  private orientAlong(mesh: THREE.Object3D, vel: Vec3): void {
    this.dir.set(vel.x, vel.y, vel.z);
    if (this.dir.lengthSq() > 1e-9) mesh.quaternion.setFromUnitVectors(FORWARD, this.dir.normalize());
  }

  dispose(): void {
    for (const d of [
      this.laserGeometry, this.laserMaterial, this.remoteLaserMaterial, this.boltGlowGeometry, this.boltGlowMaterial, this.remoteBoltGlowMaterial, this.missileGeometry, this.missileMaterial, this.homingMaterial,
      this.exhaustGeometry, this.exhaustMaterial, this.mineGeometry, this.mineMaterial, this.sphereGeometry, this.empMaterial,
      this.fieldMaterial, this.extraGeometry, ...this.extraMaterials, this.haloGeometry, this.haloMaterial,
    ]) d.dispose();
  }
}

function additive(color: number, opacity: number): THREE.MeshBasicMaterial {
  return new THREE.MeshBasicMaterial({ color, transparent: true, opacity, depthWrite: false, blending: THREE.AdditiveBlending });
}
