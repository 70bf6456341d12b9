/**
 * The rules of a Starlane match as one table of tunable numbers: energy,
 * shields, hull, afterburner, every weapon (ammunition or energy cost, fire
 * rate, damage, speed, lifetime), extras, energy fields, asteroids and
 * respawn. Every kind, the rules module (combat.ts) and the client game read
 * their numbers here, so balancing the game is editing this file (the
 * simulation, the gameserver's client guard and the docs follow). Flight-model
 * constants (turn rates, thrust, drag) stay with the ship: they are physics,
 * not rules.
 *
 * Changing a number here changes the simulation, so the golden hash
 * (goldenRun.ts) changes with it: update it in the same commit.
 */
import { TICK_HZ } from '../sim/types';

export const RULES = Object.freeze({
  energy: Object.freeze({
    /** Full energy of a ship. */
    max: 100,
    /** Energy regained per tick (12/s at 40 Hz), up to `max`. */
    regenPerTick: 0.3,
  }),
  shield: Object.freeze({
    /** Full shield of a ship; damage takes the shield first, then the hull. */
    max: 40,
    /** Shield restored per tick while energy lasts, each point paid with `energyPerPoint` energy. */
    rechargePerTick: 0.25,
    /** Energy one point of shield costs. */
    energyPerPoint: 1,
  }),
  hull: Object.freeze({
    /** Hull damage at which a ship is destroyed. */
    destroyedAt: 100,
  }),
  afterburner: Object.freeze({
    /** Thrust multiplier while the afterburner burns. */
    thrustFactor: 2.5,
    /** Speed cap while it burns (units/s; the normal cap is the ship's MAX_SPEED). */
    maxSpeed: 200,
    /** Energy burned per tick (24/s); it will not light with less. */
    energyPerTick: 0.6,
  }),
  laser: Object.freeze({
    /** Energy one shot costs; a ship cannot fire with less. */
    energyCost: 6,
    /** Ticks between two shots of one ship. */
    cooldownTicks: 6,
    /** Damage one bolt does. */
    damage: 12,
    /** Muzzle speed (units/s), added to the ship's velocity. */
    speed: 600,
    /** Ticks a bolt lives. */
    ttlTicks: 40,
    /** Highest laser level: level n fires n parallel bolts for the energy of one. */
    maxLevel: 3,
    /** Sideways distance between two parallel bolts. */
    boltSpacing: 3,
  }),
  missile: Object.freeze({
    /** Missiles a (re)spawned ship carries. */
    startAmmo: 3,
    /** Most missiles a ship can carry. */
    maxAmmo: 12,
    /** Ticks between two launches (1 s). */
    cooldownTicks: TICK_HZ,
    /** Damage of a hit. */
    damage: 40,
    /** Launch speed (units/s) added to the ship's velocity along the nose. */
    launchSpeed: 120,
    /** Top speed (units/s). */
    maxSpeed: 280,
    /** Acceleration along its heading (units/s²). */
    accel: 400,
    /** Homing: most change of velocity direction per tick, as a fraction of its speed (≈ 1.6 rad/s). */
    turnPerTick: 0.04,
    /** Ticks a missile flies before it burns out (6 s). */
    ttlTicks: 6 * TICK_HZ,
    /** Radius it hits within. */
    hitRadius: 3,
    /** A homing missile locks only on a ship within this range, in front of its owner. */
    lockRange: 900,
  }),
  mine: Object.freeze({
    startAmmo: 2,
    maxAmmo: 8,
    /** Ticks between two mines (0.5 s). */
    cooldownTicks: TICK_HZ / 2,
    damage: 50,
    /** A ship other than its layer within this distance sets it off. */
    triggerRadius: 18,
    /** Ticks before a dropped mine is armed (1 s). */
    armTicks: TICK_HZ,
    /** Ticks a mine lies in wait (60 s). */
    ttlTicks: 60 * TICK_HZ,
    /** Drift left after laying: the ship's velocity times this. */
    dropVelocityFactor: 0.25,
  }),
  emp: Object.freeze({
    /** Energy needed to set one off; all of it but `energyLeft` is spent. */
    energyCost: 75,
    /** Energy the firer keeps. */
    energyLeft: 0,
    /** Ticks between two pulses (5 s). */
    cooldownTicks: 5 * TICK_HZ,
    /** Growth of the sphere per tick (units), up to `maxRadius`. */
    growPerTick: 10,
    maxRadius: 250,
    /** Energy drained from every ship it reaches (besides all of its shield). */
    energyDrain: 60,
  }),
  extras: Object.freeze({
    /** Most extras in the arena at once. */
    max: 12,
    /** Ticks between two spawns while below `max` (4 s). */
    spawnEveryTicks: 4 * TICK_HZ,
    /** Ticks an extra lies before it vanishes (45 s). */
    ttlTicks: 45 * TICK_HZ,
    /** A ship whose centre comes within this distance picks it up. */
    pickupRadius: 10,
    energyBoost: 60,
    repair: 40,
    missilePack: 3,
    minePack: 2,
    /** Ticks of invulnerability the invulnerability extra gives (10 s). */
    invulnerableTicks: 10 * TICK_HZ,
    /**
     * Spawn chances of the six kinds (weights, summing to 100), in the order
     * of EXTRA_KINDS (kinds/extra.ts): energy, repair, missiles, mines, laser, invulnerability.
     */
    weights: Object.freeze([26, 22, 20, 14, 10, 8]),
    /** Extras spawn on the points of the spawn grid from this index on (away from the middle). */
    firstSpawnIndex: 9,
    /** …up to this index (exclusive). */
    spawnIndexEnd: 49,
  }),
  fields: Object.freeze({
    /** Energy fields in the arena. */
    count: 3,
    radius: 40,
    /** Energy a ship inside regains per tick, on top of its own regeneration (20/s). */
    energyPerTick: 0.5,
    /** Distance of the fields from the centre of the arena. */
    distance: 240,
  }),
  asteroid: Object.freeze({
    /** Hull damage per unit/s of closing speed when a ship hits an asteroid (none below `harmlessSpeed`). */
    damagePerSpeed: 0.4,
    harmlessSpeed: 10,
    /** Share of the closing speed a ship keeps, reflected, when it bounces off. */
    restitution: 0.5,
    /** Laser damage an asteroid takes per unit of its radius before it breaks in two. */
    strengthPerRadius: 2,
    /** Each piece's radius is the old one times this (about the cube root of ½: the volume halves). */
    pieceFactor: 0.8,
    /** Pieces smaller than this vanish instead. */
    minPieceRadius: 7,
    /** Speed (units/s) at which the two pieces fly apart. */
    splitSpeed: 6,
  }),
  match: Object.freeze({
    /** Kills that win a match (0: no kill limit). */
    killLimit: 10,
    /** Length of a match in seconds (0: no time limit). */
    timeLimitS: 600,
    /** Seconds between the end of a match and the start of the next (the ranking is shown meanwhile). */
    restartS: 10,
  }),
  /** Ticks between a ship's destruction and its respawn (3 s). */
  respawnTicks: 3 * TICK_HZ,
  /** Ticks of invulnerability after a respawn (2 s). */
  spawnInvulnerableTicks: 2 * TICK_HZ,
  /** Ticks a computer pilot joining a game under way (`bot add`) waits before its weapons are ready (5 s): the player's time to turn round. */
  joinGraceTicks: 5 * TICK_HZ,
});
