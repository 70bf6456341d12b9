/**
 * The rules of a Starlane match as one table of tunable numbers: energy,
 * hull, weapons (energy cost, fire rate, damage, speed, lifetime) and
 * respawn. Every kind and the client game read their numbers here, so
 * balancing the game is editing this file (the simulation, the gameserver's
 * client guard and the docs follow). Flight-model constants (turn rates,
 * thrust, drag) stay with the ship: they are physics, not rules.
 *
 * Changing a number here changes the simulation, so the golden hash
 * (goldenRun.ts) changes with it: update it in the same commit.
 */
import { TICK_HZ } from '../sim/types';

export const RULES = Object.freeze({
  energy: Object.freeze({
    /** Full energy of a ship. */
    max: 100,
    /** Energy regained per tick (20/s at 40 Hz), up to `max`. */
    regenPerTick: 0.5,
  }),
  hull: Object.freeze({
    /** Damage at which a ship is destroyed. */
    destroyedAt: 100,
  }),
  laser: Object.freeze({
    /** Energy one shot costs; a ship cannot fire with less. */
    energyCost: 10,
    /** Ticks between two shots of one ship. */
    cooldownTicks: 6,
    /** Damage one hit adds to a ship. */
    damage: 10,
    /** Muzzle speed (units/s), added to the ship's velocity. */
    speed: 600,
    /** Ticks a bolt lives. */
    ttlTicks: 40,
  }),
  /** Ticks between a ship's destruction and its respawn (3 s). */
  respawnTicks: 3 * TICK_HZ,
});
