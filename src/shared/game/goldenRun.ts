/**
 * The golden run: a long, seeded, scripted game whose final world hash is
 * pinned, so every JavaScript engine the game runs on (Node for the servers
 * and the bot, Chromium for the game page) can show that it computes the
 * very same world. The unit suite runs it in Node, the e2e suite in the game
 * page (`window.__starlane.goldenRun`); both compare with
 * {@link GOLDEN_8_SHIPS_10000_TICKS}.
 *
 * The script ({@link inputScript}) flies every ship through a series of
 * manoeuvres drawn from the project's PRNG: half of them hold a thrust, turn
 * and trigger, half chase another ship and fire when it is ahead. It uses
 * + - * / and the exact Math.abs and Math.floor only (no Math.sin and the
 * like, whose last bits differ between engines), so the script is as
 * engine-proof as the simulation it drives.
 *
 * The world model is touched only by the block "The world the run steps"
 * below: {@link createGoldenWorld}, {@link stepOnce}, {@link poseOf} and the
 * hash call in {@link goldenRun}. Moving the run to another world means
 * changing those (and re-pinning the hash). Pure TS: no Node or DOM API.
 */
import { nextFloat, nextU32, seedRng } from '../sim/prng';
import { NO_INPUT } from '../sim/types';
import { dot, forwardOf, rightOf, upOf } from '../sim/vec';
import { hashWorld } from './hash';
import { LASER_DAMAGE } from './kinds/laser';
import { stepWorld } from './step';
import type { Quat, ShipInput, Vec3, World } from './types';
import { createWorld, MAX_SHIPS } from './world';

/** Seed, ship count and length of the pinned run. */
export const GOLDEN_RUN = Object.freeze({ seed: 2026, ships: 8, ticks: 10_000 });

/** Final world hash of {@link goldenRun} with {@link GOLDEN_RUN} and no change, on every engine. */
export const GOLDEN_8_SHIPS_10000_TICKS = '7eca1a565971a4d6';

/** A field of {@link ShipInput}. */
export type InputField = keyof ShipInput;

/** One input of the script replaced: ship `ship`'s `field` at tick `tick` (0-based) becomes `value`. */
export interface InputChange {
  tick: number;
  ship: number;
  field: InputField;
  value: number | boolean;
}

export interface GoldenRunOptions {
  /** Seeds the world (createWorld) and the script. */
  seed: number;
  ships: number;
  ticks: number;
  /** One input to alter (the rest of the script stays as it was). */
  change?: InputChange;
}

/** What a golden run ended with: the hash, and figures showing the script exercised the game. */
export interface GoldenRunResult {
  hash: string;
  ticks: number;
  ships: number;
  /** Lasers the ships fired. */
  lasersFired: number;
  /** Lasers that hit a ship. */
  shipHits: number;
  /** Lasers that hit an asteroid. */
  asteroidHits: number;
}

// ---- The world the run steps -------------------------------------------------

/** What one tick did, beyond the new world. */
interface TickEvents {
  world: World;
  fired: number;
  shipHits: number;
  asteroidHits: number;
}

/** Where a ship is and which way it faces. */
interface Pose {
  pos: Vec3;
  rot: Quat;
}

/** The world a golden run starts from. */
export function createGoldenWorld(seed: number, ships: number): World {
  return createWorld(seed, { ships });
}

/**
 * One tick of the golden run: the next world and what happened in it. New
 * ids go only to new lasers; each ship hit adds LASER_DAMAGE; each asteroid
 * hit draws three numbers from the world's PRNG (its spin kick), and nothing
 * else in a tick draws any.
 */
export function stepOnce(world: World, inputs: readonly ShipInput[]): TickEvents {
  const next = stepWorld(world, new Map(inputs.map((input, slot) => [slot, input] as const)));
  let damage = 0;
  for (let i = 0; i < next.ships.length; i++) damage += next.ships[i]!.damage - world.ships[i]!.damage;
  // Walk the PRNG on from the old state to the new one, counting the draws (at most 3 per laser).
  let draws = 0;
  for (let rng = world.rng; rng !== next.rng; draws++) {
    if (draws > 3 * world.objects.length) throw new Error('goldenRun: the world PRNG moved by more than the asteroid hits explain');
    rng = nextU32(rng)[1];
  }
  return { world: next, fired: next.nextId - world.nextId, shipHits: damage / LASER_DAMAGE, asteroidHits: draws / 3 };
}

/** Ship number `ship` (0-based, as in the inputs) of `world`. */
export function poseOf(world: World, ship: number): Pose {
  return world.ships[ship]!;
}

// ---- The script ---------------------------------------------------------------

/** A manoeuvre being flown: the input held (or the ship chased), and for how many more ticks. */
interface Manoeuvre {
  input: ShipInput;
  /** The ship being chased, or -1 while flying the held input. */
  target: number;
  ticksLeft: number;
}

const clamp1 = (v: number): number => (v > 1 ? 1 : v < -1 ? -1 : v);

/**
 * Steers a ship at `target`: yaw and pitch towards it in proportion to where
 * it lies off the nose (body frame, + - * / only), closes in when it is far and
 * backs off when it is close, and fires when it is within a few degrees ahead.
 * The roll is kept from the manoeuvre's held input.
 */
function chase(self: Pose, target: Pose, held: ShipInput): ShipInput {
  const d = { x: target.pos.x - self.pos.x, y: target.pos.y - self.pos.y, z: target.pos.z - self.pos.z };
  const right = dot(d, rightOf(self.rot));
  const up = dot(d, upOf(self.rot));
  const ahead = dot(d, forwardOf(self.rot));
  const spread = Math.abs(right) + Math.abs(up) + Math.abs(ahead) || 1;
  const behind = ahead <= 0;
  const distSq = right * right + up * up + ahead * ahead;
  return {
    thrust: distSq > 150 * 150 ? 1 : distSq < 50 * 50 ? -1 : held.thrust,
    // Behind: turn hard towards the side it is on, so the nose comes round.
    yaw: behind ? (right >= 0 ? 1 : -1) : clamp1((4 * right) / spread),
    pitch: behind ? 0 : clamp1((4 * up) / spread),
    roll: held.roll,
    fire: !behind && right * right + up * up < 0.0025 * ahead * ahead,
  };
}

/**
 * The seeded script: call it once per tick with the world, for every ship's
 * input. Each ship flies a manoeuvre for 20–139 ticks, then draws the next:
 * in half of them it holds an input — thrust and each of yaw, pitch and roll
 * zero (half the time for thrust, a third for the turns) or in [-1, 1), the
 * trigger held down half the time (the cooldown and energy decide the
 * shots) —, in the other half it chases another ship and fires when that ship
 * is in front of it. Every manoeuvre draws the same count of numbers, so the
 * script's stream does not depend on the world.
 */
export function inputScript(seed: number, ships: number): (world: World) => ShipInput[] {
  let rng = seedRng(seed ^ 0x5eed5eed);
  const f = (): number => {
    const [v, next] = nextFloat(rng);
    rng = next;
    return v;
  };
  const axis = (zeroChance: number): number => {
    const zero = f() < zeroChance;
    const v = f() * 2 - 1;
    return zero ? 0 : v;
  };
  const flying: Manoeuvre[] = [];
  for (let i = 0; i < ships; i++) flying.push({ input: { ...NO_INPUT }, target: -1, ticksLeft: 0 });
  return (world) =>
    flying.map((m, i) => {
      if (m.ticksLeft <= 0) {
        m.ticksLeft = 20 + Math.floor(f() * 120);
        m.input = { thrust: axis(1 / 2), yaw: axis(1 / 3), pitch: axis(1 / 3), roll: axis(1 / 3), fire: f() < 0.5 };
        const chasing = f() < 0.5;
        const other = (i + 1 + Math.floor(f() * (ships - 1))) % ships;
        m.target = chasing && ships > 1 ? other : -1;
      }
      m.ticksLeft--;
      return m.target >= 0 ? chase(poseOf(world, i), poseOf(world, m.target), m.input) : { ...m.input };
    });
}

// ---- The run --------------------------------------------------------------------

/**
 * Runs the script on a fresh world for `ticks` ticks and hashes the end.
 * `ships` must be an integer in 1…MAX_SHIPS, `ticks` a whole number, and a
 * `change` must name a tick and a ship of the run (RangeError otherwise: a
 * change that silently changed nothing would make a test pass for nothing).
 */
export function goldenRun(options: GoldenRunOptions): GoldenRunResult {
  const { seed, ships, ticks, change } = options;
  if (!Number.isInteger(ships) || ships < 1 || ships > MAX_SHIPS) throw new RangeError(`goldenRun: ships must be an integer in 1…${MAX_SHIPS}`);
  if (!Number.isInteger(ticks) || ticks < 0) throw new RangeError('goldenRun: ticks must be a whole number');
  if (change && !(Number.isInteger(change.tick) && change.tick >= 0 && change.tick < ticks && Number.isInteger(change.ship) && change.ship >= 0 && change.ship < ships)) {
    throw new RangeError('goldenRun: the change must name a tick and a ship of the run');
  }
  let world = createGoldenWorld(seed, ships);
  const script = inputScript(seed, ships);
  const result: GoldenRunResult = { hash: '', ticks, ships, lasersFired: 0, shipHits: 0, asteroidHits: 0 };
  for (let t = 0; t < ticks; t++) {
    const inputs = script(world);
    if (change && change.tick === t) inputs[change.ship] = { ...inputs[change.ship]!, [change.field]: change.value };
    const step = stepOnce(world, inputs);
    world = step.world;
    result.lasersFired += step.fired;
    result.shipHits += step.shipHits;
    result.asteroidHits += step.asteroidHits;
  }
  result.hash = hashWorld(world);
  return result;
}
