/**
 * The camera of someone watching a game rather than flying in it: a
 * spectator, a player connected but not joined, a demo being played. It
 * shows the game's own view (our ship, or with none of ours the first
 * ship), follows any player's ship with that player's HUD (its energy, its
 * hull, the missiles locked on it), or flies free on the player's controls.
 * While watching live, fire follows the next ship and the missile key the
 * previous one. Pure: one view per tick.
 */
import { add, rotate } from '../sim/vec';
import type { ShipInput } from '../sim/types';
import { NO_SLOT } from '../wire/types';
import { FreeCamera } from './freeCamera';
import type { World } from './types';
import type { WorldView } from './view';

/** Where the renderer's chase camera sits behind a ship, in its axes (scene.ts CHASE_OFFSET). */
const CHASE_OFFSET = { x: 0, y: 3.2, z: 13 };

/** `own`: the game's own view (our ship; watching with none, the first ship); `follow`: a slot's ship; `free`: flown by the controls. */
export type WatchMode = { mode: 'own' } | { mode: 'follow'; slot: number } | { mode: 'free' };

export class WatchCamera {
  mode: WatchMode = { mode: 'own' };
  private free: FreeCamera | null = null;
  /** Last tick's fire and missile keys (a press, not a hold, moves on). */
  private held = { fire: false, missile: false };

  /** The slots with a ship in `world` now, ascending. */
  static slots(world: World): number[] {
    return world.ships.map((s) => s.slot).sort((a, b) => a - b);
  }

  /** The slot whose ship the camera follows (`own`: our slot, NO_SLOT with none of our own; the free camera: NO_SLOT). */
  followedSlot(world: World, own: number): number {
    if (this.mode.mode === 'follow') return this.mode.slot;
    if (this.mode.mode === 'free') return NO_SLOT;
    // With no ship of our own (a spectator, a server's demo, a player not joined) the own view follows the first ship.
    return own !== NO_SLOT ? own : (WatchCamera.slots(world)[0] ?? NO_SLOT);
  }

  /** Follows the next (+1) or previous (−1) ship after the one followed now. Returns the slot, or null with no ships. */
  cycle(world: World, own: number, step: 1 | -1): number | null {
    const slots = WatchCamera.slots(world);
    if (slots.length === 0) return null;
    const at = slots.indexOf(this.followedSlot(world, own));
    const next = at < 0 ? (step > 0 ? slots[0] : slots[slots.length - 1]) : slots[(at + step + slots.length) % slots.length];
    this.mode = { mode: 'follow', slot: next as number };
    return next as number;
  }

  /** Switches to the free camera, starting where the chase camera was: a little above and behind the ship followed now. */
  freeCamera(world: World, own: number): void {
    const ship = world.ships.find((s) => s.slot === this.followedSlot(world, own));
    this.free = new FreeCamera(ship ? { pos: add(ship.pos, rotate(ship.rot, CHASE_OFFSET)), rot: ship.rot } : undefined);
    this.mode = { mode: 'free' };
  }

  /**
   * Watching live: a press of fire follows the next ship, of the missile key
   * the previous one (the free camera flies on the other controls and keeps
   * both keys to itself). Returns the slot followed now when it changed.
   */
  keys(world: World, own: number, input: ShipInput): number | null {
    const fire = input.fire && !this.held.fire;
    const missile = (input.missile ?? false) && !this.held.missile;
    this.held = { fire: input.fire, missile: input.missile ?? false };
    if (this.mode.mode === 'free') return null;
    if (fire) return this.cycle(world, own, 1);
    if (missile) return this.cycle(world, own, -1);
    return null;
  }

  /**
   * The view `plain` (the game's own, `world` its world) seen through the
   * camera: a followed ship's HUD (`localSlot` its slot, the missiles locked
   * on it), or the free camera's pose moved by `input`. `own` is our slot
   * (NO_SLOT with no ship of our own).
   */
  view(plain: WorldView, world: World, own: number, input: ShipInput): WorldView {
    if (this.mode.mode === 'free') {
      const pose = (this.free ??= new FreeCamera()).step(input);
      return { ...plain, localSlot: NO_SLOT, respawnSeconds: null, lockedBy: [], camera: pose };
    }
    const slot = this.followedSlot(world, own);
    if (slot === plain.localSlot) return plain;
    const lockedBy = [...new Set(world.objects.flatMap((o) => (o.kind === 'missile' && o.target === slot && o.owner !== slot ? [o.owner] : [])))].sort((a, b) => a - b);
    return { ...plain, localSlot: slot, respawnSeconds: null, lockedBy };
  }
}
