/**
 * The tags above other ships (shipLabels.ts `declutter`): a tag shows for a
 * ship within reading range in front of the camera; where two would overlap
 * on screen the nearer ship's shows; the targeted ship has none — the combat
 * HUD's brackets carry its name and bars, so a player never reads it twice —
 * and its hidden tag hides no other.
 */
import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { declutter, makeTag, TAG_RANGE, type TagPlace } from '../../../src/renderer/src/view/shipLabels';

const place = (slot: number, x: number, y: number, distance: number, z = 0.5): TagPlace => ({ tag: makeTag(), slot, ndc: new THREE.Vector3(x, y, z), distance });

/** The slots whose tags show after `declutter`, ascending. */
function shown(places: TagPlace[], target?: number): number[] {
  declutter(places, 16 / 9, target);
  return places.filter((p) => p.tag.sprite.visible).map((p) => p.slot).sort((a, b) => a - b);
}

describe('ship tags (declutter)', () => {
  it('shows every tag in range, apart on screen and in front of the camera', () => {
    expect(shown([place(1, -0.5, 0, 100), place(2, 0.5, 0, 200), place(3, 0, 0.6, 300)])).toEqual([1, 2, 3]);
  });

  it('hides a ship beyond reading range and one behind the camera', () => {
    expect(shown([place(1, -0.5, 0, TAG_RANGE + 1), place(2, 0.5, 0, 200, 1.2), place(3, 0, 0.6, TAG_RANGE)])).toEqual([3]);
  });

  it('of two tags overlapping on screen, keeps the nearer ship\'s', () => {
    expect(shown([place(1, 0, 0, 300), place(2, 0.02, 0.01, 120)])).toEqual([2]);
  });

  it('hides the targeted ship\'s tag: its brackets show its name and bars', () => {
    expect(shown([place(1, -0.5, 0, 100), place(2, 0.5, 0, 200)], 2)).toEqual([1]);
    expect(shown([place(1, -0.5, 0, 100)], 1)).toEqual([]);
  });

  it('the targeted ship\'s hidden tag takes no room: a farther ship behind it keeps its tag', () => {
    expect(shown([place(1, 0, 0, 100), place(2, 0.02, 0.01, 300)], 1)).toEqual([2]);
  });

  it('no target (-1, the default) hides no tag for it', () => {
    expect(shown([place(0, -0.5, 0, 100), place(1, 0.5, 0, 200)], -1)).toEqual([0, 1]);
    expect(shown([place(0, -0.5, 0, 100), place(1, 0.5, 0, 200)])).toEqual([0, 1]);
  });

  it('a tag hidden while its ship was targeted shows again once the target changes', () => {
    const places = [place(1, -0.5, 0, 100), place(2, 0.5, 0, 200)];
    expect(shown(places, 1)).toEqual([2]);
    expect(shown(places, 2)).toEqual([1]);
    expect(shown(places, -1)).toEqual([1, 2]);
  });
});
