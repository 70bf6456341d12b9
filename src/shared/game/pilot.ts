/**
 * Scripted pilots of the headless bot: each turns the game as it stands into
 * the input of our ship for the next tick. A pilot is all a bot adds to the
 * game every client runs.
 */
import { NO_INPUT, type ShipInput } from '../sim/types';
import type { ClientGame } from './clientGame';

export const PILOTS = ['circle', 'idle'] as const;
export type Pilot = (typeof PILOTS)[number];

/** `circle`: a wide climbing turn, firing a two-shot burst every 2 s. `idle`: no input. */
export function pilotInput(pilot: Pilot, game: ClientGame): ShipInput {
  if (pilot === 'idle') return NO_INPUT;
  const t = game.curr.tick;
  return { thrust: 0.6, yaw: 0.35, pitch: 0.05, roll: 0, fire: t % 80 < 2 };
}
