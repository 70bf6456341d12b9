/**
 * The golden run: a long, seeded, scripted game whose final world hash is
 * pinned, so every JavaScript engine the game runs on (Node for the servers
 * and the bot, Chromium for the game page) can show that it computes the
 * very same world. The unit suite runs it in Node, the e2e suite in the game
 * page (`window.__starlane.goldenRun`); both compare with
 * {@link GOLDEN_8_SHIPS_10000_TICKS}.
 *
 * The script ({@link inputScript}) flies every ship through a series of
 * manoeuvres drawn from the project's PRNG: some hold a thrust, turn and
 * triggers, some chase another ship (targeting it for homing missiles) and
 * fire when it is ahead, some fly to the nearest extra. Every weapon, the
 * afterburner and every kind of extra come into play (the result's counters
 * show it). It uses
 * + - * / and the exact Math.abs and Math.floor only (no Math.sin and the
 * like, whose last bits differ between engines), so the script is as
 * engine-proof as the simulation it drives.
 *
 * The world model is touched only by the block "The world the run steps"
 * below: {@link createGoldenWorld}, {@link stepOnce}, {@link poseOf} and the
 * hash call in {@link goldenRun}. Moving the run to another world means
 * changing those (and re-pinning the hash). Pure TS: no Node or DOM API.
 */
import { nextFloat, seedRng } from '../sim/prng';
import { NO_INPUT, NO_TARGET } from '../sim/types';
import { dot, forwardOf, rightOf, upOf } from '../sim/vec';
import { EXTRA_KINDS } from './combat';
import type { WorldEvent } from './events';
import { hashWorld } from './hash';
import { stepWorld } from './step';
import type { CleanInput, Quat, ShipInput, Vec3, World } from './types';
import { createWorld, MAX_SHIPS } from './world';

/** Seed, ship count and length of the pinned run. */
export const GOLDEN_RUN = Object.freeze({ seed: 2049, ships: 8, ticks: 10_000 });

/** Final world hash of {@link goldenRun} with {@link GOLDEN_RUN} and no change, on every engine. */
export const GOLDEN_8_SHIPS_10000_TICKS = 'bd2957211ca905b0';

/** A field of {@link ShipInput}. */
export type InputField = keyof CleanInput;

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
  /** Laser bolts the ships fired. */
  lasersFired: number;
  missilesFired: number;
  /** Missiles launched with a lock on a ship. */
  homingMissiles: number;
  minesLaid: number;
  empPulses: number;
  /** Ships an EMP pulse reached. */
  drained: number;
  /** Hits on ships by cause (laser, missile, mine, asteroid). */
  shipHits: Record<string, number>;
  /** Laser bolts that struck an asteroid. */
  asteroidHits: number;
  asteroidsBroken: number;
  extrasSpawned: number;
  /** Extras picked up, by EXTRA_KINDS name. */
  pickups: Record<string, number>;
  /** Ships destroyed, and how many of them credited a kill. */
  deaths: number;
  kills: number;
  /** Matches that ended (by the kill or the time limit). */
  matchesEnded: number;
}

// ---- The world the run steps -------------------------------------------------

/** Where a ship is and which way it faces. */
interface Pose {
  pos: Vec3;
  rot: Quat;
}

/** The match of a golden run: short enough that matches end (by kills or by time) and new ones start within the run. */
export const GOLDEN_MATCH = Object.freeze({ killLimit: 2, timeLimitS: 90 });

/** The world a golden run starts from. */
export function createGoldenWorld(seed: number, ships: number): World {
  return createWorld(seed, { ships, match: GOLDEN_MATCH });
}

/** One tick of the golden run: the next world, and what happened in it. */
export function stepOnce(world: World, inputs: readonly ShipInput[]): { world: World; events: WorldEvent[] } {
  const events: WorldEvent[] = [];
  const next = stepWorld(world, new Map(inputs.map((input, slot) => [slot, input] as const)), { events });
  return { world: next, events };
}

/** Ship number `ship` (0-based, as in the inputs) of `world`. */
export function poseOf(world: World, ship: number): Pose {
  return world.ships[ship]!;
}

// ---- The script ---------------------------------------------------------------

/** A manoeuvre being flown: the input held, the ship chased or the extra sought, and for how many more ticks. */
interface Manoeuvre {
  input: CleanInput;
  /** The ship being chased, or -1. */
  target: number;
  /** Flying to the nearest extra. */
  seeking: boolean;
  ticksLeft: number;
}

/** A ship farther than this from the origin flies back towards it. */
const ARENA = 250;

const clamp1 = (v: number): number => (v > 1 ? 1 : v < -1 ? -1 : v);

/**
 * Steers a ship at `to`: yaw and pitch towards it in proportion to where it
 * lies off the nose (body frame, + - * / only), closes in when it is far and
 * backs off when it is close (unless `ram`, for an extra to fly through), and
 * pulls the held triggers when it is within a few degrees ahead. The roll is
 * kept from the manoeuvre's held input.
 */
function steerAt(self: Pose, to: Vec3, held: CleanInput, ram: boolean): CleanInput {
  const d = { x: to.x - self.pos.x, y: to.y - self.pos.y, z: to.z - self.pos.z };
  const right = dot(d, rightOf(self.rot));
  const up = dot(d, upOf(self.rot));
  const ahead = dot(d, forwardOf(self.rot));
  const spread = Math.abs(right) + Math.abs(up) + Math.abs(ahead) || 1;
  const behind = ahead <= 0;
  const distSq = right * right + up * up + ahead * ahead;
  const onTarget = !behind && right * right + up * up < 0.0025 * ahead * ahead;
  return {
    ...held,
    thrust: ram ? (behind || distSq < 100 * 100 ? 0.2 : 1) : distSq > 150 * 150 ? 1 : distSq < 50 * 50 ? -1 : held.thrust,
    // Behind: turn hard towards the side it is on, so the nose comes round.
    yaw: behind ? (right >= 0 ? 1 : -1) : clamp1((4 * right) / spread),
    pitch: behind ? 0 : clamp1((4 * up) / spread),
    fire: !ram && onTarget,
    missile: !ram && held.missile && onTarget,
  };
}

/** The nearest extra to `pos`, or null. */
function nearestExtra(world: World, pos: Vec3): Vec3 | null {
  let best: Vec3 | null = null;
  let bestD = Infinity;
  for (const o of world.objects) {
    if (o.kind !== 'extra') continue;
    const dx = o.pos.x - pos.x;
    const dy = o.pos.y - pos.y;
    const dz = o.pos.z - pos.z;
    const d = dx * dx + dy * dy + dz * dz;
    if (d < bestD) {
      best = o.pos;
      bestD = d;
    }
  }
  return best;
}

/**
 * The seeded script: call it once per tick with the world, for every ship's
 * input. Each ship flies a manoeuvre for 20–139 ticks, then draws the next:
 * an input to hold — thrust and each of yaw, pitch and roll zero (half the
 * time for thrust, a third for the turns) or in [-1, 1), the laser trigger
 * held half the time, the afterburner, missile, mine and EMP triggers
 * 30, 25, 15 and 5 % of the time (cooldowns, energy and ammunition decide
 * the shots) —, and then what to do with it: hold it (30 %), chase another
 * ship with it (35 %: targeted, fired at when ahead) or fly to the nearest
 * extra (35 %). A ship that strays farther than ARENA from the middle flies
 * back first. Every manoeuvre draws the same count of numbers, so the
 * script's stream does not depend on the world.
 */
export function inputScript(seed: number, ships: number): (world: World) => CleanInput[] {
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
  for (let i = 0; i < ships; i++) flying.push({ input: { ...NO_INPUT }, target: -1, seeking: false, ticksLeft: 0 });
  return (world) =>
    flying.map((m, i) => {
      if (m.ticksLeft <= 0) {
        m.ticksLeft = 20 + Math.floor(f() * 120);
        const input: CleanInput = { ...NO_INPUT, thrust: axis(1 / 2), yaw: axis(1 / 3), pitch: axis(1 / 3), roll: axis(1 / 3), fire: f() < 0.5 };
        input.afterburner = f() < 0.3;
        input.missile = f() < 0.25;
        input.mine = f() < 0.15;
        input.emp = f() < 0.05;
        const what = f();
        const other = (i + 1 + Math.floor(f() * (ships - 1))) % ships;
        m.target = what >= 0.3 && what < 0.65 && ships > 1 ? other : -1;
        m.seeking = what >= 0.65;
        input.target = m.target >= 0 ? m.target : NO_TARGET;
        m.input = input;
      }
      m.ticksLeft--;
      const self = poseOf(world, i);
      // Strayed out of the arena: head back to the middle first.
      if (self.pos.x * self.pos.x + self.pos.y * self.pos.y + self.pos.z * self.pos.z > ARENA * ARENA) return steerAt(self, { x: 0, y: 0, z: 0 }, m.input, true);
      if (m.target >= 0) return steerAt(self, poseOf(world, m.target).pos, m.input, false);
      const extra = m.seeking ? nearestExtra(world, self.pos) : null;
      return extra ? steerAt(self, extra, m.input, true) : { ...m.input };
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
  const result: GoldenRunResult = {
    hash: '',
    ticks,
    ships,
    lasersFired: 0,
    missilesFired: 0,
    homingMissiles: 0,
    minesLaid: 0,
    empPulses: 0,
    drained: 0,
    shipHits: {},
    asteroidHits: 0,
    asteroidsBroken: 0,
    extrasSpawned: 0,
    pickups: Object.fromEntries(EXTRA_KINDS.map((k) => [k, 0])),
    deaths: 0,
    kills: 0,
    matchesEnded: 0,
  };
  for (let t = 0; t < ticks; t++) {
    const inputs = script(world);
    if (change && change.tick === t) inputs[change.ship] = { ...inputs[change.ship]!, [change.field]: change.value };
    const step = stepOnce(world, inputs);
    for (const e of step.events) count(result, e, step.world);
    world = step.world;
  }
  result.hash = hashWorld(world);
  return result;
}

/** Adds what event `e` of a tick that ended in `world` says to the run's counters. */
function count(r: GoldenRunResult, e: WorldEvent, world: World): void {
  switch (e.type) {
    case 'fired':
      if (e.kind === 'laser') r.lasersFired++;
      else if (e.kind === 'missile') {
        r.missilesFired++;
        const m = world.objects.find((o) => o.kind === 'missile' && o.id === e.id);
        if (m && m.kind === 'missile' && m.target !== NO_TARGET) r.homingMissiles++;
      } else if (e.kind === 'mine') r.minesLaid++;
      else if (e.kind === 'emp') r.empPulses++;
      break;
    case 'hit':
      r.shipHits[e.cause] = (r.shipHits[e.cause] ?? 0) + 1;
      break;
    case 'chipped':
      r.asteroidHits++;
      break;
    case 'drained':
      r.drained++;
      break;
    case 'broken':
      r.asteroidsBroken++;
      break;
    case 'spawned':
      r.extrasSpawned++;
      break;
    case 'pickup': {
      const name = EXTRA_KINDS[e.extra] ?? 'unknown';
      r.pickups[name] = (r.pickups[name] ?? 0) + 1;
      break;
    }
    case 'destroyed':
      r.deaths++;
      if (e.killer >= 0) r.kills++;
      break;
    case 'match-over':
      r.matchesEnded++;
      break;
    default:
      break;
  }
}
