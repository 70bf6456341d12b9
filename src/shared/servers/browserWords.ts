/**
 * What the server browser page says (issue 24): how far a refresh has got,
 * each row's figures, why the table is empty and what to do, and a failed
 * join's reason with the way forward. Pure, so the words are tested without
 * a page.
 */
import type { BrowserRow } from './browserModel';
import type { BrowserState } from './browserState';

/** The refresh's progress in one line. */
export function statusLine(state: BrowserState): string {
  switch (state.status) {
    case 'idle':
      return 'not refreshed yet';
    case 'asking':
      return 'asking the masterserver and the LAN…';
    case 'pinging':
      return `pinging ${state.progress.done} of ${state.progress.total}…`;
    case 'done': {
      const n = state.rows.filter((r) => r.fromMaster || r.fromLan).length;
      const kept = state.rows.length - n;
      return `${n} server${n === 1 ? '' : 's'} found${kept > 0 ? `, plus ${kept} of your favourite and recent ones` : ''}`;
    }
  }
}

/** A row's ping: `12 ms` (one decimal under 10), `…` while it is being asked, `no reply`, or `?` (nothing to ask). */
export function pingText(row: BrowserRow, status: BrowserState['status']): string {
  if (row.pingMs !== null) return `${row.pingMs < 10 ? row.pingMs.toFixed(1) : Math.round(row.pingMs)} ms`;
  if (row.ping === 'unreachable') return status === 'pinging' || status === 'asking' ? '…' : 'no reply';
  return '?';
}

/** The solar systems a server hosts (`Sol, Vega`), `—` when the masterserver named none. */
export function systemsText(row: BrowserRow): string {
  return row.systems.length === 0 ? '—' : row.systems.join(', ');
}

/** `3/16`, or `?` when nobody has said. */
export function playersText(row: BrowserRow): string {
  return row.maxPlayers > 0 ? `${row.players}/${row.maxPlayers}` : '?';
}

/** Why the table shows nothing, and what to do; '' when it shows rows. */
export function emptyText(state: BrowserState, shown: number): string {
  if (shown > 0) return '';
  if (state.rows.length > 0) {
    const n = state.rows.length;
    return `No server matches the filters (${n} hidden): switch a filter off to see ${n === 1 ? 'it' : 'them'}.`;
  }
  switch (state.status) {
    case 'idle':
      return 'Press Refresh to ask the masterserver and your LAN for servers.';
    case 'asking':
    case 'pinging':
      return 'Looking for servers…';
    case 'done':
      return state.masterError
        ? 'No servers found: the masterserver cannot be reached and no server answered on your LAN. Set the masterserver in the console (net_master host:port), or join an address below.'
        : 'No servers are running right now: the masterserver lists none and no server answered on your LAN. Refresh later, host a game yourself, or join an address below.';
  }
}

/** What could not be asked, in words with what it means for the list; '' when everything answered. */
export function problemText(state: BrowserState): string {
  const parts: string[] = [];
  if (state.masterError) parts.push(`${capital(state.masterError)}: only your LAN's servers and your favourite and recent ones are listed. Set the masterserver with net_master host:port in the console.`);
  if (state.lanError) parts.push(`${capital(state.lanError)}.`);
  return parts.join(' ');
}

/** The way forward after a join failed for `reason` (the protocol's line: "connect failed: server full"). */
export function joinAdvice(reason: string): string {
  if (/server full/i.test(reason)) return 'the server is full: try another server, or Refresh to see where a seat is free';
  if (/name already taken/i.test(reason)) return 'your pilot name is taken there: change it in Settings (or type name <new name> in the console) and join again';
  if (/version incompatible/i.test(reason)) return 'it runs another version of Starlane: pick another server';
  if (/banned/i.test(reason)) return 'this server does not let you in: pick another server';
  if (/nothing is listening|no answer from|cannot be reached|unreachable|timed out|closed the connection|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND|EAI_AGAIN/i.test(reason)) {
    return 'it cannot be reached (it may have shut down): Refresh the list, or try another server';
  }
  return 'try again, or pick another server';
}

/** A failed join as the browser shows it: where, why, and what to do. */
export function joinErrorText(error: { address: string; reason: string }): string {
  const why = error.reason.replace(/^connect failed:\s*/i, '');
  return `Could not join${error.address ? ` ${error.address}` : ''}: ${why} — ${joinAdvice(why)}.`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
