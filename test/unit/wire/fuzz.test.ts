/**
 * Fuzzing decodePacket with > 100,000 datagrams from a fixed seed: random
 * bytes and mutations of valid packets. Decoding must never throw, never take
 * long on any single datagram, and anything it accepts must encode again to a
 * datagram of the same size that decodes again.
 */
import fc from 'fast-check';
import { floatStream as prng } from '../../../src/shared/sim/prng';
import { describe, expect, it } from 'vitest';
import { MAX_DATAGRAM_BYTES } from '../../../src/shared/net/packetApi';
import { decodePacket, DROP_REASONS, encodePacket, HEADER_SIZE, WIRE_MAGIC, WIRE_VERSION } from '../../../src/shared/wire';
import type { DropReason, Packet, RemoteEvent } from '../../../src/shared/wire';
import { arbPacket } from '../../support/wireArbitraries';

const SEED = 0x5a1a_1998;
/** No single decode may take longer than this (a generous bound; a typical one takes microseconds). */
const MAX_DECODE_MS = 50;
const TIMEOUT_MS = 60_000;


type Rng = () => number;
const int = (rng: Rng, n: number): number => Math.floor(rng() * n);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)] as T;
const randomBytes = (rng: Rng, n: number): Uint8Array => Uint8Array.from({ length: n }, () => int(rng, 256));

/** Values that sit on the edges of the format's limits. */
const INTERESTING = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 16, 17, 19, 20, 100, 101, 127, 128, 159, 160, 161, 254, 255];

/** Offsets of every event's u16 length field in a valid encoding. */
function lengthFieldOffsets(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let at = HEADER_SIZE;
  while (at < bytes.length && bytes[at] !== 0) {
    out.push(at + 1);
    at += 3 + (((bytes[at + 1] as number) << 8) | (bytes[at + 2] as number));
  }
  return out;
}

const mutations: Record<string, (rng: Rng, a: Uint8Array, b: Uint8Array) => Uint8Array> = {
  'bit flips': (rng, a) => {
    const out = a.slice();
    for (let k = 1 + int(rng, 8); k > 0; k--) {
      const i = int(rng, out.length);
      out[i] = (out[i] as number) ^ (1 << int(rng, 8));
    }
    return out;
  },
  'interesting byte': (rng, a) => {
    const out = a.slice();
    out[int(rng, out.length)] = pick(rng, INTERESTING);
    return out;
  },
  truncation: (rng, a) => a.slice(0, int(rng, a.length)),
  'byte insert': (rng, a) => {
    const i = int(rng, a.length + 1);
    return Uint8Array.from([...a.subarray(0, i), ...randomBytes(rng, 1 + int(rng, 4)), ...a.subarray(i)]);
  },
  'byte delete': (rng, a) => {
    const i = int(rng, a.length);
    return Uint8Array.from([...a.subarray(0, i), ...a.subarray(i + 1 + int(rng, 4))]);
  },
  'length-field corruption': (rng, a) => {
    const out = a.slice();
    const fields = lengthFieldOffsets(a);
    const at = fields.length > 0 ? pick(rng, fields) : int(rng, Math.max(1, a.length - 1));
    const old = ((out[at] as number) << 8) | ((out[at + 1] as number) ?? 0);
    const value = pick(rng, [0, 1, 0xffff, old + 1, old - 1, old + 2, old - 2, int(rng, 0x10000), int(rng, 600)]) & 0xffff;
    out[at] = value >>> 8;
    if (at + 1 < out.length) out[at + 1] = value & 0xff;
    return out;
  },
  splice: (rng, a, b) => Uint8Array.from([...a.subarray(0, int(rng, a.length + 1)), ...b.subarray(int(rng, b.length + 1))]),
};
const mutationNames = Object.keys(mutations);

/** Per-run statistics, asserted at the end of each test. */
interface Tally {
  datagrams: number;
  accepted: number;
  reasons: Map<DropReason, number>;
  slowest: number;
  failures: string[];
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Decodes one datagram and checks the contract; problems are collected rather than thrown so one run reports them all. */
function check(bytes: Uint8Array, tally: Tally): void {
  tally.datagrams++;
  let result: ReturnType<typeof decodePacket>;
  const t0 = performance.now();
  try {
    result = decodePacket(bytes);
  } catch (e) {
    tally.failures.push(`decode threw ${String(e)} on ${hex(bytes)}`);
    return;
  }
  let ms = performance.now() - t0;
  // A GC pause or a busy CI machine can stall any single call; a genuinely slow input is slow every
  // time, so an over-budget decode is timed again and its best time counts.
  for (let retry = 0; retry < 3 && ms > MAX_DECODE_MS; retry++) {
    const t1 = performance.now();
    decodePacket(bytes);
    ms = Math.min(ms, performance.now() - t1);
  }
  if (ms > tally.slowest) tally.slowest = ms;
  if (!result.ok) {
    tally.reasons.set(result.reason, (tally.reasons.get(result.reason) ?? 0) + 1);
    return;
  }
  tally.accepted++;
  try {
    const again = encodePacket(result.packet);
    if (again.length !== bytes.length) tally.failures.push(`re-encoded to ${again.length} bytes, not ${bytes.length}: ${hex(bytes)}`);
    const second = decodePacket(again);
    if (!second.ok) tally.failures.push(`re-encoding was dropped (${second.reason}): ${hex(bytes)}`);
  } catch (e) {
    tally.failures.push(`accepted packet does not re-encode (${String(e)}): ${hex(bytes)}`);
  }
}

function newTally(): Tally {
  return { datagrams: 0, accepted: 0, reasons: new Map(), slowest: 0, failures: [] };
}

function expectHealthy(t: Tally): void {
  expect(t.failures.slice(0, 5)).toEqual([]);
  expect(t.slowest).toBeLessThan(MAX_DECODE_MS);
}

// Valid packets to mutate, from the shared arbitraries (fixed seed), plus a few hand-made edge packets.
const corpus: Uint8Array[] = fc.sample(arbPacket, { seed: SEED, numRuns: 400 }).map((p: Packet) => encodePacket(p));
{
  const header = fc.sample(arbPacket, { seed: SEED + 1, numRuns: 1 })[0]!.header;
  const text = (n: number): RemoteEvent => ({ type: 'sendText', text: 'x'.repeat(n) });
  corpus.push(encodePacket({ header, events: [] }));
  // Exactly 512 bytes: the bare packet, two 164-byte texts and one text (3 + 1 + n bytes) filling the rest.
  const bare = encodePacket({ header, events: [] }).length;
  corpus.push(encodePacket({ header, events: [text(160), text(160), text(MAX_DATAGRAM_BYTES - bare - 2 * 164 - 4)] }));
}

describe('decodePacket under fuzzing (fixed seed)', () => {
  it('the mutation corpus is valid and includes a full 512-byte datagram', () => {
    for (const bytes of corpus) expect(decodePacket(bytes).ok).toBe(true);
    expect(Math.max(...corpus.map((b) => b.length))).toBe(MAX_DATAGRAM_BYTES);
  });

  it(
    '40,000 random byte arrays of 0..600 bytes (bare, behind a valid magic and version, or behind a valid header) never throw',
    () => {
      const rng = prng(SEED);
      const t = newTally();
      for (let i = 0; i < 40_000; i++) {
        const bytes = randomBytes(rng, int(rng, 601));
        // Bare random bytes nearly always stop at the magic; the prefixed thirds get random bytes into the
        // header fields and into the event list.
        if (i % 3 === 1 && bytes.length >= 3) bytes.set([WIRE_MAGIC >>> 8, WIRE_MAGIC & 0xff, WIRE_VERSION]);
        if (i % 3 === 2 && bytes.length >= HEADER_SIZE) bytes.set(pick(rng, corpus).subarray(0, HEADER_SIZE));
        check(bytes, t);
      }
      expectHealthy(t);
      expect(t.datagrams).toBe(40_000);
      // The header-prefixed third reaches the event list.
      expect(t.reasons.get('unknown-event')).toBeGreaterThan(1_000);
      expect(t.reasons.size).toBeGreaterThanOrEqual(8);
    },
    TIMEOUT_MS,
  );

  it(
    '100,000 mutated valid packets (bit flips, truncation, insert/delete, length fields, splices, stacked) never throw, and what is accepted re-encodes',
    () => {
      const rng = prng(SEED + 2);
      const t = newTally();
      const perKind = new Map<string, number>();
      for (let i = 0; i < 100_000; i++) {
        let bytes = pick(rng, corpus);
        // A quarter of the datagrams stack two or three mutations.
        const rounds = rng() < 0.25 ? 2 + int(rng, 2) : 1;
        for (let k = 0; k < rounds; k++) {
          const name = pick(rng, mutationNames);
          perKind.set(name, (perKind.get(name) ?? 0) + 1);
          bytes = mutations[name]!(rng, bytes.length > 0 ? bytes : pick(rng, corpus), pick(rng, corpus));
        }
        check(bytes, t);
      }
      expectHealthy(t);
      expect(t.datagrams).toBe(100_000);
      for (const name of mutationNames) expect(perKind.get(name)).toBeGreaterThan(5_000);
      // Both paths get real exercise: plenty of mutants survive (float bits, ids...) and every reason occurs.
      expect(t.accepted).toBeGreaterThan(5_000);
      expect(t.reasons.size).toBe(DROP_REASONS.length);
    },
    TIMEOUT_MS,
  );
});
