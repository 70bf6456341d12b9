/** Favourites and recent servers in settings.json: read back as untrusted text, kept short, edited by address. */
import { describe, expect, it } from 'vitest';
import { sanitizeSettings } from '../../../src/shared/settings/settings';
import {
  MAX_FAVOURITES,
  MAX_RECENT,
  emptySavedServers,
  findSaved,
  sanitizeSavedServers,
  savedAddress,
  savedName,
  withFavourite,
  withRecent,
  withoutFavourite,
  type SavedServer,
} from '../../../src/shared/servers/savedServers';

const arena: SavedServer = { address: '192.0.2.7:6581', kind: 'gameserver', name: 'Arena', udp: 6522 };

describe('savedAddress', () => {
  it('keeps host:port and [v6]:port (host in lower case), fills a default port, refuses anything else', () => {
    expect(savedAddress('192.0.2.7:6581')).toBe('192.0.2.7:6581');
    expect(savedAddress('Games.Example.ORG:6582')).toBe('games.example.org:6582');
    expect(savedAddress('[FE80::2%eth0]:6581')).toBe('[fe80::2%eth0]:6581');
    expect(savedAddress('192.0.2.7')).toBeNull();
    expect(savedAddress('192.0.2.7', 6583)).toBe('192.0.2.7:6583');
    for (const bad of ['', ':6581', 'host:0', 'host:65536', 'host:12x', 'a b:1', 'x;quit:1', '[::1', '[nothex]:1', '[]:1', 'host:1:2', '-host:1', 'h\u0000:1', `${'a'.repeat(254)}:1`]) {
      expect(savedAddress(bad), bad).toBeNull();
    }
  });

  it('keeps a name printable and at most 31 characters', () => {
    expect(savedName('  Arena\u0007\n  ')).toBe('Arena');
    expect(savedName('x'.repeat(40))).toHaveLength(31);
  });
});

describe('sanitizeSavedServers (settings.json is untrusted)', () => {
  it('keeps good entries and drops the rest, naming the list that lost some', () => {
    const raw = {
      favourites: [
        arena,
        { ...arena, name: 'again' }, // the same address twice: the first is kept
        { address: 'x;quit:1', kind: 'gameserver', name: 'evil' },
        { address: '198.51.100.1:6582', kind: 'webserver', name: 'odd kind' },
        { address: '198.51.100.2:6582', kind: 'slotserver', name: 7, udp: 99999 },
        'not an object',
        null,
        [1, 2],
      ],
      recent: [{ address: '[2001:DB8::1]:6583', kind: 'netgame', name: 'Net\u0000Game', udp: 6524 }],
    };
    const { servers, issues } = sanitizeSavedServers(raw);
    expect(servers.favourites).toEqual([arena, { address: '198.51.100.2:6582', kind: 'slotserver', name: '', udp: null }]);
    expect(servers.recent).toEqual([{ address: '[2001:db8::1]:6583', kind: 'netgame', name: 'NetGame', udp: 6524 }]);
    expect(issues).toEqual(['servers.favourites']);
  });

  it('keeps lists short: at most 50 favourites and 10 recent ones', () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ address: `192.0.2.${i + 1}:6581`, kind: 'gameserver', name: `s${i}`, udp: null }));
    const { servers, issues } = sanitizeSavedServers({ favourites: many, recent: many });
    expect(servers.favourites).toHaveLength(MAX_FAVOURITES);
    expect(servers.recent).toHaveLength(MAX_RECENT);
    expect(issues).toEqual(['servers.favourites', 'servers.recent']);
  });

  it('a field that is not an object or whose lists are not lists is reset and reported', () => {
    expect(sanitizeSavedServers('lots')).toEqual({ servers: emptySavedServers(), issues: ['servers'] });
    expect(sanitizeSavedServers({ favourites: 'x', recent: {} })).toEqual({ servers: emptySavedServers(), issues: ['servers.favourites', 'servers.recent'] });
    expect(sanitizeSavedServers({})).toEqual({ servers: emptySavedServers(), issues: [] });
  });

  it('settings.json: the servers field is read with the others, and absent by default', () => {
    expect(sanitizeSettings({ playerName: 'ace' }).settings.servers).toBeUndefined();
    const read = sanitizeSettings({ playerName: 'ace', servers: { favourites: [arena, { address: 'bad' }], recent: [] } });
    expect(read.settings.servers).toEqual({ favourites: [arena], recent: [] });
    expect(read.issues).toEqual(['servers.favourites']);
    expect(sanitizeSettings({ servers: 5 }).issues).toEqual(['servers']);
  });
});

describe('editing the lists', () => {
  it('a favourite is added once, updated in place, removed by address; a full list refuses one more', () => {
    let saved = withFavourite(emptySavedServers(), arena)!;
    saved = withFavourite(saved, { ...arena, name: 'Arena 2' })!;
    expect(saved.favourites).toEqual([{ ...arena, name: 'Arena 2' }]);
    expect(findSaved(saved, arena.address)?.name).toBe('Arena 2');
    expect(withoutFavourite(saved, arena.address).favourites).toEqual([]);
    expect(withoutFavourite(saved, '198.51.100.9:1')).toEqual(saved);
    const full = { favourites: Array.from({ length: MAX_FAVOURITES }, (_, i) => ({ ...arena, address: `192.0.2.${i + 1}:1` })), recent: [] };
    expect(withFavourite(full, { ...arena, address: '198.51.100.1:1' })).toBeNull();
    expect(withFavourite(full, { ...arena, address: '192.0.2.1:1', name: 'renamed' })?.favourites[0]?.name).toBe('renamed');
  });

  it('the newest recent server comes first, a repeated one moves to the front, the oldest falls off past 10', () => {
    let saved = emptySavedServers();
    for (let i = 1; i <= 12; i++) saved = withRecent(saved, { ...arena, address: `192.0.2.${i}:6581` });
    expect(saved.recent.map((s) => s.address)).toEqual(Array.from({ length: 10 }, (_, i) => `192.0.2.${12 - i}:6581`));
    saved = withRecent(saved, { ...arena, address: '192.0.2.5:6581' });
    expect(saved.recent.slice(0, 2).map((s) => s.address)).toEqual(['192.0.2.5:6581', '192.0.2.12:6581']);
    expect(saved.recent).toHaveLength(MAX_RECENT);
  });
});
