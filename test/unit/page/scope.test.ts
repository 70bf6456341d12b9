/**
 * The radar's projection (src/renderer/src/view/combat/scope.ts): contacts
 * relative to our ship's place and orientation on the 3-D scope.
 */
import { describe, expect, it } from 'vitest';
import { bodyOffset, scopePoint, SCOPE_STALK, SCOPE_TILT } from '../../../src/renderer/src/view/combat/scope';
import type { Quat } from '../../../src/shared/sim/types';

const IDENTITY: Quat = { x: 0, y: 0, z: 0, w: 1 };
/** Turned 90° left about the up axis: the nose (−Z) points along −X. */
const YAW_LEFT: Quat = { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 };

describe('bodyOffset', () => {
  it('is the offset in our ship\'s axes: right +X, up +Y, nose −Z', () => {
    expect(bodyOffset({ x: 10, y: 5, z: -100 }, { x: 10, y: 0, z: 0 }, IDENTITY)).toEqual({ x: 0, y: 5, z: -100 });
    // Turned left, a contact on the world's −X axis lies ahead.
    const ahead = bodyOffset({ x: -100, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, YAW_LEFT);
    expect(ahead.x).toBeCloseTo(0, 9);
    expect(ahead.z).toBeCloseTo(-100, 9);
  });
});

describe('scopePoint', () => {
  it('ahead is up the scope, right is right, behind is down', () => {
    const ahead = scopePoint({ x: 0, y: 0, z: -500 }, 1000);
    expect(ahead).toMatchObject({ x: 0, clamped: false });
    expect(ahead.y).toBeCloseTo(-0.5 * SCOPE_TILT, 9);
    expect(ahead.top).toBe(ahead.y);
    const right = scopePoint({ x: 250, y: 0, z: 0 }, 1000);
    expect(right.x).toBeCloseTo(0.25, 9);
    expect(right.y).toBeCloseTo(0, 9);
    expect(scopePoint({ x: 0, y: 0, z: 400 }, 1000).y).toBeCloseTo(0.4 * SCOPE_TILT, 9);
  });

  it('a contact above our plane has its mark above the stalk\'s foot, one below under it', () => {
    const above = scopePoint({ x: 0, y: 200, z: 0 }, 1000);
    expect(above.top).toBeCloseTo(above.y - 0.2 * SCOPE_STALK, 9);
    const below = scopePoint({ x: 0, y: -200, z: 0 }, 1000);
    expect(below.top).toBeGreaterThan(below.y);
  });

  it('beyond the range: on the rim in its direction, marked clamped', () => {
    const far = scopePoint({ x: 3000, y: 0, z: -4000 }, 1000);
    expect(far.clamped).toBe(true);
    expect(far.x).toBeCloseTo(0.6, 9);
    expect(far.y).toBeCloseTo(-0.8 * SCOPE_TILT, 9);
  });
});
