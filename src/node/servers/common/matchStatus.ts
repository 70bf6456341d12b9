/**
 * The match on a server's status page and in its JSON: whether it is being
 * played or over, the time left, the limits, and each player's kills and
 * deaths. A gameserver runs its game's match (matchReferee.ts) and a netgame
 * server steps it in its master state, so both show it as they keep it (the
 * same announcement their players get, matchSync.ts). A slotserver sees none
 * of its players' game packets — their games decide the match peer to peer —
 * and its page says so instead.
 */
import type { MatchStanding } from '../../../shared/game/matchSync';
import { MATCH_OVER } from '../../../shared/game/types';
import { NO_TIME_LIMIT } from '../../../shared/wire/types';
import { duration } from './playerAddress';

/**
 * The match in a status JSON. `decidedBy: 'server'`: `round` (0 for the
 * first since the server started), `phase`, the limits (`null` for none) and
 * `secondsLeft` — of the match while it is played (`null` without a time
 * limit), until the next one begins once it is over. `decidedBy: 'players'`:
 * the server does not know it.
 */
export type MatchJson =
  | {
      decidedBy: 'server';
      round: number;
      phase: 'playing' | 'over';
      killLimit: number | null;
      timeLimitSeconds: number | null;
      secondsLeft: number | null;
    }
  | { decidedBy: 'players' };

/** A player's line of the scoreboard. */
export interface PlayerScore {
  kills: number;
  deaths: number;
}

/** The match as a status page shows it: a sentence, the JSON, and each slot's score. */
export interface MatchStatus {
  /** One sentence for the page's introduction. */
  readonly line: string;
  readonly json: MatchJson;
  /** The score of the player in `slot` (nothing yet: 0 and 0). */
  scoreOf(slot: number): PlayerScore;
}

/** The match a server keeps, from the announcement it sends its players. */
export function serverMatch(a: MatchStanding): MatchStatus {
  const over = a.phase === MATCH_OVER;
  const msLeft = a.msLeft === NO_TIME_LIMIT ? null : a.msLeft;
  const killLimit = a.killLimit > 0 ? a.killLimit : null;
  const timeLimitSeconds = a.timeLimitS > 0 ? a.timeLimitS : null;
  const limits = `${killLimit === null ? 'no kill limit' : `kill limit ${killLimit}`}, ${timeLimitSeconds === null ? 'no time limit' : `time limit ${duration(timeLimitSeconds * 1000)}`}`;
  const line = over
    ? `Match (round ${a.round}) over: the next begins in ${duration(msLeft ?? 0)} (${limits}).`
    : `Match (round ${a.round}) playing${msLeft === null ? '' : `: ${duration(msLeft)} left`}; ${limits}.`;
  const scores = new Map(a.scores.map((s) => [s.slot, { kills: s.kills, deaths: s.deaths }]));
  return {
    line,
    json: {
      decidedBy: 'server',
      round: a.round,
      phase: over ? 'over' : 'playing',
      killLimit,
      timeLimitSeconds,
      secondsLeft: msLeft === null ? null : Math.ceil(msLeft / 1000),
    },
    scoreOf: (slot) => scores.get(slot) ?? { kills: 0, deaths: 0 },
  };
}

/** What a slotserver can say about the match: that its players' games decide it, out of its sight. */
export const PLAYERS_DECIDE_MATCH: { readonly line: string; readonly json: MatchJson } = {
  line: "Scores and time left are not shown here: the players' games decide the match between themselves (peer to peer), and a slotserver sees none of their game packets.",
  json: { decidedBy: 'players' },
};
