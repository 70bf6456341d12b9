/**
 * The A2S codec (src/shared/servers/a2sQuery.ts): requests read as the
 * published format has them, anything else refused with a reason and never
 * thrown; answers that would not fit one datagram are cut (players and rules
 * left out, long strings shortened at a character's edge).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeA2sChallenge, encodeA2sPlayers, encodeA2sRules, MAX_A2S_REPLY, parseA2sRequest } from '../../../src/shared/servers/a2sQuery';
import { challengedRequest, infoRequest, Reader } from '../../support/a2sClient';

describe('the A2S codec', () => {
  it('reads INFO with and without its challenge, PLAYER and RULES with theirs', () => {
    expect(parseA2sRequest(infoRequest())).toEqual({ ok: true, request: { kind: 'info', challenge: null } });
    expect(parseA2sRequest(infoRequest(-5))).toEqual({ ok: true, request: { kind: 'info', challenge: -5 } });
    expect(parseA2sRequest(challengedRequest('U', -1))).toEqual({ ok: true, request: { kind: 'players', challenge: -1 } });
    expect(parseA2sRequest(challengedRequest('V', 0x12345678))).toEqual({ ok: true, request: { kind: 'rules', challenge: 0x12345678 } });
    expect(parseA2sRequest(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x57]))).toEqual({ ok: false, reason: 'a2s-unknown' });
    expect(parseA2sRequest(Buffer.concat([infoRequest(), Buffer.from([1, 2])]))).toEqual({ ok: false, reason: 'a2s-bad-info' });
    expect(encodeA2sChallenge(-2)).toEqual(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x41, 0xfe, 0xff, 0xff, 0xff]));
  });

  it('no datagram makes the reader throw; whatever starts like A2S and is no query is refused with a reason', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.boolean(), (bytes, header) => {
        const msg = header ? Uint8Array.from([0xff, 0xff, 0xff, 0xff, ...bytes]) : bytes;
        const r = parseA2sRequest(msg);
        if (!r.ok) expect(r.reason).toMatch(/^a2s-/);
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers fit one datagram: 300 players and 200 rules are cut to what fits, long names shortened whole characters at a time', () => {
    const players = Array.from({ length: 300 }, (_, i) => ({ name: `pilot ${i} ${'ö'.repeat(20)}`, score: i, seconds: i * 1.5 }));
    const p = encodeA2sPlayers(players);
    expect(p.length).toBeLessThanOrEqual(MAX_A2S_REPLY);
    const r = new Reader(Buffer.from(p));
    expect([r.i32(), r.u8()]).toEqual([-1, 0x44]);
    const n = r.u8();
    expect(n).toBeGreaterThan(10);
    for (let i = 0; i < n; i++) {
      expect(r.u8()).toBe(i);
      const name = r.str();
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(31);
      expect(name.includes('\uFFFD')).toBe(false);
      expect(r.i32()).toBe(i);
      expect(r.f32()).toBe(i * 1.5);
    }
    expect(r.left).toBe(0);
    const rules = encodeA2sRules(Array.from({ length: 200 }, (_, i) => [`rule_${i}`, 'x'.repeat(100)] as const));
    expect(rules.length).toBeLessThanOrEqual(MAX_A2S_REPLY);
    const q = new Reader(Buffer.from(rules));
    expect([q.i32(), q.u8()]).toEqual([-1, 0x45]);
    const count = q.i16();
    for (let i = 0; i < count; i++) expect([q.str(), q.str()]).toEqual([`rule_${i}`, 'x'.repeat(63)]);
    expect(q.left).toBe(0);
  });
});
