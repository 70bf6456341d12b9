/**
 * A pilot's input as lockstep peers exchange it: quantised to six bytes
 * before any simulation sees it, so every peer steps exactly the same input
 * (the local game included). Thrust and the three turn axes become signed
 * integers −127..127 (value × 127, rounded half away from zero, after
 * clamping to −1..1): a precision of 1/127 ≈ 0.008 of full deflection, finer
 * than a mouse sample's step at normal sensitivity. The five buttons are bits;
 * the target is a slot or NO_SLOT.
 */
import { NO_TARGET, type CleanInput, type ShipInput } from '../sim/types';
import { sanitiseInput } from '../game/kinds/ship';
import { SMALL_GAME_SLOTS, NO_SLOT, type FrameInput } from '../wire/types';

/** Steps of an axis either side of zero. */
export const AXIS_STEPS = 127;

const BUTTONS = ['fire', 'afterburner', 'missile', 'mine', 'emp'] as const;

/** The neutral quantised input (no thrust, no turn, no button, no target). */
export const NEUTRAL_FRAME_INPUT: Readonly<FrameInput> = Object.freeze({ thrust: 0, yaw: 0, pitch: 0, roll: 0, buttons: 0, target: NO_SLOT });

function step(v: number): number {
  const q = Math.round(Math.abs(v) * AXIS_STEPS);
  // Never −0: the wire has no −0, and the local game must step exactly what the peers decode.
  return v < 0 && q !== 0 ? -q : q;
}

/** `input` as it travels: sanitised first (anything malformed is neutral), then quantised. */
export function quantiseInput(input: ShipInput): FrameInput {
  const clean = sanitiseInput(input);
  let buttons = 0;
  BUTTONS.forEach((b, i) => {
    if (clean[b]) buttons |= 1 << i;
  });
  return { thrust: step(clean.thrust), yaw: step(clean.yaw), pitch: step(clean.pitch), roll: step(clean.roll), buttons, target: clean.target === NO_TARGET ? NO_SLOT : clean.target };
}

/** What the simulation steps for a quantised input (the same value on every engine: one IEEE division). */
export function frameInputToShip(q: FrameInput): CleanInput {
  return {
    thrust: q.thrust / AXIS_STEPS,
    yaw: q.yaw / AXIS_STEPS,
    pitch: q.pitch / AXIS_STEPS,
    roll: q.roll / AXIS_STEPS,
    fire: (q.buttons & 1) !== 0,
    afterburner: (q.buttons & 2) !== 0,
    missile: (q.buttons & 4) !== 0,
    mine: (q.buttons & 8) !== 0,
    emp: (q.buttons & 16) !== 0,
    target: q.target < SMALL_GAME_SLOTS ? q.target : NO_TARGET,
  };
}

/** Whether two quantised inputs are the same. */
export function sameFrameInput(a: FrameInput, b: FrameInput): boolean {
  return a.thrust === b.thrust && a.yaw === b.yaw && a.pitch === b.pitch && a.roll === b.roll && a.buttons === b.buttons && a.target === b.target;
}
