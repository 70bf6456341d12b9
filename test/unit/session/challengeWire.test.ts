/**
 * The challenge datagram's bytes: twelve, exactly as docs/PROTOCOL.md lays
 * them out, and nothing else decodes.
 */
import { describe, expect, it } from 'vitest';
import { CHALLENGE_SIZE, decodeChallenge, encodeChallenge, isChallengeDatagram } from '../../../src/shared/session/challengeWire';
import { WIRE_VERSION } from '../../../src/shared/wire/types';

describe('the challenge datagram', () => {
  it('is [SL][version][15][echo u32][cookie u32], big-endian, and decodes back', () => {
    const bytes = encodeChallenge({ echo: 0x0102_0304, cookie: 0xa0b0_c0d0 });
    expect([...bytes]).toEqual([0x53, 0x4c, WIRE_VERSION, 15, 1, 2, 3, 4, 0xa0, 0xb0, 0xc0, 0xd0]);
    expect(bytes.length).toBe(CHALLENGE_SIZE);
    expect(isChallengeDatagram(bytes)).toBe(true);
    expect(decodeChallenge(bytes)).toEqual({ ok: true, challenge: { echo: 0x0102_0304, cookie: 0xa0b0_c0d0 } });
  });

  it('refuses another length, another version and a zero cookie, and never throws', () => {
    const good = encodeChallenge({ echo: 0, cookie: 7 });
    expect(decodeChallenge(Uint8Array.from([...good, 0]))).toEqual({ ok: false, reason: 'bad-length' });
    expect(decodeChallenge(good.subarray(0, 11))).toEqual({ ok: false, reason: 'bad-length' });
    expect(decodeChallenge(Uint8Array.from([0x53, 0x4c, WIRE_VERSION + 1, 15, 0, 0, 0, 0, 0, 0, 0, 7]))).toEqual({ ok: false, reason: 'bad-version' });
    expect(decodeChallenge(Uint8Array.from([0x53, 0x4c, WIRE_VERSION, 15, 0, 0, 0, 1, 0, 0, 0, 0]))).toEqual({ ok: false, reason: 'bad-cookie' });
    expect(isChallengeDatagram(Uint8Array.from([0x53, 0x4c, WIRE_VERSION]))).toBe(false);
    expect(() => encodeChallenge({ echo: 0, cookie: 0 })).toThrow(RangeError);
    for (let n = 0; n < 2000; n++) {
      const junk = Uint8Array.from({ length: n % 20 }, (_, i) => (i < 2 ? [0x53, 0x4c][i]! : i === 3 ? 15 : (n * 31 + i * 7) & 0xff));
      if (isChallengeDatagram(junk)) expect(() => decodeChallenge(junk)).not.toThrow();
    }
  });
});
