/**
 * Scripted pilots of the headless bot: each turns the game as it stands into
 * the input of our ship for the next tick. A pilot is all a bot adds to the
 * game every client runs.
 */
import { NO_INPUT, type ShipInput } from '../sim/types';
import type { ClientGame } from './clientGame';
import { createHuntMemory, huntInput } from './pilots/hunt';
import { DEFAULT_SKILL } from './pilots/skill';

export const PILOTS = ['circle', 'idle', 'hunt'] as const;
export type Pilot = (typeof PILOTS)[number];

export interface PilotOptions {
  /** Skill of the `hunt` pilot, 1–5 (default DEFAULT_SKILL; see pilots/skill.ts). */
  skill?: number;
  /** Seeds the `hunt` pilot's aim error. */
  seed?: number;
}

/**
 * A pilot flying our ship (`game.localSlot`): called once per tick.
 * `circle`: a wide climbing turn, firing a two-shot burst every 2 s.
 * `idle`: no input. `hunt`: a computer opponent of `options.skill`
 * (pilots/hunt.ts) with a memory of its own.
 */
export function createPilot(pilot: Pilot, options: PilotOptions = {}): (game: ClientGame) => ShipInput {
  if (pilot === 'idle') return () => NO_INPUT;
  if (pilot === 'hunt') {
    const memory = createHuntMemory(options.seed ?? 0);
    const skill = options.skill ?? DEFAULT_SKILL;
    return (game) => huntInput(game.curr, game.localSlot, memory, skill);
  }
  return (game) => {
    const t = game.curr.tick;
    return { thrust: 0.6, yaw: 0.35, pitch: 0.05, roll: 0, fire: t % 80 < 2 };
  };
}
