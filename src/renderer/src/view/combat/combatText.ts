/**
 * The combat HUD's words, without the DOM (unit-tested in Node): our rank in
 * the match, the kill-feed line with the weapon, a distance.
 */
import type { WorldView } from '../../../../shared/game/view';
import type { KillCause } from '../../../../shared/game/clientTypes';
import { ranking } from '../../../../shared/game/match';

/** Our place in the match: 1 is first, of `of` players. */
export interface Rank {
  rank: number;
  of: number;
}

/**
 * Our rank among the view's scores and the players of `inGame` without a
 * score line yet (counted with 0 and 0, as the scoreboard lists them):
 * most kills, then fewest deaths, then slot — the scoreboard's order, so
 * the two never disagree. Null while nobody else plays (practice alone).
 */
export function rankOf(view: WorldView, inGame: readonly number[] = []): Rank | null {
  const scores = [...view.scores];
  const slots = new Set(scores.map((s) => s.slot));
  for (const slot of [...inGame, view.localSlot, ...view.ships.map((s) => s.slot)]) {
    if (slots.has(slot)) continue;
    slots.add(slot);
    scores.push({ slot, kills: 0, deaths: 0 });
  }
  if (scores.length < 2) return null;
  const i = ranking(scores).findIndex((s) => s.slot === view.localSlot);
  return i < 0 ? null : { rank: i + 1, of: scores.length };
}

/** "rank 2 of 3", or '' without a rank. */
export function rankText(rank: Rank | null): string {
  return rank === null ? '' : `rank ${rank.rank} of ${rank.of}`;
}

/** What the weapon is called in the kill feed. */
const WEAPON: { readonly [K in Exclude<KillCause, 'asteroid'>]: string } = {
  laser: 'with a laser',
  missile: 'with a missile',
  mine: 'with a mine',
  emp: 'with an EMP',
  extra: '',
  field: '',
};

/**
 * The kill-feed line for a destroyed ship, with the names as they stand
 * among others (`killer` null when unknown) and the weapon when the game
 * that decided the kill knows it (`cause`: ours, our computer pilots', a
 * lockstep world; a network kill another player's game decided comes without
 * one, the wire does not carry it).
 */
export function killLine(victim: string, killer: string | null, cause?: KillCause): string {
  if (cause === 'asteroid') return killer === null ? `${victim} crashed into an asteroid` : `${victim} crashed into an asteroid, last hit by ${killer}`;
  const base = killer === null ? `${victim} was shot down` : `${victim} was shot down by ${killer}`;
  const weapon = cause === undefined ? '' : WEAPON[cause];
  return weapon === '' ? base : `${base} ${weapon}`;
}

/** A distance on the HUD: whole units ("420 u"). */
export function distanceText(units: number): string {
  return `${Math.round(units)} u`;
}
