/**
 * What destroyed a ship, read from the events of the tick it was destroyed
 * in (events.ts): a ship is destroyed in the tick its hull reaches the limit
 * (step.ts, "deaths"), so the last `hit` on it in that tick's events is the
 * blow that did it. Only the game that decides hits on a ship has those hit
 * events — the victim's own, an offline game for its computer pilots, a
 * lockstep world for everyone — so only that game can name the weapon.
 * View data: it changes nothing in the simulation.
 */
import type { KillCause } from './clientTypes';
import type { WorldEvent } from './events';

/** The cause of the last hit on `slot` in `events` (one tick's), or undefined when there is none. */
export function killCause(events: readonly WorldEvent[], slot: number): KillCause | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'hit' && e.slot === slot) return e.cause;
  }
  return undefined;
}
