/**
 * Ships a player can tell apart, and engines that burn as the ship flies:
 * neighbouring slots differ in design and colour (and every screen draws a
 * slot alike); the engine level read from two views of the real ship
 * physics is 0 coasting or reversing, about 1 at full thrust, more with the
 * afterburner, and stays lit at the speed cap where the acceleration is
 * clamped away.
 */
import { describe, expect, it } from 'vitest';
import { createShip, sanitiseInput, stepShip } from '../../../src/shared/game/kinds/ship';
import type { Ship } from '../../../src/shared/game/types';
import type { ShipView } from '../../../src/shared/game/view';
import { engineLevel, lookOfSlot, PILOT_COLOURS, SHIP_DESIGNS } from '../../../src/renderer/src/view/shipLooks';

const view = (s: Ship): ShipView => ({ slot: s.slot, pos: s.pos, rot: s.rot, vel: s.vel, energy: s.energy, shield: s.shield, damage: s.damage, missiles: s.missiles, mines: s.mines, laserLevel: 1, invulnerable: 0 });

/** The ship after `ticks` ticks of `input`, and the view one tick before that. */
function fly(ticks: number, input: { thrust: number; afterburner?: boolean }): { prev: ShipView; curr: ShipView } {
  let ship = createShip(0);
  let prev = view(ship);
  for (let i = 0; i < ticks; i++) {
    prev = view(ship);
    ship = stepShip(ship, sanitiseInput({ yaw: 0, pitch: 0, roll: 0, fire: false, ...input })).ship;
  }
  return { prev, curr: view(ship) };
}

describe('ship looks', () => {
  it('every slot of a full game has its own colour, and neighbouring slots differ in design too', () => {
    const looks = Array.from({ length: 8 }, (_, slot) => lookOfSlot(slot));
    expect(new Set(looks.map((l) => l.colour)).size).toBe(8);
    for (let slot = 1; slot < 8; slot++) expect(looks[slot]!.design).not.toBe(looks[slot - 1]!.design);
    expect(new Set(looks.map((l) => l.design))).toEqual(new Set(SHIP_DESIGNS));
    expect(PILOT_COLOURS).toHaveLength(8);
    expect(lookOfSlot(3)).toEqual(lookOfSlot(3));
  });

  it('the engine is dark while coasting or reversing, about 1 at full thrust and more with the afterburner', () => {
    const coast = fly(3, { thrust: 0 });
    expect(engineLevel(coast.prev, coast.curr)).toBe(0);
    const back = fly(3, { thrust: -1 });
    expect(engineLevel(back.prev, back.curr)).toBe(0);
    const full = fly(3, { thrust: 1 });
    expect(engineLevel(full.prev, full.curr)).toBeCloseTo(1, 1);
    const half = fly(3, { thrust: 0.5 });
    expect(engineLevel(half.prev, half.curr)).toBeCloseTo(0.5, 1);
    const burn = fly(3, { thrust: 1, afterburner: true });
    expect(engineLevel(burn.prev, burn.curr)).toBeGreaterThan(2);
  });

  it('at the speed cap, where thrust no longer shows as acceleration, the engine stays lit', () => {
    const cruise = fly(400, { thrust: 1 });
    expect(engineLevel(cruise.prev, cruise.curr)).toBeGreaterThanOrEqual(1);
    const burn = fly(400, { thrust: 1, afterburner: true });
    expect(engineLevel(burn.prev, burn.curr)).toBeGreaterThan(2);
  });
});
