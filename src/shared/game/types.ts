/**
 * Plain-data shapes of one Starlane game: the world every node simulates.
 *
 * Everything is JSON-serialisable data (numbers, booleans, arrays, plain
 * objects) with no references other than slots and ids, so a World can be
 * copied, hashed (hash.ts), turned into a view for the renderer (view.ts) and,
 * later, sent as a state transfer.
 *
 * Identity: a ship is keyed by its player slot (local and remote alike; which
 * slot is "us" is the ClientGame's business, never `ships[0]`). Every other
 * object has a `kind` (an entry of the entity registry, registry.ts), an
 * `owner` slot and an `id` unique among that owner's objects.
 */
import type { Quat, ShipInput, Vec3 } from '../sim/types';

export type { Quat, ShipInput, Vec3 } from '../sim/types';

/** `Ship.lastHitBy` of a ship no other player has hit. */
export const NO_ATTACKER = -1;

/**
 * One player's ship. `angVel` is the body-frame angular velocity in rad/s
 * (x = pitch rate, y = yaw rate, z = roll rate). `energy` in [0, 100];
 * `damage` accumulates hits; `fireCooldown` is ticks until the next shot;
 * `lastHitBy` is the slot whose object hit it last (NO_ATTACKER if none), so
 * the game can name who shot it down.
 */
export interface Ship {
  slot: number;
  pos: Vec3;
  vel: Vec3;
  rot: Quat;
  angVel: Vec3;
  energy: number;
  damage: number;
  fireCooldown: number;
  lastHitBy: number;
}

/** A laser bolt of `owner`'s ship; `ttl` is ticks left to live (removed at 0). */
export interface Laser {
  kind: 'laser';
  id: number;
  owner: number;
  pos: Vec3;
  vel: Vec3;
  ttl: number;
}

/** Every object kind of the entity registry (missiles, mines and extras join this union). */
export type GameObject = Laser;

/** The kind names of the registry. */
export type ObjectKind = GameObject['kind'];

/** A spherical asteroid of `radius` units; `spin` is its body-frame angular velocity in rad/s. Scenery: no owner. */
export interface Asteroid {
  id: number;
  pos: Vec3;
  vel: Vec3;
  rot: Quat;
  spin: Vec3;
  radius: number;
}

/**
 * The whole simulation state. `tick` counts steps taken; `rng` is the PRNG
 * state (a uint32, see sim/prng.ts); `nextId` is the next free id for objects
 * this world creates. `ships` are in ascending slot order, one per slot.
 */
export interface World {
  tick: number;
  rng: number;
  nextId: number;
  ships: Ship[];
  objects: GameObject[];
  asteroids: Asteroid[];
}

/** One tick's inputs: a ShipInput per slot that is steered this tick (a missing slot gets the neutral input). */
export type Inputs = ReadonlyMap<number, ShipInput>;
