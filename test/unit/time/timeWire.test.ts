/**
 * The TimeRequest / TimeReply datagrams: exact layouts, round trips, and
 * refusal of every malformed input with a reason (never an exception).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floatStream } from '../../../src/shared/sim/prng';
import {
  decodeTimeDatagram,
  encodeTimeReply,
  encodeTimeRequest,
  isTimeDatagram,
  TIME_REPLY_SIZE,
  TIME_REQUEST_SIZE,
  TIME_WIRE_DROP_REASONS,
  TimePacketType,
  type TimeWireDropReason,
} from '../../../src/shared/time';
import { decodePacket, WIRE_MAGIC, WIRE_VERSION } from '../../../src/shared/wire';

const arbSeq = fc.integer({ min: 0, max: 0xffff_ffff });
/** Any time a clock can show: finite and not negative, from 0 to the largest double. */
const arbTime = fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true });

function reasonOf(bytes: Uint8Array): TimeWireDropReason | 'accepted' {
  const r = decodeTimeDatagram(bytes);
  return r.ok ? 'accepted' : r.reason;
}

/** A copy of `bytes` with the f64 at `at` replaced. */
function withF64(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setFloat64(at, value);
  return copy;
}

describe('time datagram layout', () => {
  it('writes a request as magic, version, type 12, seq, the client time and 8 zero bytes: as long as its reply (no amplification)', () => {
    const bytes = encodeTimeRequest(0x01020304, 1.5);
    expect(bytes.length).toBe(TIME_REQUEST_SIZE);
    expect(TIME_REQUEST_SIZE).toBe(24);
    expect(TIME_REQUEST_SIZE).toBe(TIME_REPLY_SIZE);
    expect([...bytes.subarray(0, 8)]).toEqual([0x53, 0x4c, WIRE_VERSION, 12, 1, 2, 3, 4]);
    // 1.5 as an IEEE-754 double, big-endian, then the padding.
    expect([...bytes.subarray(8, 16)]).toEqual([0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    expect([...bytes.subarray(16)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('refuses a request whose padding is not zero, or an unpadded 16-byte request', () => {
    const bytes = encodeTimeRequest(1, 1.5);
    const dirty = bytes.slice();
    dirty[23] = 1;
    expect(decodeTimeDatagram(dirty)).toEqual({ ok: false, reason: 'bad-padding' });
    expect(decodeTimeDatagram(bytes.subarray(0, 16))).toEqual({ ok: false, reason: 'bad-length' });
  });

  it('writes a reply as the request prefix with type 13, the echoed client time, then the server time (24 bytes)', () => {
    const bytes = encodeTimeReply(7, 1.5, 2);
    expect(bytes.length).toBe(TIME_REPLY_SIZE);
    expect(TIME_REPLY_SIZE).toBe(24);
    expect([...bytes.subarray(0, 8)]).toEqual([0x53, 0x4c, WIRE_VERSION, 13, 0, 0, 0, 7]);
    expect([...bytes.subarray(8, 16)]).toEqual([0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    expect([...bytes.subarray(16)]).toEqual([0x40, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('is recognised by isTimeDatagram, while game packets and scraps are not', () => {
    expect(isTimeDatagram(encodeTimeRequest(1, 2))).toBe(true);
    expect(isTimeDatagram(encodeTimeReply(1, 2, 3))).toBe(true);
    // A game Ping (type 9) header prefix, a too-short scrap, other magic.
    expect(isTimeDatagram(Uint8Array.of(0x53, 0x4c, WIRE_VERSION, 9, 0, 0))).toBe(false);
    expect(isTimeDatagram(Uint8Array.of(0x53, 0x4c, WIRE_VERSION))).toBe(false);
    expect(isTimeDatagram(Uint8Array.of(0x53, 0x4d, WIRE_VERSION, 12))).toBe(false);
  });

  it('is refused by the game codec, so a receiver that forgets isTimeDatagram drops it rather than misreading it', () => {
    expect(decodePacket(encodeTimeRequest(1, 2)).ok).toBe(false);
    expect(decodePacket(encodeTimeReply(1, 2, 3)).ok).toBe(false);
  });
});

describe('time datagram round trips', () => {
  it('decodes every request it encodes to the same seq and time', () => {
    fc.assert(
      fc.property(arbSeq, arbTime, (seq, clientTime) => {
        const r = decodeTimeDatagram(encodeTimeRequest(seq, clientTime));
        expect(r).toEqual({ ok: true, msg: { type: TimePacketType.TimeRequest, seq, clientTime } });
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes every reply it encodes to the same seq and times', () => {
    fc.assert(
      fc.property(arbSeq, arbTime, arbTime, (seq, clientTime, serverTime) => {
        const r = decodeTimeDatagram(encodeTimeReply(seq, clientTime, serverTime));
        expect(r).toEqual({ ok: true, msg: { type: TimePacketType.TimeReply, seq, clientTime, serverTime } });
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps sub-millisecond clock readings exactly (performance.now() resolution survives)', () => {
    const t = 123_456.789_012_345;
    const r = decodeTimeDatagram(encodeTimeReply(0, t, t + 0.000_001));
    expect(r.ok && r.msg.type === TimePacketType.TimeReply && r.msg.clientTime === t && r.msg.serverTime === t + 0.000_001).toBe(true);
  });
});

describe('malformed time datagrams', () => {
  const request = encodeTimeRequest(42, 1000);
  const reply = encodeTimeReply(42, 1000, 2000);

  it('refuses anything shorter than the 4-byte prefix as truncated', () => {
    for (let n = 0; n < 4; n++) expect(reasonOf(request.subarray(0, n))).toBe('truncated');
  });

  it('refuses other magic, another version and non-time types', () => {
    const set = (bytes: Uint8Array, at: number, value: number): Uint8Array => {
      const copy = bytes.slice();
      copy[at] = value;
      return copy;
    };
    expect(reasonOf(set(request, 0, 0x54))).toBe('bad-magic');
    expect(reasonOf(set(reply, 1, 0x4d))).toBe('bad-magic');
    expect(reasonOf(set(request, 2, (WIRE_VERSION + 1) & 0xff))).toBe('bad-version');
    expect(reasonOf(set(reply, 2, 0))).toBe('bad-version');
    for (const type of [0, 1, 9, 11, 14, 255]) expect(reasonOf(set(request, 3, type))).toBe('unknown-type');
  });

  it('refuses a request or reply one byte short or long, and a reply retyped as a request (its server time is no padding)', () => {
    expect(reasonOf(request.subarray(0, 23))).toBe('bad-length');
    expect(reasonOf(Uint8Array.of(...request, 0))).toBe('bad-length');
    expect(reasonOf(reply.subarray(0, 23))).toBe('bad-length');
    expect(reasonOf(Uint8Array.of(...reply, 0))).toBe('bad-length');
    const requestAsReply = reply.slice();
    requestAsReply[3] = TimePacketType.TimeRequest;
    expect(reasonOf(requestAsReply)).toBe('bad-padding');
  });

  it('refuses NaN and infinite times in every time field', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(reasonOf(withF64(request, 8, bad))).toBe('non-finite');
      expect(reasonOf(withF64(reply, 8, bad))).toBe('non-finite');
      expect(reasonOf(withF64(reply, 16, bad))).toBe('non-finite');
    }
  });

  it('refuses negative times, even the smallest', () => {
    for (const bad of [-1, -Number.MIN_VALUE, -123_456.789]) {
      expect(reasonOf(withF64(request, 8, bad))).toBe('negative-time');
      expect(reasonOf(withF64(reply, 8, bad))).toBe('negative-time');
      expect(reasonOf(withF64(reply, 16, bad))).toBe('negative-time');
    }
  });

  it('never throws on 100,000 random, truncated and mutated datagrams, and refuses each with a listed reason', () => {
    const rng = floatStream(0x7153_0012);
    const int = (n: number): number => Math.floor(rng() * n);
    const valid = [request, reply, encodeTimeRequest(0xffff_ffff, 0), encodeTimeReply(0, 5e-324, Number.MAX_VALUE)];
    const reasons = new Set<string>(TIME_WIRE_DROP_REASONS);
    const seen = new Set<string>();
    const problems: string[] = [];
    for (let i = 0; i < 100_000 && problems.length < 5; i++) {
      let bytes: Uint8Array;
      const kind = i % 4;
      const base = valid[int(valid.length)]!;
      if (kind === 0) {
        bytes = Uint8Array.from({ length: int(40) }, () => int(256));
      } else if (kind === 1) {
        bytes = base.subarray(0, int(base.length));
      } else {
        bytes = base.slice();
        for (let k = 1 + int(3); k > 0; k--) bytes[int(bytes.length)] = int(256);
        // Keep the prefix valid half the time so the mutations reach the fields.
        if (kind === 3) bytes.set([0x53, 0x4c, WIRE_VERSION], 0);
      }
      const shown = `[${[...bytes].join(',')}]`;
      let r: ReturnType<typeof decodeTimeDatagram>;
      try {
        r = decodeTimeDatagram(bytes);
      } catch (err) {
        problems.push(`threw on ${shown}: ${String(err)}`);
        continue;
      }
      if (r.ok) {
        seen.add('accepted');
        // Anything accepted encodes back to the very same bytes.
        const m = r.msg;
        const again = m.type === TimePacketType.TimeRequest ? encodeTimeRequest(m.seq, m.clientTime) : encodeTimeReply(m.seq, m.clientTime, m.serverTime);
        if (again.length !== bytes.length || again.some((b, k) => b !== bytes[k])) problems.push(`re-encoding differs for ${shown}`);
        if (kind === 1) problems.push(`accepted a truncated datagram ${shown}`);
      } else {
        seen.add(r.reason);
        if (!reasons.has(r.reason)) problems.push(`unlisted reason ${r.reason} for ${shown}`);
      }
    }
    expect(problems).toEqual([]);
    // The corpus really exercised every path.
    expect([...seen].sort()).toEqual(['accepted', ...TIME_WIRE_DROP_REASONS].sort());
  });
});

describe('time datagram encoders', () => {
  it('refuse a bad seq or time with an error naming the field', () => {
    expect(() => encodeTimeRequest(-1, 0)).toThrow(/seq must be an integer/);
    expect(() => encodeTimeRequest(2 ** 32, 0)).toThrow(/seq/);
    expect(() => encodeTimeRequest(1.5, 0)).toThrow(/seq/);
    expect(() => encodeTimeRequest(0, Number.NaN)).toThrow(/clientTime must be a finite time/);
    expect(() => encodeTimeReply(0, 0, -1)).toThrow(/serverTime must be a finite time/);
    expect(() => encodeTimeReply(0, Infinity, 0)).toThrow(/clientTime/);
  });

  it('start with the game magic', () => {
    const view = new DataView(encodeTimeRequest(0, 0).buffer);
    expect(view.getUint16(0)).toBe(WIRE_MAGIC);
  });
});
