/**
 * The gameserver's match referee (virtual time): it counts the kills players'
 * games announce, ends the match at the kill or time limit with a ranking,
 * starts the next after the countdown, keeps a leaver's score by name, and
 * says so on every change.
 */
import { describe, expect, it } from 'vitest';
import { MatchReferee } from '../../../src/node/servers/game/matchReferee';
import { RULES } from '../../../src/shared/game/rules';
import { NO_SLOT, NO_TIME_LIMIT } from '../../../src/shared/wire/types';

describe('the gameserver match referee', () => {
  it('counts kills, ends the match at the kill limit, then starts the next after the countdown', () => {
    const r = new MatchReferee({ killLimit: 2, timeLimitS: 0 }, 0);
    r.join(0, 'ann');
    r.join(1, 'bob');
    r.kill(1, 0, 100);
    r.kill(0, NO_SLOT, 200); // an asteroid: a death, no kill
    expect(r.due(300)).toMatchObject({ phase: 0, msLeft: NO_TIME_LIMIT, scores: [{ slot: 0, kills: 1, deaths: 1 }, { slot: 1, kills: 0, deaths: 1 }] });
    r.kill(1, 0, 400);
    expect(r.due(400)).toMatchObject({ phase: 1, msLeft: RULES.match.restartS * 1000 });
    expect(r.lastRanking.map((s) => [s.slot, s.name])).toEqual([[0, 'ann'], [1, 'bob']]);
    r.kill(1, 0, 500); // nobody scores while the ranking shows
    expect(r.announcement(500).scores[0]).toEqual({ slot: 0, kills: 2, deaths: 1 });
    r.tick(400 + RULES.match.restartS * 1000);
    expect(r.due(400 + RULES.match.restartS * 1000)).toMatchObject({ round: 1, phase: 0, scores: [] });
  });

  it('ends the match when the time is up', () => {
    const r = new MatchReferee({ killLimit: 10, timeLimitS: 60 }, 1000);
    r.join(0, 'ann');
    expect(r.announcement(31_000).msLeft).toBe(30_000);
    r.tick(60_999);
    expect(r.announcement(60_999).phase).toBe(0);
    r.tick(61_000);
    expect(r.announcement(61_000).phase).toBe(1);
  });

  it('keeps a leaver\'s score by name for the match; a newcomer in the slot starts from zero', () => {
    const r = new MatchReferee({ killLimit: 10, timeLimitS: 0 }, 0);
    r.join(0, 'ann');
    r.join(1, 'bob');
    r.kill(1, 0, 10);
    r.leave(0);
    r.join(0, 'cy');
    expect(r.announcement(20).scores).toEqual([{ slot: 1, kills: 0, deaths: 1 }]);
    r.join(2, 'ann');
    expect(r.announcement(30).scores).toEqual([{ slot: 1, kills: 0, deaths: 1 }, { slot: 2, kills: 1, deaths: 0 }]);
  });

  it('speaks to everyone only when the scores or the phase change (a newcomer hears it on joining)', () => {
    const r = new MatchReferee({ killLimit: 1, timeLimitS: 0 }, 0);
    r.join(0, 'ann');
    r.join(1, 'bob');
    expect(r.due(0)).toBeNull();
    r.kill(1, 0, 10);
    expect(r.due(10)).toMatchObject({ phase: 1 });
    expect(r.due(20)).toBeNull();
    r.leave(1);
    expect(r.due(30)).not.toBeNull(); // bob's line left the scoreboard
    r.join(2, 'cy');
    expect(r.due(40)).toBeNull();
  });
});
