/**
 * The sky's near layer (view/starfield.ts): specks of dust stay put in the
 * world as the camera flies (so they stream past it: parallax), and every
 * speck is kept inside the cube round the camera by moving it whole sides of
 * the cube (so there are always some near). Stars and dust are drawn at every
 * `r_quality` level, fewer at low.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { DUST_BOX, Starfield, wrapDust } from '../../../src/renderer/src/view/starfield';
import { QUALITY } from '../../../src/renderer/src/view/quality';

const inside = (pos: Float32Array, c: { x: number; y: number; z: number }, box: number): boolean => {
  for (let i = 0; i < pos.length; i += 3) {
    if (Math.abs(pos[i]! - c.x) > box / 2 || Math.abs(pos[i + 1]! - c.y) > box / 2 || Math.abs(pos[i + 2]! - c.z) > box / 2) return false;
  }
  return true;
};

describe('starfield', () => {
  it('dust stays put in the world as the camera moves a little: it moves past the camera by what the camera flew', () => {
    const sky = new Starfield(new THREE.Scene());
    const cam = { x: 0, y: 0, z: 0 };
    sky.update(cam, 500);
    const before = Float32Array.from(sky.dustPositions);
    // Ten frames flying 3 units a frame along -Z (the nose).
    for (let f = 1; f <= 10; f++) sky.update({ x: 0, y: 0, z: -3 * f }, 500);
    const after = sky.dustPositions;
    let stayed = 0;
    let streamed = 0;
    for (let i = 0; i < before.length; i += 3) {
      if (after[i] === before[i] && after[i + 1] === before[i + 1] && after[i + 2] === before[i + 2]) stayed++;
      // Relative to the camera each speck moved 30 units towards +Z (past us), or was wrapped to the far side.
      const relBefore = before[i + 2]! - 0;
      const relAfter = after[i + 2]! - -30;
      if (Math.abs(relAfter - relBefore - 30) < 1e-3) streamed++;
    }
    const n = before.length / 3;
    // Only the specks in the 30-unit slab behind us wrapped (about 30/360 of them).
    expect(stayed).toBe(streamed);
    expect(stayed / n).toBeGreaterThan(0.85);
    expect(stayed).toBeLessThan(n);
    sky.dispose();
  });

  it('after a long flight every speck is inside the cube round the camera, moved by whole sides', () => {
    const pos = new Float32Array([0, 0, 0, 100, -50, 170, -179, 179, 0]);
    const orig = Float32Array.from(pos);
    const cam = { x: 1234.5, y: -987, z: 4321 };
    expect(wrapDust(pos, cam, DUST_BOX)).toBe(true);
    expect(inside(pos, cam, DUST_BOX)).toBe(true);
    for (let i = 0; i < pos.length; i++) {
      const sides = (pos[i]! - orig[i]!) / DUST_BOX;
      expect(Math.abs(sides - Math.round(sides))).toBeLessThan(1e-3);
    }
    // Already inside: nothing moves.
    expect(wrapDust(pos, cam, DUST_BOX)).toBe(false);
  });

  it('stars, dust and the backdrop are drawn at every quality level, fewer specks at low', () => {
    const sky = new Starfield(new THREE.Scene());
    const drawn = (['low', 'medium', 'high'] as const).map((level) => {
      sky.setQuality(QUALITY[level]);
      return sky.drawn;
    });
    for (const d of drawn) {
      expect(d.stars).toBeGreaterThan(0);
      expect(d.dust).toBeGreaterThan(0);
      expect(d.backdrop).toBe(true);
    }
    expect(drawn[0]!.dust).toBeLessThan(drawn[2]!.dust);
    expect(drawn[0]!.stars).toBeLessThan(drawn[2]!.stars);
    sky.dispose();
  });
});
