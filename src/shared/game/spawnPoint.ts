/**
 * Where a ship of the game (re)appears: its slot's spawn point unless
 * something is in the way (sim/spawn.ts); and where a computer pilot joining
 * a game under way appears — far from the player and out of each other's
 * sights, so a player who types `bot add 2` is not shot down before turning
 * round.
 */
import { chooseSpawnPoint, SPAWN_CLEARANCE, spawnPoint, type SpawnObstacle } from '../sim/spawn';
import { forwardOf } from '../sim/vec';
import { createShip, SHIP_RADIUS, withShip } from './kinds/ship';
import { RULES } from './rules';
import type { Asteroid, Ship, Vec3, World } from './types';

/**
 * A pilot joining a game under way appears at least this far from the
 * player: beyond a hunt pilot's laser range (480) and missile range (500),
 * so it has to fly in before it can fire, and the player sees it coming.
 */
export const JOIN_DISTANCE = 600;
/** …off the player's nose and with its own nose (−Z) off the player: more than 60° off (cos 60° = 0.5). */
const JOIN_OFF_NOSE_COS = 0.5;
/** Spawn-grid rings searched for such a point: ring 20 lies 800 units out along the axes. */
const JOIN_RINGS = 20;
const JOIN_POINTS = (2 * JOIN_RINGS + 1) * (2 * JOIN_RINGS + 1);
/** A new ship's nose (createShip: the identity rotation). */
const NEW_NOSE: Vec3 = { x: 0, y: 0, z: -1 };

/** The spawn point for `slot` with the other flying ships and the asteroids in the way. */
export function freeSpawnPoint(slot: number, ships: readonly Ship[], asteroids: readonly Asteroid[]): Vec3 {
  const obstacles: SpawnObstacle[] = [];
  for (const s of ships) if (s.slot !== slot && s.respawnIn === 0) obstacles.push({ pos: s.pos, radius: SHIP_RADIUS });
  for (const a of asteroids) obstacles.push({ pos: a.pos, radius: a.radius });
  return chooseSpawnPoint(slot, obstacles);
}

/** Whether `p` lies off the nose `nose` (a unit vector) seen from `from`: more than 60° off, or on `from` itself. */
function offNose(from: Vec3, nose: Vec3, p: Vec3): boolean {
  const dx = p.x - from.x;
  const dy = p.y - from.y;
  const dz = p.z - from.z;
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  return d === 0 || dx * nose.x + dy * nose.y + dz * nose.z < JOIN_OFF_NOSE_COS * d;
}

/**
 * Where a pilot of `slot` joining `w` while `player` flies appears: the
 * spawn-grid point nearest the player that is at least JOIN_DISTANCE from
 * it, off its nose, with the newcomer's nose off the player, and clear of
 * the other ships and the asteroids (SPAWN_CLEARANCE); the first such point
 * in grid order on a tie. Without a player, or with no such point within
 * JOIN_RINGS, the slot's free spawn point (freeSpawnPoint).
 */
export function joinPoint(w: World, slot: number, player: Ship | undefined): Vec3 {
  if (!player) return freeSpawnPoint(slot, w.ships, w.asteroids);
  const nose = forwardOf(player.rot);
  const obstacles: SpawnObstacle[] = [];
  for (const s of w.ships) if (s.slot !== slot && s.respawnIn === 0) obstacles.push({ pos: s.pos, radius: SHIP_RADIUS });
  for (const a of w.asteroids) obstacles.push({ pos: a.pos, radius: a.radius });
  const clear = (p: Vec3): boolean =>
    obstacles.every((o) => {
      const dx = p.x - o.pos.x;
      const dy = p.y - o.pos.y;
      const dz = p.z - o.pos.z;
      const reach = SPAWN_CLEARANCE + o.radius;
      return dx * dx + dy * dy + dz * dz >= reach * reach;
    });
  let best: Vec3 | null = null;
  let bestD2 = Infinity;
  for (let i = 0; i < JOIN_POINTS; i++) {
    const p = spawnPoint(i);
    const dx = p.x - player.pos.x;
    const dy = p.y - player.pos.y;
    const dz = p.z - player.pos.z;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < JOIN_DISTANCE * JOIN_DISTANCE || d2 >= bestD2) continue;
    if (!offNose(player.pos, nose, p) || !offNose(p, NEW_NOSE, player.pos) || !clear(p)) continue;
    best = p;
    bestD2 = d2;
  }
  return best ?? freeSpawnPoint(slot, w.ships, w.asteroids);
}

/** `w` with a fresh ship for `slot` on a free spawn point, invulnerable for a while, and a zero score line if it had none (a pilot joining). */
export function withSpawnedShip(w: World, slot: number): World {
  return withNewShip(w, createShip(slot, freeSpawnPoint(slot, w.ships, w.asteroids), RULES.spawnInvulnerableTicks));
}

/**
 * `w` with a computer pilot of `slot` joining the game under way while
 * `player` flies: a fresh ship at its `joinPoint`, invulnerable for a while,
 * its weapons cold for RULES.joinGraceTicks (the player's time to turn
 * round), and a zero score line if it had none.
 */
export function withJoiningPilot(w: World, slot: number, player: Ship | undefined): World {
  const ship = createShip(slot, joinPoint(w, slot, player), RULES.spawnInvulnerableTicks);
  const cold = RULES.joinGraceTicks;
  return withNewShip(w, { ...ship, fireCooldown: cold, missileCooldown: cold, mineCooldown: cold, empCooldown: cold });
}

function withNewShip(w: World, ship: Ship): World {
  const slot = ship.slot;
  const scores = w.scores.some((x) => x.slot === slot) ? w.scores : [...w.scores, { slot, kills: 0, deaths: 0 }].sort((a, b) => a.slot - b.slot);
  return { ...w, ships: withShip(w.ships, ship), scores };
}

/** `w` without the ship and the score line of `slot` (a pilot leaving). */
export function withoutPilot(w: World, slot: number): World {
  return { ...w, ships: w.ships.filter((s) => s.slot !== slot), scores: w.scores.filter((x) => x.slot !== slot) };
}
