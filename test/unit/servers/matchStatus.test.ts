import { describe, expect, it } from 'vitest';
import { PLAYERS_DECIDE_MATCH, serverMatch } from '../../../src/node/servers/common/matchStatus';
import { MATCH_OVER, MATCH_PLAYING } from '../../../src/shared/game/types';
import { NO_TIME_LIMIT } from '../../../src/shared/wire/types';

const playing = { round: 2, phase: MATCH_PLAYING, killLimit: 10, timeLimitS: 600, msLeft: 432_400, msPlayed: 167_600, scores: [{ slot: 1, kills: 3, deaths: 1 }] };

describe('the match on a status page', () => {
  it('a match being played: time left, both limits, and each player\'s kills and deaths (0 and 0 before any)', () => {
    const m = serverMatch(playing);
    expect(m.line).toBe('Match (round 2) playing: 7m 12s left; kill limit 10, time limit 10m 00s.');
    expect(m.json).toEqual({ decidedBy: 'server', round: 2, phase: 'playing', killLimit: 10, timeLimitSeconds: 600, secondsLeft: 433 });
    expect(m.scoreOf(1)).toEqual({ kills: 3, deaths: 1 });
    expect(m.scoreOf(0)).toEqual({ kills: 0, deaths: 0 });
  });

  it('a match without limits says so', () => {
    const m = serverMatch({ ...playing, killLimit: 0, timeLimitS: 0, msLeft: NO_TIME_LIMIT });
    expect(m.line).toBe('Match (round 2) playing; no kill limit, no time limit.');
    expect(m.json).toMatchObject({ killLimit: null, timeLimitSeconds: null, secondsLeft: null });
  });

  it('a match that is over counts down to the next', () => {
    const m = serverMatch({ ...playing, phase: MATCH_OVER, msLeft: 7_000 });
    expect(m.line).toBe('Match (round 2) over: the next begins in 7s (kill limit 10, time limit 10m 00s).');
    expect(m.json).toMatchObject({ phase: 'over', secondsLeft: 7 });
  });

  it('a slotserver says its players decide the match, out of its sight', () => {
    expect(PLAYERS_DECIDE_MATCH.json).toEqual({ decidedBy: 'players' });
    expect(PLAYERS_DECIDE_MATCH.line).toMatch(/players' games decide the match/);
  });
});
