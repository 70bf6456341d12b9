/** The console's `servers` table: one numbered line per server, the solar systems column only when a server names any. */
import { describe, expect, it } from 'vitest';
import { formatBrowserRows } from '../../../src/node/host/serversCommand';
import type { BrowserRow } from '../../../src/shared/servers/browserModel';

const row = (name: string, systems: string[], extra: Partial<BrowserRow> = {}): BrowserRow => ({
  name,
  kind: 'gameserver',
  players: 1,
  maxPlayers: 16,
  pingMs: 2.5,
  ping: 'measured',
  host: '192.0.2.7',
  port: 6581,
  udp: 6522,
  systems,
  address: '192.0.2.7:6581',
  fromMaster: true,
  fromLan: false,
  ...extra,
});

describe('the servers console table', () => {
  it('adds a solar systems column when a listed server hosts any, with a dash for those that host none', () => {
    const lines = formatBrowserRows([row('Arena', ['Sol', 'Vega']), row('Slots', [], { kind: 'slotserver', address: '192.0.2.8:6582', fromLan: true })]);
    expect(lines).toEqual([
      '  #  name                 kind        players  ping      address        from       solar systems',
      '  1  Arena                gameserver  1/16     2.5 ms    192.0.2.7:6581 master     Sol, Vega',
      '  2  Slots                slotserver  1/16     2.5 ms    192.0.2.8:6582 master+LAN —',
    ]);
  });

  it('leaves the column out when no server names a system', () => {
    const lines = formatBrowserRows([row('Slots', [], { kind: 'slotserver' })]);
    expect(lines[0]).toMatch(/ from$/);
    expect(lines[1]).toMatch(/ master$/);
  });
});
