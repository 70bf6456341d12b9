/** Where a ship of the game (re)appears: its slot's spawn point unless something is in the way (sim/spawn.ts). */
import { chooseSpawnPoint, type SpawnObstacle } from '../sim/spawn';
import { SHIP_RADIUS } from './kinds/ship';
import type { Asteroid, Ship, Vec3 } from './types';

/** The spawn point for `slot` with the other flying ships and the asteroids in the way. */
export function freeSpawnPoint(slot: number, ships: readonly Ship[], asteroids: readonly Asteroid[]): Vec3 {
  const obstacles: SpawnObstacle[] = [];
  for (const s of ships) if (s.slot !== slot && s.respawnIn === 0) obstacles.push({ pos: s.pos, radius: SHIP_RADIUS });
  for (const a of asteroids) obstacles.push({ pos: a.pos, radius: a.radius });
  return chooseSpawnPoint(slot, obstacles);
}
