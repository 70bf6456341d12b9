/**
 * The ship targeted for homing missiles: the target key cycles through the
 * other ships in the world view by slot; the choice is dropped when that
 * ship is gone (destroyed, left). Pure logic, no DOM.
 */
import { NO_TARGET } from '../../../shared/sim/types';

interface Slotted {
  slot: number;
}

/** The other ship after `current` in slot order (wrapping), NO_TARGET when there is no other ship. */
export function nextTarget(ships: readonly Slotted[], localSlot: number, current: number): number {
  let first = NO_TARGET;
  let next = NO_TARGET;
  for (const { slot } of ships) {
    if (slot === localSlot) continue;
    if (first === NO_TARGET || slot < first) first = slot;
    if (slot > current && (next === NO_TARGET || slot < next)) next = slot;
  }
  return next !== NO_TARGET ? next : first;
}

/** The target the player keeps: set by `press`es of the target key, dropped when its ship is not in view. */
export class Targeting {
  private current = NO_TARGET;

  /** The targeted slot, or NO_TARGET. */
  get slot(): number {
    return this.current;
  }

  /** Applies `presses` of the target key to the view's ships and drops a target no longer among them (or our own slot). */
  update(ships: readonly Slotted[], localSlot: number, presses: number): number {
    if (this.current === localSlot || !ships.some((s) => s.slot === this.current)) this.current = NO_TARGET;
    for (let i = 0; i < presses; i++) this.current = nextTarget(ships, localSlot, this.current);
    return this.current;
  }
}
