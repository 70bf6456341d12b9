/**
 * The masterserver's universe lines (universeProtocol.ts): every request and
 * reply reads back as it was written; anything else — a line of the 1998
 * protocol, a mutated line, a name or number out of range — reads as null.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUniverseReply, formatUniverseRequest, parseUniverseReply, parseUniverseRequest, type UniverseReply, type UniverseRequest } from '../../../src/shared/servers/universeProtocol';
import { arbSystemName } from '../../support/wireArbitraries';

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const sealed = fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{1,300}$/), fc.stringMatching(/^[A-Za-z0-9_-]{22}$/)).map(([a, b]) => `${a}.${b}`);
const server = fc.tuple(fc.stringMatching(/^[!-~]{1,30}$/), fc.integer({ min: 1, max: 65535 })).map(([n, p]) => `${n}:${p}`);
const ref = fc.integer({ min: 0, max: 999_999_999 });
const text = fc.stringMatching(/^[ -~]{1,120}$/);

const requests: fc.Arbitrary<UniverseRequest> = fc.oneof(
  hex(64).map((proof) => ({ kind: 'proof' as const, proof })),
  fc.record({ kind: fc.constant('system' as const), name: arbSystemName, players: fc.integer({ min: 0, max: 255 }), gates: fc.array(arbSystemName, { maxLength: 8 }) }),
  fc.record({ kind: fc.constant('clock' as const), epoch: fc.integer({ min: 0, max: 1e14 }) }),
  fc.record({ kind: fc.constant('route' as const), ref, system: arbSystemName }),
  fc.record({ kind: fc.constant('carry' as const), id: hex(16), to: server, state: sealed }),
);

const replies: fc.Arbitrary<UniverseReply> = fc.oneof(
  hex(32).map((nonce) => ({ kind: 'challenge' as const, nonce })),
  fc.constant({ kind: 'member' as const }),
  fc.constant({ kind: 'proof-refused' as const }),
  fc.record({ kind: fc.constant('route' as const), ref, host: fc.constantFrom('127.0.0.1', '10.1.2.3', '::1', 'fd00::7'), port: fc.integer({ min: 1, max: 65535 }), server, epoch: fc.integer({ min: 0, max: 1e14 }) }),
  fc.record({ kind: fc.constant('route-refused' as const), ref, why: text.filter((t) => t.trim() === t) }),
  fc.record({ kind: fc.constant('carry' as const), id: hex(16), state: sealed }),
  fc.record({ kind: fc.constant('carry-forwarded' as const), id: hex(16) }),
  fc.record({ kind: fc.constant('carry-refused' as const), id: hex(16), why: text }),
  fc.constant({ kind: 'acknowledged' as const }),
);

describe('the universe lines', () => {
  it('every request and reply reads back as written', () => {
    fc.assert(fc.property(requests, (r) => {
      expect(parseUniverseRequest(formatUniverseRequest(r))).toEqual(r);
    }), { numRuns: 3000 });
    fc.assert(fc.property(replies, (r) => {
      expect(parseUniverseReply(formatUniverseReply(r))).toEqual(r);
    }), { numRuns: 3000 });
  });

  it('other lines, and lines out of range, read as nothing', () => {
    for (const line of ['players: 3 max: 8', 'version: 1.0 join me: a os: b maxplayers: 8 url: http://x', 'system: Sol players: 300 gates:', 'system: S/l players: 1 gates:', `system: Sol players: 1 gates: ${Array(9).fill('A').join(',')}`, 'route 1: host: 127.0.0.1 port: 0 server: a:1 epoch: 5', 'universe proof: abc', 'route: x system: Sol', '']) {
      expect(parseUniverseRequest(line)).toBeNull();
      expect(parseUniverseReply(line)).toBeNull();
    }
    fc.assert(fc.property(fc.string({ maxLength: 600 }), (s) => void (parseUniverseRequest(s), parseUniverseReply(s))), { numRuns: 5000 });
  });
});
