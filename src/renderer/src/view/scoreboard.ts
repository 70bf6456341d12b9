/**
 * The scoreboard (shown while its key is held) and the match-end screen
 * (while the match is over): the ranking — most kills, then fewest deaths,
 * then lowest slot (match.ts `ranking`) — with names, kills, deaths and ping.
 * The ping is the round trip in ms the host puts in every world view
 * (`WorldView.pings`, refreshed as the protocol measures it, about once a
 * second), '-' where it has none: our own row shows our round trip to the
 * server in a gameserver or slotserver game ('-' offline and peer to peer,
 * where we have no link to ourselves); another player's row shows our round
 * trip to that peer in p2p and slotserver games ('-' in a gameserver game:
 * our packets go to the server, and only it knows theirs); bots '-'. See
 * `scoreRows` (hudText.ts). With more players than SCOREBOARD_ROWS (a
 * gameserver holds up to 255), the best rows and ours are shown and a last
 * line counts the rest (`shownRows`). Rows are rebuilt only when their content
 * changes; names go in through textContent (they come from peers).
 */
import type { WorldView } from '../../../shared/game/view';
import { MATCH_OVER } from '../../../shared/game/types';
import { scoreRows, shownRows, winnerText, type ScoreRow } from './hudText';
import { byId, setText } from './dom';

export class Scoreboard {
  private readonly board = byId('scoreboard');
  private readonly boardBody = byId('scoreboard-rows');
  private readonly end = byId('match-end');
  private readonly endWinner = byId('match-end-winner');
  private readonly endBody = byId('match-end-rows');
  private readonly endNext = byId('match-end-next');
  private boardKey = '';
  private endKey = '';

  /** Whether the scoreboard is on screen. */
  get boardVisible(): boolean {
    return !this.board.hidden;
  }
  /** Whether the match-end screen is on screen. */
  get endVisible(): boolean {
    return !this.end.hidden;
  }

  /**
   * Shows the scoreboard while `held` (not over the match-end screen, which
   * has the ranking) and the match-end screen while the match is over; the
   * players of `inGame` (slots) are listed even before their first score.
   */
  update(view: WorldView, held: boolean, nameOf: (slot: number) => string, inGame: readonly number[] = []): void {
    const over = view.match.phase === MATCH_OVER;
    const rows = held || over ? scoreRows(view, nameOf, inGame) : [];
    this.board.hidden = !held || over;
    this.end.hidden = !over;
    if (held && !over) this.boardKey = fill(this.boardBody, rows, this.boardKey);
    if (over) {
      this.endKey = fill(this.endBody, rows, this.endKey);
      setText(this.endWinner, winnerText(rows));
      const s = view.match.secondsLeft;
      setText(this.endNext, s === null ? '' : `next match in ${s} s`);
    }
  }
}

/** Rebuilds `body` from `all` (the best rows and ours, then a line for the rest: shownRows) unless they are the ones `key` describes; returns the new key. */
function fill(body: HTMLElement, all: readonly ScoreRow[], key: string): string {
  const { rows, more } = shownRows(all);
  const next = JSON.stringify([rows, more]);
  if (next === key) return key;
  const moreRow = document.createElement('tr');
  moreRow.className = 'more';
  const cell = document.createElement('td');
  cell.colSpan = 5;
  cell.textContent = `… and ${more} more`;
  moreRow.append(cell);
  body.replaceChildren(
    ...rows.map((r) => {
      const tr = document.createElement('tr');
      if (r.local) tr.className = 'local';
      for (const cell of [String(r.rank), r.name, String(r.kills), String(r.deaths), r.pingMs === null ? '-' : String(Math.round(r.pingMs))]) {
        const td = document.createElement('td');
        td.textContent = cell;
        tr.append(td);
      }
      return tr;
    }),
    ...(more > 0 ? [moreRow] : []),
  );
  return next;
}
