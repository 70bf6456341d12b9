/**
 * The combat HUD's aiming maths (src/renderer/src/view/combat/aim.ts): the
 * lead point a bolt meets a moving ship at, and the edge arrow's place.
 */
import { describe, expect, it } from 'vitest';
import { leadPoint, rimPoint } from '../../../src/renderer/src/view/combat/aim';
import type { Vec3 } from '../../../src/shared/sim/types';

const ZERO: Vec3 = { x: 0, y: 0, z: 0 };
const dist = (a: Vec3, b: Vec3): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

describe('leadPoint', () => {
  it('a target at rest: aim at it, the bolt flying its distance at bolt speed', () => {
    const lead = leadPoint(ZERO, ZERO, { x: 0, y: 0, z: -600 }, ZERO, 600, 0, 1)!;
    expect(lead.point).toEqual({ x: 0, y: 0, z: -600 });
    expect(lead.time).toBeCloseTo(1, 9);
    expect(lead.inRange).toBe(true);
  });

  it('a crossing target: the bolt fired at the lead point meets the ship there, muzzle offset and our velocity included', () => {
    const us = { x: 5, y: -3, z: 2 };
    const ourVel = { x: 20, y: 0, z: -40 };
    const target = { x: 100, y: 40, z: -300 };
    const vel = { x: -80, y: 15, z: 30 };
    const speed = 600;
    const muzzle = 8;
    const lead = leadPoint(us, ourVel, target, vel, speed, muzzle, 1)!;
    // A bolt along the aim from the muzzle, with our velocity added (kinds/laser.ts), against the ship flying on.
    const d = dist(lead.point, us);
    const aim = { x: (lead.point.x - us.x) / d, y: (lead.point.y - us.y) / d, z: (lead.point.z - us.z) / d };
    const t = lead.time;
    const bolt = { x: us.x + aim.x * muzzle + (ourVel.x + aim.x * speed) * t, y: us.y + aim.y * muzzle + (ourVel.y + aim.y * speed) * t, z: us.z + aim.z * muzzle + (ourVel.z + aim.z * speed) * t };
    const ship = { x: target.x + vel.x * t, y: target.y + vel.y * t, z: target.z + vel.z * t };
    expect(dist(bolt, ship)).toBeLessThan(1e-6);
    expect(t).toBeGreaterThan(0);
    expect(lead.inRange).toBe(true);
  });

  it('out of range past the bolt lifetime; null when the ship outruns every bolt', () => {
    expect(leadPoint(ZERO, ZERO, { x: 0, y: 0, z: -900 }, ZERO, 600, 0, 1)!.inRange).toBe(false);
    expect(leadPoint(ZERO, ZERO, { x: 0, y: 0, z: -900 }, { x: 0, y: 0, z: -700 }, 600, 0, 1)).toBeNull();
  });

  it('a target inside the muzzle distance: aim at it now', () => {
    expect(leadPoint(ZERO, ZERO, { x: 0, y: 0, z: -5 }, { x: 50, y: 0, z: 0 }, 600, 8, 1)).toEqual({ point: { x: 0, y: 0, z: -5 }, time: 0, inRange: true });
  });
});

describe('rimPoint', () => {
  it('on the ellipse round the centre, in the direction given, with its angle', () => {
    const right = rimPoint(640, 360, 600, 320, 1, 0);
    expect(right).toEqual({ x: 1240, y: 360, angle: 0 });
    const up = rimPoint(640, 360, 600, 320, 0, -1);
    expect(up.x).toBe(640);
    expect(up.y).toBe(40);
    expect(up.angle).toBeCloseTo(-Math.PI / 2, 9);
    // A diagonal: on the ellipse ((x−cx)/rx)² + ((y−cy)/ry)² = 1, short of the window's corner.
    const diag = rimPoint(640, 360, 600, 320, 1, -1);
    expect(((diag.x - 640) / 600) ** 2 + ((diag.y - 360) / 320) ** 2).toBeCloseTo(1, 9);
    expect(diag.x - 640).toBeCloseTo(360 - diag.y, 9);
    // …well short of the margin's corner (1240, 40), where a rectangle would have put it.
    expect(Math.hypot(1240 - diag.x, diag.y - 40)).toBeGreaterThan(250);
  });

  it('dead behind (no direction) points down', () => {
    expect(rimPoint(640, 360, 600, 320, 0, 0)).toMatchObject({ x: 640, y: 680 });
  });
});
