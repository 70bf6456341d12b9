/**
 * A client's world as it enters a solar system (issue 29): a gameserver says
 * which system the player is in (the `solarSystem` message, wire v15) as it
 * joins and after each jump. The system's arena — its asteroid field from
 * the seed, its energy fields — replaces the last one, with a new match
 * (the system's own, whose word follows from the server), and nothing of the
 * last system flying on. Our ship keeps what it carries (energy, hull,
 * ammunition, upgrades); after a jump it is placed where the server says,
 * else (joining) on a free spawn point of the new field. The same system
 * again changes nothing. Pure.
 */
import { createShip, withShip } from './kinds/ship';
import { freeSpawnPoint } from './spawnPoint';
import type { MatchLimits } from './match';
import type { World } from './types';
import { createWorld } from './world';
import type { RemoteEvent, WireStargate } from '../wire/types';

export type SolarSystemMessage = Extract<RemoteEvent, { type: 'solarSystem' }>;

/** The solar system a client is in, as its view and HUD show it. */
export interface SystemView {
  name: string;
  gates: readonly WireStargate[];
}

/** The system and arena a message describes (name, seed and field), to tell a new system from the one we are in. */
function arenaKey(m: Pick<SolarSystemMessage, 'name' | 'seed' | 'asteroids' | 'radius' | 'fields'>): string {
  return `${m.name.toLowerCase()}:${m.seed}:${m.asteroids}:${m.radius}:${m.fields}`;
}

export interface SystemEntry {
  world: World;
  /** Whether the arena changed (the match, the other players' ships and objects start afresh). */
  changed: boolean;
}

/**
 * `w` as our ship (slot `local`; none for a spectator) enters the system of
 * `m`, which was `current` (null: never told, the arena of the default seed).
 */
export function enterSystem(w: World, m: SolarSystemMessage, current: SolarSystemMessage | null, local: number | null, limits: Partial<MatchLimits>): SystemEntry {
  const same = current === null ? false : arenaKey(current) === arenaKey(m);
  const mine = local === null ? undefined : w.ships.find((s) => s.slot === local);
  if (same && !m.placed) return { world: w, changed: false };
  let world = w;
  if (!same) {
    const fresh = createWorld(m.seed, { ships: 0, asteroids: m.asteroids, radius: m.radius, fields: m.fields, match: limits });
    // Our object ids only grow: what we create in the new system is never taken for what we made in the last.
    world = { ...fresh, nextId: Math.max(fresh.nextId, w.nextId), ships: [] };
  }
  if (mine) {
    const ship = m.placed
      ? { ...mine, pos: { ...m.pos }, rot: { ...m.rot }, vel: { ...m.vel }, angVel: { x: 0, y: 0, z: 0 } }
      : mine.respawnIn > 0
        ? mine
        : { ...createShip(mine.slot, freeSpawnPoint(mine.slot, [], world.asteroids)), ...carried(mine) };
    world = { ...world, ships: withShip(same ? world.ships.filter((s) => s.slot === mine.slot) : [], ship) };
  }
  return { world, changed: !same };
}

/** What a ship carries into a new system besides where it is: all of it but its place and motion. */
function carried(ship: World['ships'][number]): Partial<World['ships'][number]> {
  const { pos: _pos, rot: _rot, vel: _vel, angVel: _angVel, ...rest } = ship;
  return rest;
}
