/** What the server browser page says: progress, pings, empty tables and failed joins with the way forward. */
import { describe, expect, it } from 'vitest';
import { emptyText, joinErrorText, pingText, playersText, problemText, statusLine, systemsText } from '../../../src/shared/servers/browserWords';
import { emptyBrowserState, type BrowserState } from '../../../src/shared/servers/browserState';
import type { BrowserRow } from '../../../src/shared/servers/browserModel';

const row: BrowserRow = { name: 'Arena', kind: 'gameserver', players: 3, maxPlayers: 16, pingMs: 23.4, ping: 'measured', host: '192.0.2.7', port: 6581, udp: 6522, systems: [], address: '192.0.2.7:6581', fromMaster: true, fromLan: false };
const state = (s: Partial<BrowserState>): BrowserState => ({ ...emptyBrowserState(), ...s });

describe('browser words', () => {
  it('says how far a refresh has got', () => {
    expect(statusLine(state({}))).toBe('not refreshed yet');
    expect(statusLine(state({ status: 'asking' }))).toBe('asking the masterserver and the LAN…');
    expect(statusLine(state({ status: 'pinging', progress: { done: 3, total: 5 } }))).toBe('pinging 3 of 5…');
    expect(statusLine(state({ status: 'done', rows: [row] }))).toBe('1 server found');
    expect(statusLine(state({ status: 'done', rows: [{ ...row, fromMaster: false, favourite: true }] }))).toBe('0 servers found, plus 1 of your favourite and recent ones');
  });

  it('words pings and player counts, known or not', () => {
    expect(pingText(row, 'done')).toBe('23 ms');
    expect(pingText({ ...row, pingMs: 0.42 }, 'done')).toBe('0.4 ms');
    expect(pingText({ ...row, pingMs: null, ping: 'unreachable' }, 'pinging')).toBe('…');
    expect(pingText({ ...row, pingMs: null, ping: 'unreachable' }, 'done')).toBe('no reply');
    expect(pingText({ ...row, pingMs: null, ping: 'unknown' }, 'done')).toBe('?');
    expect(playersText(row)).toBe('3/16');
    expect(playersText({ ...row, players: 0, maxPlayers: 0 })).toBe('?');
    expect(systemsText({ ...row, systems: ['Sol', 'Vega'] })).toBe('Sol, Vega');
    expect(systemsText(row)).toBe('—');
  });

  it('an empty table says why and what to do', () => {
    expect(emptyText(state({}), 0)).toMatch(/^Press Refresh/);
    expect(emptyText(state({ status: 'done' }), 0)).toMatch(/^No servers are running right now.*host a game yourself/);
    expect(emptyText(state({ status: 'done', masterError: 'the masterserver at x:1 cannot be reached (refused)' }), 0)).toMatch(/net_master host:port/);
    expect(emptyText(state({ status: 'done', rows: [row, row] }), 0)).toBe('No server matches the filters (2 hidden): switch a filter off to see them.');
    expect(emptyText(state({ status: 'done', rows: [row] }), 1)).toBe('');
    expect(problemText(state({ masterError: 'the masterserver at x:1 cannot be reached (nothing is listening at x:1)' }))).toBe(
      "The masterserver at x:1 cannot be reached (nothing is listening at x:1): only your LAN's servers and your favourite and recent ones are listed. Set the masterserver with net_master host:port in the console.",
    );
  });

  it('a failed join: where, why, and what to do', () => {
    expect(joinErrorText({ address: '192.0.2.7:6581', reason: 'connect failed: server full' })).toBe(
      'Could not join 192.0.2.7:6581: server full — the server is full: try another server, or Refresh to see where a seat is free.',
    );
    expect(joinErrorText({ address: 'a:1', reason: 'connect failed: name already taken' })).toMatch(/change it in Settings/);
    expect(joinErrorText({ address: 'a:1', reason: 'connect failed: server version incompatible' })).toMatch(/another version of Starlane/);
    expect(joinErrorText({ address: 'a:1', reason: "connect failed: you're banned from this server" })).toMatch(/does not let you in/);
    expect(joinErrorText({ address: 'a:1', reason: 'connect failed: nothing is listening at a:1' })).toMatch(/cannot be reached.*Refresh the list/);
    expect(joinErrorText({ address: '', reason: 'something new' })).toBe('Could not join: something new — try again, or pick another server.');
  });
});
