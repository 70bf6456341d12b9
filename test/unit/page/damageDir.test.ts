/**
 * The damage-direction marker's maths (view/combat/damageDir.ts): which way on
 * the window it points for a blow from beside, above, ahead or behind our
 * ship, the quarter it reports, and where a blow came from (the firer of a
 * shot, a mine where it lay, the asteroid we flew into, a bolt whose firer
 * is gone).
 */
import { describe, expect, it } from 'vitest';
import { blowSource, damageScreenDir, sideOf } from '../../../src/renderer/src/view/combat/damageDir';
import type { ObjectView, ShipView, WorldView } from '../../../src/shared/game/view';

const deg = (v: { x: number; y: number }): number => (Math.atan2(v.y, v.x) * 180) / Math.PI;
const still = { x: 0, y: 0, z: 0, w: 1 };

function ship(slot: number, pos: { x: number; y: number; z: number }): ShipView {
  return { slot, pos, rot: still, vel: { x: 0, y: 0, z: 0 }, energy: 100, shield: 40, damage: 0, missiles: 0, mines: 0, laserLevel: 1, invulnerable: 0 };
}

function view(ships: ShipView[], objects: ObjectView[] = [], asteroids: WorldView['asteroids'] = []): WorldView {
  return { tick: 1, localSlot: 0, respawnSeconds: null, ships, objects, asteroids, scores: [], match: { phase: 0, secondsLeft: null, killLimit: 0, timeLimitS: 0, round: 0 }, lockedBy: [], bots: [], pings: [] };
}

describe('damage-direction marker', () => {
  it('points left for a blow from our left, right from the right, up from above, down from below', () => {
    expect(Math.abs(deg(damageScreenDir({ x: -100, y: 0, z: 0 })))).toBeCloseTo(180, 5);
    expect(deg(damageScreenDir({ x: 100, y: 0, z: 0 }))).toBeCloseTo(0, 5);
    expect(deg(damageScreenDir({ x: 0, y: 100, z: 0 }))).toBeCloseTo(-90, 5);
    expect(deg(damageScreenDir({ x: 0, y: -100, z: 0 }))).toBeCloseTo(90, 5);
  });

  it('a blow from straight behind points down, from straight ahead up; behind and to the left leans left and down', () => {
    expect(deg(damageScreenDir({ x: 0, y: 0, z: 300 }))).toBeCloseTo(90, 5);
    expect(deg(damageScreenDir({ x: 0, y: 0, z: -300 }))).toBeCloseTo(-90, 5);
    const behindLeft = deg(damageScreenDir({ x: -100, y: 0, z: 100 }));
    expect(behindLeft).toBeGreaterThan(90);
    expect(behindLeft).toBeLessThan(180);
    // Nearly straight behind, a little to the right: down, leaning right.
    const nearlyBehind = deg(damageScreenDir({ x: 10, y: 0, z: 300 }));
    expect(nearlyBehind).toBeGreaterThan(45);
    expect(nearlyBehind).toBeLessThan(90);
  });

  it('in front of us it points where the source sits round the nose, as the window shows it', () => {
    // Ahead, up and to the right: up-right on the window (y down).
    expect(deg(damageScreenDir({ x: 50, y: 50, z: -400 }))).toBeCloseTo(-45, 5);
  });

  it('names the quarter it points into', () => {
    expect([0, 44, 46, 90, 134, 136, 180, -180, 224, -136, -134, -90, -46, -44].map(sideOf)).toEqual(['right', 'right', 'down', 'down', 'down', 'left', 'left', 'left', 'left', 'left', 'up', 'up', 'up', 'right']);
  });

  it("a laser's blow points at the ship that fired it; a mine's where it lay; an asteroid's at the rock we flew into", () => {
    const us = ship(0, { x: 0, y: 0, z: 0 });
    const bot = ship(3, { x: -300, y: 0, z: 0 });
    const now = view([us, bot]);
    expect(blowSource({ type: 'hit', slot: 0, by: 3, cause: 'laser', shield: 10, hull: 0, id: 7 }, now, now)).toEqual({ slot: 3 });

    const mine: ObjectView = { kind: 'mine', id: 9, owner: 5, pos: { x: 0, y: 0, z: 8 }, vel: { x: 0, y: 0, z: 0 } };
    expect(blowSource({ type: 'hit', slot: 0, by: 5, cause: 'mine', shield: 20, hull: 5, id: 9 }, view([us]), view([us], [mine]))).toEqual({ dir: { x: 0, y: 0, z: 1 } });

    const rocks = [
      { id: 1, pos: { x: 500, y: 0, z: 0 }, rot: still, radius: 20 },
      { id: 2, pos: { x: 0, y: 30, z: 0 }, rot: still, radius: 25 },
    ];
    expect(blowSource({ type: 'hit', slot: 0, by: -1, cause: 'asteroid', shield: 5, hull: 0 }, view([us], [], rocks), null)).toEqual({ dir: { x: 0, y: 1, z: 0 } });
  });

  it('a laser whose firer is gone: the way the bolt came, from its flight relative to us', () => {
    const us = ship(0, { x: 0, y: 0, z: 0 });
    const bolt: ObjectView = { kind: 'laser', id: 4, owner: 2, pos: { x: 10, y: 0, z: 0 }, vel: { x: -600, y: 0, z: 0 } };
    // It flew towards -X: it came from +X (our right).
    expect(blowSource({ type: 'hit', slot: 0, by: 2, cause: 'laser', shield: 10, hull: 0, id: 4 }, view([us]), view([us], [bolt]))).toEqual({ dir: { x: 1, y: 0, z: 0 } });
  });
});
