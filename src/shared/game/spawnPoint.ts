/** Where a ship of the game (re)appears: its slot's spawn point unless something is in the way (sim/spawn.ts). */
import { chooseSpawnPoint, type SpawnObstacle } from '../sim/spawn';
import { createShip, SHIP_RADIUS, withShip } from './kinds/ship';
import { RULES } from './rules';
import type { Asteroid, Ship, Vec3, World } from './types';

/** The spawn point for `slot` with the other flying ships and the asteroids in the way. */
export function freeSpawnPoint(slot: number, ships: readonly Ship[], asteroids: readonly Asteroid[]): Vec3 {
  const obstacles: SpawnObstacle[] = [];
  for (const s of ships) if (s.slot !== slot && s.respawnIn === 0) obstacles.push({ pos: s.pos, radius: SHIP_RADIUS });
  for (const a of asteroids) obstacles.push({ pos: a.pos, radius: a.radius });
  return chooseSpawnPoint(slot, obstacles);
}

/** `w` with a fresh ship for `slot` on a free spawn point, invulnerable for a while, and a zero score line if it had none (a pilot joining). */
export function withSpawnedShip(w: World, slot: number): World {
  const ship = createShip(slot, freeSpawnPoint(slot, w.ships, w.asteroids), RULES.spawnInvulnerableTicks);
  const scores = w.scores.some((x) => x.slot === slot) ? w.scores : [...w.scores, { slot, kills: 0, deaths: 0 }].sort((a, b) => a.slot - b.slot);
  return { ...w, ships: withShip(w.ships, ship), scores };
}

/** `w` without the ship and the score line of `slot` (a pilot leaving). */
export function withoutPilot(w: World, slot: number): World {
  return { ...w, ships: w.ships.filter((s) => s.slot !== slot), scores: w.scores.filter((x) => x.slot !== slot) };
}
