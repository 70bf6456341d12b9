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
import { NO_SLOT, type FrameInput } from '../wire/types';
import type { GameNotice } from './clientTypes';
import type { WorldEvent } from './events';
import { killCause } from './killCause';
import { NO_ATTACKER, type World } from './types';

/** One frame of the shared world: before and after the step, and what happened. */
export interface SteppedFrame {
  before: World;
  world: World;
  events: WorldEvent[];
  /**
   * How the frame replays (a demo records it, src/shared/demo): `world` is
   * stepWorld(`from`, these inputs as frameInputToShip gives them, in this
   * order). `from` is `before` unless the frame's moves changed the world
   * first (a netgame's joins and leaves). Absent when no inputs replay it (a
   * correction replaced the world within the frame).
   */
  replay?: { from: World; inputs: ReadonlyMap<number, FrameInput> };
}

export interface FrameSync {
  /** One host tick with our pilot's input: the frames stepped, or null when the shared world does not run the game now. */
  tick(input: ShipInput, at: number): { frames: SteppedFrame[]; slot: number } | null;
}

/** The ships destroyed in `frames`, as the view's notices (`slot` is ours). */
export function explosions(frames: readonly SteppedFrame[], slot: number): GameNotice[] {
  const out: GameNotice[] = [];
  for (const f of frames) {
    for (const e of f.events) {
      if (e.type !== 'destroyed') continue;
      const ship = f.before.ships.find((s) => s.slot === e.slot);
      const cause = killCause(f.events, e.slot);
      out.push({ type: 'destroyed', slot: e.slot, killerSlot: e.killer === NO_ATTACKER ? NO_SLOT : e.killer, pos: ship ? ship.pos : null, local: e.slot === slot, ...(cause === undefined ? {} : { cause }) });
    }
  }
  return out;
}
