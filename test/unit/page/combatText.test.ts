/**
 * The combat HUD's words (src/renderer/src/view/combat/combatText.ts): our
 * rank in the match, the kill-feed line with the weapon.
 */
import { describe, expect, it } from 'vitest';
import { distanceText, killLine, rankOf, rankText } from '../../../src/renderer/src/view/combat/combatText';
import type { WorldView } from '../../../src/shared/game/view';
import type { Score } from '../../../src/shared/game/types';

const view = (scores: Score[], localSlot = 0, shipSlots: number[] = []): WorldView => ({
  tick: 1,
  localSlot,
  respawnSeconds: null,
  ships: shipSlots.map((slot) => ({ slot, pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, energy: 100, shield: 40, damage: 0, missiles: 3, mines: 2, laserLevel: 1, invulnerable: 0 })),
  objects: [],
  asteroids: [],
  scores,
  match: { phase: 0, secondsLeft: 600, killLimit: 10, timeLimitS: 600, round: 1 },
  lockedBy: [],
  bots: [],
  pings: [],
});

describe('rankOf', () => {
  it('ranks by kills, then fewest deaths, then slot, as the scoreboard does', () => {
    const scores = [{ slot: 0, kills: 2, deaths: 3 }, { slot: 1, kills: 2, deaths: 1 }, { slot: 2, kills: 0, deaths: 0 }];
    expect(rankOf(view(scores, 0))).toEqual({ rank: 2, of: 3 });
    expect(rankOf(view(scores, 1))).toEqual({ rank: 1, of: 3 });
    expect(rankOf(view(scores, 2))).toEqual({ rank: 3, of: 3 });
    expect(rankText(rankOf(view(scores, 0)))).toBe('rank 2 of 3');
  });

  it('counts players without a score line yet (joined, or flying) with 0 and 0', () => {
    expect(rankOf(view([{ slot: 1, kills: 0, deaths: 1 }], 0), [0, 1, 3])).toEqual({ rank: 1, of: 3 });
    expect(rankOf(view([], 2, [2, 5]))).toEqual({ rank: 1, of: 2 });
  });

  it('alone there is no rank', () => {
    expect(rankOf(view([{ slot: 0, kills: 0, deaths: 0 }]))).toBeNull();
    expect(rankText(null)).toBe('');
  });
});

describe('killLine', () => {
  it('names the weapon when the deciding game knows it', () => {
    expect(killLine('bot 1', 'pilot (you)', 'laser')).toBe('bot 1 was shot down by pilot (you) with a laser');
    expect(killLine('pilot (you)', 'bot 2', 'missile')).toBe('pilot (you) was shot down by bot 2 with a missile');
    expect(killLine('bot 1', 'bot 2', 'mine')).toBe('bot 1 was shot down by bot 2 with a mine');
  });

  it('without a weapon (a kill another player\'s game reported) or a killer, says what it knows', () => {
    expect(killLine('pilot-2', 'pilot (you)')).toBe('pilot-2 was shot down by pilot (you)');
    expect(killLine('pilot-2', null)).toBe('pilot-2 was shot down');
  });

  it('an asteroid: crashed, with the last player who hit the ship when there is one', () => {
    expect(killLine('bot 1', null, 'asteroid')).toBe('bot 1 crashed into an asteroid');
    expect(killLine('bot 1', 'pilot (you)', 'asteroid')).toBe('bot 1 crashed into an asteroid, last hit by pilot (you)');
  });
});

describe('distanceText', () => {
  it('whole units', () => {
    expect(distanceText(419.6)).toBe('420 u');
  });
});
