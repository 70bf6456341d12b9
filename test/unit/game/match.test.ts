/**
 * The match in the simulation: a kill limit or the clock ends it with a
 * ranking, nobody scores or steers while the ranking is shown, and the next
 * match starts after the countdown with zero scores and fresh ships. A world
 * that does not decide the match only counts its clock down.
 */
import { describe, expect, it } from 'vitest';
import {
  createWorld,
  MATCH_OVER,
  MATCH_PLAYING,
  ranking,
  RULES,
  stepWorld,
  type World,
  type WorldEvent,
} from '../../../src/shared/game';
import { NO_INPUT, TICK_HZ } from '../../../src/shared/sim';

/** Three ships, no asteroids: slot 0 has `kills` kills. */
function world(limits: { killLimit: number; timeLimitS: number }, kills = 0): World {
  const w = createWorld(7, { ships: 3, asteroids: 0, fields: 0, match: limits });
  return { ...w, scores: w.scores.map((s) => (s.slot === 0 ? { ...s, kills } : s)) };
}

function run(w: World, ticks: number, events: WorldEvent[] = [], decidesMatch = true): World {
  for (let t = 0; t < ticks; t++) w = stepWorld(w, new Map([[0, { ...NO_INPUT, thrust: 1, fire: true }]]), { events, decidesMatch });
  return w;
}

describe('the match', () => {
  it('ends when a player reaches the kill limit, with the ranking best first', () => {
    let w = world({ killLimit: 3, timeLimitS: 0 }, 2);
    w = { ...w, scores: [{ slot: 0, kills: 2, deaths: 1 }, { slot: 1, kills: 3, deaths: 0 }, { slot: 2, kills: 0, deaths: 4 }] };
    const events: WorldEvent[] = [];
    w = run(w, 1, events);
    expect(w.match.phase).toBe(MATCH_OVER);
    expect(w.match.ticksLeft).toBe(RULES.match.restartS * TICK_HZ);
    expect(events).toContainEqual({ type: 'match-over', ranking: [{ slot: 1, kills: 3, deaths: 0 }, { slot: 0, kills: 2, deaths: 1 }, { slot: 2, kills: 0, deaths: 4 }] });
  });

  it('ends when the time limit runs out, not a tick earlier', () => {
    let w = world({ killLimit: 10, timeLimitS: 2 });
    expect(w.match.ticksLeft).toBe(2 * TICK_HZ);
    w = run(w, 2 * TICK_HZ - 1);
    expect(w.match).toMatchObject({ phase: MATCH_PLAYING, ticksLeft: 1 });
    w = run(w, 1);
    expect(w.match.phase).toBe(MATCH_OVER);
  });

  it('without limits it never ends', () => {
    const w = run(world({ killLimit: 0, timeLimitS: 0 }, 50), 200);
    expect(w.match).toMatchObject({ phase: MATCH_PLAYING, ticksLeft: -1 });
  });

  it('while the ranking is shown nobody steers, fires or scores; then a new match starts with zero scores and fresh ships', () => {
    let w = run(world({ killLimit: 1, timeLimitS: 0 }, 1), 1);
    expect(w.match.phase).toBe(MATCH_OVER);
    const frozen = w.ships[0]!;
    // The bolt fired on the last tick of play flies out its 40 ticks; none follows it.
    w = run(w, 41);
    expect(w.objects.filter((o) => o.kind === 'laser')).toHaveLength(0);
    // No thrust: the ship only coasts (drag slows it), it fires nothing.
    expect(Math.hypot(w.ships[0]!.vel.x, w.ships[0]!.vel.y, w.ships[0]!.vel.z)).toBeLessThanOrEqual(Math.hypot(frozen.vel.x, frozen.vel.y, frozen.vel.z));
    const events: WorldEvent[] = [];
    w = run(w, RULES.match.restartS * TICK_HZ - 41, events);
    expect(events).toContainEqual({ type: 'match-start', round: 1 });
    expect(w.match).toMatchObject({ phase: MATCH_PLAYING, round: 1, killLimit: 1 });
    expect(w.scores.every((s) => s.kills === 0 && s.deaths === 0)).toBe(true);
    expect(w.ships.every((s) => s.respawnIn === 0 && s.damage === 0 && s.invulnerable > 0)).toBe(true);
    // Fresh ships stand on distinct spawn points.
    expect(new Set(w.ships.map((s) => `${s.pos.x},${s.pos.y},${s.pos.z}`)).size).toBe(3);
  });

  it('a world that does not decide the match counts its clock down and never ends it', () => {
    let w = world({ killLimit: 1, timeLimitS: 1 }, 5);
    w = run(w, 2 * TICK_HZ, [], false);
    expect(w.match).toMatchObject({ phase: MATCH_PLAYING, ticksLeft: 0 });
  });

  it('ranks by kills, then fewest deaths, then slot', () => {
    expect(ranking([{ slot: 2, kills: 1, deaths: 0 }, { slot: 0, kills: 1, deaths: 0 }, { slot: 1, kills: 1, deaths: 2 }, { slot: 3, kills: 4, deaths: 9 }]).map((s) => s.slot)).toEqual([3, 0, 2, 1]);
  });
});
