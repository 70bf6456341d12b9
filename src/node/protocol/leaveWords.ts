/**
 * What a player reads when a game loses someone or ends: another player
 * leaving (with the reason their game or the server gave), and a server that
 * closed. One wording for every network model.
 */

/** What the players read when `name` leaves, by the word of its game or the server (none from a 1.0 server). */
export function leftLine(name: string, reason: string | undefined): string {
  if (reason === undefined) return `${name} disconnected`;
  if (reason === 'left' || reason === 'lost connection' || reason === 'timed out') return `${name} ${reason}`;
  if (reason.startsWith('removed: ')) return `${name} was removed by the server (${reason.slice('removed: '.length)})`;
  return `${name} left (${reason})`;
}

/** A server of protocol `kind` named `server` shut down (its admin stopped it, or the player hosting a netgame left): nothing to rejoin, and the way on. */
export function closedLine(kind: string, server: string, reason: string): string {
  const netgame = kind === 'netgame';
  const next = netgame ? 'host netgame starts your own, or connect host[:port] joins another' : 'servers lists the others, or connect host[:port] joins one';
  return `the ${kind} "${server}" closed: ${reason}. You are not in a game — ${next}`;
}

/** The server of protocol `kind` removed us, for `why` (null: it gave no reason); `hint`: how to join again. */
export function removedLine(kind: string, why: string | null, hint: string): string {
  return `disconnected from the ${kind}: the server removed you${why === null ? '' : `: ${why}`}${hint}`;
}
