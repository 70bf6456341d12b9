/** Kept servers in the browser's table, a ping's answer filling a row in, and the filters that use them. */
import { describe, expect, it } from 'vitest';
import { applyPings, filterRows, mergeServers, pingTargets, type BrowserRow } from '../../../src/shared/servers/browserModel';
import { addressKey, markSaved, rowAt } from '../../../src/shared/servers/savedRows';
import type { ListedServer } from '../../../src/shared/servers/masterProtocol';
import type { SavedServers } from '../../../src/shared/servers/savedServers';

const master: ListedServer[] = [
  { name: 'Arena', type: 'gameserver', host: '192.0.2.7', port: 6581, players: 3, maxPlayers: 16, udp: 6522, systems: [] },
  { name: 'Slots', type: 'slotserver', host: '192.0.2.8', port: 6582, players: 8, maxPlayers: 8, udp: 6523, systems: [] },
];
const saved: SavedServers = {
  // Arena is listed; Home is not (it was seen answering at UDP 6524 before); Old never gave a UDP port.
  favourites: [
    { address: '192.0.2.7:6581', kind: 'gameserver', name: 'Arena', udp: 6522 },
    { address: '198.51.100.4:6583', kind: 'netgame', name: 'Home', udp: 6524 },
  ],
  recent: [
    { address: '198.51.100.4:6583', kind: 'netgame', name: 'Home', udp: 6524 },
    { address: '[2001:db8::5]:6582', kind: 'slotserver', name: '', udp: null },
  ],
};
const view = (rows: readonly BrowserRow[]) => rows.map((r) => [r.name, r.address, r.favourite === true, r.recent === true, r.fromMaster, `${r.players}/${r.maxPlayers}`, r.ping]);

describe('markSaved', () => {
  it('marks listed kept servers, adds a row for each kept one nothing listed (players not known), in list order', () => {
    expect(view(markSaved(mergeServers(master, []), saved))).toEqual([
      ['[2001:db8::5]:6582', '[2001:db8::5]:6582', false, true, false, '0/0', 'unknown'],
      ['Arena', '192.0.2.7:6581', true, false, true, '3/16', 'unreachable'],
      ['Home', '198.51.100.4:6583', true, true, false, '0/0', 'unreachable'],
      ['Slots', '192.0.2.8:6582', false, false, true, '8/8', 'unreachable'],
    ]);
  });

  it('is idempotent, and drops the row of a server no longer kept that nothing lists', () => {
    const once = markSaved(mergeServers(master, []), saved);
    expect(markSaved(once, saved)).toEqual(once);
    const fewer: SavedServers = { favourites: [], recent: [] };
    expect(view(markSaved(once, fewer)).map((r) => [r[0], r[2], r[3]])).toEqual([
      ['Arena', false, false],
      ['Slots', false, false],
    ]);
  });

  it('a kept server that answered before is pinged at its UDP port; its answer fills in name, kind and players', () => {
    const rows = markSaved(mergeServers(master, []), saved);
    expect(pingTargets(rows)).toContainEqual({ host: '198.51.100.4', udp: 6524 });
    const pinged = applyPings(rows, [
      { host: '198.51.100.4', udp: 6524, pingMs: 12.5, answer: { name: 'Home Net', kind: 'netgame', port: 6583, players: 2, maxPlayers: 8 } },
      // An answer naming another join port is some other server's: only the ping counts.
      { host: '192.0.2.7', udp: 6522, pingMs: 30, answer: { name: 'Impostor', kind: 'slotserver', port: 9999, players: 0, maxPlayers: 1 } },
    ]);
    expect(rowAt(pinged, '198.51.100.4:6583')).toMatchObject({ name: 'Home Net', kind: 'netgame', players: 2, maxPlayers: 8, pingMs: 12.5, ping: 'measured', favourite: true });
    expect(rowAt(pinged, '192.0.2.7:6581')).toMatchObject({ name: 'Arena', kind: 'gameserver', players: 3, maxPlayers: 16, pingMs: 30 });
  });
});

describe('filters with kept servers', () => {
  const rows = markSaved(mergeServers(master, []), saved);
  const names = (r: readonly BrowserRow[]) => r.map((x) => x.name);
  it('shows only favourites or only recent ones; a row whose players are not known is neither full nor empty', () => {
    expect(names(filterRows(rows, { only: 'favourites' }))).toEqual(['Arena', 'Home']);
    expect(names(filterRows(rows, { only: 'recent' }))).toEqual(['[2001:db8::5]:6582', 'Home']);
    expect(names(filterRows(rows, { hideFull: true, hideEmpty: true }))).toEqual(['[2001:db8::5]:6582', 'Arena', 'Home']);
  });
});

describe('addressKey', () => {
  it('compares addresses without case, zone or IPv4-mapped prefix', () => {
    expect(addressKey('[FE80::2%eth0]:6581')).toBe(addressKey('[fe80::2]:6581'));
    expect(addressKey('[::ffff:192.0.2.1]:1')).toBe(addressKey('192.0.2.1:1'));
    expect(addressKey('no port')).toBeNull();
  });
});
