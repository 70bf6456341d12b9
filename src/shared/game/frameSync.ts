/**
 * A protocol that runs the simulation itself (lockstep; netgame to come):
 * every peer steps one shared world frame by frame with every pilot's
 * input, so the client game shows that world instead of stepping its own.
 * The GameDriver hands it our input each host tick; it answers with the
 * frames the shared world stepped (none while it waits for a peer), or null
 * while it does not run the game (not in a game yet), when the ClientGame
 * steps as usual.
 */
import type { ShipInput } from '../sim/types';
import type { WorldEvent } from './events';
import type { World } from './types';

/** One frame of the shared world: before and after the step, and what happened. */
export interface SteppedFrame {
  before: World;
  world: World;
  events: WorldEvent[];
}

export interface FrameSync {
  /** One host tick with our pilot's input: the frames stepped, or null when the shared world does not run the game now. */
  tick(input: ShipInput, at: number): { frames: SteppedFrame[]; slot: number } | null;
}
