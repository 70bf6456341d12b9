/**
 * The hunt pilot as a player sees it: it kills a sitting target, collects an
 * extra when alone, flies to an energy field when low, and a skill-5 pilot
 * beats a skill-1 one in most duels. Figures are printed, not asserted as
 * speed targets.
 */
import { describe, expect, it } from 'vitest';
import { createWorld, stepWorld } from '../../../src/shared/game';
import type { WorldEvent } from '../../../src/shared/game/events';
import { createHuntMemory, huntInput, type HuntMemory } from '../../../src/shared/game/pilots/hunt';
import { runDuel } from '../../../src/shared/game/pilots/duel';
import { isSkill, skillOf } from '../../../src/shared/game/pilots/skill';
import { MATCH_OWNER, type Extra, type World } from '../../../src/shared/game/types';
import { NO_INPUT, TICK_HZ, type ShipInput } from '../../../src/shared/sim/types';

/** Steps `world` with a hunt pilot in slot 0 (others idle) until `until` sees the event it waits for, or `limit` ticks. */
function fly(world: World, skill: number, limit: number, until: (e: WorldEvent, w: World) => boolean): { world: World; ticks: number; found: boolean } {
  const memory: HuntMemory = createHuntMemory(7);
  for (let t = 0; t < limit; t++) {
    const inputs = new Map<number, ShipInput>([[0, huntInput(world, 0, memory, skill)]]);
    for (const s of world.ships) if (s.slot !== 0) inputs.set(s.slot, NO_INPUT);
    const events: WorldEvent[] = [];
    world = stepWorld(world, inputs, { events });
    if (events.some((e) => until(e, world))) return { world, ticks: t + 1, found: true };
  }
  return { world, ticks: limit, found: false };
}

describe('hunt pilot', () => {
  it('at skill 5 destroys a ship that does not move', () => {
    const world = createWorld(11, { ships: 2 });
    const run = fly(world, 5, 60 * TICK_HZ, (e) => e.type === 'destroyed' && e.slot === 1 && e.killer === 0);
    console.log(`hunt skill 5: sitting target destroyed after ${run.ticks} ticks (${(run.ticks / TICK_HZ).toFixed(1)} s)`);
    expect(run.found).toBe(true);
  });

  it('alone, flies through an extra and picks it up', () => {
    const world = createWorld(12, { ships: 1 });
    // Behind it and off to the side, so it has to turn round for it.
    const extra: Extra = { kind: 'extra', id: world.nextId, owner: MATCH_OWNER, type: 0, pos: { x: 120, y: 40, z: 180 }, ttl: 45 * TICK_HZ };
    const start: World = { ...world, nextId: world.nextId + 1, objects: [...world.objects, extra] };
    const run = fly(start, 3, 30 * TICK_HZ, (e) => e.type === 'pickup' && e.slot === 0 && e.id === extra.id);
    console.log(`hunt skill 3: extra picked up after ${run.ticks} ticks`);
    expect(run.found).toBe(true);
  });

  it('flies to an energy field when its energy is low, and recovers there', () => {
    const world = createWorld(13, { ships: 2 });
    // An enemy is about, but out of energy the pilot goes for a field first.
    const low: World = { ...world, ships: world.ships.map((s) => (s.slot === 0 ? { ...s, energy: 5, shield: 5 } : s)) };
    const fields = low.objects.filter((o) => o.kind === 'field');
    expect(fields.length).toBeGreaterThan(0);
    let w = low;
    const memory = createHuntMemory(3);
    let entered = -1;
    for (let t = 0; t < 30 * TICK_HZ && entered < 0; t++) {
      w = stepWorld(w, new Map([[0, huntInput(w, 0, memory, 5)], [1, NO_INPUT]]));
      const me = w.ships[0]!;
      if (fields.some((f) => Math.hypot(f.pos.x - me.pos.x, f.pos.y - me.pos.y, f.pos.z - me.pos.z) < f.radius)) entered = t + 1;
    }
    console.log(`hunt skill 5: low on energy, inside a field after ${entered} ticks (energy ${w.ships[0]!.energy.toFixed(0)})`);
    expect(entered).toBeGreaterThan(0);
    expect(memory.mode).toBe('flee');
  });

  it('flies the same way twice from the same world and seed', () => {
    const a = runDuel({ seed: 5, skills: [4, 2], kills: 1, seconds: 30 });
    const b = runDuel({ seed: 5, skills: [4, 2], kills: 1, seconds: 30 });
    expect(b).toEqual(a);
  });

  it('skill 5 beats skill 1 in most of 20 duels', () => {
    let won = 0;
    for (let i = 0; i < 20; i++) {
      const strong = i % 2;
      const r = runDuel({ seed: 1000 + i, skills: strong === 0 ? [5, 1] : [1, 5], kills: 3, seconds: 180 });
      if (r.winner === strong) won++;
    }
    console.log(`hunt: skill 5 won ${won} of 20 duels against skill 1`);
    expect(won).toBeGreaterThanOrEqual(15);
  });

  it('knows skills 1 to 5 only, and clamps others', () => {
    expect([0, 1, 3, 5, 6, 2.5].map(isSkill)).toEqual([false, true, true, true, false, false]);
    expect(skillOf(9)).toBe(skillOf(5));
    expect(skillOf(-2)).toBe(skillOf(1));
    expect(skillOf(1).missiles).toBe(false);
    expect(skillOf(3).missiles).toBe(true);
    expect(skillOf(5).emp).toBe(true);
  });
});
