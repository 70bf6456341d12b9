/** The server browser's table: merge of master list and LAN answers, pings, sorting and filters. */
import { describe, expect, it } from 'vitest';
import { applyPings, filterRows, mergeServers, pingTargets, sortRows, type BrowserRow, type LanAnswer } from '../../../src/shared/servers/browserModel';
import type { ListedServer } from '../../../src/shared/servers/masterProtocol';

const master: ListedServer[] = [
  { name: 'Charlie', type: 'netgame', host: '198.51.100.3', port: 6583, players: 8, maxPlayers: 8, udp: 6524, systems: [] },
  { name: 'alpha', type: 'slotserver', host: '192.0.2.1', port: 6582, players: 1, maxPlayers: 8, udp: 6523, systems: [] },
  { name: 'Old', type: null, host: '2001:db8::9', port: null, players: 0, maxPlayers: 16, udp: null, systems: [] },
];
const lan: LanAnswer[] = [
  // The same slotserver heard on the LAN, with a fresher player count.
  { kind: 'slotserver', name: 'alpha', address: '192.0.2.1', port: 6582, players: 2, maxPlayers: 8, pingMs: 0.4 },
  { kind: 'gameserver', name: 'Bravo', address: 'fe80::2%eth0', port: 6581, players: 0, maxPlayers: 12, pingMs: 0.7 },
];
const names = (rows: readonly BrowserRow[]) => rows.map((r) => r.name);

describe('mergeServers', () => {
  it('gives one row per server address, in list order, the LAN figures winning and both sources noted', () => {
    const rows = mergeServers(master, lan);
    expect(rows.map((r) => [r.name, r.kind, `${r.players}/${r.maxPlayers}`, r.pingMs, r.ping, r.address, r.fromMaster, r.fromLan])).toEqual([
      ['alpha', 'slotserver', '2/8', 0.4, 'measured', '192.0.2.1:6582', true, true],
      ['Bravo', 'gameserver', '0/12', 0.7, 'measured', '[fe80::2%eth0]:6581', false, true],
      ['Charlie', 'netgame', '8/8', null, 'unreachable', '198.51.100.3:6583', true, false],
      ['Old', null, '0/16', null, 'unknown', '[2001:db8::9]', true, false],
    ]);
  });

  it('matches a LAN answer to a master entry across address spellings, and lists a doubled master entry once', () => {
    const rows = mergeServers([...master, master[1] as ListedServer], [{ ...(lan[0] as LanAnswer), address: '::ffff:192.0.2.1' }]);
    expect(rows.filter((r) => r.name === 'alpha')).toHaveLength(1);
    expect(rows.find((r) => r.name === 'alpha')).toMatchObject({ fromMaster: true, fromLan: true, players: 2 });
    expect(mergeServers([], [])).toEqual([]);
  });

  it('keeps the solar systems the masterserver lists for a gameserver, also when the LAN answered for it, and sorts by them', () => {
    const galaxy: ListedServer = { name: 'Bravo', type: 'gameserver', host: 'fe80::2', port: 6581, players: 0, maxPlayers: 12, udp: 6522, systems: ['Vega', 'Sol'] };
    const rows = mergeServers([...master, galaxy], lan);
    expect(rows.map((r) => [r.name, r.systems])).toEqual([
      ['alpha', []],
      ['Bravo', ['Vega', 'Sol']],
      ['Charlie', []],
      ['Old', []],
    ]);
    expect(rows.find((r) => r.name === 'Bravo')).toMatchObject({ fromMaster: true, fromLan: true });
    const sol: ListedServer = { ...galaxy, name: 'Delta', host: '192.0.2.9', systems: ['Sol'] };
    expect(names(sortRows(mergeServers([...master, galaxy, sol], []), 'systems'))).toEqual(['Delta', 'Bravo', 'alpha', 'Charlie', 'Old']);
  });
});

describe('pings', () => {
  it('asks only servers the LAN did not answer that have a UDP port, and applies what came back', () => {
    const rows = mergeServers(master, lan);
    expect(pingTargets(rows)).toEqual([{ host: '198.51.100.3', udp: 6524 }]);
    const pinged = applyPings(rows, [
      { host: '198.51.100.3', udp: 6524, pingMs: 41.5 },
      // A measure for a LAN row does not replace the LAN's own.
      { host: '192.0.2.1', udp: 6523, pingMs: 99 },
    ]);
    expect(pinged.map((r) => [r.name, r.pingMs, r.ping])).toEqual([
      ['alpha', 0.4, 'measured'],
      ['Bravo', 0.7, 'measured'],
      ['Charlie', 41.5, 'measured'],
      ['Old', null, 'unknown'],
    ]);
    expect(applyPings(rows, [{ host: '198.51.100.3', udp: 6524, pingMs: null }]).find((r) => r.name === 'Charlie')?.ping).toBe('unreachable');
    expect(rows.find((r) => r.name === 'Charlie')?.pingMs).toBeNull();
  });
});

describe('sortRows', () => {
  const rows = applyPings(mergeServers(master, lan), [{ host: '198.51.100.3', udp: 6524, pingMs: 41.5 }]);

  it('sorts by every column either way; rows without a ping last both ways', () => {
    expect(names(sortRows(rows))).toEqual(['alpha', 'Bravo', 'Charlie', 'Old']);
    expect(names(sortRows(rows, 'name', true))).toEqual(['Old', 'Charlie', 'Bravo', 'alpha']);
    expect(names(sortRows(rows, 'kind'))).toEqual(['Bravo', 'Charlie', 'alpha', 'Old']);
    expect(names(sortRows(rows, 'players'))).toEqual(['Bravo', 'Old', 'alpha', 'Charlie']);
    expect(names(sortRows(rows, 'players', true))).toEqual(['Charlie', 'alpha', 'Old', 'Bravo']);
    expect(names(sortRows(rows, 'ping'))).toEqual(['alpha', 'Bravo', 'Charlie', 'Old']);
    expect(names(sortRows(rows, 'ping', true))).toEqual(['Charlie', 'Bravo', 'alpha', 'Old']);
    expect(names(sortRows(rows, 'address'))).toEqual(['alpha', 'Charlie', 'Old', 'Bravo']);
  });

  it('breaks ties by list order, so equal rows keep one order whatever order they came in', () => {
    const twins = mergeServers(
      [],
      ['Zed', 'Amy', 'Kim'].map((name, i) => ({ kind: 'slotserver' as const, name, address: `192.0.2.${10 + i}`, port: 6582, players: 0, maxPlayers: 8, pingMs: 1 })),
    );
    expect(names(sortRows(twins, 'ping'))).toEqual(['Amy', 'Kim', 'Zed']);
    expect(names(sortRows([...twins].reverse(), 'players', true))).toEqual(['Amy', 'Kim', 'Zed']);
  });
});

describe('filterRows', () => {
  const rows = mergeServers(master, lan);
  it('hides full, empty, and kinds not chosen (rows of unknown kind only show unfiltered)', () => {
    expect(names(filterRows(rows, {}))).toEqual(['alpha', 'Bravo', 'Charlie', 'Old']);
    expect(names(filterRows(rows, { hideFull: true }))).toEqual(['alpha', 'Bravo', 'Old']);
    expect(names(filterRows(rows, { hideEmpty: true }))).toEqual(['alpha', 'Charlie']);
    expect(names(filterRows(rows, { hideFull: true, hideEmpty: true }))).toEqual(['alpha']);
    expect(names(filterRows(rows, { kinds: ['netgame', 'gameserver'] }))).toEqual(['Bravo', 'Charlie']);
    expect(names(filterRows(rows, { kinds: [] }))).toEqual([]);
  });
});
