/**
 * Offline practice starts sensibly (issue 23): alone, the match clock
 * stands — a match needs someone to play against — and the first computer
 * pilot to join starts a new match; pilots added mid-game (`bot add`) come
 * in far from the player, out of its sights and it out of theirs, with their
 * weapons cold for a few seconds, so a player who sits still is not hit for
 * the first five seconds (before: shot down in 1.35 s by two bots 40 units
 * away).
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, JOIN_DISTANCE, MATCH_PLAYING, RULES, worldView, type Ship } from '../../../src/shared/game';
import { BotCrew } from '../../../src/shared/game/pilots/crew';
import { forwardOf, NO_INPUT, STEP_MS, TICK_HZ, type ShipInput, type Vec3 } from '../../../src/shared/sim';

const sub = (a: Vec3, b: Vec3): Vec3 => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const len = (v: Vec3): number => Math.hypot(v.x, v.y, v.z);
/** Degrees between `nose` (a unit vector) and the direction from `from` to `to`. */
const offNoseDeg = (from: Vec3, nose: Vec3, to: Vec3): number => {
  const d = sub(to, from);
  return (Math.acos((d.x * nose.x + d.y * nose.y + d.z * nose.z) / len(d)) * 180) / Math.PI;
};
const ship = (game: ClientGame, slot: number): Ship => game.curr.ships.find((s) => s.slot === slot)!;

/** Steps `game` `ticks` ticks with our `input`, the crew flying the bots; returns the hits on our ship with their tick. */
function play(game: ClientGame, ticks: number, input: ShipInput = NO_INPUT, crew?: BotCrew): { tick: number; by: number }[] {
  const hits: { tick: number; by: number }[] = [];
  for (let t = 0; t < ticks; t++) {
    game.step(input, game.curr.tick * STEP_MS, crew?.inputs(game));
    for (const e of game.events) if (e.type === 'hit' && e.slot === game.localSlot && e.by !== game.localSlot) hits.push({ tick: t, by: e.by });
  }
  return hits;
}

/** Every bot far from our ship, out of its sights, and its own nose off our ship. */
function expectClearOfUs(game: ClientGame): void {
  const us = ship(game, 0);
  for (const slot of game.bots) {
    const bot = ship(game, slot);
    expect(len(sub(bot.pos, us.pos)), `bot ${slot} distance`).toBeGreaterThanOrEqual(JOIN_DISTANCE);
    expect(offNoseDeg(us.pos, forwardOf(us.rot), bot.pos), `bot ${slot} off our nose`).toBeGreaterThan(60);
    expect(offNoseDeg(bot.pos, forwardOf(bot.rot), us.pos), `our ship off bot ${slot}'s nose`).toBeGreaterThan(60);
  }
}

describe('practice alone: no match clock', () => {
  it('stands while we fly alone, and the first bot starts a new match with zero scores; with every bot gone it stands again', () => {
    const game = new ClientGame({ match: { killLimit: 10, timeLimitS: 600 } });
    play(game, 10 * TICK_HZ, { ...NO_INPUT, thrust: 1 });
    expect(worldView(game).match).toMatchObject({ phase: MATCH_PLAYING, secondsLeft: 600, round: 0 });

    game.addBot();
    expect(worldView(game).match).toMatchObject({ phase: MATCH_PLAYING, secondsLeft: 600, round: 1 });
    expect(game.curr.scores).toEqual([{ slot: 0, kills: 0, deaths: 0 }, { slot: 1, kills: 0, deaths: 0 }]);
    play(game, 5 * TICK_HZ);
    expect(worldView(game).match.secondsLeft).toBe(595);
    // A second bot joins the match under way: no new match.
    game.addBot();
    expect(worldView(game).match).toMatchObject({ secondsLeft: 595, round: 1 });

    game.removeBot();
    game.removeBot();
    play(game, 5 * TICK_HZ);
    expect(worldView(game).match).toMatchObject({ secondsLeft: 595, round: 1 });
  });
});

describe('bot add mid-game', () => {
  it('puts two bots 600 units from a player at the centre, on spawn-grid points beside it (neither in the other\'s sights)', () => {
    const game = new ClientGame();
    game.addBot();
    game.addBot();
    expect(game.bots).toEqual([1, 2]);
    // Before: (40, 0, 0) and (−40, 0, 0), the ring round the player's own spawn point.
    expect(ship(game, 1).pos).toEqual({ x: 480, y: 360, z: 0 });
    expect(len(ship(game, 2).pos)).toBe(JOIN_DISTANCE);
    expectClearOfUs(game);
  });

  it('keeps them far and out of each other\'s sights wherever the player has flown and turned', () => {
    for (const [i, input] of ([
      { ...NO_INPUT, thrust: 1, yaw: 0.3 },
      { ...NO_INPUT, thrust: 1, pitch: 1 },
      { ...NO_INPUT, thrust: -1, roll: 1, yaw: -1 },
    ] as ShipInput[]).entries()) {
      const game = new ClientGame();
      play(game, (2 + 3 * i) * TICK_HZ, input);
      for (let n = 0; n < 7; n++) game.addBot();
      expect(game.bots).toHaveLength(7);
      expectClearOfUs(game);
      // …and not on top of each other.
      const spots = game.bots.map((slot) => ship(game, slot).pos);
      for (const [a, p] of spots.entries()) for (const q of spots.slice(a + 1)) expect(len(sub(p, q))).toBeGreaterThan(20);
    }
  });

  it('a player destroyed while they join gets them away from where it will respawn', () => {
    const game = new ClientGame();
    play(game, 4 * TICK_HZ, { ...NO_INPUT, thrust: 1 });
    const far = ship(game, 0).pos;
    game.curr.ships[0]!.respawnIn = RULES.respawnTicks; // destroyed out there (the world is plain data)
    game.addBot();
    const bot = ship(game, 1).pos;
    expect(len(far)).toBeGreaterThan(100);
    expect(len(bot), 'from the spawn point at the centre').toBeGreaterThanOrEqual(JOIN_DISTANCE);
  });

  it('comes in with its weapons cold: a player sitting still is not hit in the first 5 s by two bots of skill 3, or of skill 5', () => {
    for (const skill of [3, 5]) {
      const game = new ClientGame();
      play(game, TICK_HZ);
      const crew = new BotCrew();
      for (let i = 0; i < 2; i++) crew.add(game.addBot()!, skill);
      const hits = play(game, 20 * TICK_HZ, NO_INPUT, crew);
      const first = hits[0]?.tick ?? null;
      console.log(`bot add 2 (skill ${skill}), the player sitting still: first hit after ${first === null ? 'none in 20' : (first / TICK_HZ).toFixed(2)} s`);
      expect(RULES.joinGraceTicks).toBe(5 * TICK_HZ);
      expect(first === null || first >= RULES.joinGraceTicks).toBe(true);
    }
  });
});
