import { describe, expect, it } from 'vitest';
import { nextTarget, Targeting } from '../../../src/renderer/src/game/target';
import { NO_TARGET } from '../../../src/shared/sim/types';

const ships = (...slots: number[]) => slots.map((slot) => ({ slot }));

describe('targeting (the renderer’s target key)', () => {
  it('cycles through the other ships by slot, wrapping, never our own', () => {
    const all = ships(3, 0, 5, 1);
    expect(nextTarget(all, 1, NO_TARGET)).toBe(0);
    expect(nextTarget(all, 1, 0)).toBe(3);
    expect(nextTarget(all, 1, 3)).toBe(5);
    expect(nextTarget(all, 1, 5)).toBe(0);
    expect(nextTarget(ships(1), 1, NO_TARGET)).toBe(NO_TARGET);
    expect(nextTarget([], 0, 4)).toBe(NO_TARGET);
  });

  it('keeps the target while its ship is in view and drops it when it is gone', () => {
    const t = new Targeting();
    expect(t.update(ships(0, 2, 4), 0, 0)).toBe(NO_TARGET);
    expect(t.update(ships(0, 2, 4), 0, 1)).toBe(2);
    expect(t.update(ships(0, 2, 4), 0, 0)).toBe(2);
    expect(t.update(ships(0, 4), 0, 0)).toBe(NO_TARGET);
    expect(t.update(ships(0, 2, 4), 0, 2)).toBe(4);
    expect(t.slot).toBe(4);
  });
});
