import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ILLEGAL_REQUEST,
  JOIN_ACCEPTED,
  MASTER_REPLIES,
  MASTERSERVER_FULL,
  NOT_JOINED,
  PLAYERS_ACKNOWLEDGED,
  FLEET_ACKNOWLEDGED,
  formatFleetState,
  parseFleetState,
  REMOVING_YOU,
  VERSION_INCOMPATIBLE,
  formatJoin,
  formatPlayers,
  formatRemove,
  formatListedServer,
  formatRequest,
  parseJoin,
  parseListedServer,
  parsePlayers,
  parseRemove,
  parseReply,
  parseRequest,
  resolveServerUrl,
  validateServerToken,
  validateServerUrl,
  type JoinRequest,
  type ListedServer,
  type MasterRequest,
} from '../../../src/shared/servers/masterProtocol';

const SEED_JOIN = 'version: 1.0 join me: Gamma_Quadrant os: i586-pc-linux-gnu maxplayers: 16 url: http://gammaquadrant.example.org/';
const join = (extra = '') => `${SEED_JOIN}${extra}`;
const refusal = (line: string) => {
  const r = parseRequest(line);
  return r.ok ? 'accepted' : r.reply;
};

describe('masterserver join line', () => {
  it('parses a 1998-style join line without the extension fields', () => {
    expect(parseJoin(SEED_JOIN)).toEqual({
      ok: true,
      value: { kind: 'join', version: { major: 1, minor: 0 }, name: 'Gamma_Quadrant', os: 'i586-pc-linux-gnu', maxPlayers: 16, url: 'http://gammaquadrant.example.org/' },
    });
  });

  it('parses the port and type extension fields in either order and formats them port first', () => {
    const a = parseJoin(join(' port: 6582 type: slotserver'));
    const b = parseJoin(join(' type: slotserver port: 6582'));
    expect(a).toEqual(b);
    expect(a.ok && a.value).toMatchObject({ port: 6582, type: 'slotserver' });
    expect(a.ok && formatJoin(a.value)).toBe(join(' port: 6582 type: slotserver'));
    expect(parseJoin(join(' type: gameserver')).ok && parseJoin(join(' type: gameserver'))).toMatchObject({ value: { type: 'gameserver' } });
  });

  it('formats exactly the line it parses, with Starlane protocol 1.0 by default', () => {
    expect(formatJoin({ name: 'Gamma_Quadrant', os: 'i586-pc-linux-gnu', maxPlayers: 16, url: 'http://gammaquadrant.example.org/' })).toBe(SEED_JOIN);
  });

  it('tolerates runs of spaces and tabs between tokens', () => {
    expect(parseJoin(`  version:\t1.0   join me: x os: y maxplayers: 1 url: https://a.example/  `)).toMatchObject({ ok: true, value: { name: 'x', maxPlayers: 1 } });
  });

  it('answers another major version with "masterserver version incompatible" whatever follows', () => {
    expect(refusal('version: 2.0 join me: x os: y maxplayers: 16 url: http://a.example/')).toBe(VERSION_INCOMPATIBLE);
    expect(refusal('version: 0.9 something entirely different')).toBe(VERSION_INCOMPATIBLE);
    expect(refusal('version: 9.9')).toBe(VERSION_INCOMPATIBLE);
  });

  it('accepts a newer minor version and ignores its unknown key: value fields', () => {
    const r = parseJoin(join(' port: 7000 region: eu-west').replace('1.0', '1.3'));
    expect(r).toMatchObject({ ok: true, value: { version: { major: 1, minor: 3 }, port: 7000 } });
    expect(r.ok && formatJoin(r.value)).toBe(join(' port: 7000').replace('1.0', '1.3'));
  });

  it.each([
    ['a malformed version', SEED_JOIN.replace('1.0', '1.00')],
    ['a version without digits', SEED_JOIN.replace('1.0', 'x.y')],
    ['a missing keyword', SEED_JOIN.replace('join me:', 'join:')],
    ['keywords in another case', SEED_JOIN.replace('os:', 'OS:')],
    ['a name over 31 characters', SEED_JOIN.replace('Gamma_Quadrant', 'N'.repeat(32))],
    ['an OS over 31 characters', SEED_JOIN.replace('i586-pc-linux-gnu', 'o'.repeat(32))],
    ['a name with a space (the extra token breaks the grammar)', SEED_JOIN.replace('Gamma_Quadrant', 'Gamma Quadrant')],
    ['a non-ASCII name', SEED_JOIN.replace('Gamma_Quadrant', 'Gämma')],
    ['a control character', SEED_JOIN.replace('Gamma_Quadrant', 'Gamma\x07')],
    ['maxplayers 0', SEED_JOIN.replace('maxplayers: 16', 'maxplayers: 0')],
    ['maxplayers 257', SEED_JOIN.replace('maxplayers: 16', 'maxplayers: 257')],
    ['maxplayers with a leading zero', SEED_JOIN.replace('maxplayers: 16', 'maxplayers: 016')],
    ['maxplayers not a number', SEED_JOIN.replace('maxplayers: 16', 'maxplayers: lots')],
    ['a javascript: URL', SEED_JOIN.replace('http://gammaquadrant.example.org/', 'javascript:alert(1)')],
    ['an ftp URL', SEED_JOIN.replace('http://', 'ftp://')],
    ['a URL over 127 characters', SEED_JOIN.replace('example.org/', `example.org/${'p'.repeat(120)}`)],
    ['a missing URL', SEED_JOIN.replace(' http://gammaquadrant.example.org/', '')],
    ['port 0', join(' port: 0')],
    ['port 65536', join(' port: 65536')],
    ['a port without a value', join(' port:')],
    ['an unknown type', join(' type: webserver')],
    ['a repeated field', join(' port: 1 port: 2')],
    ['an unknown field in version 1.0', join(' region: eu')],
  ])('refuses %s with "illegal request not processed"', (_what, line) => {
    expect(refusal(line)).toBe(ILLEGAL_REQUEST);
  });

  it('refuses to format what it would not parse, naming the field', () => {
    const ok = { name: 'a', os: 'b', maxPlayers: 4, url: 'https://a.example/' };
    expect(() => formatJoin({ ...ok, name: 'has space' })).toThrow(/name/);
    expect(() => formatJoin({ ...ok, os: '' })).toThrow(/os/);
    expect(() => formatJoin({ ...ok, maxPlayers: 257 })).toThrow(/maxPlayers/);
    expect(() => formatJoin({ ...ok, url: 'file:///etc/passwd' })).toThrow(/url/);
    expect(() => formatJoin({ ...ok, port: 70000 })).toThrow(/port/);
    expect(() => formatJoin({ ...ok, version: { major: 10, minor: 0 } })).toThrow(/version/);
  });

  it('validates names and URLs for the command line with a reason', () => {
    expect(validateServerToken('Gamma_Quadrant')).toBeUndefined();
    expect(validateServerToken('Gamma Quadrant')).toMatch(/space/);
    expect(validateServerUrl('https://example.org/x?y=1')).toBeUndefined();
    expect(validateServerUrl('http://')).toBeDefined();
    expect(validateServerUrl('mailto:a@b.example')).toMatch(/http/);
  });
});

describe('masterserver players, remove and replies', () => {
  it('parses and formats "players: 3 max: 16"', () => {
    expect(parsePlayers('players: 3 max: 16')).toEqual({ ok: true, value: { kind: 'players', players: 3, maxPlayers: 16 } });
    expect(formatPlayers(3, 16)).toBe('players: 3 max: 16');
    expect(parsePlayers('players: 0 max: 1').ok).toBe(true);
  });

  it.each(['players: 17 max: 16', 'players: -1 max: 16', 'players: 3 max: 0', 'players: 3 max: 257', 'players: 3', 'players: 3 max: 16 extra', 'players: three max: 16'])(
    'refuses "%s"',
    (line) => expect(refusal(line)).toBe(ILLEGAL_REQUEST),
  );

  it('refuses to format impossible counts', () => {
    expect(() => formatPlayers(5, 4)).toThrow(RangeError);
    expect(() => formatPlayers(0, 0)).toThrow(RangeError);
  });

  it('parses and formats "remove me" and nothing like it', () => {
    expect(parseRemove('remove me')).toEqual({ ok: true, value: { kind: 'remove' } });
    expect(formatRemove()).toBe('remove me');
    expect(refusal('remove me now')).toBe(ILLEGAL_REQUEST);
    expect(refusal('remove you')).toBe(ILLEGAL_REQUEST);
  });

  it('parses a fleet state line (1.3) of the three states and nothing else', () => {
    for (const state of ['ready', 'reserved', 'allocated'] as const) {
      expect(parseFleetState(`fleet state: ${state}`)).toEqual({ ok: true, value: { kind: 'fleet', state } });
      expect(formatFleetState(state)).toBe(`fleet state: ${state}`);
      expect(parseRequest(` fleet  state: ${state}\t`)).toEqual({ ok: true, value: { kind: 'fleet', state } });
    }
    for (const line of ['fleet state:', 'fleet state: Allocated', 'fleet state: shutdown', 'fleet state: ready now', 'fleet: ready']) expect(refusal(line)).toBe(ILLEGAL_REQUEST);
    expect(() => formatFleetState('gone' as never)).toThrow(RangeError);
  });

  it('refuses empty lines and unknown requests', () => {
    for (const line of ['', '   ', 'hello', 'GET / HTTP/1.0', 'join me: x']) expect(refusal(line)).toBe(ILLEGAL_REQUEST);
  });

  it('knows every reply of the protocol, exactly as written', () => {
    expect(MASTER_REPLIES).toEqual([
      'join accepted',
      'masterserver full',
      'illegal request not processed',
      'masterserver version incompatible',
      'removing you',
      "you're not even joined",
      'players acknowledged.',
      'fleet state acknowledged',
    ]);
    for (const r of [JOIN_ACCEPTED, MASTERSERVER_FULL, ILLEGAL_REQUEST, VERSION_INCOMPATIBLE, REMOVING_YOU, NOT_JOINED, PLAYERS_ACKNOWLEDGED, FLEET_ACKNOWLEDGED]) expect(parseReply(`${r}\r`)).toBe(r);
    expect(parseReply('players acknowledged')).toBeUndefined();
  });
});

describe('masterserver protocol properties', () => {
  const token = fc.stringMatching(/^[\x21-\x7e]{1,31}$/);
  const arbJoin: fc.Arbitrary<JoinRequest> = fc
    .record(
      {
        version: fc.record({ major: fc.constant(1), minor: fc.integer({ min: 0, max: 9 }) }),
        name: token,
        os: token,
        maxPlayers: fc.integer({ min: 1, max: 256 }),
        url: fc.tuple(fc.constantFrom('http', 'https'), // No hyphens: a host like `xn--a` is invalid punycode, which no URL parser accepts.
          fc.stringMatching(/^[a-z][a-z0-9]{0,20}(\.[a-z]{2,6})?$/), fc.stringMatching(/^[a-zA-Z0-9/_.~-]{0,60}$/)).map(([s, h, p]) => `${s}://${h}/${p}`),
        port: fc.integer({ min: 1, max: 65535 }),
        type: fc.constantFrom('slotserver' as const, 'gameserver' as const),
      },
      { requiredKeys: ['version', 'name', 'os', 'maxPlayers', 'url'] },
    )
    .map((j) => ({ kind: 'join' as const, ...j }));
  const arbPlayers = fc.integer({ min: 1, max: 256 }).chain((max) => fc.record({ kind: fc.constant('players' as const), players: fc.integer({ min: 0, max }), maxPlayers: fc.constant(max) }));
  const arbRequest: fc.Arbitrary<MasterRequest> = fc.oneof(arbJoin, arbPlayers, fc.constant({ kind: 'remove' as const }), fc.constantFrom('ready' as const, 'reserved' as const, 'allocated' as const).map((state) => ({ kind: 'fleet' as const, state })));

  it('parses back every request it formats', () => {
    fc.assert(
      fc.property(arbRequest, (req) => {
        expect(parseRequest(formatRequest(req))).toEqual({ ok: true, value: req });
      }),
      { numRuns: 2000 },
    );
  });

  // Strings built from the protocol's own words reach deep into the parser; plain strings test the edges.
  const words = fc.constantFrom('version:', '1.0', '2.0', '1.5', 'join', 'me:', 'os:', 'maxplayers:', '16', '0', '256', 'url:', 'http://a.example/', 'https://b.example/x', 'javascript:x', 'port:', '6582', 'type:', 'slotserver', 'gameserver', 'players:', 'max:', 'fleet', 'state:', 'allocated', 'remove', 'extra:', 'x', '');
  const soup = fc.array(words, { maxLength: 16 }).map((w) => w.join(' '));
  const anyLine = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 100 }), soup, arbRequest.map(formatRequest).chain((l) => fc.tuple(fc.constant(l), fc.nat(l.length), fc.string({ maxLength: 3 })).map(([s, i, ins]) => s.slice(0, i) + ins + s.slice(i))));

  it('never throws on arbitrary lines, and never parses a line into something that formats differently', () => {
    fc.assert(
      fc.property(anyLine, (line) => {
        const r = parseRequest(line);
        if (!r.ok) {
          expect([ILLEGAL_REQUEST, VERSION_INCOMPATIBLE]).toContain(r.reply);
          return;
        }
        const canonical = formatRequest(r.value);
        expect(parseRequest(canonical)).toEqual(r);
        expect(formatRequest((parseRequest(canonical) as { value: MasterRequest }).value)).toBe(canonical);
        // The canonical form differs from the input only in whitespace, the order of the extension fields
        // and, for newer minor versions, ignored fields: it holds the same tokens.
        if (!/version: 1\.[1-9]/.test(line)) expect(canonical.split(' ').sort()).toEqual(line.trim().split(/[ \t]+/).sort());
      }),
      { numRuns: 5000 },
    );
  });
});

describe('the link a masterserver lists for a join url', () => {
  it('puts the address the join came from in place of 0.0.0.0 or [::], keeping port, path and query', () => {
    expect(resolveServerUrl('http://0.0.0.0:8082/', '192.0.2.7')).toBe('http://192.0.2.7:8082/');
    expect(resolveServerUrl('https://0.0.0.0/status?x=1', '192.0.2.7')).toBe('https://192.0.2.7/status?x=1');
    expect(resolveServerUrl('http://[::]:8082/', '2001:db8::7')).toBe('http://[2001:db8::7]:8082/');
    expect(resolveServerUrl('http://0.0.0.0:8082/', 'fe80::1%eth0')).toBe('http://[fe80::1]:8082/');
  });

  it('keeps a url that names a host of its own, as a 1998 server or --url or --public-host gave it', () => {
    for (const url of ['http://gammaquadrant.example.org/', 'http://vm:8082/', 'http://192.0.2.9:8082/', 'http://[2001:db8::9]/']) expect(resolveServerUrl(url, '192.0.2.7')).toBe(url);
  });

  it('keeps the url when the source address is not one (an unknown peer)', () => {
    expect(resolveServerUrl('http://0.0.0.0:8082/', '?')).toBe('http://0.0.0.0:8082/');
  });
});

describe('masterserver 1.1: the discovery UDP port', () => {
  it('a join line with udp: says version 1.1, and parses back', () => {
    const line = formatJoin({ name: 'Alpha', os: 'linux-x64', maxPlayers: 8, url: 'http://0.0.0.0:8082/', port: 6582, type: 'slotserver', udp: 6523 });
    expect(line).toBe('version: 1.1 join me: Alpha os: linux-x64 maxplayers: 8 url: http://0.0.0.0:8082/ port: 6582 type: slotserver udp: 6523');
    expect(parseJoin(line)).toMatchObject({ ok: true, value: { version: { major: 1, minor: 1 }, port: 6582, type: 'slotserver', udp: 6523 } });
    expect(parseJoin(line.replace(' udp: 6523', '').replace('slotserver', 'netgame'))).toMatchObject({ ok: true, value: { type: 'netgame' } });
  });

  it('a 1.0 line stays 1.0: without udp: it formats as before, and udp: in it is an unknown field', () => {
    expect(formatJoin({ name: 'Gamma_Quadrant', os: 'i586-pc-linux-gnu', maxPlayers: 16, url: 'http://gammaquadrant.example.org/' })).toBe(SEED_JOIN);
    expect(refusal(join(' udp: 6523'))).toBe(ILLEGAL_REQUEST);
    expect(() => formatJoin({ name: 'x', os: 'y', maxPlayers: 1, url: 'http://a.example/', udp: 6523, version: { major: 1, minor: 0 } })).toThrow(/udp/);
  });

  it('refuses a bad or repeated udp port, and a later minor version still ignores fields it does not know', () => {
    const v11 = SEED_JOIN.replace('1.0', '1.1');
    for (const bad of [' udp: 0', ' udp: 65536', ' udp: 06523', ' udp: x', ' udp: 1 udp: 2', ' udp:', ' region: eu']) expect(refusal(`${v11}${bad}`)).toBe(ILLEGAL_REQUEST);
    expect(parseJoin(`${SEED_JOIN.replace('1.0', '1.2')} udp: 7000 region: eu`)).toMatchObject({ ok: true, value: { udp: 7000 } });
    expect(() => formatJoin({ name: 'x', os: 'y', maxPlayers: 1, url: 'http://a.example/', udp: 0 })).toThrow(/udp/);
  });
});

describe('the list servers lines', () => {
  const listed: ListedServer = { name: 'Alpha', type: 'slotserver', host: '192.0.2.7', port: 6582, players: 1, maxPlayers: 8, udp: 6523, systems: [] };

  it('formats a server with its udp port at the end and parses it back', () => {
    expect(formatListedServer(listed)).toBe('server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 1 max: 8 udp: 6523');
    expect(parseListedServer(formatListedServer(listed))).toEqual(listed);
  });

  it('still parses an older line without udp:, and accepts netgame servers', () => {
    expect(parseListedServer('server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 1 max: 8')).toEqual({ ...listed, udp: null });
    expect(parseListedServer('server: Mars type: netgame host: 2001:db8::1 port: 6583 players: 0 max: 8 udp: 6524')).toEqual({ name: 'Mars', type: 'netgame', host: '2001:db8::1', port: 6583, players: 0, maxPlayers: 8, udp: 6524, systems: [] });
    expect(parseListedServer('server: Old type: ? host: 192.0.2.8 port: ? players: 0 max: 16')).toMatchObject({ type: null, port: null, udp: null });
    expect(formatListedServer({ ...listed, udp: null })).toBe('server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 1 max: 8');
  });

  it("names a gameserver's solar systems after its udp port (masterserver 1.2) and parses them back", () => {
    const galaxy: ListedServer = { ...listed, type: 'gameserver', systems: ['Sol', 'Vega', 'Alpha_Centauri'] };
    expect(formatListedServer(galaxy)).toBe('server: Alpha type: gameserver host: 192.0.2.7 port: 6582 players: 1 max: 8 udp: 6523 systems: Sol,Vega,Alpha_Centauri');
    expect(parseListedServer(formatListedServer(galaxy))).toEqual(galaxy);
    expect(parseListedServer('server: Alpha type: gameserver host: 192.0.2.7 port: 6582 players: 1 max: 8 systems: Sol')).toMatchObject({ udp: null, systems: ['Sol'] });
    const sixteen = Array.from({ length: 16 }, (_, i) => `S${i}`);
    expect(parseListedServer(formatListedServer({ ...galaxy, systems: sixteen }))?.systems).toEqual(sixteen);
    for (const bad of [' systems: ', ' systems: Sol,', ' systems: Sol Vega', ' systems: Sol,,Vega', ` systems: ${'x'.repeat(32)}`, ` systems: ${[...sixteen, 'S16'].join(',')}`, ' systems: Sol systems: Vega'])
      expect(parseListedServer(`server: Alpha type: gameserver host: 192.0.2.7 port: 6582 players: 1 max: 8 udp: 6523${bad}`), bad).toBeNull();
  });

  it('drops lines out of range or of another form', () => {
    for (const line of [
      'server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 1 max: 8 udp: 0',
      'server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 1 max: 8 udp: 70000',
      'server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 1 max: 8 udp: ?',
      'server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 9 max: 8',
      'server: Alpha type: lockstep host: 192.0.2.7 port: 6582 players: 1 max: 8',
      'server: Alpha type: slotserver host: 192.0.2.7 port: 6582 players: 1 max: 8 udp: 6523 region: eu',
      'server: Alpha type: slotserver host: evil.example port: 6582 players: 1 max: 8',
    ])
      expect(parseListedServer(line)).toBeNull();
  });

  it('parses back every line it formats, and never throws on others', () => {
    const arbListed: fc.Arbitrary<ListedServer> = fc.integer({ min: 1, max: 256 }).chain((max) =>
      fc.record({
        name: fc.stringMatching(/^[\x21-\x7e]{1,31}$/),
        type: fc.constantFrom('slotserver' as const, 'gameserver' as const, 'netgame' as const, null),
        host: fc.oneof(fc.ipV4(), fc.ipV6()),
        port: fc.option(fc.integer({ min: 1, max: 65535 })),
        players: fc.integer({ min: 0, max }),
        maxPlayers: fc.constant(max),
        udp: fc.option(fc.integer({ min: 1, max: 65535 })),
        systems: fc.array(fc.stringMatching(/^[A-Za-z0-9._-]{1,31}$/), { maxLength: 16 }),
      }),
    );
    fc.assert(fc.property(arbListed, (s) => {
        expect(parseListedServer(formatListedServer(s))).toEqual(s);
      }), { numRuns: 2000 });
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (line) => {
        parseListedServer(line);
      }), { numRuns: 2000 });
  });
});
