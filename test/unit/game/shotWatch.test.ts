/**
 * Hits as the shooter's screen shows them (src/shared/game/shotWatch.ts),
 * from consecutive world views: the hit markers' source.
 */
import { describe, expect, it } from 'vitest';
import { ShotWatch } from '../../../src/shared/game/shotWatch';
import type { ObjectView } from '../../../src/shared/game/view';
import { boltView, duelView } from '../../support/duelViews';

/** A bolt flying −Z at 600 u/s (15 units a tick). */
const laser = boltView;
const view = duelView;

describe('ShotWatch', () => {
  it('our bolt gone where it would have met a ship: one hit, on that ship, at the contact', () => {
    const watch = new ShotWatch();
    expect(watch.next(view(10, [laser(0, 5, -80)]))).toEqual([]);
    const hits = watch.next(view(11, []));
    expect(hits).toEqual([{ key: 'laser0:5', slot: 1, kind: 'laser', pos: expect.any(Object), tick: 11 }]);
    // The bolt touches the ship's sphere (radius 6 round z = −100) at z = −94.
    expect(hits[0]!.pos.z).toBeCloseTo(-94, 9);
  });

  it('a bolt that flies on through the ship (a network game, where the victim decides) counts once', () => {
    const watch = new ShotWatch();
    watch.next(view(10, [laser(0, 5, -80)]));
    expect(watch.next(view(11, [laser(0, 5, -95)]))).toHaveLength(1);
    expect(watch.next(view(12, [laser(0, 5, -110)]))).toEqual([]);
  });

  it('no hit: another player\'s bolt, a bolt that burns out in open space, one an asteroid stops first', () => {
    const watch = new ShotWatch();
    watch.next(view(10, [laser(2, 5, -80)]));
    expect(watch.next(view(11, []))).toEqual([]);
    watch.next(view(12, [{ ...laser(0, 6, -80), pos: { x: 50, y: 0, z: -80 } }]));
    expect(watch.next(view(13, []))).toEqual([]);
    const rock = { id: 1, pos: { x: 0, y: 0, z: -86 }, rot: { x: 0, y: 0, z: 0, w: 1 }, radius: 3 };
    watch.next(view(14, [laser(0, 7, -80)], { asteroids: [rock] }));
    expect(watch.next(view(15, [], { asteroids: [rock] }))).toEqual([]);
  });

  it('views not one tick apart (a reload, a new game) show no hits', () => {
    const watch = new ShotWatch();
    watch.next(view(10, [laser(0, 5, -80)]));
    expect(watch.next(view(40, []))).toEqual([]);
  });

  it('a missile gone near a ship hits within its hit radius (farther out than a bolt would)', () => {
    const watch = new ShotWatch();
    // It passes 7 units from the ship's centre: past a bolt's reach (6), within a missile's (6 + 3).
    const missile: ObjectView = { kind: 'missile', id: 9, owner: 0, pos: { x: 5, y: 0, z: -88 }, vel: { x: 0, y: 0, z: -280 }, type: 1 };
    watch.next(view(10, [missile]));
    expect(watch.next(view(11, []))).toEqual([expect.objectContaining({ key: 'missile0:9', slot: 1, kind: 'missile' })]);
  });
});
