/**
 * Wire extensions for the gameserver: the session token after the header
 * (flags bit 1), Relay packets with `relayed` events (nesting depth 1), and
 * the server's packing of states and events into Relay datagrams that never
 * exceed 1,200 bytes (MAX_RELAY_BYTES, wire v12; every other datagram 512).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATE } from '../../support/wireBytes';
import { MAX_DATAGRAM_BYTES } from '../../../src/shared/net/packetApi';
import {
  decodePacket,
  encodePacket,
  eventSize,
  FLAG_TOKEN,
  BASE_HEADER_SIZE,
  HEADER_SIZE,
  headerSize,
  TIME_SIZE,
  MAX_EVENT_PAYLOAD,
  MAX_RELAY_BYTES,
  MAX_WIRE_SLOTS,
  packetSize,
  PacketType,
  RELAYED_EVENT_CODE,
  RELAYED_OVERHEAD,
  TOKEN_SIZE,
  WireEncodeError,
} from '../../../src/shared/wire';
import type { Packet, PacketHeader, RemoteEvent } from '../../../src/shared/wire';
import { planRelays, relayPacket, serverHeader, type RelayItem } from '../../../src/node/servers/game/relay';
import { arbHeader, arbPacket, arbRemoteEvent, arbU32, expectWireEqual } from '../../support/wireArbitraries';

const arbTokenHeader: fc.Arbitrary<PacketHeader> = fc.tuple(arbHeader, arbU32).map(([h, token]) => ({ ...h, token }));
const arbWireSlot = fc.integer({ min: 0, max: MAX_WIRE_SLOTS - 1 });

/** A player's GameState as the server relays it: no token, its own slot. */
const arbInner: fc.Arbitrary<Packet> = fc.tuple(arbPacket, arbWireSlot).map(([p, slot]) => ({
  header: { ...p.header, type: PacketType.GameState, senderSlot: slot },
  events: p.events,
}));

/** A Relay packet: relayed inner packets while they fit in 512 bytes. */
const arbRelay: fc.Arbitrary<Packet> = fc.tuple(arbTokenHeader, fc.array(arbInner, { maxLength: 8 })).map(([h, inners]) => {
  const packet: Packet = { header: { ...h, type: PacketType.Relay }, events: [] };
  for (const inner of inners) {
    const event: RemoteEvent = { type: 'relayed', slot: inner.header.senderSlot, packet: inner };
    // A relayed payload is slot + length + inner: it must stay within MAX_EVENT_PAYLOAD like any event's.
    if (3 + packetSize(inner) <= MAX_EVENT_PAYLOAD && packetSize({ ...packet, events: [...packet.events, event] }) <= MAX_DATAGRAM_BYTES) packet.events.push(event);
  }
  return packet;
});

describe('session token (flags bit 1)', () => {
  it('round-trips at the end of the header (after the game time and ship state it carries), with flags bit 1 set and 4 bytes added', () => {
    fc.assert(
      fc.property(arbTokenHeader, fc.array(arbRemoteEvent, { maxLength: 3 }), (header, events) => {
        const packet = { header, events: events.filter((e) => e.type !== 'playerList' && e.type !== 'connectQueue') };
        if (packetSize(packet) > MAX_DATAGRAM_BYTES) return;
        const bytes = encodePacket(packet);
        expect(bytes.length).toBe(packetSize(packet));
        expect((bytes[5] as number) & FLAG_TOKEN).toBe(FLAG_TOKEN);
        const { inputs: _inputs, ...beforeInputs } = header;
        expect(new DataView(bytes.buffer).getUint32(headerSize(beforeInputs) - TOKEN_SIZE)).toBe(header.token);
        const r = decodePacket(bytes);
        expect(r.ok).toBe(true);
        if (r.ok) expectWireEqual(r.packet, packet);
      }),
      { numRuns: 300 },
    );
  });

  it('a header without a token has no token key and flags bit 1 clear', () => {
    fc.assert(
      fc.property(arbHeader, (header) => {
        const bytes = encodePacket({ header, events: [] });
        expect(bytes.length).toBe(headerSize(header) + 1);
        const r = decodePacket(bytes);
        expect(r.ok && 'token' in r.packet.header).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('a set bit 1 without room for the token is truncated', () => {
    const header = fc.sample(arbTokenHeader, { seed: 1, numRuns: 1 })[0]!;
    const bytes = encodePacket({ header, events: [] });
    const { inputs: _inputs, ...beforeInputs } = header;
    const end = headerSize(beforeInputs);
    for (const cut of [end - TOKEN_SIZE, end - TOKEN_SIZE + 1, end - 1, end]) {
      expect(decodePacket(bytes.subarray(0, cut))).toEqual({ ok: false, reason: 'truncated' });
    }
  });

  it('refuses a token that is not a u32', () => {
    const header = fc.sample(arbHeader, { seed: 2, numRuns: 1 })[0]!;
    expect(() => encodePacket({ header: { ...header, token: 2 ** 32 }, events: [] })).toThrow(/header\.token: 4294967296 is not a u32/);
  });
});

describe('Relay packets and relayed events', () => {
  it('round-trip, and a relayed event is its inner datagram plus 6 bytes', () => {
    fc.assert(
      fc.property(arbRelay, (packet) => {
        const bytes = encodePacket(packet);
        expect(bytes.length).toBe(packetSize(packet));
        expect(bytes.length).toBeLessThanOrEqual(MAX_DATAGRAM_BYTES);
        for (const e of packet.events) if (e.type === 'relayed') expect(eventSize(e)).toBe(RELAYED_OVERHEAD + packetSize(e.packet));
        const r = decodePacket(bytes);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expectWireEqual(r.packet, packet);
        // What a client got re-encodes to the same size.
        expect(encodePacket(r.packet).length).toBe(bytes.length);
      }),
      { numRuns: 200 },
    );
  });

  it('lays a relayed event out as [11][u16 length][slot][u16 length][inner datagram]', () => {
    // One inner datagram small enough to travel relayed (beside the outer header and token).
    const inner = fc.sample(arbInner.filter((p) => encodePacket(p).length <= 400), { seed: 3, numRuns: 1 })[0]!;
    const innerBytes = encodePacket(inner);
    const header = serverHeader(PacketType.Relay, 1, 2, 0xdeadbeef);
    const bytes = encodePacket({ header, events: [{ type: 'relayed', slot: inner.header.senderSlot, packet: inner }] });
    const at = BASE_HEADER_SIZE + TIME_SIZE + TOKEN_SIZE; // a server's header: its game time and the token, no ship
    const view = new DataView(bytes.buffer);
    expect(bytes[at]).toBe(RELAYED_EVENT_CODE);
    expect(view.getUint16(at + 1)).toBe(innerBytes.length + 3);
    expect(bytes[at + 3]).toBe(inner.header.senderSlot);
    expect(view.getUint16(at + 4)).toBe(innerBytes.length);
    expect([...bytes.subarray(at + 6, at + 6 + innerBytes.length)]).toEqual([...innerBytes]);
    expect(bytes.length).toBe(at + 6 + innerBytes.length + 1);
  });

  describe('nesting is refused (depth 1)', () => {
    const inner = fc.sample(arbInner, { seed: 4, numRuns: 1 })[0]!;
    const relayed = (packet: Packet, slot = packet.header.senderSlot): RemoteEvent => ({ type: 'relayed', slot, packet });
    const outer = (events: RemoteEvent[], type: PacketType = PacketType.Relay): Packet => ({ header: { ...inner.header, type }, events });

    it.each<[string, Packet, RegExp]>([
      ['a relayed event outside a Relay packet', outer([relayed(inner)], PacketType.GameState), /only travel in a Relay packet/],
      ['a relayed event inside a relayed packet', outer([relayed({ ...inner, events: [relayed(inner)] })]), /only travel in a Relay packet, never nested/],
      ['an inner packet that is not a GameState', outer([relayed({ ...inner, header: { ...inner.header, type: PacketType.NodeAlive } })]), /must be a GameState/],
      ['an inner packet with a token', outer([relayed({ ...inner, header: { ...inner.header, token: 1 } })]), /carries no session token/],
      ['an inner sender slot that is not the relayed slot', outer([relayed(inner, (inner.header.senderSlot + 1) % MAX_WIRE_SLOTS)]), /is not the relayed slot/],
    ])('encode refuses %s', (_what, packet, message) => {
      expect(() => encodePacket(packet)).toThrow(WireEncodeError);
      expect(() => encodePacket(packet)).toThrow(message);
    });

    it('decode drops any valid Relay whose inner packet is patched into a Relay or NodeAlive (bad-nesting) or given another slot (bad-slot)', () => {
      fc.assert(
        fc.property(arbRelay, fc.constantFrom(PacketType.Relay, PacketType.NodeAlive), (packet, type) => {
          if (packet.events.length === 0) return;
          const bytes = encodePacket(packet);
          const innerStart = headerSize(packet.header) + 6;
          const typed = bytes.slice();
          typed[innerStart + 3] = type;
          expect(decodePacket(typed)).toEqual({ ok: false, reason: 'bad-nesting' });
          const moved = bytes.slice();
          moved[innerStart - 3] = ((moved[innerStart - 3] as number) + 1) % MAX_WIRE_SLOTS;
          expect(decodePacket(moved)).toEqual({ ok: false, reason: 'bad-slot' });
        }),
        { numRuns: 100 },
      );
    });
  });
});

describe('planRelays: packing states and events into Relay datagrams', () => {
  const laser = (slot: number, id: number): RemoteEvent => ({ type: 'createLaser', id: (slot << 16) | id, pos: { x: 0, y: 0, z: 0 }, vel: { x: 1, y: 0, z: 0 }, ttl: 40 });
  const newest = (slot: number): PacketHeader => {
    // A player's newest game state: its ship and time (never a lockstep peer's inputs).
    const { inputs: _inputs, lockstep: _lockstep, ...h } = fc.sample(arbHeader, { seed: slot, numRuns: 1 })[0]!;
    return { ...h, type: PacketType.GameState, senderSlot: slot, gameTime: 1000 + slot, state: STATE, token: undefined };
  };
  const headers = new Map(Array.from({ length: MAX_WIRE_SLOTS }, (_, s) => [s, newest(s)]));
  const header = serverHeader(PacketType.Relay, 7, 8, 123);
  const build = (items: RelayItem[], max: number) => {
    const plan = planRelays(items, HEADER_SIZE + TOKEN_SIZE, max);
    return { plan, packets: plan.datagrams.map((d) => relayPacket(header, d, (s) => headers.get(s) ?? null)) };
  };

  it("fifteen players' states go out in one Relay of about a kilobyte (wire v12; two datagrams at 512 bytes), which a client decodes; a 1,201-byte Relay or a 513-byte GameState is too large", () => {
    const items: RelayItem[] = Array.from({ length: 15 }, (_, from) => ({ from, event: null, size: 0, stream: 3 }));
    const { packets } = build(items, 4);
    expect(packets).toHaveLength(1);
    const bytes = encodePacket(packets[0] as Packet);
    console.log(`15 states in one Relay: ${bytes.length} bytes (MAX_RELAY_BYTES ${MAX_RELAY_BYTES}, other datagrams ${MAX_DATAGRAM_BYTES})`);
    expect(bytes.length).toBeGreaterThan(MAX_DATAGRAM_BYTES);
    const back = decodePacket(bytes);
    expect(back.ok && back.packet.events.map((e) => (e.type === 'relayed' ? e.slot : -1))).toEqual([...Array(15).keys()]);
    const padded = (type: PacketType, n: number) => Uint8Array.from([...bytes.slice(0, 3), type, ...new Array<number>(n - 4).fill(0)]);
    expect(decodePacket(padded(PacketType.Relay, MAX_RELAY_BYTES + 1))).toEqual({ ok: false, reason: 'too-large' });
    expect(decodePacket(padded(PacketType.GameState, MAX_DATAGRAM_BYTES + 1))).toEqual({ ok: false, reason: 'too-large' });
    expect(() => encodePacket({ header: { type: PacketType.GameState, senderSlot: 0, messageId: 1, joined: false }, events: Array.from({ length: 20 }, () => ({ type: 'sendText' as const, text: 'x'.repeat(40) })) })).toThrow(/more than MAX_DATAGRAM_BYTES \(512\)/);
  });

  const arbItems: fc.Arbitrary<RelayItem[]> = fc.array(
    fc.oneof(
      arbWireSlot.map((from): RelayItem => ({ from, event: null, size: 0, stream: 3 })),
      fc.tuple(arbWireSlot, arbRemoteEvent, fc.integer({ min: 0, max: 2 })).filter(([, e]) => e.type !== 'playerList' && e.type !== 'connectQueue').map(([from, event, stream]): RelayItem => ({ from, event, size: eventSize(event), stream })),
    ),
    { maxLength: 60 },
  );

  it('never builds a datagram over 1,200 bytes (MAX_RELAY_BYTES); each decodes; every placed item appears exactly once, in stream order', () => {
    fc.assert(
      fc.property(arbItems, fc.integer({ min: 1, max: 20 }), (items, max) => {
        const { plan, packets } = build(items, max);
        expect(packets.length).toBeLessThanOrEqual(max);
        const got: string[] = [];
        for (const p of packets) {
          const bytes = encodePacket(p);
          expect(bytes.length).toBeLessThanOrEqual(MAX_RELAY_BYTES);
          expect(decodePacket(bytes).ok).toBe(true);
          for (const e of p.events) if (e.type === 'relayed') for (const x of e.packet.events) got.push(`${e.slot}:${JSON.stringify(x)}`);
        }
        const placedEvents = items.filter((it, i) => plan.placed[i] && it.event !== null).map((it) => `${it.from}:${JSON.stringify(it.event)}`);
        expect([...got].sort()).toEqual([...placedEvents].sort());
        // Within one (player, stream), the placed items come out in the order given, and nothing after an unplaced one.
        const streams = new Map<string, number[]>();
        items.forEach((it, i) => streams.set(`${it.from}:${it.stream}`, [...(streams.get(`${it.from}:${it.stream}`) ?? []), i]));
        for (const idx of streams.values()) {
          const firstMissing = idx.findIndex((i) => !plan.placed[i]);
          if (firstMissing >= 0) expect(idx.slice(firstMissing).every((i) => !plan.placed[i])).toBe(true);
        }
        // With room to spare, everything is placed.
        if (max === 20 && items.length <= 20) expect(plan.placed.every(Boolean)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('40 players’ states fill 2 datagrams (22 + 18), the fewest possible', () => {
    const items: RelayItem[] = Array.from({ length: 40 }, (_, from) => ({ from, event: null, size: 0, stream: 3 }));
    const { packets } = build(items, 32);
    expect(packets.map((p) => p.events.length)).toEqual([22, 18]);
    for (const p of packets) expect(encodePacket(p).length).toBeLessThanOrEqual(MAX_RELAY_BYTES);
  });

  it('puts a player’s events into the datagram that already carries it, and a state into an events-only carrier', () => {
    const items: RelayItem[] = [
      { from: 1, event: laser(1, 1), size: 33, stream: 0 },
      { from: 2, event: null, size: 0, stream: 3 },
      { from: 1, event: null, size: 0, stream: 3 },
    ];
    const { packets } = build(items, 4);
    expect(packets).toHaveLength(1);
    const inners = packets[0]!.events.map((e) => (e.type === 'relayed' ? [e.slot, e.packet.header.joined === headers.get(e.slot)!.joined, e.packet.events.length] : []));
    expect(inners).toEqual([
      [1, true, 1],
      [2, true, 0],
    ]);
  });

  it('with a budget of one datagram, what does not fit waits (placed stays false)', () => {
    const items: RelayItem[] = Array.from({ length: 40 }, (_, i) => ({ from: 3, event: laser(3, i), size: 33, stream: 0 }));
    const { plan, packets } = build(items, 1);
    expect(packets).toHaveLength(1);
    // One player's relayed event holds at most 3 + MAX_EVENT_PAYLOAD = 457 bytes: 61 (inner) + 12 × 33 = 457; a 13th laser would make 490.
    expect(plan.placed.filter(Boolean)).toHaveLength(12);
    expect(plan.placed.slice(0, 12).every(Boolean)).toBe(true);
  });

  it("one player's many events go out 12 lasers to a datagram (its relayed event at most an event payload), all of them, in order", () => {
    const items: RelayItem[] = Array.from({ length: 40 }, (_, i) => ({ from: 3, event: laser(3, i), size: 33, stream: 0 }));
    const { plan, packets } = build(items, 8);
    expect(plan.placed.every(Boolean)).toBe(true);
    expect(packets.map((p) => (p.events[0]?.type === 'relayed' ? p.events[0].packet.events.length : 0))).toEqual([12, 12, 12, 4]);
    const ids = packets.flatMap((p) => {
      const back = decodePacket(encodePacket(p));
      if (!back.ok) throw new Error(back.reason);
      return back.packet.events.flatMap((e) => (e.type === 'relayed' ? e.packet.events.map((x) => (x.type === 'createLaser' ? x.id & 0xffff : -1)) : []));
    });
    expect(ids).toEqual([...Array(40).keys()]);
  });
});

describe('a relayed state encoded once (a frozen header, events.ts)', () => {
  /** `h` frozen as a gameserver seat freezes its newest state (seat.ts): the header, its ship state and vectors. */
  const frozen = (h: PacketHeader): PacketHeader => {
    const st = h.state;
    if (st) for (const part of [st.pos, st.rot, st.vel, st.angVel, st]) Object.freeze(part);
    return Object.freeze(h);
  };
  const copy = (h: PacketHeader): PacketHeader => structuredClone(h);
  const relayOf = (inners: Packet[]): Packet => ({ header: serverHeader(PacketType.Relay, 9, 1, 0xfeed), events: inners.map((p) => ({ type: 'relayed', slot: p.header.senderSlot, packet: p })) });

  it('a Relay of frozen states encodes to the bytes of the same states unfrozen, however often it is encoded, and sizes agree', () => {
    fc.assert(
      fc.property(fc.array(arbInner, { minLength: 1, maxLength: 6 }), (inners) => {
        const states = inners.map((p) => ({ header: p.header, events: [] }));
        const plain = relayOf(states.map((p) => ({ header: copy(p.header), events: [] })));
        if (packetSize(plain) > MAX_DATAGRAM_BYTES) return;
        const once = relayOf(states.map((p) => ({ header: frozen(copy(p.header)), events: [] })));
        const expected = encodePacket(plain);
        expect(packetSize(once)).toBe(expected.length);
        expect(encodePacket(once)).toEqual(expected);
        expect(encodePacket(once)).toEqual(expected);
      }),
    );
  });

  it("a player's next state is a new header and is encoded anew; a state with events, or a carrier, is never taken from the kept bytes", () => {
    const first = frozen(copy({ ...STATE_HEADER, senderSlot: 3 }));
    const next = frozen(copy({ ...STATE_HEADER, senderSlot: 3, messageId: STATE_HEADER.messageId + 1, state: { ...STATE, pos: { x: 9, y: 9, z: 9 } } }));
    const bytesOf = (p: Packet) => encodePacket(relayOf([p]));
    expect(bytesOf({ header: first, events: [] })).not.toEqual(bytesOf({ header: next, events: [] }));
    expect(decodePacket(bytesOf({ header: next, events: [] }))).toMatchObject({ ok: true, packet: { events: [{ packet: { header: { state: { pos: { x: 9, y: 9, z: 9 } } } } }] } });
    const withEvent: Packet = { header: first, events: [{ type: 'killObject', id: (3 << 16) | 1, killerSlot: 255 }] };
    expect(bytesOf(withEvent)).toEqual(bytesOf({ header: copy(first), events: withEvent.events }));
  });
});

const STATE_HEADER: PacketHeader = { type: PacketType.GameState, senderSlot: 0, messageId: 70_000, gameTime: 123_456, joined: true, state: STATE };
