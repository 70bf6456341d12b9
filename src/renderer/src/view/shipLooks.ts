/**
 * How a ship looks, decided without the GPU (pure, unit-tested): its design
 * and colour — the pilot's choice (shared/wire/shipLook.ts, carried to every
 * player) or, where it left them to the slot, the slot's own, so every
 * player's screen draws a pilot alike — and how hard its engine burns, read
 * from two consecutive world views (a remote ship's input is not sent, its
 * acceleration is seen). Looks only: the simulation never reads these.
 */
import { AFTERBURNER_MAX_SPEED, DRAG_PER_S, MAX_SPEED, THRUST_ACCEL } from '../../../shared/game/kinds/ship';
import { forwardOf } from '../../../shared/sim/vec';
import { STEP_S } from '../../../shared/sim/types';
import type { ShipView } from '../../../shared/game/view';
import { AUTO_LOOK, resolvedLook, SHIP_DESIGNS, type ShipDesign, type ShipLook as ChosenLook } from '../../../shared/wire/shipLook';

export { SHIP_DESIGNS, type ShipDesign };

/** The eight pilot colours (shared/wire/shipLook.ts SHIP_COLOURS names them in this order): far apart in hue and light. */
export const PILOT_COLOURS: readonly number[] = [0x4aa8ff, 0xff7a3a, 0x5ee06a, 0xf0d040, 0xd060ff, 0x40e0e0, 0xff5a8a, 0xe8e8f0];

export interface ShipLook {
  design: ShipDesign;
  colour: number;
}

/** Slot n's ship as drawn: the pilot's `chosen` design and colour, or the slot's own where left to it (designs and colours in turn, so neighbouring slots differ in both). */
export function lookOfSlot(slot: number, chosen: ChosenLook = AUTO_LOOK): ShipLook {
  const r = resolvedLook(slot, chosen);
  return { design: r.design, colour: PILOT_COLOURS[r.colour % PILOT_COLOURS.length]! };
}

/**
 * How hard the engine burns from `prev` to `curr` (one tick apart or more):
 * 0 idle (or reversing), 1 full thrust, up to 2.5 with the afterburner. The
 * acceleration along the nose, with drag taken out; at the speed cap, where
 * the simulation clamps it away, a ship flying nose first is taken as
 * thrusting (it could not hold the cap otherwise).
 */
export function engineLevel(prev: ShipView, curr: ShipView, ticks = 1): number {
  const dt = STEP_S * Math.max(1, ticks);
  const nose = forwardOf(curr.rot);
  const keep = Math.pow(1 - DRAG_PER_S * STEP_S, Math.max(1, ticks));
  // Velocity before drag: what thrust alone did.
  const ax = (curr.vel.x / keep - prev.vel.x) / dt;
  const ay = (curr.vel.y / keep - prev.vel.y) / dt;
  const az = (curr.vel.z / keep - prev.vel.z) / dt;
  const along = (ax * nose.x + ay * nose.y + az * nose.z) / THRUST_ACCEL;
  const speed = Math.hypot(curr.vel.x, curr.vel.y, curr.vel.z);
  const noseFirst = speed > 0 && (curr.vel.x * nose.x + curr.vel.y * nose.y + curr.vel.z * nose.z) > 0.95 * speed;
  let level = Math.min(2.5, Math.max(0, along));
  if (noseFirst && speed >= 0.97 * MAX_SPEED) level = Math.max(level, speed > MAX_SPEED * 1.05 && speed >= 0.9 * AFTERBURNER_MAX_SPEED ? 2.5 : 1);
  return Number.isFinite(level) ? level : 0;
}
