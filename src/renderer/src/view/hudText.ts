/**
 * The HUD's words, without the DOM (unit-tested in Node): the match line,
 * and the scoreboard's rows and winner. Our own name is marked as everywhere
 * on the page ("pilot-2 (you)", net/pilotNames.ts).
 */
import type { MatchView, WorldView } from '../../../shared/game/view';
import type { NetPlayer } from '../../../shared/net/gameLink';
import { ranking } from '../../../shared/game/match';
import { MATCH_PLAYING } from '../../../shared/game/types';
import { markedAsYou } from '../net/pilotNames';

/** `m:ss` of a whole number of seconds. */
export function clockText(seconds: number): string {
  const s = Math.max(0, seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Whether there is anyone to play against: a computer pilot of the offline
 * game, another ship or score line in the view, or another joined player in
 * the slot table.
 */
export function hasOpponents(view: WorldView, players: readonly NetPlayer[]): boolean {
  const us = view.localSlot;
  return (
    view.bots.length > 0 ||
    view.ships.some((s) => s.slot !== us) ||
    view.scores.some((s) => s.slot !== us) ||
    players.some((p) => p.joined && !p.local && p.slot !== us)
  );
}

/**
 * The match line: clock and kill limit while playing against someone; ''
 * alone (a match needs an opponent: practice alone has no clock) and once
 * over (the match-end screen says it).
 */
export function matchText(m: MatchView, opponents: boolean): string {
  if (m.phase !== MATCH_PLAYING || !opponents) return '';
  const clock = m.secondsLeft === null ? 'no time limit' : clockText(m.secondsLeft);
  const kills = m.killLimit > 0 ? `first to ${m.killLimit} ${m.killLimit === 1 ? 'kill' : 'kills'}` : 'no kill limit';
  return `${clock} · ${kills}`;
}

export interface ScoreRow {
  rank: number;
  slot: number;
  name: string;
  kills: number;
  deaths: number;
  /** Round trip in ms, null when unknown. */
  pingMs: number | null;
  local: boolean;
}

/**
 * The round trip the host reported for `slot` in `view`, or null: none
 * reported, or not a finite number ≥ 0 (the view comes from the host process;
 * a malformed entry reads as unknown rather than as a number).
 */
export function pingOf(view: WorldView, slot: number): number | null {
  const pings: unknown = view.pings;
  if (!Array.isArray(pings)) return null;
  for (const p of pings as unknown[]) {
    if (typeof p !== 'object' || p === null || (p as { slot?: unknown }).slot !== slot) continue;
    const ms = (p as { ms?: unknown }).ms;
    return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : null;
  }
  return null;
}

/**
 * The rows of the scoreboard, best first: every score line of the view, and
 * a zero line for each slot of `inGame` (the joined players of the slot
 * table) that has none yet — in a network game a player's line appears with
 * the first kill or death, but the board lists everyone playing. Our own
 * row is our name marked "(you)" (`nameOf` gives every slot's plain name,
 * ours included). The
 * ping column is whatever round trip the host put in the view for that slot
 * (null, shown as '-', when it has none): our own row, our round trip to the
 * server in a gameserver or slotserver game (none offline or peer to peer);
 * another player's, our round trip to that peer in p2p and slotserver games
 * (none through a gameserver, where only the server knows it); bots, none.
 */
export function scoreRows(view: WorldView, nameOf: (slot: number) => string, inGame: readonly number[] = []): ScoreRow[] {
  const scores = [...view.scores];
  for (const slot of inGame) if (!scores.some((s) => s.slot === slot)) scores.push({ slot, kills: 0, deaths: 0 });
  return ranking(scores).map((s, i) => ({
    rank: i + 1,
    slot: s.slot,
    name: s.slot === view.localSlot ? markedAsYou(nameOf(s.slot)) : nameOf(s.slot),
    kills: s.kills,
    deaths: s.deaths,
    pingMs: pingOf(view, s.slot),
    local: s.slot === view.localSlot,
  }));
}

/** Rows a scoreboard shows at most (a gameserver holds up to 255 players): the best, and ours wherever we rank. */
export const SCOREBOARD_ROWS = 16;

/**
 * The rows of `rows` (ranked) a scoreboard shows: all of them when they fit
 * `max`, else the best `max` − 1 and ours (or the best `max` when ours is
 * among them or we have none), with how many are left out.
 */
export function shownRows(rows: readonly ScoreRow[], max = SCOREBOARD_ROWS): { rows: ScoreRow[]; more: number } {
  if (rows.length <= max) return { rows: [...rows], more: 0 };
  const local = rows.findIndex((r) => r.local);
  const shown = local < 0 || local < max ? rows.slice(0, max) : [...rows.slice(0, max - 1), rows[local] as ScoreRow];
  return { rows: shown, more: rows.length - shown.length };
}

/** The winner line of the match-end screen, with the names as the rows have them ('' without scores). */
export function winnerText(rows: readonly ScoreRow[]): string {
  const [first, second] = rows;
  if (!first) return '';
  const kills = `${first.kills} ${first.kills === 1 ? 'kill' : 'kills'}`;
  if (second && second.kills === first.kills && second.deaths === first.deaths) return `a draw at ${kills}; ${first.name} ranked first by slot`;
  return `${first.name} wins`;
}
