/**
 * Properties of the rules (combat.ts, rules.ts) over random fights: ships
 * close together, every trigger pulled at random, the match spawning extras
 * fast. Whatever the pilots do, energy and shields stay in range, ammunition
 * never goes negative, every kill credits exactly one other player or nobody,
 * the score table adds up to the deaths and kills that happened, and every
 * extra is picked up at most once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWorld, EXTRA_KINDS, MATCH_OWNER, NO_ATTACKER, RULES, stepWorld, type CleanInput, type Extra, type World, type WorldEvent } from '../../../src/shared/game';

const SHIPS = 4;
const TICKS = 400;

const trigger = fc.boolean();
const axis = fc.double({ min: -1, max: 1, noNaN: true });
/** One ship's input, held for a run of ticks. */
const held = fc.record({
  thrust: axis,
  yaw: axis,
  pitch: axis,
  roll: axis,
  fire: trigger,
  afterburner: trigger,
  missile: trigger,
  mine: trigger,
  emp: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  target: fc.integer({ min: -1, max: SHIPS - 1 }),
  ticks: fc.integer({ min: 5, max: 60 }),
});
/** A script per ship: manoeuvres flown one after another (the last held to the end). */
const scripts = fc.array(fc.array(held, { minLength: 1, maxLength: 12 }), { minLength: SHIPS, maxLength: SHIPS });

/** Ships packed close together (10 units apart) so they fight, one extra of each kind in front of each, more spawning every 10 ticks. */
function arena(seed: number): World {
  const w = createWorld(seed, { ships: SHIPS, asteroids: 6, radius: 200 });
  let nextId = w.nextId;
  const extras: Extra[] = [];
  for (let i = 0; i < SHIPS; i++) {
    for (let type = 0; type < EXTRA_KINDS.length; type++) {
      extras.push({ kind: 'extra', id: nextId++, owner: MATCH_OWNER, type, pos: { x: i * 10, y: 0, z: -i * 10 - 15 - 12 * type }, ttl: RULES.extras.ttlTicks });
    }
  }
  return { ...w, nextId, extraIn: 1, objects: [...w.objects, ...extras], ships: w.ships.map((s, i) => ({ ...s, pos: { x: i * 10, y: 0, z: -i * 10 } })) };
}

function inputAt(script: readonly (CleanInput & { ticks: number })[], tick: number): CleanInput {
  let t = tick;
  for (const m of script) {
    if (t < m.ticks) return m;
    t -= m.ticks;
  }
  return script[script.length - 1]!;
}

/** Runs the fight; calls `check` after every tick with the world and that tick's events. */
function fight(seed: number, plan: (CleanInput & { ticks: number })[][], check: (world: World, events: WorldEvent[]) => void): World {
  let world = arena(seed);
  for (let t = 0; t < TICKS; t++) {
    const events: WorldEvent[] = [];
    const inputs = new Map(plan.map((script, slot) => [slot, inputAt(script, t)] as const));
    world = stepWorld(world, inputs, { events });
    if (t % 10 === 0) world = { ...world, extraIn: Math.min(world.extraIn, 1) };
    check(world, events);
  }
  return world;
}

describe('the rules, over random fights', () => {
  it('energy, shield and hull stay in range and ammunition never goes negative', () => {
    fc.assert(
      fc.property(fc.integer(), scripts, (seed, plan) => {
        fight(seed, plan, (world) => {
          for (const s of world.ships) {
            expect(s.energy).toBeGreaterThanOrEqual(0);
            expect(s.energy).toBeLessThanOrEqual(RULES.energy.max);
            expect(s.shield).toBeGreaterThanOrEqual(0);
            expect(s.shield).toBeLessThanOrEqual(RULES.shield.max);
            expect(s.damage).toBeGreaterThanOrEqual(0);
            expect(s.missiles).toBeGreaterThanOrEqual(0);
            expect(s.missiles).toBeLessThanOrEqual(RULES.missile.maxAmmo);
            expect(s.mines).toBeGreaterThanOrEqual(0);
            expect(s.mines).toBeLessThanOrEqual(RULES.mine.maxAmmo);
            expect(s.laserLevel).toBeGreaterThanOrEqual(1);
            expect(s.laserLevel).toBeLessThanOrEqual(RULES.laser.maxLevel);
          }
        });
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it('every kill credits exactly one other player or nobody, and the scores add up to what happened', () => {
    let deathsSeen = 0;
    fc.assert(
      fc.property(fc.integer(), scripts, (seed, plan) => {
        const kills = new Map<number, number>();
        const deaths = new Map<number, number>();
        const world = fight(seed, plan, (_world, events) => {
          for (const e of events) {
            if (e.type !== 'destroyed') continue;
            // One credit: a slot other than the victim's, or nobody.
            expect(e.killer === NO_ATTACKER || (e.killer !== e.slot && e.killer >= 0 && e.killer < SHIPS)).toBe(true);
            deaths.set(e.slot, (deaths.get(e.slot) ?? 0) + 1);
            if (e.killer !== NO_ATTACKER) kills.set(e.killer, (kills.get(e.killer) ?? 0) + 1);
            deathsSeen++;
          }
        });
        for (const s of world.scores) {
          expect(s.kills).toBe(kills.get(s.slot) ?? 0);
          expect(s.deaths).toBe(deaths.get(s.slot) ?? 0);
        }
        const sum = (k: 'kills' | 'deaths') => world.scores.reduce((n, s) => n + s[k], 0);
        expect(sum('kills')).toBeLessThanOrEqual(sum('deaths'));
        expect(world.scores.map((s) => s.slot)).toEqual([...Array(SHIPS).keys()]);
      }),
      { numRuns: 25 },
    );
    console.log(`${deathsSeen} ships destroyed over 25 random fights of ${TICKS} ticks`);
    // Random pilots this close do destroy each other: a property over no deaths would prove nothing.
    expect(deathsSeen).toBeGreaterThan(0);
  }, 60_000);

  it('every extra is picked up at most once, and is gone from the world once picked up', () => {
    let pickups = 0;
    fc.assert(
      fc.property(fc.integer(), scripts, (seed, plan) => {
        const picked = new Set<number>();
        fight(seed, plan, (world, events) => {
          for (const e of events) {
            if (e.type !== 'pickup') continue;
            expect(picked.has(e.id)).toBe(false);
            picked.add(e.id);
            pickups++;
          }
          for (const o of world.objects) if (o.kind === 'extra') expect(picked.has(o.id)).toBe(false);
        });
      }),
      { numRuns: 25 },
    );
    console.log(`${pickups} extras picked up over 25 random fights`);
    expect(pickups).toBeGreaterThan(0);
  }, 60_000);
});
