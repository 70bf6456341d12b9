/**
 * The arena between client games (Parsec protocols): only the match
 * authority breaks asteroids; it announces each break with its tick, and the
 * whole log to a newcomer; a follower — whenever it joined — ends up with the
 * same asteroids, piece for piece, at the same places.
 */
import { describe, expect, it } from 'vitest';
import { arenaAt, ArenaLog, ClientGame, RULES, type Asteroid, type GamePlayer, type TickOutcome } from '../../../src/shared/game';
import { NO_INPUT, STEP_MS } from '../../../src/shared/sim';
import { objectId, type RemoteEvent } from '../../../src/shared/wire/types';
import { createGoldenWorld, GOLDEN_RUN, inputScript, stepOnce } from '../../../src/shared/game/goldenRun';

const players = (slots: number[], local: number): GamePlayer[] => slots.map((slot) => ({ slot, joined: true, local: slot === local }));
const rocks = (asteroids: readonly Asteroid[]) => asteroids.map((a) => ({ id: a.id, pos: a.pos, vel: a.vel, radius: a.radius })).sort((a, b) => a.id - b.id);

/** What an authority's tick says to the others, as the events they receive. */
function said(out: TickOutcome): RemoteEvent[] {
  const events: RemoteEvent[] = [];
  if (out.match) events.push({ type: 'matchState', ...out.match });
  for (const b of out.breaks ?? []) events.push({ type: 'asteroidBreaks', ...b });
  return events;
}

describe('the arena', () => {
  it('the field, the ticks played and the logged breaks rebuild the asteroids of a fought match exactly', () => {
    let world = createGoldenWorld(GOLDEN_RUN.seed, GOLDEN_RUN.ships);
    const script = inputScript(GOLDEN_RUN.seed, GOLDEN_RUN.ships);
    const log = new ArenaLog();
    // The first match in which asteroids break, played 200 ticks past the first break (or to its end).
    let broke = 0;
    let after = 0;
    for (let t = 0; t < GOLDEN_RUN.ticks && after < 200; t++) {
      const round = world.match.round;
      const r = stepOnce(world, script(world));
      if (r.world.match.round !== round && broke > 0) break;
      world = r.world;
      if (world.match.round !== round) broke = 0;
      log.record(world, round, r.events);
      broke += r.events.filter((e) => e.type === 'broken').length;
      if (broke > 0) after++;
    }
    expect(broke).toBeGreaterThan(0);
    const breaks = log.all(world.match.round).flat();
    expect(breaks).toHaveLength(broke);
    console.log(`${broke} asteroids broke in ${world.match.playedTicks} ticks; ${world.asteroids.length} asteroids now`);
    expect(rocks(arenaAt(world.field, world.match.playedTicks, breaks))).toEqual(rocks(world.asteroids));
  });

  it('the authority breaks an asteroid; a follower and a newcomer long after see the same pieces in the same places', () => {
    const alpha = new ClientGame();
    const bravo = new ClientGame();
    let t = 0;
    // Alpha has been flying alone for a while: the clocks of the two games differ.
    for (; t < 300; t++) alpha.step(NO_INPUT, t * STEP_MS);
    alpha.applyPlayers(players([0, 1], 0), 0);
    bravo.applyPlayers(players([0, 1], 1), 1);
    const step = (g: ClientGame) => g.step(NO_INPUT, t * STEP_MS);
    const target = alpha.curr.asteroids.find((a) => a.radius > 10 && a.radius < 14)!;
    expect(target).toBeDefined();
    let pieces = 0;
    for (let k = 0; k < 40 && pieces === 0; k++, t++) {
      // Bravo's bolts, aimed at the asteroid from 60 units away (alpha simulates them like any remote laser).
      const a = alpha.curr.asteroids.find((x) => x.id === target.id);
      if (a) {
        const laser: RemoteEvent = { type: 'createLaser', id: objectId(1, 100 + k), pos: { x: a.pos.x + 60, y: a.pos.y, z: a.pos.z }, vel: { x: -RULES.laser.speed, y: 0, z: 0 }, ttl: 40 };
        alpha.applyEvent(1, laser, t * STEP_MS, 0);
      }
      const out = step(alpha);
      for (const ev of said(out)) bravo.applyEvent(0, ev, t * STEP_MS, 0);
      pieces = out.breaks?.flatMap((b) => b.breaks).length ?? 0;
      step(bravo);
    }
    expect(pieces).toBe(1);
    expect(alpha.curr.asteroids.some((a) => a.id === target.id)).toBe(false);
    expect(rocks(bravo.curr.asteroids)).toEqual(rocks(alpha.curr.asteroids));
    expect(bravo.curr.match.playedTicks).toBe(alpha.curr.match.playedTicks);

    // Charlie joins 200 ticks later: the authority tells it the match and every break; it rebuilds the arena.
    for (let k = 0; k < 200; k++, t++) {
      step(alpha);
      step(bravo);
    }
    const charlie = new ClientGame();
    charlie.applyPlayers(players([0, 1, 2], 2), 2);
    alpha.applyPlayers(players([0, 1, 2], 0), 0);
    const out = step(alpha);
    expect(out.breaks?.flatMap((b) => b.breaks)).toEqual([{ id: target.id, tick: expect.any(Number) }]);
    for (const ev of said(out)) charlie.applyEvent(0, ev, t * STEP_MS, 0);
    step(bravo);
    // Charlie's first tick, and the others' next: all three at the same tick of the match.
    t++;
    charlie.step(NO_INPUT, t * STEP_MS);
    step(alpha);
    step(bravo);
    expect(charlie.curr.match.playedTicks).toBe(alpha.curr.match.playedTicks);
    expect(rocks(charlie.curr.asteroids)).toEqual(rocks(alpha.curr.asteroids));
    expect(rocks(bravo.curr.asteroids)).toEqual(rocks(alpha.curr.asteroids));
  });

  it('breaks of another match, or from a player who is not the authority, change nothing', () => {
    const alpha = new ClientGame();
    const bravo = new ClientGame();
    alpha.applyPlayers(players([0, 1, 2], 0), 0);
    bravo.applyPlayers(players([0, 1, 2], 1), 1);
    const id = bravo.curr.asteroids[0]!.id;
    const before = rocks(bravo.curr.asteroids);
    bravo.applyEvent(2, { type: 'asteroidBreaks', round: 0, breaks: [{ id, tick: 1 }] }, 0, 0);
    bravo.applyEvent(0, { type: 'asteroidBreaks', round: 7, breaks: [{ id, tick: 1 }] }, 0, 0);
    expect(rocks(bravo.curr.asteroids)).toEqual(before);
    bravo.applyEvent(0, { type: 'asteroidBreaks', round: 0, breaks: [{ id, tick: bravo.curr.match.playedTicks }] }, 0, 0);
    expect(bravo.curr.asteroids.some((a) => a.id === id)).toBe(false);
  });
});
