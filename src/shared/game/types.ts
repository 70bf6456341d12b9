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

export type { CleanInput, Quat, ShipInput, Vec3 } from '../sim/types';

/** `Ship.lastHitBy` of a ship no player has hit since it spawned. */
export const NO_ATTACKER = -1;
/** The owner of objects that belong to the match rather than a player: extras and energy fields. */
export const MATCH_OWNER = -1;

/**
 * One player's ship. `angVel` is the body-frame angular velocity in rad/s
 * (x = pitch rate, y = yaw rate, z = roll rate). `energy` in [0, RULES.energy.max],
 * `shield` in [0, RULES.shield.max]; `damage` is hull damage (destroyed at
 * RULES.hull.destroyedAt). The cooldowns are ticks until that weapon may fire
 * again. `lastHitBy` is the slot whose object hit it last since it spawned
 * (NO_ATTACKER if none), so the rules can credit the kill. `invulnerable` is
 * ticks of invulnerability left. `respawnIn` is 0 while the ship flies and
 * the ticks until it respawns while it is destroyed (a destroyed ship stays
 * in the world, but nothing moves, hits or draws it).
 */
export interface Ship {
  slot: number;
  pos: Vec3;
  vel: Vec3;
  rot: Quat;
  angVel: Vec3;
  energy: number;
  shield: number;
  damage: number;
  fireCooldown: number;
  missileCooldown: number;
  mineCooldown: number;
  empCooldown: number;
  missiles: number;
  mines: number;
  laserLevel: number;
  invulnerable: number;
  lastHitBy: number;
  respawnIn: number;
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

/** A missile: dumb (`target` NO_TARGET) or homing on the ship of slot `target`. */
export interface Missile {
  kind: 'missile';
  id: number;
  owner: number;
  pos: Vec3;
  vel: Vec3;
  target: number;
  ttl: number;
}

/** A proximity mine: drifts to a stop, armed once `arm` reaches 0. */
export interface Mine {
  kind: 'mine';
  id: number;
  owner: number;
  pos: Vec3;
  vel: Vec3;
  arm: number;
  ttl: number;
}

/** An EMP pulse: a sphere growing from `pos`; `reached` lists (ascending) the slots it has already drained. */
export interface Emp {
  kind: 'emp';
  id: number;
  owner: number;
  pos: Vec3;
  radius: number;
  reached: number[];
}

/** An extra waiting to be picked up; `type` indexes EXTRA_KINDS (kinds/extra.ts). */
export interface Extra {
  kind: 'extra';
  id: number;
  owner: number;
  type: number;
  pos: Vec3;
  ttl: number;
}

/** An energy field: ships inside regain energy. Lasts the match. */
export interface EnergyField {
  kind: 'field';
  id: number;
  owner: number;
  pos: Vec3;
  radius: number;
}

/** Every object kind of the entity registry. */
export type GameObject = Laser | Missile | Mine | Emp | Extra | EnergyField;

/** The kind names of the registry. */
export type ObjectKind = GameObject['kind'];

/** One player's score in the match (by slot; kept while the slot's ship is destroyed). */
export interface Score {
  slot: number;
  kills: number;
  deaths: number;
}

/**
 * A spherical asteroid of `radius` units; `spin` is its body-frame angular
 * velocity in rad/s; `wear` is the laser damage it has taken (it breaks at
 * RULES.asteroid.strengthPerRadius × radius). Scenery of the match: no owner.
 */
export interface Asteroid {
  id: number;
  pos: Vec3;
  vel: Vec3;
  rot: Quat;
  spin: Vec3;
  radius: number;
  wear: number;
}

/** `Match.phase` while the match is being played. */
export const MATCH_PLAYING = 0;
/** `Match.phase` after it ended: the ranking is shown and a new match starts when `ticksLeft` runs out. */
export const MATCH_OVER = 1;

/**
 * The match: its limits (a kill limit and a time limit in ticks; 0 = none),
 * its phase, the ticks left in it (the time limit's countdown while playing,
 * or the countdown to the next match when over; -1 while playing without a
 * time limit), the number of matches played before this one, and the ticks
 * since this one began (its arena's clock: the asteroids start again from
 * `World.field` with each match, so every node that knows the ticks played
 * and the breaks knows the asteroids — arena.ts).
 */
export interface Match {
  killLimit: number;
  timeLimitTicks: number;
  phase: number;
  ticksLeft: number;
  round: number;
  playedTicks: number;
}

/**
 * The whole simulation state. `tick` counts steps taken; `rng` is the PRNG
 * state (a uint32, see sim/prng.ts); `nextId` is the next free id for objects
 * this world creates. `ships` are in ascending slot order, one per slot;
 * `scores` likewise, one per slot that ever had a ship. `extraIn` counts the
 * ticks to the next extra spawn. `match` is the match being played.
 * `field` is the asteroid field every match starts from (made once by
 * createWorld from the seed, never changed).
 */
export interface World {
  tick: number;
  rng: number;
  nextId: number;
  extraIn: number;
  ships: Ship[];
  objects: GameObject[];
  asteroids: Asteroid[];
  readonly field: readonly Asteroid[];
  scores: Score[];
  match: Match;
}

/** One tick's inputs: a ShipInput per slot that is steered this tick (a missing slot gets the neutral input). */
export type Inputs = ReadonlyMap<number, ShipInput>;
