import { describe, it, expect } from 'vitest';
import { leftLine } from '../../../src/node/protocol/leaveWords';
import fc from 'fast-check';
import {
  BANNED,
  formatAdd,
  formatJoin,
  formatJoinAccepted,
  formatNameUpdate,
  formatNewName,
  formatRemove,
  formatRemoveMe,
  leaveReason,
  formatServerClosing,
  INVALID_REQUEST,
  MAX_LINE_BYTES,
  NAME_TAKEN,
  NEW_NAME_ACCEPTED,
  NOT_JOINED,
  parseAdd,
  parseClientLine,
  parseJoin,
  parseJoinAccepted,
  parseNameUpdate,
  parseNewName,
  parseRemove,
  parseRemoveMe,
  parseServerLine,
  REMOVING_YOU,
  SERVER_FULL,
  VERSION_INCOMPATIBLE,
  type JoinRequest,
  formatSpectateAccepted,
  parseSpectateAccepted,
  SPECTATORS_FULL,
} from '../../../src/shared/servers/joinProtocol';
import { formatEndpoint, isIPv6, isMessageLine, parseEndpoint, type Endpoint } from '../../../src/shared/servers/joinFields';

describe('join line', () => {
  it('parses the 1998 example', () => {
    expect(parseJoin('version: 1.0 join me: sid os: powerpc-apple-macos')).toEqual({
      ok: true,
      join: { version: '1.0', name: 'sid', os: 'powerpc-apple-macos' },
    });
  });

  it('carries a UDP game port as the Starlane extension', () => {
    const line = 'version: 1.0 join me: sid os: linux-x64 port: 6527';
    expect(parseJoin(line)).toEqual({ ok: true, join: { version: '1.0', name: 'sid', os: 'linux-x64', port: 6527 } });
    expect(formatJoin({ version: '1.0', name: 'sid', os: 'linux-x64', port: 6527 })).toBe(line);
    expect(formatJoin({ version: '1.0', name: 'sid', os: 'linux-x64' })).toBe('version: 1.0 join me: sid os: linux-x64');
  });

  it('lets a name contain spaces and even " os: ", running up to the last " os: "', () => {
    for (const name of ['Red Baron', 'a os: b', 'x os:', 'os: y', 'in 3 port: 1']) {
      const line = formatJoin({ version: '1.0', name, os: 'win 32', port: 7000 });
      expect(parseJoin(line)).toEqual({ ok: true, join: { version: '1.0', name, os: 'win 32', port: 7000 } });
    }
  });

  it('accepts another minor of major 1 and refuses another major as incompatible whatever follows', () => {
    expect(parseJoin('version: 1.7 join me: sid os: x')).toMatchObject({ ok: true, join: { version: '1.7' } });
    expect(parseJoin('version: 2.0 join me: sid os: x')).toEqual({ ok: false, reply: VERSION_INCOMPATIBLE });
    expect(parseJoin('version: 0.9 something else entirely')).toEqual({ ok: false, reply: VERSION_INCOMPATIBLE });
    expect(parseJoin('version: 2.0')).toEqual({ ok: false, reply: VERSION_INCOMPATIBLE });
  });

  it.each([
    ['empty', ''],
    ['junk', 'hello there'],
    ['version without digits', 'version: x.y join me: sid os: x'],
    ['two-digit major', 'version: 10.0 join me: sid os: x'],
    ['missing join me', 'version: 1.0 sid os: x'],
    ['missing os', 'version: 1.0 join me: sid'],
    ['empty name', 'version: 1.0 join me:  os: x'],
    ['name with a leading space', 'version: 1.0 join me:  sid os: x'],
    ['name over 16 characters', 'version: 1.0 join me: abcdefghijklmnopq os: x'],
    ['non-ASCII name', 'version: 1.0 join me: sïd os: x'],
    ['tab in name', 'version: 1.0 join me: s\tid os: x'],
    ['empty os', 'version: 1.0 join me: sid os: '],
    ['os over 31 characters', `version: 1.0 join me: sid os: ${'o'.repeat(32)}`],
    ['colon in os', 'version: 1.0 join me: sid os: a:b'],
    ['port 0', 'version: 1.0 join me: sid os: x port: 0'],
    ['port 65536', 'version: 1.0 join me: sid os: x port: 65536'],
    ['port with leading zero', 'version: 1.0 join me: sid os: x port: 06527'],
    ['trailing space', 'version: 1.0 join me: sid os: x '],
    ['upper-case keyword', 'VERSION: 1.0 join me: sid os: x'],
    ['double space', 'version:  1.0 join me: sid os: x'],
  ])('refuses a malformed join (%s) as an invalid request', (_what, line) => {
    expect(parseJoin(line)).toEqual({ ok: false, reply: INVALID_REQUEST });
  });

  it('refuses to format a join no server would accept', () => {
    expect(() => formatJoin({ version: '2.0', name: 'sid', os: 'x' })).toThrow(RangeError);
    expect(() => formatJoin({ version: '1.0', name: ' sid', os: 'x' })).toThrow(/name/);
    expect(() => formatJoin({ version: '1.0', name: 'sid', os: 'a:b' })).toThrow(/os/);
    expect(() => formatJoin({ version: '1.0', name: 'sid', os: 'x', port: 70000 })).toThrow(/port/);
  });
});

describe('remove and rename requests', () => {
  it('reads exactly "remove me"', () => {
    expect(parseRemoveMe('remove me')).toBe(true);
    expect(parseRemoveMe('remove me ')).toBe(false);
    expect(parseRemoveMe('Remove me')).toBe(false);
  });

  it('reads a new name, spaces allowed inside, and refuses invalid ones', () => {
    expect(parseNewName('my new name: maverick')).toBe('maverick');
    expect(parseNewName('my new name: Ice Man')).toBe('Ice Man');
    expect(formatNewName('Ice Man')).toBe('my new name: Ice Man');
    expect(parseNewName('my new name: ')).toBeNull();
    expect(parseNewName('my new name: maverick ')).toBeNull();
    expect(parseNewName('my new name: 12345678901234567')).toBeNull();
    expect(() => formatNewName('')).toThrow(RangeError);
  });

  it('classifies every client line', () => {
    expect(parseClientLine('remove me')).toEqual({ kind: 'remove' });
    expect(parseClientLine('my new name: goose')).toEqual({ kind: 'rename', name: 'goose' });
    expect(parseClientLine('version: 1.0 join me: a os: b')).toMatchObject({ kind: 'join', join: { name: 'a' } });
    expect(parseClientLine('version: 3.1 join me: a os: b')).toEqual({ kind: 'refused', reply: VERSION_INCOMPATIBLE });
    expect(parseClientLine('my new name:')).toEqual({ kind: 'refused', reply: INVALID_REQUEST });
    expect(parseClientLine('GET / HTTP/1.0')).toEqual({ kind: 'refused', reply: INVALID_REQUEST });
  });
});

describe('server lines', () => {
  it('formats and parses the accept', () => {
    const line = 'join from sid accepted, slot: 2, server name: TestServer';
    expect(parseJoinAccepted(line)).toEqual({ name: 'sid', slot: 2, serverName: 'TestServer' });
    expect(formatJoinAccepted({ name: 'sid', slot: 2, serverName: 'TestServer' })).toBe(line);
    expect(formatJoinAccepted({ name: 'a b', slot: 0, serverName: 'My: Server' })).toBe('join from a b accepted, slot: 0, server name: My: Server');
    expect(parseJoinAccepted('join from sid accepted, slot: 02, server name: x')).toBeNull();
    expect(() => formatJoinAccepted({ name: 'sid', slot: 255, serverName: 'x' })).toThrow(/slot/);
  });

  it('formats the client-list updates with a plain address for the default port', () => {
    const e: Endpoint = { address: '192.168.1.1', port: 6526 };
    expect(formatAdd({ endpoint: e, name: 'msh', slot: 0 })).toBe('add ip: 192.168.1.1 name: msh in 0');
    expect(formatRemove(e)).toBe('remove ip: 192.168.1.1');
    expect(formatNameUpdate({ endpoint: e, name: 'maverick' })).toBe('name ip: 192.168.1.1 name: maverick');
    expect(parseAdd('add ip: 192.168.1.1 name: msh in 0')).toEqual({ endpoint: e, name: 'msh', slot: 0 });
    expect(parseRemove('remove ip: 192.168.1.1')).toEqual(e);
    expect(parseNameUpdate('name ip: 192.168.1.1 name: maverick')).toEqual({ endpoint: e, name: 'maverick' });
  });

  it('writes a non-default port into the ip token, IPv6 in brackets', () => {
    expect(formatRemove({ address: '192.0.2.7', port: 6527 })).toBe('remove ip: 192.0.2.7:6527');
    expect(formatRemove({ address: '2001:db8::7', port: 6527 })).toBe('remove ip: [2001:db8::7]:6527');
    expect(formatRemove({ address: '2001:db8::7', port: 6526 })).toBe('remove ip: 2001:db8::7');
    expect(parseRemove('remove ip: [::1]:6530')).toEqual({ address: '::1', port: 6530 });
    // Without brackets a trailing group is part of the address, never a port.
    expect(parseRemove('remove ip: ::1:6530')).toEqual({ address: '::1:6530', port: 6526 });
  });

  it('keeps a name containing " in 3" intact in an add (the slot is the last " in N")', () => {
    const line = formatAdd({ endpoint: { address: '10.0.0.1', port: 7000 }, name: 'log in 3', slot: 1 });
    expect(line).toBe('add ip: 10.0.0.1:7000 name: log in 3 in 1');
    expect(parseAdd(line)).toEqual({ endpoint: { address: '10.0.0.1', port: 7000 }, name: 'log in 3', slot: 1 });
  });

  it.each([
    ['bad address', 'remove ip: 300.1.1.1'],
    ['leading zero octet', 'remove ip: 10.0.0.01'],
    ['explicit default port', 'remove ip: 10.0.0.1:6526'],
    ['port 0', 'remove ip: 10.0.0.1:0'],
    ['unbracketed v6 with junk', 'remove ip: 2001:db8::g'],
    ['two gaps', 'remove ip: 1::2::3'],
    ['hostname', 'remove ip: example.com'],
    ['trailing text', 'remove ip: 10.0.0.1 x'],
  ])('refuses a malformed endpoint (%s)', (_what, line) => {
    expect(parseRemove(line)).toBeNull();
  });

  it('classifies every server line, message text included', () => {
    for (const r of [SERVER_FULL, INVALID_REQUEST, VERSION_INCOMPATIBLE, BANNED, REMOVING_YOU, NOT_JOINED, NEW_NAME_ACCEPTED, NAME_TAKEN]) {
      expect(parseServerLine(r)).toEqual({ kind: 'reply', reply: r });
    }
    expect(parseServerLine('join from a accepted, slot: 1, server name: s').kind).toBe('accepted');
    expect(parseServerLine('add ip: ::1 name: a in 1').kind).toBe('add');
    expect(parseServerLine('remove ip: ::1').kind).toBe('remove');
    expect(parseServerLine('name ip: ::1 name: b').kind).toBe('name');
    expect(parseServerLine('Welcome! No camping at the stargate.')).toEqual({ kind: 'text', text: 'Welcome! No camping at the stargate.' });
  });

  it('accepts IPv6 forms Node reports, zones included', () => {
    for (const a of ['::', '::1', 'fe80::1%eth0', '::ffff:192.0.2.1', '2001:DB8:0:0:0:0:0:1', '1:2:3:4:5:6:7:8']) expect(isIPv6(a)).toBe(true);
    for (const a of [':::', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '::1%', '::1%a b', '1.2.3.4', '::ffff:1.2.3']) expect(isIPv6(a)).toBe(false);
  });

  it('allows message lines up to 160 UTF-8 bytes without control characters', () => {
    expect(isMessageLine('')).toBe(true);
    expect(isMessageLine('Willkommen – viel Glück')).toBe(true);
    expect(isMessageLine('é'.repeat(80))).toBe(true);
    expect(isMessageLine('é'.repeat(81))).toBe(false);
    expect(isMessageLine('a\rb')).toBe(false);
    expect(isMessageLine('\ud800')).toBe(false);
  });
});

// ---- properties ----

/** Printable ASCII, biased towards the protocol's own delimiters so names that look like syntax get tried. */
const asciiChar = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const nameArb = fc
  .string({ unit: fc.oneof(asciiChar, fc.constantFrom(' os: ', ' in 3', ' port: 9', ' name: ', ':', ' accepted, ')), minLength: 1, maxLength: 8 })
  .filter((s) => s.length <= 16 && s.trim() === s && s.length > 0);
const osArb = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_. /'.split('')), minLength: 1, maxLength: 31 })
  .filter((s) => s.trim() === s && s.length > 0);
const portArb = fc.integer({ min: 1, max: 65535 });
const v4Arb = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.'));
const v6Arb = fc.oneof(fc.ipV6(), fc.constantFrom('::1', 'fe80::1%eth0', '::ffff:10.1.2.3'));
const endpointArb: fc.Arbitrary<Endpoint> = fc.record({ address: fc.oneof(v4Arb, v6Arb), port: fc.oneof(portArb, fc.constant(6526)) });
const slotArb = fc.nat(254);
const joinArb: fc.Arbitrary<JoinRequest> = fc
  .record({ version: fc.nat(9).map((m) => `1.${m}`), name: nameArb, os: osArb, port: fc.option(portArb, { nil: undefined }) })
  .map(({ port, ...rest }) => (port === undefined ? rest : { ...rest, port }));

/** Every valid message as a line, with the parser that must read it back. */
const lineArb = fc.oneof(
  joinArb.map((j) => formatJoin(j)),
  nameArb.map((n) => formatNewName(n)),
  fc.record({ name: nameArb, slot: slotArb, serverName: nameArb }).map((a) => formatJoinAccepted(a)),
  fc.record({ endpoint: endpointArb, name: nameArb, slot: slotArb }).map((a) => formatAdd(a)),
  endpointArb.map((e) => formatRemove(e)),
  fc.record({ endpoint: endpointArb, name: nameArb }).map((r) => formatNameUpdate(r)),
);

describe('properties', () => {
  it('never throws on arbitrary strings, and refusals are always one of the two replies', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), lineArb.map((l) => l.slice(0, -1)), lineArb.map((l) => `${l}x`)), (s) => {
        const c = parseClientLine(s);
        if (c.kind === 'refused') expect([INVALID_REQUEST, VERSION_INCOMPATIBLE]).toContain(c.reply);
        parseServerLine(s);
        parseEndpoint(s);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads back every formatted message unchanged (parse ∘ format = id)', () => {
    fc.assert(
      fc.property(joinArb, (j) => {
        expect(parseJoin(formatJoin(j))).toEqual({ ok: true, join: j });
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(endpointArb, nameArb, slotArb, (endpoint, name, slot) => {
        expect(parseEndpoint(formatEndpoint(endpoint))).toEqual(endpoint);
        expect(parseAdd(formatAdd({ endpoint, name, slot }))).toEqual({ endpoint, name, slot });
        expect(parseRemove(formatRemove(endpoint))).toEqual(endpoint);
        expect(parseNameUpdate(formatNameUpdate({ endpoint, name }))).toEqual({ endpoint, name });
        expect(parseNewName(formatNewName(name))).toBe(name);
        expect(parseJoinAccepted(formatJoinAccepted({ name, slot, serverName: name }))).toEqual({ name, slot, serverName: name });
      }),
      { numRuns: 3000 },
    );
  });

  it('formats every valid line back to itself (format ∘ parse = id) and within the line limit', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(MAX_LINE_BYTES);
        const c = parseClientLine(line);
        const s = parseServerLine(line);
        const again =
          c.kind === 'join' ? formatJoin(c.join)
          : c.kind === 'rename' ? formatNewName(c.name)
          : s.kind === 'accepted' ? formatJoinAccepted(s.accepted)
          : s.kind === 'add' ? formatAdd(s.add)
          : s.kind === 'remove' ? formatRemove(s.endpoint)
          : s.kind === 'name' ? formatNameUpdate(s.rename)
          : `unexpected ${s.kind}`;
        expect(again).toBe(line);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('server closing line (Starlane extension)', () => {
  it('says why in one safe line that a client reads back, before removing you', () => {
    expect(formatServerClosing('shut down by its admin (SIGTERM)')).toBe('server closing: shut down by its admin (SIGTERM)');
    expect(parseServerLine('server closing: its host left the game')).toEqual({ kind: 'closing', reason: 'its host left the game' });
    // Control characters are blanked, and a reason too long is cut so the line stays a message line.
    expect(formatServerClosing('a\nb')).toBe('server closing: a b');
    expect(isMessageLine(formatServerClosing('x'.repeat(400)))).toBe(true);
    // An empty reason is no closing line: a 1998 client and ours read it as text.
    expect(parseServerLine('server closing: ')).toEqual({ kind: 'text', text: 'server closing: ' });
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (reason) => {
        const line = formatServerClosing(reason);
        expect(isMessageLine(line)).toBe(true);
        expect(parseServerLine(line).kind).toBe('closing');
      }),
    );
  });
});

describe('leave reasons (Starlane 1.1)', () => {
  it('a client says why it leaves, and the server tells the others with the removal', () => {
    expect(parseClientLine('remove me')).toEqual({ kind: 'remove' });
    expect(parseClientLine('remove me: switched to netgame')).toEqual({ kind: 'remove', reason: 'switched to netgame' });
    expect(parseClientLine('remove me: ')).toEqual({ kind: 'refused', reply: INVALID_REQUEST });
    expect(parseServerLine('remove ip: 192.0.2.7 left: timed out')).toEqual({ kind: 'remove', endpoint: { address: '192.0.2.7', port: 6526 }, reason: 'timed out' });
    expect(parseServerLine('remove ip: 192.0.2.7')).toEqual({ kind: 'remove', endpoint: { address: '192.0.2.7', port: 6526 } });
    expect(formatRemoveMe('switched to lockstep')).toBe('remove me: switched to lockstep');
    expect(() => formatRemoveMe('x'.repeat(61))).toThrow(RangeError);
    expect(leaveReason('removed: no game datagram\n for 12 s')).toBe('removed: no game datagram  for 12 s');
    expect(leaveReason('   ')).toBeNull();
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (raw) => {
        const reason = leaveReason(raw);
        if (reason === null) return;
        expect(parseClientLine(formatRemoveMe(reason))).toEqual({ kind: 'remove', reason });
        expect(parseServerLine(formatRemove({ address: '10.0.0.1', port: 6527 }, reason))).toEqual({ kind: 'remove', endpoint: { address: '10.0.0.1', port: 6527 }, reason });
      }),
    );
  });
});

describe('what a player reads when another leaves a server game', () => {
  it('says why, in plain words', () => {
    expect(leftLine('bravo', 'switched to netgame')).toBe('bravo left (switched to netgame)');
    expect(leftLine('bravo', 'left')).toBe('bravo left');
    expect(leftLine('bravo', 'lost connection')).toBe('bravo lost connection');
    expect(leftLine('bravo', 'timed out')).toBe('bravo timed out');
    expect(leftLine('bravo', 'removed: no game datagram for 12 s')).toBe('bravo was removed by the server (no game datagram for 12 s)');
    expect(leftLine('bravo', undefined)).toBe('bravo disconnected');
  });
});

describe('spectator lines (Starlane 1.2)', () => {
  it('reads and writes a spectate line, with and without a UDP port', () => {
    expect(parseJoin('version: 1.2 spectate: Watcher One os: linux-x64 port: 6530')).toEqual({ ok: true, join: { version: '1.2', name: 'Watcher One', os: 'linux-x64', port: 6530, spectate: true } });
    expect(parseJoin('version: 1.2 spectate: w os: win32')).toEqual({ ok: true, join: { version: '1.2', name: 'w', os: 'win32', spectate: true } });
    expect(formatJoin({ version: '1.2', name: 'Watcher One', os: 'linux-x64', port: 6530, spectate: true })).toBe('version: 1.2 spectate: Watcher One os: linux-x64 port: 6530');
    expect(parseJoin('version: 1.2 spectate me: w os: linux')).toEqual({ ok: false, reply: INVALID_REQUEST });
  });

  it("formats and reads the spectator's accept line, and tells it apart from a player's", () => {
    const line = formatSpectateAccepted({ name: 'Watcher One', serverName: 'Gamma', udp: 6522, token: 0x3fa85f64 });
    expect(line).toBe('spectate from Watcher One accepted, server name: Gamma, udp: 6522, token: 3fa85f64');
    expect(parseServerLine(line)).toEqual({ kind: 'spectating', accepted: { name: 'Watcher One', serverName: 'Gamma', udp: 6522, token: 0x3fa85f64 } });
    expect(parseSpectateAccepted('spectate from w accepted, server name: Gamma')).toBeNull();
    expect(parseServerLine(SPECTATORS_FULL)).toEqual({ kind: 'reply', reply: 'spectators full' });
    expect(() => formatSpectateAccepted({ name: 'w', serverName: 'Gamma', udp: 0, token: 1 })).toThrow(RangeError);
  });
});
