/**
 * The fixed-step simulation: `stepWorld` advances a World by one tick of
 * STEP_S seconds. Pure and deterministic to the bit: same world + same inputs
 * → identical result on every run and every engine (only + - * / sqrt, no
 * trig, no clock, randomness only from the PRNG state in `World.rng`).
 *
 * Order inside one tick:
 *  1. ships (slot order): sanitise the slot's input (missing → neutral) and
 *     fly (kinds/ship.ts); note which fire;
 *  2. asteroids: drift, spin, bounce (kinds/asteroid.ts);
 *  3. objects (in order): each kind's step (registry.ts) — lasers move and
 *     may hit an asteroid or a ship this world decides hits on;
 *  4. the lasers of the ships that fired are spawned at their noses;
 *  5. tick + 1.
 */
import type { ShipInput } from '../sim/types';
import { fireLaser, FIRE_COOLDOWN_TICKS, LASER_ENERGY_COST } from './kinds/laser';
import { sanitiseInput, stepShip } from './kinds/ship';
import { stepAsteroid } from './kinds/asteroid';
import { kindOf, type StepContext } from './registry';
import type { GameObject, Inputs, Ship, World } from './types';

/** Options of {@link stepWorld}. */
export interface StepOptions {
  /**
   * Whether this world decides hits on the ship of `slot`. Default: every
   * ship (a world every node simulates alike). A Parsec client decides hits
   * on its own ship only: the victim decides.
   */
  decidesHitsOn?: (slot: number) => boolean;
}

const everyShip = (): boolean => true;
const NO_INPUTS: Inputs = new Map<number, ShipInput>();

/**
 * Advance `world` by one tick; `inputs` steers ships by slot (missing →
 * neutral, slots without a ship ignored). PURE: never mutates `world` or
 * `inputs`; the returned world shares nothing with the argument.
 */
export function stepWorld(world: World, inputs: Inputs = NO_INPUTS, options: StepOptions = {}): World {
  const ships: Ship[] = [];
  const firing: Ship[] = [];
  for (const s of world.ships) {
    const r = stepShip(s, sanitiseInput(inputs.get(s.slot)), LASER_ENERGY_COST, FIRE_COOLDOWN_TICKS);
    ships.push(r.ship);
    if (r.fired) firing.push(r.ship);
  }
  const ctx: StepContext = {
    before: world,
    ships,
    asteroids: world.asteroids.map(stepAsteroid),
    rng: world.rng,
    decidesHitsOn: options.decidesHitsOn ?? everyShip,
  };
  const objects: GameObject[] = [];
  for (const o of world.objects) {
    const next = kindOf(o).step(o, ctx);
    if (next) objects.push(next);
  }
  let nextId = world.nextId;
  // The shooters' post-hit ships: a ship hit this tick still fires from where it flew to.
  for (const f of firing) objects.push(fireLaser(ships.find((s) => s.slot === f.slot) ?? f, nextId++));
  return { tick: world.tick + 1, rng: ctx.rng, nextId, ships, objects, asteroids: ctx.asteroids };
}
