/**
 * The three ship designs, built in code from a few flat-shaded low-poly
 * parts (no model files to license or load): the *dart* (a slim arrow with
 * swept wings and twin fins), the *wasp* (a pod between two engine
 * nacelles) and the *manta* (a wide flat delta). Nose at −Z, the
 * simulation's forward, about the size of the ship's collision sphere. Each
 * ship is painted in its pilot's colour with darker trim, a lit canopy, and
 * engine glows behind that stretch and brighten with thrust (engineLevel in
 * shipLooks.ts). Geometries are made once per design, materials once per
 * colour; `dispose` frees them all.
 */
import * as THREE from 'three';
import type { ShipDesign, ShipLook } from './shipLooks';

/** A triangle list (x, y, z per corner) as a flat-shaded geometry. */
function facets(corners: readonly (readonly [number, number, number])[], faces: readonly (readonly [number, number, number])[]): THREE.BufferGeometry {
  const pos: number[] = [];
  for (const f of faces) for (const i of f) pos.push(...corners[i]!);
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.computeVertexNormals();
  return g;
}

/** A closed double-sided plate: the triangle a, b, c with thickness along y. */
function plate(a: readonly [number, number, number], b: readonly [number, number, number], c: readonly [number, number, number], t: number): THREE.BufferGeometry {
  const up = (p: readonly [number, number, number]) => [p[0], p[1] + t / 2, p[2]] as const;
  const dn = (p: readonly [number, number, number]) => [p[0], p[1] - t / 2, p[2]] as const;
  const v = [up(a), up(b), up(c), dn(a), dn(b), dn(c)];
  return facets(v, [[0, 2, 1], [3, 4, 5], [0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4], [2, 0, 3], [2, 3, 5]]);
}

/** A cylinder (or cone when `r1` is 0) along z from z0 to z1, centred at x, y. */
function tube(x: number, y: number, z0: number, z1: number, r0: number, r1: number, sides = 6): THREE.BufferGeometry {
  return new THREE.CylinderGeometry(r1, r0, Math.abs(z1 - z0), sides)
    .rotateX(Math.PI / 2)
    .translate(x, y, (z0 + z1) / 2);
}

type Role = 'hull' | 'trim' | 'glass';

interface DesignParts {
  parts: { geometry: THREE.BufferGeometry; role: Role }[];
  /** Where the engine glows sit (their cone points back, +Z) and how wide each is. */
  engines: { x: number; y: number; z: number; r: number }[];
}

function dart(): DesignParts {
  return {
    parts: [
      // Fuselage: a long diamond from the nose back to the engine.
      { geometry: facets([[0, 0, -4.6], [-0.9, 0, 1.2], [0.9, 0, 1.2], [0, 0.8, 0.6], [0, -0.6, 0.8], [0, 0, 2.6]], [[0, 3, 1], [0, 2, 3], [0, 1, 4], [0, 4, 2], [1, 3, 5], [3, 2, 5], [4, 1, 5], [2, 4, 5]]), role: 'hull' },
      { geometry: plate([-0.6, 0, -1.2], [-3.4, -0.1, 2.2], [-0.7, 0, 2], 0.18), role: 'trim' },
      { geometry: plate([0.6, 0, -1.2], [0.7, 0, 2], [3.4, -0.1, 2.2], 0.18), role: 'trim' },
      { geometry: plate([-0.5, 0.3, 0.6], [-1.1, 1.7, 2.3], [-0.5, 0.3, 2.2], 0.12), role: 'hull' },
      { geometry: plate([0.5, 0.3, 0.6], [0.5, 0.3, 2.2], [1.1, 1.7, 2.3], 0.12), role: 'hull' },
      { geometry: facets([[0, 0.55, -2.2], [-0.45, 0.45, -0.2], [0.45, 0.45, -0.2], [0, 0.95, -0.4]], [[0, 3, 1], [0, 2, 3], [1, 3, 2]]), role: 'glass' },
    ],
    engines: [{ x: 0, y: 0, z: 2.6, r: 0.55 }],
  };
}

function wasp(): DesignParts {
  return {
    parts: [
      { geometry: tube(0, 0, -3.6, 1.6, 1.0, 0.2, 8), role: 'hull' },
      { geometry: tube(0, 0, 1.6, 2.4, 1.0, 0.8, 8), role: 'trim' },
      { geometry: tube(-2.3, -0.2, -1.4, 2.6, 0.55, 0.55, 6), role: 'trim' },
      { geometry: tube(2.3, -0.2, -1.4, 2.6, 0.55, 0.55, 6), role: 'trim' },
      { geometry: plate([-0.8, 0, -1.4], [-2.6, -0.2, -0.6], [-0.8, 0, 1.2], 0.2), role: 'hull' },
      { geometry: plate([0.8, 0, -1.4], [0.8, 0, 1.2], [2.6, -0.2, -0.6], 0.2), role: 'hull' },
      { geometry: facets([[0, 0.7, -2.4], [-0.55, 0.6, -0.6], [0.55, 0.6, -0.6], [0, 1.2, -0.8]], [[0, 3, 1], [0, 2, 3], [1, 3, 2]]), role: 'glass' },
    ],
    engines: [
      { x: -2.3, y: -0.2, z: 2.6, r: 0.45 },
      { x: 2.3, y: -0.2, z: 2.6, r: 0.45 },
    ],
  };
}

function manta(): DesignParts {
  return {
    parts: [
      // A wide flat delta with a raised spine.
      { geometry: facets([[0, 0, -4], [-4.2, -0.1, 2.2], [4.2, -0.1, 2.2], [0, 0.7, 0.4], [0, -0.4, 0.6], [0, 0, 2.4]], [[0, 3, 1], [0, 2, 3], [0, 1, 4], [0, 4, 2], [1, 3, 5], [3, 2, 5], [4, 1, 5], [2, 4, 5]]), role: 'hull' },
      { geometry: plate([-4.2, -0.1, 2.2], [-4.8, 0.5, 3], [-3.6, -0.1, 2.4], 0.15), role: 'trim' },
      { geometry: plate([4.2, -0.1, 2.2], [3.6, -0.1, 2.4], [4.8, 0.5, 3], 0.15), role: 'trim' },
      { geometry: tube(-1.3, 0, 0.8, 2.5, 0.45, 0.4, 6), role: 'trim' },
      { geometry: tube(1.3, 0, 0.8, 2.5, 0.45, 0.4, 6), role: 'trim' },
      { geometry: facets([[0, 0.45, -1.8], [-0.6, 0.35, 0], [0.6, 0.35, 0], [0, 0.85, -0.2]], [[0, 3, 1], [0, 2, 3], [1, 3, 2]]), role: 'glass' },
    ],
    engines: [
      { x: -1.3, y: 0, z: 2.5, r: 0.4 },
      { x: 1.3, y: 0, z: 2.5, r: 0.4 },
    ],
  };
}

const BUILDERS: Readonly<Record<ShipDesign, () => DesignParts>> = { dart, wasp, manta };

/** One ship as drawn: its group (placed by the scene) and its engine glows. */
export interface ShipModel {
  readonly group: THREE.Group;
  readonly glows: THREE.Mesh[];
  readonly look: ShipLook;
}

/** The designs' shared geometries and the colours' materials. */
export class ShipModels {
  private readonly designs = new Map<ShipDesign, DesignParts>();
  private readonly paints = new Map<number, Record<Role, THREE.Material>>();
  /** A unit glow cone pointing back (+Z) from its base at the origin. */
  private readonly glowGeometry = new THREE.ConeGeometry(1, 1, 10, 1, true).rotateX(-Math.PI / 2).translate(0, 0, 0.5);
  private readonly glowMaterial = new THREE.MeshBasicMaterial({ color: 0x9fd8ff, transparent: true, opacity: 0.85, blending: THREE.AdditiveBlending, depthWrite: false, side: THREE.DoubleSide });
  private readonly glassMaterial = new THREE.MeshStandardMaterial({ color: 0x0c2a3a, emissive: 0x2a8ab0, emissiveIntensity: 0.6, metalness: 0.8, roughness: 0.15, flatShading: true });

  /** A new ship of `look` (add its group to the scene; `release` it when it goes). */
  make(look: ShipLook): ShipModel {
    const design = this.design(look.design);
    const paint = this.paint(look.colour);
    const group = new THREE.Group();
    for (const p of design.parts) group.add(new THREE.Mesh(p.geometry, paint[p.role]));
    const glows = design.engines.map((e) => {
      const glow = new THREE.Mesh(this.glowGeometry, this.glowMaterial);
      glow.position.set(e.x, e.y, e.z);
      glow.scale.set(e.r, e.r, 0.01);
      glow.userData['radius'] = e.r;
      group.add(glow);
      return glow;
    });
    return { group, glows, look };
  }

  /** The engine glows for `level` (0 idle … 1 full thrust … 2.5 afterburner), with a flicker by `nowMs`. */
  setEngine(model: ShipModel, level: number, nowMs: number): void {
    for (let i = 0; i < model.glows.length; i++) {
      const glow = model.glows[i]!;
      const r = glow.userData['radius'] as number;
      const flicker = 1 + 0.08 * Math.sin(nowMs * 0.05 + i * 1.7);
      const length = (0.6 + 2.4 * level) * flicker;
      const width = r * (0.45 + 0.4 * Math.min(1, level));
      glow.scale.set(width, width, length);
    }
  }

  dispose(): void {
    for (const d of this.designs.values()) for (const p of d.parts) p.geometry.dispose();
    for (const p of this.paints.values()) {
      p.hull.dispose();
      p.trim.dispose();
    }
    this.designs.clear();
    this.paints.clear();
    this.glowGeometry.dispose();
    this.glowMaterial.dispose();
    this.glassMaterial.dispose();
  }

  private design(name: ShipDesign): DesignParts {
    let d = this.designs.get(name);
    if (!d) this.designs.set(name, (d = BUILDERS[name]()));
    return d;
  }

  private paint(colour: number): Record<Role, THREE.Material> {
    let p = this.paints.get(colour);
    if (!p) {
      const c = new THREE.Color(colour);
      const trim = c.clone().multiplyScalar(0.45);
      p = {
        // A little of its own colour glows, so the ship reads against black space on its dark side too.
        hull: new THREE.MeshStandardMaterial({ color: c, emissive: c, emissiveIntensity: 0.12, metalness: 0.35, roughness: 0.45, flatShading: true }),
        trim: new THREE.MeshStandardMaterial({ color: trim, emissive: trim, emissiveIntensity: 0.1, metalness: 0.6, roughness: 0.35, flatShading: true }),
        glass: this.glassMaterial,
      };
      this.paints.set(colour, p);
    }
    return p;
  }
}
