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

/**
 * The causes a ship's own killObject may name on the wire (wire v9: one
 * byte after killerSlot, present only in the announcement of a destroyed
 * ship), code = index + 1; a cause not listed is left out.
 */
export const WIRE_KILL_CAUSES = ['laser', 'missile', 'mine', 'emp', 'asteroid'] as const satisfies readonly KillCause[];

/** The wire code of `cause` (1..), or undefined for none or one the wire does not name. */
export function killCauseCode(cause: KillCause | undefined): number | undefined {
  const i = cause === undefined ? -1 : (WIRE_KILL_CAUSES as readonly string[]).indexOf(cause);
  return i < 0 ? undefined : i + 1;
}

/** The cause a wire code names (undefined for none; the codec has refused codes out of range). */
export function killCauseOf(code: number | undefined): KillCause | undefined {
  return code === undefined ? undefined : WIRE_KILL_CAUSES[code - 1];
}

/** The cause of the last hit on `slot` in `events` (one tick's), or undefined when there is none. */
export function killCause(events: readonly WorldEvent[], slot: number): KillCause | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'hit' && e.slot === slot) return e.cause;
  }
  return undefined;
}
