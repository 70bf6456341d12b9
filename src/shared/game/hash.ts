/**
 * World hashing for determinism checks (the golden hash of the tests, lockstep
 * and netgame desync detection): every numeric field of a World in a fixed
 * order, counts included (moving an entity between lists changes the hash).
 * Ships and asteroids hash themselves (kinds/), objects through their kind's
 * `hash` in the registry — a kind that forgets a field is caught by the
 * one-ulp test of test/unit/game/determinism.test.ts.
 */
import { Hasher } from './hasher';
import { hashAsteroid } from './kinds/asteroid';
import { hashShip } from './kinds/ship';
import { kindOf } from './registry';
import type { World } from './types';

/** 16 hex digits: FNV-1a 64 of `world` (tick, rng, nextId, extraIn, ships, objects by kind, asteroids, the field they start from, scores, match). Pure. */
export function hashWorld(world: World): string {
  const h = new Hasher();
  h.num(world.tick);
  h.num(world.rng);
  h.num(world.nextId);
  h.num(world.extraIn);
  h.num(world.ships.length);
  for (const s of world.ships) hashShip(h, s);
  h.num(world.objects.length);
  for (const o of world.objects) {
    h.text(o.kind);
    kindOf(o).hash(h, o);
  }
  h.num(world.asteroids.length);
  for (const a of world.asteroids) hashAsteroid(h, a);
  h.num(world.field.length);
  for (const a of world.field) hashAsteroid(h, a);
  h.num(world.scores.length);
  for (const s of world.scores) {
    h.num(s.slot);
    h.num(s.kills);
    h.num(s.deaths);
  }
  const m = world.match;
  h.num(m.killLimit);
  h.num(m.timeLimitTicks);
  h.num(m.phase);
  h.num(m.ticksLeft);
  h.num(m.round);
  h.num(m.playedTicks);
  return h.hex();
}
