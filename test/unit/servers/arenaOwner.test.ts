/**
 * The gameserver as the arena's owner (pure, on the referee's clock): it
 * spawns extras, tells everyone when one is taken or expires, decides claims
 * (the first wins), breaks the asteroids the players' lasers wear through,
 * and tells a newcomer everything of the match so far; a new round starts
 * from the field.
 */
import { describe, expect, it } from 'vitest';
import { arenaAt, RULES } from '../../../src/shared/game';
import { STEP_MS } from '../../../src/shared/sim';
import { NO_SLOT, objectId } from '../../../src/shared/wire/types';
import { ArenaOwner } from '../../../src/node/servers/game/arenaOwner';

const SPAWN_MS = RULES.extras.spawnEveryTicks * STEP_MS;

describe('the gameserver\'s arena', () => {
  it('spawns extras from slot 255, gives each to the first claimer, and tells everyone when one expires', () => {
    const arena = new ArenaOwner(0);
    expect(arena.advance(0, SPAWN_MS - STEP_MS).filter((e) => e.type === 'createExtra')).toEqual([]);
    const created = arena.advance(0, SPAWN_MS).filter((e) => e.type === 'createExtra');
    expect(created).toHaveLength(1);
    const x = created[0]! as Extract<(typeof created)[0], { type: 'createExtra' }>;
    expect(x.id >>> 16).toBe(NO_SLOT);
    const first = arena.claim(2, x.id);
    expect(first).toEqual({ answer: { type: 'killObject', id: x.id, killerSlot: 2 }, won: x.kind });
    // A later claim hears who won, and wins nothing.
    expect(arena.claim(3, x.id)).toEqual({ answer: { type: 'killObject', id: x.id, killerSlot: 2 } });
    // The next extra is left alone until its time runs out: everyone hears it is gone, taken by nobody.
    const next = arena.advance(0, 2 * SPAWN_MS).find((e) => e.type === 'createExtra')!;
    const later = arena.advance(0, 2 * SPAWN_MS + RULES.extras.ttlTicks * STEP_MS);
    expect(later).toContainEqual({ type: 'killObject', id: (next as { id: number }).id, killerSlot: NO_SLOT });
  });

  it('breaks the asteroids the players\' lasers wear through, tells everyone and every newcomer, and starts a new round from the field', () => {
    const arena = new ArenaOwner(0);
    arena.advance(0, 100 * STEP_MS);
    const target = arena.current.asteroids.find((a) => a.radius > 10 && a.radius < 14)!;
    const said = [];
    for (let k = 0; k < 40; k++) {
      const a = arena.current.asteroids.find((r) => r.id === target.id);
      if (!a) break;
      arena.laser(1, { type: 'createLaser', id: objectId(1, k), pos: { x: a.pos.x + 60, y: a.pos.y, z: a.pos.z }, vel: { x: -RULES.laser.speed, y: 0, z: 0 }, ttl: 40 });
      said.push(...arena.advance(0, (101 + k) * STEP_MS));
    }
    const breaks = said.flatMap((e) => (e.type === 'asteroidBreaks' ? e.breaks : []));
    expect(breaks.map((b) => b.id)).toEqual([target.id]);
    expect(arena.counters.asteroidsBroken).toBe(1);
    // The field, the clock and the breaks give the arena's asteroids (what every client rebuilds).
    const rebuilt = arenaAt(arena.current.field, arena.current.match.playedTicks, breaks);
    expect(rebuilt.map((a) => [a.id, a.pos])).toEqual(arena.current.asteroids.map((a) => [a.id, a.pos]));
    expect(arena.forNewcomer().filter((e) => e.type === 'asteroidBreaks')).toEqual([{ type: 'asteroidBreaks', round: 0, breaks }]);
    // A player cannot fire in another's name.
    const before = arena.current.objects.length;
    arena.laser(1, { type: 'createLaser', id: objectId(2, 99), pos: { x: 0, y: 0, z: 0 }, vel: { x: 1, y: 0, z: 0 }, ttl: 40 });
    expect(arena.current.objects.length).toBe(before);
    // The next round: the field again, no breaks to tell.
    arena.advance(1, 0);
    expect(arena.current.asteroids).toEqual(arena.current.field);
    expect(arena.forNewcomer().filter((e) => e.type === 'asteroidBreaks')).toEqual([]);
  });
});
