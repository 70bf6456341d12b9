import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DISCOVERY_PORTS,
  DISCOVERY_REPLY_MAGIC,
  DISCOVERY_REQUEST_BYTES,
  DISCOVERY_REQUEST_MAGIC,
  MAX_ANNOUNCEMENT_BYTES,
  encodeAnnouncement,
  encodeDiscoveryRequest,
  isDiscoveryRequest,
  parseAnnouncement,
  parseDiscoveryRequest,
  sanitizeAnnouncedName,
  type ServerAnnouncement,
} from '../../../src/shared/servers/lanDiscovery';
import { GAMESERVER_UDP_PORT, NETGAME_UDP_PORT, SLOTSERVER_UDP_PORT } from '../../../src/shared/servers/joinProtocol';

const sample: ServerAnnouncement = {
  nonce: 0xdeadbeef,
  instance: 42,
  kind: 'gameserver',
  name: 'Gamma Quadrant',
  port: 6581,
  players: 3,
  maxPlayers: 16,
  version: '0.1.0',
};

const printable = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.:!~'.split('')), minLength: min, maxLength: max });
const announcement = fc.record({
  nonce: fc.nat({ max: 0xffff_ffff }),
  instance: fc.nat({ max: 0xffff_ffff }),
  kind: fc.constantFrom('slotserver' as const, 'gameserver' as const),
  name: printable(1, 31).filter((s) => s.trim() === s && s.length > 0),
  port: fc.integer({ min: 1, max: 65535 }),
  maxPlayers: fc.integer({ min: 1, max: 255 }),
  players: fc.nat({ max: 255 }),
  version: printable(1, 16).filter((s) => !s.includes(' ')),
}).map((a) => ({ ...a, players: Math.min(a.players, a.maxPlayers) }));

describe('discovery request', () => {
  it('round-trips its nonce and is exactly as long as the longest announcement (no amplification)', () => {
    for (const nonce of [0, 1, 0x7fff_ffff, 0xffff_ffff]) {
      const bytes = encodeDiscoveryRequest(nonce);
      expect(bytes.length).toBe(DISCOVERY_REQUEST_BYTES);
      expect(isDiscoveryRequest(bytes)).toBe(true);
      expect(parseDiscoveryRequest(bytes)).toEqual({ ok: true, value: { nonce } });
    }
    expect(DISCOVERY_REQUEST_BYTES).toBe(MAX_ANNOUNCEMENT_BYTES);
  });

  it('is asked on the gameserver, slotserver and netgame server UDP ports', () => {
    expect(DISCOVERY_PORTS).toEqual([GAMESERVER_UDP_PORT, SLOTSERVER_UDP_PORT, NETGAME_UDP_PORT]);
    expect(SLOTSERVER_UDP_PORT).toBe(6523);
    expect(NETGAME_UDP_PORT).toBe(6524);
  });

  it('refuses a wrong magic, a wrong length, another version and non-zero padding, with reasons', () => {
    const good = encodeDiscoveryRequest(7);
    const similar = good.slice();
    similar.set(new TextEncoder().encode('STARLANE-DISCOVEX'));
    expect(parseDiscoveryRequest(similar)).toEqual({ ok: false, reason: 'not-starlane' });
    expect(isDiscoveryRequest(similar)).toBe(false);
    expect(parseDiscoveryRequest(good.subarray(0, good.length - 1))).toEqual({ ok: false, reason: 'wrong-length' });
    expect(parseDiscoveryRequest(new Uint8Array([...good, 0]))).toEqual({ ok: false, reason: 'wrong-length' });
    const v2 = good.slice();
    v2[DISCOVERY_REQUEST_MAGIC.length] = 2;
    expect(parseDiscoveryRequest(v2)).toEqual({ ok: false, reason: 'wrong-version' });
    const padded = good.slice();
    padded[good.length - 1] = 1;
    expect(parseDiscoveryRequest(padded)).toEqual({ ok: false, reason: 'bad-padding' });
    // An announcement is not a request, and vice versa.
    expect(parseDiscoveryRequest(encodeAnnouncement(sample)).ok).toBe(false);
    expect(parseAnnouncement(good)).toEqual({ ok: false, reason: 'not-starlane' });
  });

  it('refuses a nonce that is not a u32 at encode time', () => {
    expect(() => encodeDiscoveryRequest(-1)).toThrow(RangeError);
    expect(() => encodeDiscoveryRequest(2 ** 32)).toThrow(RangeError);
    expect(() => encodeDiscoveryRequest(1.5)).toThrow(RangeError);
  });
});

describe('server announcement', () => {
  it('round-trips every field', () => {
    expect(parseAnnouncement(encodeAnnouncement(sample))).toEqual({ ok: true, value: sample });
    fc.assert(
      fc.property(announcement, (a) => {
        const bytes = encodeAnnouncement(a);
        expect(bytes.length).toBeLessThanOrEqual(MAX_ANNOUNCEMENT_BYTES);
        expect(parseAnnouncement(bytes)).toEqual({ ok: true, value: a });
      }),
      { numRuns: 500 },
    );
  });

  it('sanitises a name it cannot carry instead of failing to answer', () => {
    expect(sanitizeAnnouncedName('  Zoë\u0007 ')).toBe('Zo??');
    expect(sanitizeAnnouncedName('x'.repeat(40))).toBe('x'.repeat(31));
    expect(sanitizeAnnouncedName('\u00e9\u00e9')).toBe('??');
    expect(sanitizeAnnouncedName('   ')).toBe('unnamed');
    const parsed = parseAnnouncement(encodeAnnouncement({ ...sample, name: ' bad\nname ', version: 'v 1\t2' }));
    expect(parsed).toMatchObject({ ok: true, value: { name: 'bad?name', version: 'v12' } });
  });

  it('refuses a similar magic, a changed length and out-of-range fields, with reasons', () => {
    const good = encodeAnnouncement(sample);
    const at = (offset: number, value: number) => {
      const b = good.slice();
      b[offset] = value;
      return parseAnnouncement(b);
    };
    const wrongMagic = good.slice();
    wrongMagic.set(new TextEncoder().encode('STARLANE-ANNOUNCF'));
    expect(parseAnnouncement(wrongMagic)).toEqual({ ok: false, reason: 'not-starlane' });
    expect(parseAnnouncement(good.subarray(0, good.length - 1))).toEqual({ ok: false, reason: 'wrong-length' });
    expect(parseAnnouncement(new Uint8Array([...good, 0x41]))).toEqual({ ok: false, reason: 'wrong-length' });
    expect(at(17, 9)).toEqual({ ok: false, reason: 'wrong-version' });
    expect(at(26, 3)).toMatchObject({ ok: true, value: { kind: 'netgame' } });
    expect(at(26, 4)).toEqual({ ok: false, reason: 'bad-kind' });
    const noPort = good.slice();
    noPort[27] = 0;
    noPort[28] = 0;
    expect(parseAnnouncement(noPort)).toEqual({ ok: false, reason: 'bad-port' });
    expect(at(29, 17)).toEqual({ ok: false, reason: 'bad-players' });
    expect(at(30, 0)).toEqual({ ok: false, reason: 'bad-players' });
    expect(at(31, 0)).toEqual({ ok: false, reason: 'wrong-length' });
    expect(at(31, 200)).toEqual({ ok: false, reason: 'wrong-length' });
    expect(at(32, 0x0a)).toEqual({ ok: false, reason: 'bad-name' });
    expect(at(32, 0x20)).toEqual({ ok: false, reason: 'bad-name' });
    expect(at(good.length - 1, 0x20)).toEqual({ ok: false, reason: 'bad-version-text' });
    expect(at(good.length - 1, 0xff)).toEqual({ ok: false, reason: 'bad-version-text' });
  });

  it('refuses numbers out of range at encode time (a server bug, not input)', () => {
    expect(() => encodeAnnouncement({ ...sample, players: 17 })).toThrow(RangeError);
    expect(() => encodeAnnouncement({ ...sample, maxPlayers: 0, players: 0 })).toThrow(RangeError);
    expect(() => encodeAnnouncement({ ...sample, port: 0 })).toThrow(RangeError);
    expect(() => encodeAnnouncement({ ...sample, nonce: -1 })).toThrow(RangeError);
  });
});

describe('untrusted bytes', () => {
  it('never make either parser throw, whatever they are', () => {
    const prefixed = (magic: string) =>
      fc.uint8Array({ maxLength: 120 }).map((tail) => new Uint8Array([...new TextEncoder().encode(magic), ...tail]));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 600 }), prefixed(DISCOVERY_REQUEST_MAGIC), prefixed(DISCOVERY_REPLY_MAGIC)), (bytes) => {
        const request = parseDiscoveryRequest(bytes);
        const reply = parseAnnouncement(bytes);
        expect(typeof request.ok).toBe('boolean');
        expect(typeof reply.ok).toBe('boolean');
      }),
      { numRuns: 20_000 },
    );
  });

  it('a flipped byte in an announcement is either refused or still reads as a well-formed announcement', () => {
    fc.assert(
      fc.property(announcement, fc.nat(), fc.integer({ min: 1, max: 255 }), (a, where, flip) => {
        const bytes = encodeAnnouncement(a);
        const i = where % bytes.length;
        bytes[i] = (bytes[i] ?? 0) ^ flip;
        const parsed = parseAnnouncement(bytes);
        if (!parsed.ok) return;
        // Whatever passes must be something the encoder could have produced.
        expect(encodeAnnouncement(parsed.value)).toEqual(bytes);
      }),
      { numRuns: 5000 },
    );
  });
});
