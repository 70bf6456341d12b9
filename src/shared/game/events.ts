/**
 * What happened in one tick of the simulation, beyond the new world: hits,
 * drains, pickups, kills, respawns, launches, broken asteroids. stepWorld
 * appends them to `StepOptions.events` when asked (the world itself stays pure
 * state), in the order they happened. The client game turns them into
 * notices and remote events, the golden run counts them, tests read them.
 */
import type { ObjectKind, Score } from './types';

export type WorldEvent =
  /** A ship took damage: `shield` absorbed, `hull` got through (both 0 when invulnerable); `id` is the object that hit (of `by`), if any. */
  | { type: 'hit'; slot: number; by: number; cause: ObjectKind | 'asteroid'; shield: number; hull: number; id?: number }
  /** A laser of `by` struck asteroid `id` (wearing it down). */
  | { type: 'chipped'; id: number; by: number }
  /** An EMP pulse of `by` reached the ship of `slot`. */
  | { type: 'drained'; slot: number; by: number }
  /** The ship of `slot` picked up extra `id` of type `extra` (an EXTRA_KINDS index). */
  | { type: 'pickup'; slot: number; id: number; owner: number; extra: number }
  /** The ship of `slot` was destroyed; `killer` is credited with it (NO_ATTACKER: nobody). */
  | { type: 'destroyed'; slot: number; killer: number }
  /** The ship of `slot` came back at a spawn point. */
  | { type: 'respawned'; slot: number }
  /** The ship of `slot` fired an object of `kind` (id `id`). */
  | { type: 'fired'; slot: number; kind: ObjectKind; id: number }
  /** Asteroid `id` broke; `pieces` are the ids of what is left of it (none when it was small). */
  | { type: 'broken'; id: number; pieces: number[] }
  /** The match spawned object `id` (an extra). */
  | { type: 'spawned'; id: number; kind: ObjectKind }
  /** The match ended (kill or time limit); `ranking` is the final scores, best first. */
  | { type: 'match-over'; ranking: Score[] }
  /** Match number `round` (0 = the first) began: scores zero, every ship fresh. */
  | { type: 'match-start'; round: number };
