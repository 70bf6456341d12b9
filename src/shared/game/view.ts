/**
 * What the renderer draws of one tick: the world's ships, objects (each as its
 * kind's view) and asteroids, with our slot and respawn countdown. The host
 * sends one per tick; the renderer interpolates between the last two.
 */
import type { ClientGame } from './clientGame';
import { kindOf, type ObjectView } from './registry';
import type { Quat, Vec3 } from './types';

export interface ShipView {
  slot: number;
  pos: Vec3;
  rot: Quat;
  vel: Vec3;
  energy: number;
  shield: number;
  damage: number;
  missiles: number;
  mines: number;
  laserLevel: number;
  /** Ticks of invulnerability left (0: none). */
  invulnerable: number;
}

export interface AsteroidView {
  id: number;
  pos: Vec3;
  rot: Quat;
  radius: number;
}

export interface WorldView {
  tick: number;
  /** Our slot: the ship the camera follows. */
  localSlot: number;
  /** Whole seconds until our ship respawns; null while it is alive. */
  respawnSeconds: number | null;
  ships: ShipView[];
  objects: ObjectView[];
  asteroids: AsteroidView[];
}

export type { ObjectView } from './registry';

/** The view of `game`'s current world. Shares nothing mutable with the game (its worlds are never mutated). */
export function worldView(game: ClientGame): WorldView {
  const w = game.curr;
  return {
    tick: w.tick,
    localSlot: game.localSlot,
    respawnSeconds: game.dead ? game.respawnSeconds : null,
    // A destroyed ship waiting to respawn is not drawn.
    ships: w.ships
      .filter((s) => s.respawnIn === 0)
      .map((s) => ({
        slot: s.slot,
        pos: s.pos,
        rot: s.rot,
        vel: s.vel,
        energy: s.energy,
        shield: s.shield,
        damage: s.damage,
        missiles: s.missiles,
        mines: s.mines,
        laserLevel: s.laserLevel,
        invulnerable: s.invulnerable,
      })),
    objects: w.objects.map((o) => kindOf(o).view(o)),
    asteroids: w.asteroids.map((a) => ({ id: a.id, pos: a.pos, rot: a.rot, radius: a.radius })),
  };
}
