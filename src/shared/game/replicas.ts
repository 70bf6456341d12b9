/**
 * The other players' ships as this node sees them: one smoothed track per
 * remote slot (net/smoothing.ts), fed by their states as they arrive and
 * sampled at each tick's time to place the ship in the World. A ship shown
 * destroyed stays out of the world until a state with damage below
 * DESTROYED_DAMAGE arrives (then it appears at once, not sliding across the
 * map from where it died).
 */
import { RemoteShipTrack } from '../net/smoothing';
import type { ShipState } from '../wire/types';
import { DESTROYED_DAMAGE, shipFromState } from './kinds/ship';
import type { Ship, Vec3 } from './types';

interface Replica {
  readonly track: RemoteShipTrack;
  state: ShipState | null;
  /** Destroyed: out of the world until a live state arrives. */
  down: boolean;
}

export class Replicas {
  private readonly bySlot = new Map<number, Replica>();
  private converge: number;

  constructor(convergeMs: number) {
    this.converge = convergeMs;
  }

  /** New correction time for every track (the `net_smooth` cvar). */
  set convergeMs(ms: number) {
    this.converge = ms;
    for (const r of this.bySlot.values()) r.track.convergeMs = ms;
  }

  /** Keeps only the slots in `shown` (a slot that left or unjoined leaves the screen; a later join starts a fresh track). */
  retain(shown: ReadonlySet<number>): void {
    for (const slot of [...this.bySlot.keys()]) if (!shown.has(slot)) this.bySlot.delete(slot);
  }

  clear(): void {
    this.bySlot.clear();
  }

  /** A state of `slot` that arrived at `nowMs` and is `ageMs` old by common game time. */
  onState(slot: number, state: ShipState, nowMs: number, ageMs: number): void {
    let r = this.bySlot.get(slot);
    if (!r) this.bySlot.set(slot, (r = { track: new RemoteShipTrack({ convergeMs: this.converge }), state: null, down: false }));
    if (state.damage >= DESTROYED_DAMAGE) {
      r.down = true;
      return;
    }
    r.state = state;
    if (r.down) {
      // Back from the dead at a spawn point: a cut, not a slide across the map.
      r.down = false;
      r.track.reset(state, nowMs - ageMs);
      return;
    }
    r.track.onState(state, nowMs, nowMs - ageMs);
  }

  /** `slot`'s ship was destroyed: it leaves the world; returns where it was shown (null if it was not). */
  destroyed(slot: number, nowMs: number): Vec3 | null {
    const r = this.bySlot.get(slot);
    if (!r) return null;
    const pos = !r.down && r.track.hasState ? { ...r.track.sample(nowMs).pos } : null;
    r.down = true;
    return pos;
  }

  /** The remote ships to put in the world at `nowMs`, in slot order: shown, alive, with a state. */
  ships(nowMs: number): Ship[] {
    const out: Ship[] = [];
    for (const [slot, r] of this.bySlot) {
      if (r.down || !r.state || !r.track.hasState) continue;
      const s = r.track.sample(nowMs);
      out.push(shipFromState(slot, r.state, s.pos, s.rot));
    }
    return out.sort((a, b) => a.slot - b.slot);
  }
}
