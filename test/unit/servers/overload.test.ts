/**
 * Graceful overload at the gameserver (src/node/servers/game/overload.ts):
 * ticks running late stretch the far players' state intervals, by 2 then 4,
 * then thin near players too (8), never further; calm ticks bring the rates back; the lateness percentiles
 * the status page prints.
 */
import { describe, expect, it } from 'vitest';
import { CALM_MS, MAX_SLOWDOWN, OverloadWatch } from '../../../src/node/servers/game/overload';

/** Ticks every 50 ms from `from` for `ms`, each `late` ms late; the slowdown after each second. */
function run(w: OverloadWatch, from: number, ms: number, late: (t: number) => number): number[] {
  const out: number[] = [];
  for (let t = from; t < from + ms; t += 50) {
    w.tick(t, late(t));
    if ((t - from) % 1000 === 950) out.push(w.slowdown);
  }
  return out;
}

describe('the gameserver under overload', () => {
  it('a server keeping up is not overloaded, whatever a single late tick does', () => {
    const w = new OverloadWatch(50);
    expect(run(w, 0, 5000, (t) => (t === 2000 ? 400 : 3))).toEqual([1, 1, 1, 1, 1]);
    expect(w.overloaded).toBe(false);
    // 100 ticks: the one late tick is the 99th percentile.
    expect(w.lateness()).toEqual({ p50: 3, p99: 400 });
  });

  it('ticks a whole interval late slow far rates by 2, then 4, then near ones too (8) and no more; calm brings them back one step each 3 s', () => {
    const w = new OverloadWatch(50);
    // Five seconds with every fourth tick 80 ms late.
    expect(run(w, 0, 5000, (t) => (t % 200 === 0 ? 80 : 5))).toEqual([2, 4, 8, MAX_SLOWDOWN, MAX_SLOWDOWN]);
    expect(MAX_SLOWDOWN).toBe(8);
    expect(w.overloaded).toBe(true);
    expect(w.lateness().p99).toBe(80);
    // Then calm: back to 4 after CALM_MS, to 2 and to 1 after as long again each.
    const calm = run(w, 5000, 3 * CALM_MS + 1000, () => 2);
    expect(calm.slice(0, 2)).toEqual([8, 8]);
    expect(calm).toContain(4);
    expect(calm).toContain(2);
    expect(calm.at(-1)).toBe(1);
    expect(w.overloaded).toBe(false);
  });
});
