/**
 * The match between client games (Parsec protocols): the lowest joined slot
 * is the match authority: it tallies the kills its peers announce, and
 * announces scores, clock and phase (matchState, reliable) on every change,
 * to every newcomer and every 10 s; the others take its word — so a player
 * joining mid-match sees the scores and time left everyone else sees.
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, MATCH_ANNOUNCE_TICKS, type GamePlayer, type MatchAnnouncement } from '../../../src/shared/game';
import { NO_INPUT, STEP_MS, TICK_HZ } from '../../../src/shared/sim';
import { NO_SLOT, NO_TIME_LIMIT, objectId } from '../../../src/shared/wire/types';

const players = (slots: number[], local: number): GamePlayer[] => slots.map((slot) => ({ slot, joined: true, local: slot === local }));

/** Steps `game` once at `tick`; returns its announcement, if any. */
function tick(game: ClientGame, t: number): MatchAnnouncement | undefined {
  return game.step(NO_INPUT, t * STEP_MS).match;
}

describe('the match over the network', () => {
  it('the lowest joined slot announces, the others take its scores and clock, and a newcomer hears it at once', () => {
    const alpha = new ClientGame();
    const bravo = new ClientGame();
    alpha.applyPlayers(players([0, 1], 0), 0);
    bravo.applyPlayers(players([0, 1], 1), 1);
    expect(alpha.decidesMatch).toBe(true);
    expect(bravo.decidesMatch).toBe(false);

    // Bravo's game says alpha shot bravo down; a kill of slot 2 by nobody (an asteroid) is tallied too.
    alpha.applyEvent(1, { type: 'killObject', id: objectId(1, 0), killerSlot: 0 }, 0, 0);
    bravo.applyEvent(0, { type: 'killObject', id: objectId(0, 0), killerSlot: 1 }, 0, 0); // not the authority: it waits for alpha's word
    expect(bravo.curr.scores).toEqual([]);
    let said = tick(alpha, 1);
    expect(said?.scores).toEqual([{ slot: 0, kills: 1, deaths: 0 }, { slot: 1, kills: 0, deaths: 1 }]);
    expect(said?.msLeft).toBeLessThan(600_000);
    expect(tick(bravo, 1)).toBeUndefined(); // not the authority
    bravo.applyEvent(0, { type: 'matchState', ...said! }, 50, 25);
    expect(bravo.curr.scores).toEqual(alpha.curr.scores);
    expect(Math.abs(bravo.curr.match.ticksLeft - alpha.curr.match.ticksLeft)).toBeLessThanOrEqual(1);

    // Nothing changed: quiet until the periodic announcement.
    let quiet = 0;
    for (let t = 2; t < 2 + MATCH_ANNOUNCE_TICKS - 1; t++) if (tick(alpha, t)) quiet++;
    expect(quiet).toBe(0);
    expect(tick(alpha, 2 + MATCH_ANNOUNCE_TICKS)).toBeDefined();

    // Charlie joins mid-match: the authority announces at its next tick, and charlie sees what the others see.
    const charlie = new ClientGame();
    charlie.applyPlayers(players([0, 1, 2], 2), 2);
    alpha.applyPlayers(players([0, 1, 2], 0), 0);
    said = tick(alpha, 3 + MATCH_ANNOUNCE_TICKS);
    expect(said).toBeDefined();
    charlie.applyEvent(0, { type: 'matchState', ...said! }, 0, 0);
    expect(charlie.curr.scores).toEqual(alpha.curr.scores);
    expect(charlie.curr.match).toEqual(alpha.curr.match);
    // Only the authority's word counts: a matchState from bravo changes nothing.
    charlie.applyEvent(1, { type: 'matchState', ...said!, scores: [{ slot: 1, kills: 99, deaths: 0 }] }, 0, 0);
    expect(charlie.curr.scores).toEqual(alpha.curr.scores);
  });

  it('the match ends at the authority, the others see the ranking phase, and a new round gives them a fresh ship', () => {
    const alpha = new ClientGame();
    const bravo = new ClientGame();
    alpha.applyPlayers(players([0, 1], 0), 0);
    bravo.applyPlayers(players([0, 1], 1), 1);
    const limit = alpha.curr.match.killLimit;
    for (let k = 0; k < limit; k++) alpha.applyEvent(1, { type: 'killObject', id: objectId(1, 0), killerSlot: 0 }, 0, 0);
    const said = tick(alpha, 1);
    expect(said?.phase).toBe(1);
    bravo.applyEvent(0, { type: 'matchState', ...said! }, 0, 0);
    expect(bravo.curr.match.phase).toBe(1);
    // The next round, announced: bravo's ship is fresh and invulnerable, the scoreboard zero.
    bravo.applyEvent(0, { type: 'matchState', round: 1, phase: 0, killLimit: limit, timeLimitS: 0, msLeft: NO_TIME_LIMIT, msPlayed: 0, page: 0, scores: [] }, 0, 0);
    expect(bravo.curr.match).toMatchObject({ round: 1, phase: 0, ticksLeft: -1 });
    expect(bravo.localShip).toMatchObject({ damage: 0, invulnerable: 2 * TICK_HZ });
    expect(bravo.curr.scores).toEqual([]);
  });

  it('a kill by nobody counts the death only, and a kill claimed for the victim itself credits nobody', () => {
    const alpha = new ClientGame();
    alpha.applyPlayers(players([0, 1, 2], 0), 0);
    alpha.applyEvent(2, { type: 'killObject', id: objectId(2, 0), killerSlot: NO_SLOT }, 0, 0);
    alpha.applyEvent(1, { type: 'killObject', id: objectId(1, 0), killerSlot: 1 }, 0, 0);
    expect(alpha.curr.scores).toEqual([{ slot: 1, kills: 0, deaths: 1 }, { slot: 2, kills: 0, deaths: 1 }]);
  });

  it('two kills arriving in one tick cannot take the winner past the kill limit: the match ended at the first', () => {
    const alpha = new ClientGame({ match: { killLimit: 2 } });
    alpha.applyPlayers(players([0, 1, 2, 3], 0), 0);
    alpha.applyEvent(2, { type: 'killObject', id: objectId(2, 0), killerSlot: 1 }, 0, 0);
    tick(alpha, 1);
    // Slot 1 at 1 kill; two more of its kills land before the next step.
    alpha.applyEvent(2, { type: 'killObject', id: objectId(2, 0), killerSlot: 1 }, 0, 0);
    alpha.applyEvent(3, { type: 'killObject', id: objectId(3, 0), killerSlot: 1 }, 0, 0);
    tick(alpha, 2);
    expect(alpha.curr.match.phase).not.toBe(0);
    expect(alpha.curr.scores.find((s) => s.slot === 1)).toEqual({ slot: 1, kills: 2, deaths: 0 });
    expect(alpha.curr.scores.find((s) => s.slot === 3)).toBeUndefined();
  });
});

describe('match limits (the killlimit and timelimit cvars)', () => {
  it('offline they apply at once, the time already played counting against a new time limit', () => {
    const game = new ClientGame();
    // A match against a computer pilot (alone, the clock stands: botJoin.test.ts).
    game.addBot();
    for (let t = 0; t < TICK_HZ; t++) game.step(NO_INPUT, t * STEP_MS);
    expect(game.setMatchLimits({ timeLimitS: 2, killLimit: 1 })).toBe(true);
    expect(game.curr.match).toMatchObject({ killLimit: 1, timeLimitTicks: 2 * TICK_HZ, ticksLeft: TICK_HZ });
    for (let t = TICK_HZ; t < 2 * TICK_HZ; t++) game.step(NO_INPUT, t * STEP_MS);
    expect(game.curr.match.phase).toBe(1);
  });

  it('a player who is not the match authority keeps them for later; the authority\'s announce them', () => {
    const alpha = new ClientGame();
    const bravo = new ClientGame();
    alpha.applyPlayers(players([0, 1], 0), 0);
    bravo.applyPlayers(players([0, 1], 1), 1);
    const before = bravo.curr.match;
    expect(bravo.setMatchLimits({ killLimit: 3 })).toBe(false);
    expect(bravo.curr.match).toEqual(before);
    tick(alpha, 1);
    expect(alpha.setMatchLimits({ killLimit: 3, timeLimitS: 0 })).toBe(true);
    const said = tick(alpha, 2);
    expect(said).toMatchObject({ killLimit: 3, timeLimitS: 0, msLeft: NO_TIME_LIMIT });
  });
});

describe('leaving and rejoining during a match', () => {
  const named = (entries: [number, string][], local: number): GamePlayer[] => entries.map(([slot, name]) => ({ slot, name, joined: true, local: slot === local }));

  it('a player who drops and rejoins under the same name keeps the score; a newcomer in the freed slot starts from zero', () => {
    const alpha = new ClientGame();
    alpha.applyPlayers(named([[0, 'alpha'], [1, 'bravo']], 0), 0);
    // Bravo crashes once (its own doing: a death, no kill) and shoots down the player of slot 2 twice.
    alpha.applyEvent(1, { type: 'killObject', id: objectId(1, 0), killerSlot: 1 }, 0, 0);
    for (let i = 0; i < 2; i++) alpha.applyEvent(2, { type: 'killObject', id: objectId(2, 0), killerSlot: 1 }, 0, 0);
    const bravoBefore = alpha.curr.scores.find((s) => s.slot === 1);
    expect(bravoBefore).toEqual({ slot: 1, kills: 2, deaths: 1 });
    // Bravo drops; charlie takes slot 1: a fresh line.
    alpha.applyPlayers(named([[0, 'alpha']], 0), 0);
    alpha.applyPlayers(named([[0, 'alpha'], [1, 'charlie']], 0), 0);
    expect(alpha.curr.scores.find((s) => s.slot === 1)).toBeUndefined();
    // Bravo comes back, in slot 2 this time: its score with it, and the authority says so at its next tick.
    alpha.applyPlayers(named([[0, 'alpha'], [1, 'charlie'], [2, 'bravo']], 0), 0);
    expect(alpha.curr.scores.find((s) => s.slot === 2)).toEqual({ slot: 2, kills: 2, deaths: 1 });
    expect(tick(alpha, 1)?.scores).toContainEqual({ slot: 2, kills: 2, deaths: 1 });
  });
});
