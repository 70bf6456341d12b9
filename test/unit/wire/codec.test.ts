import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DATAGRAM_BYTES } from '../../../src/shared/net/packetApi';
import {
  decodePacket,
  encodePacket,
  EVENT_CODES,
  eventSize,
  fillPacket,
  HEADER_SIZE,
  headerSize,
  MAX_EVENT_PAYLOAD,
  MAX_NAME_LENGTH,
  MAX_QUEUE,
  MAX_SLOTS,
  MAX_TEXT_BYTES,
  NO_SLOT,
  packetSize,
  PacketType,
  WireEncodeError,
} from '../../../src/shared/wire';
import type { Packet, PacketHeader, PlayerEntry, RemoteEvent, WireAddr } from '../../../src/shared/wire';
import { arbEventOf, arbHeader, arbPacket, arbRemoteEvent, expectWireEqual } from '../../support/wireArbitraries';
import { be16, be32, f32, ascii, STATE, HEADER, HEADER_BYTES, v4, v6, addr } from '../../support/wireBytes';


describe('wire layout (golden bytes)', () => {
  it('a game state\'s header is 44 bytes laid out field by field as in the protocol table (a full compact state, wire v13)', () => {
    expect(HEADER_SIZE).toBe(44);
    expect(HEADER_BYTES).toHaveLength(HEADER_SIZE);
    const bytes = encodePacket({ header: HEADER, events: [] });
    expect([...bytes]).toEqual([...HEADER_BYTES, 0x00]);
    expect(packetSize({ header: HEADER, events: [] })).toBe(HEADER_SIZE + 1);
  });

  it('a header without a game time or ship state is the 10-byte base; each adds its bytes and its flag (wire v10)', () => {
    const base: PacketHeader = { type: PacketType.NodeAlive, senderSlot: 2, messageId: 0x01020304, joined: false };
    expect([...encodePacket({ header: base, events: [] })]).toEqual([0x53, 0x4c, 0x0f, PacketType.NodeAlive, 0x02, 0x00, 0x01, 0x02, 0x03, 0x04, 0x00]);
    const timed = encodePacket({ header: { ...base, type: PacketType.Ping, gameTime: 0x0a0b0c0d }, events: [] });
    expect([...timed]).toEqual([0x53, 0x4c, 0x0f, PacketType.Ping, 0x02, 0x08, 0x01, 0x02, 0x03, 0x04, 0x0a, 0x0b, 0x0c, 0x0d, 0x00]);
    const tokened = encodePacket({ header: { ...base, token: 0xdeadbeef }, events: [] });
    expect([...tokened]).toEqual([0x53, 0x4c, 0x0f, PacketType.NodeAlive, 0x02, 0x02, 0x01, 0x02, 0x03, 0x04, 0xde, 0xad, 0xbe, 0xef, 0x00]);
    const back = decodePacket(tokened);
    expect(back.ok && back.packet.header).toEqual({ ...base, token: 0xdeadbeef });
  });

  it('event type codes are 1..10 in the order of the 1998 events, matchState is 14 (after the envelopes 11..13), asteroidBreaks 15, lockstepStatus 16, lockstepState 17, the netgame messages 18..24, playerLook 25, solarSystem 26 and jumpTicket 27', () => {
    expect(Object.entries(EVENT_CODES)).toEqual([
      ['createObject', 1],
      ['createLaser', 2],
      ['createMissile', 3],
      ['createExtra', 4],
      ['killObject', 5],
      ['sendText', 6],
      ['playerName', 7],
      ['particleObject', 8],
      ['playerList', 9],
      ['connectQueue', 10],
      ['matchState', 14],
      ['asteroidBreaks', 15],
      ['lockstepStatus', 16],
      ['lockstepState', 17],
      ['controlChange', 18],
      ['gameMoves', 19],
      ['movesAck', 20],
      ['stateDiff', 21],
      ['stateAck', 22],
      ['lateControl', 23],
      ['netgameWelcome', 24],
      ['playerLook', 25],
      ['solarSystem', 26],
      ['jumpTicket', 27],
    ]);
  });

  it('events are [type][u16 length][payload] and the list ends with a 0 byte', () => {
    const events: RemoteEvent[] = [
      { type: 'killObject', id: 0x0003002a, killerSlot: NO_SLOT },
      { type: 'sendText', text: 'hé' },
      { type: 'createLaser', id: 7, pos: { x: 1, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -2 }, ttl: 300 },
      {
        type: 'playerList',
        players: [{ slot: 1, joined: true, addr: addr(v4(10, 0, 0, 2, 6526)), name: 'Ann' }],
      },
      { type: 'connectQueue', addrs: [addr(v4(10, 0, 0, 3, 6527))] },
    ];
    const expected = [
      ...HEADER_BYTES,
      ...[0x05, 0x00, 0x05, 0x00, 0x03, 0x00, 0x2a, 0xff],
      ...[0x06, 0x00, 0x04, 0x03, 0x68, 0xc3, 0xa9],
      ...[0x02, 0x00, 0x1e, ...be32(7), ...f32(1), ...f32(0), ...f32(0), ...f32(0), ...f32(0), ...f32(-2), ...be16(300)],
      ...[0x09, 0x00, 0x0f, 0x01, 0x01, 0x01, 0x07, ...v4(10, 0, 0, 2, 6526), 0x03, ...ascii('Ann')],
      ...[0x0a, 0x00, 0x09, 0x01, 0x07, ...v4(10, 0, 0, 3, 6527)],
      0x00,
    ];
    expect([...encodePacket({ header: HEADER, events })]).toEqual(expected);
    expect(events.map(eventSize)).toEqual([8, 7, 33, 18, 12]);
  });

  it('a decoded datagram does not share memory with the received bytes, even inside a larger buffer', () => {
    const inner = encodePacket({ header: HEADER, events: [{ type: 'connectQueue', addrs: [addr(v4(1, 2, 3, 4, 5))] }] });
    const big = new Uint8Array(inner.length + 10);
    big.set(inner, 5);
    const r = decodePacket(big.subarray(5, 5 + inner.length));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    big.fill(0);
    const e = r.packet.events[0];
    expect(e?.type === 'connectQueue' && [...(e.addrs[0] ?? [])]).toEqual(v4(1, 2, 3, 4, 5));
  });
});

describe('round trip', () => {
  it('decode(encode(header)) gives the header back (rotation and angular rate within their precision)', () => {
    fc.assert(
      fc.property(arbHeader, (header) => {
        const bytes = encodePacket({ header, events: [] });
        expect(bytes.length).toBe(headerSize(header) + 1);
        const r = decodePacket(bytes);
        expect(r.ok).toBe(true);
        if (r.ok) expectWireEqual(r.packet, { header, events: [] });
      }),
      { numRuns: 300 },
    );
  });

  for (const [type, arb] of Object.entries(arbEventOf)) {
    it(`decode(encode(${type})) gives the event back and eventSize is its exact size`, () => {
      fc.assert(
        fc.property(arbHeader, arb as fc.Arbitrary<RemoteEvent>, (header, event) => {
          const bytes = encodePacket({ header, events: [event] });
          expect(bytes.length).toBe(headerSize(header) + eventSize(event) + 1);
          const r = decodePacket(bytes);
          expect(r.ok).toBe(true);
          if (r.ok) expectWireEqual(r.packet, { header, events: [event] });
        }),
        { numRuns: 150 },
      );
    });
  }

  it('whole packets round-trip, packetSize is the encoded length, and a decoded packet re-encodes to the same size', () => {
    fc.assert(
      fc.property(arbPacket, (packet) => {
        const bytes = encodePacket(packet);
        expect(bytes.length).toBe(packetSize(packet));
        expect(bytes.length).toBeLessThanOrEqual(MAX_DATAGRAM_BYTES);
        const r = decodePacket(bytes);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expectWireEqual(r.packet, packet);
        // A relay forwarding what it received: same size, same content (renormalised rotations may move by one i16 step).
        const again = encodePacket(r.packet);
        expect(again.length).toBe(bytes.length);
        const r2 = decodePacket(again);
        expect(r2.ok).toBe(true);
        if (r2.ok) expectWireEqual(r2.packet, r.packet);
      }),
      { numRuns: 300 },
    );
  });

  it('rotations come back unit length as the same rotation (q or −q); rates clamp to ±32.767; energy rounds to whole percent', () => {
    const s = 1 / Math.sqrt(2);
    const header: PacketHeader = {
      ...HEADER,
      state: { ...STATE, rot: { x: 0, y: -s, z: 0, w: -s }, angVel: { x: 100, y: -1e9, z: 0.0004 }, energy: 42.6, damage: 0.4 },
    };
    const r = decodePacket(encodePacket({ header, events: [] }));
    if (!r.ok) throw new Error(r.reason);
    const { rot, angVel, energy, damage } = r.packet.header.state!;
    expect(Math.hypot(rot.x, rot.y, rot.z, rot.w)).toBeCloseTo(1, 12);
    // The largest component is sent positive: this rotation comes back as −q.
    expect(rot.y).toBeCloseTo(s, 4);
    expect(rot.w).toBeCloseTo(s, 4);
    expect(angVel).toEqual({ x: 32.767, y: -32.767, z: 0 });
    expect([energy, damage]).toEqual([43, 0]);
    // A non-unit local quaternion is normalised before it is quantised; zero components are exact.
    const scaled = decodePacket(encodePacket({ header: { ...HEADER, state: { ...STATE, rot: { x: 0, y: 0, z: 3, w: 0 } } }, events: [] }));
    expect(scaled.ok && scaled.packet.header.state?.rot).toEqual({ x: 0, y: 0, z: 1, w: 0 });
  });
});

describe('limits', () => {
  const name16 = 'Sixteen-char-nm!';
  const fullPlayerList: RemoteEvent = {
    type: 'playerList',
    players: Array.from({ length: MAX_SLOTS }, (_, i): PlayerEntry => ({ slot: i, joined: true, addr: addr(v6(i, 6526 + i)), name: name16 })),
  };
  const fullQueue: RemoteEvent = { type: 'connectQueue', addrs: Array.from({ length: MAX_QUEUE }, (_, i) => addr(v6(i, 6526))) };
  const longestText: RemoteEvent = { type: 'sendText', text: 'ü'.repeat(MAX_TEXT_BYTES / 2) };

  it('MAX_EVENT_PAYLOAD is the room an empty datagram leaves for one event', () => {
    expect(MAX_EVENT_PAYLOAD).toBe(MAX_DATAGRAM_BYTES - HEADER_SIZE - 3 - 1);
  });

  it('the largest possible events each fit in one packet with the header', () => {
    expect(name16).toHaveLength(MAX_NAME_LENGTH);
    // 1 count + 8 × (slot 1 + flags 1 + addr 1+19 + name 1+16)
    expect(eventSize(fullPlayerList)).toBe(3 + 1 + 8 * 39);
    // 1 count + 16 × (1+19): the biggest event of all
    expect(eventSize(fullQueue)).toBe(3 + 1 + 16 * 20);
    expect(eventSize(longestText)).toBe(3 + 1 + MAX_TEXT_BYTES);
    for (const event of [fullPlayerList, fullQueue, longestText]) {
      expect(eventSize(event) - 3).toBeLessThanOrEqual(MAX_EVENT_PAYLOAD);
      const bytes = encodePacket({ header: HEADER, events: [event] });
      expect(bytes.length).toBeLessThanOrEqual(MAX_DATAGRAM_BYTES);
      expect(decodePacket(bytes).ok).toBe(true);
    }
  });
});

describe('fillPacket', () => {
  const laser = (id: number): RemoteEvent => ({ type: 'createLaser', id, pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -1 }, ttl: 40 });

  it('takes events from the front in order, never exceeds 512 bytes, and leaves the rest queued', () => {
    fc.assert(
      fc.property(arbHeader, fc.array(arbRemoteEvent, { maxLength: 30 }), (header, queue) => {
        const { packet, taken } = fillPacket(header, queue);
        expect(packet.events).toEqual(queue.slice(0, taken));
        expect(packet.header).toBe(header);
        const size = encodePacket(packet).length;
        expect(size).toBeLessThanOrEqual(MAX_DATAGRAM_BYTES);
        // It stopped only because the next event did not fit.
        const next = queue[taken];
        if (next !== undefined) expect(size + eventSize(next)).toBeGreaterThan(MAX_DATAGRAM_BYTES);
        // A non-empty queue always makes progress.
        if (queue.length > 0) expect(taken).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('stops at the first event that does not fit even if a later one would, so order is kept', () => {
    const big: RemoteEvent = { type: 'sendText', text: 'x'.repeat(MAX_TEXT_BYTES) };
    const queue = [...Array.from({ length: 10 }, (_, i) => laser(i)), big, laser(99)];
    const { packet, taken } = fillPacket(HEADER, queue);
    // 45 + 10 × 33 = 375; the 164-byte text would make 539.
    expect(taken).toBe(10);
    expect(packetSize(packet)).toBe(375);
    const second = fillPacket(HEADER, queue.slice(taken));
    expect(second.taken).toBe(2);
  });

  it('honours a smaller maxBytes, caps a larger one at 512, and refuses one too small for the header', () => {
    const queue = Array.from({ length: 40 }, (_, i) => laser(i));
    expect(fillPacket(HEADER, queue, HEADER_SIZE + 1 + 33 * 2).taken).toBe(2);
    expect(fillPacket(HEADER, queue, HEADER_SIZE + 1 + 33 * 2 - 1).taken).toBe(1);
    expect(fillPacket(HEADER, queue, 10_000).taken).toBe(Math.floor((MAX_DATAGRAM_BYTES - HEADER_SIZE - 1) / 33));
    expect(fillPacket(HEADER, []).taken).toBe(0);
    expect(() => fillPacket(HEADER, queue, HEADER_SIZE)).toThrow(/no room for the 45-byte header/);
  });
});

describe('encode refuses invalid local data with a message naming the field', () => {
  const withState = (patch: Partial<PacketHeader['state']>): Packet => ({ header: { ...HEADER, state: { ...STATE, ...patch } }, events: [] });
  const withHeader = (patch: Partial<PacketHeader>): Packet => ({ header: { ...HEADER, ...patch }, events: [] });
  const withEvent = (event: unknown): Packet => ({ header: HEADER, events: [event as RemoteEvent] });
  const a4 = addr(v4(1, 2, 3, 4, 5));
  const player = (slot: number, name = 'Bo'): PlayerEntry => ({ slot, joined: true, addr: a4, name });

  const cases: [string, Packet, RegExp][] = [
    ['NaN position', withState({ pos: { x: NaN, y: 0, z: 0 } }), /header\.state\.pos\.x: NaN is not a finite number/],
    ['position beyond 1e6', withState({ pos: { x: 0, y: 0, z: 1.5e6 } }), /header\.state\.pos\.z: 1500000 is outside ±1000000/],
    ['velocity beyond the compact state\'s ±2,047 units/s', withState({ vel: { x: 2048, y: 0, z: 0 } }), /header\.state\.vel\.x: 2048 is outside ±2047/],
    ['zero quaternion', withState({ rot: { x: 0, y: 0, z: 0, w: 0 } }), /header\.state\.rot: quaternion has zero length/],
    ['infinite angular rate', withState({ angVel: { x: Infinity, y: 0, z: 0 } }), /header\.state\.angVel\.x: Infinity is not a finite number/],
    ['energy 101', withState({ energy: 101 }), /header\.state\.energy: 101 is not a percentage/],
    ['negative damage', withState({ damage: -1 }), /header\.state\.damage: -1 is not a percentage/],
    ['sender slot 256', withHeader({ senderSlot: 256 }), /header\.senderSlot: 256 is not a slot \(0\.\.254\) or NO_SLOT \(255\)/],
    ['negative message id', withHeader({ messageId: -1 }), /header\.messageId: -1 is not a u32/],
    ['fractional game time', withHeader({ gameTime: 1.5 }), /header\.gameTime: 1\.5 is not a u32/],
    ['unknown packet type', withHeader({ type: 42 as PacketType }), /header\.type: 42 is not a PacketType/],
    ['unknown event type', withEvent({ type: 'teleport' }), /events\[0\]: teleport is not a remote event type/],
    ['ttl above u16', withEvent({ type: 'createLaser', id: 1, pos: STATE.pos, vel: STATE.vel, ttl: 70000 }), /events\[0\] \(createLaser\)\.ttl: 70000 is not a u16/],
    ['killer slot 256', withEvent({ type: 'killObject', id: 1, killerSlot: 256 }), /events\[0\] \(killObject\)\.killerSlot: 256 is not a slot/],
    ['a score off its page', withEvent({ type: 'matchState', round: 0, phase: 0, killLimit: 0, timeLimitS: 0, msLeft: 0, msPlayed: 0, page: 1, scores: [{ slot: 3, kills: 0, deaths: 0 }] }), /slot 3 is not on score page 1 \(slots 64\.\.127\)/],
    ['kind 256', withEvent({ type: 'createExtra', id: 1, kind: 256, pos: STATE.pos }), /\(createExtra\)\.kind: 256 is not a u8/],
    ['text over MAX_TEXT_BYTES', withEvent({ type: 'sendText', text: 'é'.repeat(81) }), /\(sendText\)\.text: text is 162 UTF-8 bytes, more than MAX_TEXT_BYTES \(160\)/],
    ['text with a newline', withEvent({ type: 'sendText', text: 'a\nb' }), /text contains the control character U\+000a/],
    ['text with a lone surrogate', withEvent({ type: 'sendText', text: 'a\ud800' }), /lone surrogate/],
    ['name over MAX_NAME_LENGTH', withEvent({ type: 'playerName', name: 'a'.repeat(17) }), /\(playerName\)\.name: name "a{17}" is 17 characters, not 1\.\.16/],
    ['empty name', withEvent({ type: 'playerName', name: '' }), /is 0 characters/],
    ['non-ASCII name', withEvent({ type: 'playerName', name: 'Zoë' }), /outside printable ASCII/],
    ['name with a trailing space', withEvent({ type: 'playerName', name: 'Bo ' }), /starts or ends with a space/],
    ['duplicate slots', withEvent({ type: 'playerList', players: [player(1), player(1)] }), /\(playerList\)\.players: slot 1 appears twice/],
    ['bad name inside the player list', withEvent({ type: 'playerList', players: [player(0), player(1, ' x')] }), /\(playerList\)\.players\[1\]\.name: name " x" starts or ends/],
    ['too many players', withEvent({ type: 'playerList', players: Array.from({ length: 9 }, (_, i) => player(i % 8)) }), /players: list has 9 items, more than 8/],
    ['bad address', withEvent({ type: 'connectQueue', addrs: [addr([6, 1, 2, 3, 4, 0, 5])] }), /\(connectQueue\)\.addrs\[0\]: address of 7 bytes starting with 6/],
    ['queue over MAX_QUEUE', withEvent({ type: 'connectQueue', addrs: new Array<WireAddr>(17).fill(a4) }), /addrs: list has 17 items, more than 16/],
    [
      'packet over 512 bytes',
      { header: HEADER, events: Array.from({ length: 4 }, () => ({ type: 'sendText', text: 'x'.repeat(MAX_TEXT_BYTES) }) as RemoteEvent) },
      /packet is 701 bytes, more than MAX_DATAGRAM_BYTES \(512\); build it with fillPacket/,
    ],
  ];

  for (const [what, packet, message] of cases) {
    it(what, () => {
      expect(() => encodePacket(packet)).toThrow(WireEncodeError);
      expect(() => encodePacket(packet)).toThrow(message);
    });
  }

  it('packetSize validates the same way but reports sizes above 512 instead of refusing them', () => {
    expect(() => packetSize(withState({ energy: NaN }))).toThrow(/energy/);
    expect(packetSize(cases[cases.length - 1]![1])).toBe(701);
  });
});
