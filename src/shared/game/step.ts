/**
 * The fixed-step simulation: `stepWorld` advances a World by one tick of
 * STEP_S seconds. Pure and deterministic to the bit: same world + same inputs
 * → identical result on every run and every engine (only + - * / sqrt, no
 * trig, no clock, randomness only from the PRNG state in `World.rng`).
 *
 * Order inside one tick:
 *  1. ships (slot order): a destroyed ship counts down to its respawn; a
 *     flying one takes its slot's sanitised input (missing → neutral), flies
 *     and decides which weapons fire (kinds/ship.ts);
 *  2. asteroids: drift, spin, bounce (kinds/asteroid.ts); then ships this
 *     world decides on bounce off them, damaged by the impact;
 *  3. objects (in order): each kind's step (registry.ts) — projectiles move
 *     and may hit, mines go off, pulses drain, extras are picked up, fields
 *     recharge;
 *  4. what the ships fired is created (lasers, missile, mine, pulse, in slot
 *     order), at the ships' post-hit positions;
 *  5. the match's shared objects (if this world decides them): worn
 *     asteroids break, and an extra spawns when it is due;
 *  6. wrecked ships this world decides on are destroyed — the kill credited
 *     by the rules module (combat.ts), scores updated, their extras dropped
 *     (if this world decides the shared objects) — and ships due back respawn at a free
 *     spawn point, invulnerable for a while;
 *  7. the match (match.ts): a kill or time limit reached ends it, and a
 *     new one starts after the countdown (while it is over, inputs are
 *     neutral and hits do nothing);
 *  8. tick + 1.
 */
import { nextFloat } from '../sim/prng';
import { spawnPoint } from '../sim/spawn';
import type { CleanInput, ShipInput } from '../sim/types';
import { addScore, applyDamage, dropsOf, isWrecked, killCredit } from './combat';
import type { WorldEvent } from './events';
import { breakAsteroid, collideShip, impactDamage, isBroken, stepAsteroid } from './kinds/asteroid';
import { fireEmp } from './kinds/emp';
import { fireLasers } from './kinds/laser';
import { dropMine } from './kinds/mine';
import { launchMissile } from './kinds/missile';
import { createShip, sanitiseInput, stepShip, type Fired } from './kinds/ship';
import { stepMatch } from './match';
import { freeSpawnPoint } from './spawnPoint';
import { kindOf, type StepContext } from './registry';
import { RULES } from './rules';
import { MATCH_OVER, MATCH_OWNER, type Asteroid, type Extra, type GameObject, type Inputs, type Score, type Ship, type Vec3, type World } from './types';

/** Options of {@link stepWorld}. */
export interface StepOptions {
  /**
   * Whether this world decides what happens to the ship of `slot` (hits,
   * drains, pickups, its destruction). Default: every ship (a world every
   * node simulates alike). A Parsec client decides for its own ship only:
   * the victim decides.
   */
  decidesHitsOn?: (slot: number) => boolean;
  /** Whether this world spawns the match's extras. Default true. (A ship's drops come from the world that decides its death.) */
  spawnsExtras?: boolean;
  /** Whether this world breaks worn asteroids. Default true. */
  breaksAsteroids?: boolean;
  /** Whether this world decides the match itself: its end by kill or time limit, and the next one's start. Default true. */
  decidesMatch?: boolean;
  /** When given, what happened this tick is appended to it (events.ts). */
  events?: WorldEvent[];
}

const everyShip = (): boolean => true;
const NO_INPUTS: Inputs = new Map<number, ShipInput>();

/**
 * Advance `world` by one tick; `inputs` steers ships by slot (missing →
 * neutral, slots without a ship ignored). PURE: never mutates `world` or
 * `inputs`; the returned world shares nothing mutable with the argument.
 */
export function stepWorld(world: World, inputs: Inputs = NO_INPUTS, options: StepOptions = {}): World {
  const decides = options.decidesHitsOn ?? everyShip;
  const decidesMatch = options.decidesMatch ?? true;
  const spawnsExtras = options.spawnsExtras ?? true;
  const breaksAsteroids = options.breaksAsteroids ?? true;
  const events = options.events ?? [];
  // Between two matches nobody steers, fires or gets hurt: the ranking stands.
  const over = world.match.phase === MATCH_OVER;

  // 1. Ships.
  const ships: Ship[] = [];
  const firing: { slot: number; fired: Fired; input: CleanInput }[] = [];
  for (const s of world.ships) {
    if (s.respawnIn > 0) {
      ships.push({ ...s, respawnIn: s.respawnIn - 1 });
      continue;
    }
    const input = sanitiseInput(over ? undefined : inputs.get(s.slot));
    const r = stepShip(s, input);
    ships.push(r.ship);
    if (r.fired.laser || r.fired.missile || r.fired.mine || r.fired.emp) firing.push({ slot: s.slot, fired: r.fired, input });
  }

  const ctx: StepContext = {
    before: world,
    ships,
    asteroids: world.asteroids.map(stepAsteroid),
    rng: world.rng,
    decidesHitsOn: decides,
    events,
    hit(index, amount, attacker, cause, objectId) {
      if (over) return;
      const r = applyDamage(ships[index]!, amount, attacker);
      ships[index] = r.ship;
      events.push({ type: 'hit', slot: r.ship.slot, by: attacker, cause, shield: r.shield, hull: r.hull, ...(objectId === undefined ? {} : { id: objectId }) });
    },
  };

  // 2. Asteroids are solid.
  for (let i = 0; i < ships.length; i++) {
    if (ships[i]!.respawnIn > 0 || !decides(ships[i]!.slot)) continue;
    for (const a of ctx.asteroids) {
      const c = collideShip(ships[i]!, a);
      if (c.ship === ships[i]) continue;
      ships[i] = c.ship;
      const damage = impactDamage(c.impact);
      if (damage > 0) ctx.hit(i, damage, MATCH_OWNER, 'asteroid');
    }
  }

  // 3. Objects.
  const objects: GameObject[] = [];
  for (const o of world.objects) {
    const next = kindOf(o).step(o, ctx);
    if (next) objects.push(next);
  }

  // 4. What the ships fired.
  let nextId = world.nextId;
  const created = (o: GameObject): void => {
    objects.push(o);
    events.push({ type: 'fired', slot: o.owner, kind: o.kind, id: o.id });
  };
  for (const f of firing) {
    // The shooter's post-hit ship: a ship hit this tick still fires from where it flew to.
    const ship = ships.find((s) => s.slot === f.slot)!;
    if (f.fired.laser) {
      const bolts = fireLasers(ship, nextId);
      nextId += bolts.length;
      for (const b of bolts) created(b);
    }
    if (f.fired.missile) created(launchMissile(ship, f.input, ships, nextId++));
    if (f.fired.mine) created(dropMine(ship, nextId++));
    if (f.fired.emp) created(fireEmp(ship, nextId++));
  }

  // 5. The match's shared objects.
  let asteroids = ctx.asteroids;
  let extraIn = world.extraIn;
  if (breaksAsteroids && asteroids.some(isBroken)) {
    const kept: Asteroid[] = [];
    for (const a of asteroids) {
      if (!isBroken(a)) {
        kept.push(a);
        continue;
      }
      const pieces = breakAsteroid(a);
      kept.push(...pieces);
      events.push({ type: 'broken', id: a.id, pieces: pieces.map((p) => p.id) });
    }
    asteroids = kept;
  }
  if (spawnsExtras) {
    extraIn = extraIn > 0 ? extraIn - 1 : 0;
    if (extraIn === 0) {
      extraIn = RULES.extras.spawnEveryTicks;
      const spawned = spawnExtra(objects, asteroids, ctx.rng, nextId);
      ctx.rng = spawned.rng;
      if (spawned.extra) {
        nextId++;
        objects.push(spawned.extra);
        events.push({ type: 'spawned', id: spawned.extra.id, kind: 'extra' });
      }
    }
  }

  // 6. Deaths and respawns.
  let scores: Score[] = world.scores;
  for (let i = 0; i < ships.length; i++) {
    const s = ships[i]!;
    if (world.ships[i]!.respawnIn === 1) {
      ships[i] = createShip(s.slot, freeSpawnPoint(s.slot, ships, asteroids), RULES.spawnInvulnerableTicks);
      events.push({ type: 'respawned', slot: s.slot });
    } else if (isWrecked(s) && decides(s.slot)) {
      const killer = killCredit(s);
      scores = addScore(scores, s.slot, { deaths: 1 });
      if (killer >= 0) scores = addScore(scores, killer, { kills: 1 });
      events.push({ type: 'destroyed', slot: s.slot, killer });
      // The world that decides a ship's death drops what it carried (online: the victim's game, which owns the drops).
      for (const type of dropsOf(s)) objects.push(dropExtra(type, s.pos, nextId++));
      ships[i] = { ...s, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, respawnIn: RULES.respawnTicks };
    }
  }

  const stepped: World = { tick: world.tick + 1, rng: ctx.rng, nextId, extraIn, ships, objects, asteroids, field: world.field, scores, match: world.match };
  return stepMatch(stepped, decidesMatch, events);
}

/** An extra of `type` dropped where a ship was destroyed. */
function dropExtra(type: number, pos: Vec3, id: number): Extra {
  return { kind: 'extra', id, owner: MATCH_OWNER, type, pos: { x: pos.x, y: pos.y, z: pos.z }, ttl: RULES.extras.ttlTicks };
}

/**
 * The extra the match spawns now, if there is room for one: a type drawn by
 * RULES.extras.weights, on a point of the spawn grid between
 * firstSpawnIndex and spawnIndexEnd lifted up or down by up to 60 units — none
 * when that point is inside an asteroid or RULES.extras.max are out. Always
 * draws three numbers when below the maximum.
 */
function spawnExtra(objects: readonly GameObject[], asteroids: readonly Asteroid[], rng: number, id: number): { extra: Extra | null; rng: number } {
  let count = 0;
  for (const o of objects) if (o.kind === 'extra') count++;
  const X = RULES.extras;
  if (count >= X.max) return { extra: null, rng };
  const draw = (): number => {
    const [v, next] = nextFloat(rng);
    rng = next;
    return v;
  };
  const pick = draw() * 100;
  const at = draw();
  const lift = draw() * 120 - 60;
  let type = 0;
  for (let acc = X.weights[0]!; type < X.weights.length - 1 && pick >= acc; acc += X.weights[type]!) type++;
  const p = spawnPoint(X.firstSpawnIndex + Math.floor(at * (X.spawnIndexEnd - X.firstSpawnIndex)));
  const pos = { x: p.x, y: p.y, z: lift };
  for (const a of asteroids) {
    const dx = pos.x - a.pos.x;
    const dy = pos.y - a.pos.y;
    const dz = pos.z - a.pos.z;
    const r = a.radius + X.pickupRadius;
    if (dx * dx + dy * dy + dz * dz < r * r) return { extra: null, rng };
  }
  return { extra: { kind: 'extra', id, owner: MATCH_OWNER, type, pos, ttl: X.ttlTicks }, rng };
}
