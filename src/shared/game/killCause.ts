/**
 * What destroyed a ship, read from the events of the tick it was destroyed
 * in (events.ts): a ship is destroyed in the tick its hull reaches the limit
 * (step.ts, "deaths"), so the last `hit` on it in that tick's events is the
 * blow that did it. Only the game that decides hits on a ship has those hit
 * events — the victim's own, an offline game for its computer pilots, a
 * lockstep world for everyone — so only that game can name the weapon.
 * View data: it changes nothing in the simulation.
 */
import { WIRE_KILL_CAUSES } from '../wire/types';
import type { KillCause } from './clientTypes';
import type { WorldEvent } from './events';

/** The wire's cause list (wire/types.ts), each a KillCause: code = index + 1. */
const WIRE_CAUSES: readonly KillCause[] = WIRE_KILL_CAUSES;

/** The wire code of `cause` (1..), or undefined for none or one the wire does not name. */
export function killCauseCode(cause: KillCause | undefined): number | undefined {
  const i = cause === undefined ? -1 : WIRE_CAUSES.indexOf(cause);
  return i < 0 ? undefined : i + 1;
}

/** The cause a wire code names (undefined for none; the codec has refused codes out of range). */
export function killCauseOf(code: number | undefined): KillCause | undefined {
  return code === undefined ? undefined : WIRE_CAUSES[code - 1];
}

/** The cause of the last hit on `slot` in `events` (one tick's), or undefined when there is none. */
export function killCause(events: readonly WorldEvent[], slot: number): KillCause | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'hit' && e.slot === slot) return e.cause;
  }
  return undefined;
}
