/**
 * The effects the view adds for issue 25's last items (view/effects.ts and
 * scene.ts's pickupSparkles), on a three.js scene in Node (nothing drawn):
 * an extra taken sparkles in its colour where it lay, an EMP starts a blue
 * shock ring from the pool that ends after its time, an energy field sheds
 * a few slow glints a second, and with `r_effects 0` none of it happens.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { Effects } from '../../../src/renderer/src/view/effects';
import { EXTRA_COLOURS } from '../../../src/renderer/src/view/objects';
import { pickupSparkles } from '../../../src/renderer/src/view/scene';
import type { ObjectView, WorldView } from '../../../src/shared/game/view';
import { EXTRA_KINDS } from '../../../src/shared/game/combat';

const camera = new THREE.PerspectiveCamera();

function view(objects: ObjectView[], events: WorldView['events'] = undefined): WorldView {
  const ship = { slot: 1, pos: { x: 5, y: 5, z: 5 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, energy: 100, shield: 40, damage: 0, missiles: 0, mines: 0, laserLevel: 1, invulnerable: 0 };
  return { tick: 1, localSlot: 0, respawnSeconds: null, ships: [ship], objects, asteroids: [], scores: [], match: { phase: 0, secondsLeft: null, killLimit: 0, timeLimitS: 0, round: 0 }, lockedBy: [], bots: [], ...(events ? { events } : {}), pings: [] };
}

/** The particles alive in `fx` of colour `hex`. */
function aliveOf(fx: Effects, hex: number): number {
  const c = [(hex >> 16) / 255, ((hex >> 8) & 0xff) / 255, (hex & 0xff) / 255];
  let n = 0;
  for (let i = 0; i < fx.pool.capacity; i++) {
    if (fx.pool.fade(i) <= 0) continue;
    if ([0, 1, 2].every((a) => Math.abs(fx.pool.colour[i * 3 + a]! - c[a]!) < 1e-3)) n++;
  }
  return n;
}

describe('pickup sparkle, EMP ring, field glints', () => {
  it("an extra taken: a sparkle in the extra's colour where it lay, gone within a second", () => {
    const laser = EXTRA_KINDS.indexOf('laser');
    const extra: ObjectView = { kind: 'extra', id: 7, owner: 0, pos: { x: 100, y: -20, z: 40 }, vel: { x: 0, y: 0, z: 0 }, type: laser };
    const sparkles = pickupSparkles(view([], [{ type: 'pickup', slot: 1, id: 7, owner: 0, extra: laser }]), view([extra]));
    expect(sparkles).toEqual([{ at: { x: 100, y: -20, z: 40 }, colour: EXTRA_COLOURS.laser }]);
    // Not in the view before (a state jump): where the ship that took it is.
    expect(pickupSparkles(view([], [{ type: 'pickup', slot: 1, id: 8, owner: 0, extra: 0 }]), view([]))[0]!.at).toEqual({ x: 5, y: 5, z: 5 });

    const fx = new Effects(new THREE.Scene());
    fx.update(0, camera, 500);
    fx.sparkle(sparkles[0]!.at, sparkles[0]!.colour);
    expect(fx.sparkles).toBe(1);
    expect(aliveOf(fx, EXTRA_COLOURS.laser)).toBeGreaterThanOrEqual(20);
    for (let t = 25; t <= 1000; t += 25) fx.update(t, camera, 500);
    expect(fx.pool.alive()).toBe(0);
    fx.dispose();
  });

  it('an EMP: a blue ring from the pool grows for its time and ends; twenty explosions and an EMP reuse the same rings', () => {
    const scene = new THREE.Scene();
    const fx = new Effects(scene);
    const meshes = scene.children.length;
    fx.update(0, camera, 500);
    fx.empRing({ x: 0, y: 0, z: 0 }, 0, 250, 600);
    expect(fx.empRings).toBe(1);
    expect(fx.ringsLive).toBe(1);
    fx.update(300, camera, 500);
    const ring = scene.children.find((o) => o instanceof THREE.Mesh && o.visible) as THREE.Mesh;
    expect((ring.material as THREE.MeshBasicMaterial).color.getHex()).toBe(0x80a0ff);
    expect(ring.scale.x).toBeGreaterThan(100);
    fx.update(700, camera, 500);
    expect(fx.ringsLive).toBe(0);
    for (let i = 0; i < 25; i++) fx.explosion({ x: i, y: 0, z: 0 }, 800);
    expect(fx.ringsLive).toBe(20);
    expect(scene.children.length).toBe(meshes);
    fx.dispose();
    expect(scene.children.length).toBe(0);
  });

  it('an energy field sheds a few slow glints a second round its surface', () => {
    const fx = new Effects(new THREE.Scene());
    const centre = { x: 240, y: 0, z: 0 };
    for (let t = 0; t <= 2000; t += 25) {
      const dt = fx.update(t, camera, 500);
      fx.fieldGlints(centre, 40, dt);
    }
    expect(fx.glints).toBeGreaterThanOrEqual(8);
    expect(fx.glints).toBeLessThanOrEqual(12);
    for (let i = 0; i < fx.pool.capacity; i++) {
      if (fx.pool.fade(i) <= 0) continue;
      const d = Math.hypot(fx.pool.pos[i * 3]! - centre.x, fx.pool.pos[i * 3 + 1]!, fx.pool.pos[i * 3 + 2]!);
      expect(d).toBeGreaterThan(40 * 0.85 - 6);
      expect(d).toBeLessThan(40 + 6);
    }
    fx.dispose();
  });

  it('r_effects 0: no sparkle, no ring, no glints', () => {
    const fx = new Effects(new THREE.Scene());
    fx.setEnabled(false);
    fx.update(0, camera, 500);
    fx.sparkle({ x: 0, y: 0, z: 0 }, 0xffffff);
    fx.empRing({ x: 0, y: 0, z: 0 }, 0, 250, 600);
    for (let t = 25; t < 1000; t += 25) fx.fieldGlints({ x: 0, y: 0, z: 0 }, 40, fx.update(t, camera, 500));
    expect(fx.pool.alive()).toBe(0);
    expect(fx.ringsLive).toBe(0);
    expect(fx.sparkles + fx.empRings + fx.glints).toBe(0);
    fx.dispose();
  });
});
