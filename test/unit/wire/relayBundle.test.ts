/**
 * Relay datagrams written straight into bytes (wire/relayBundle.ts), the
 * gameserver's forwarding of states: whatever states a bundle carries, its
 * datagram is byte for byte the one encodePacket writes for the same Relay
 * packet, a client decodes every state exactly as the encoder would give it,
 * and a bundle never writes past MAX_RELAY_BYTES.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbPacket, arbShipState, arbSlot, arbU32 } from '../../support/wireArbitraries';
import { decodePacket, encodePacket, MAX_RELAY_BYTES, PacketType, SERVER_HEADER_SIZE, writeServerHeader } from '../../../src/shared/wire';
import { RelayBundle, relayedStateBytes } from '../../../src/shared/wire/relayBundle';
import { serverHeader } from '../../../src/node/servers/game/relay';
import type { Packet, PacketHeader } from '../../../src/shared/wire';
import type { RelayMessage } from '../../../src/shared/wire/channels';

const arbInner: fc.Arbitrary<PacketHeader> = fc.record({
  type: fc.constant(PacketType.GameState),
  senderSlot: arbSlot,
  messageId: arbU32,
  gameTime: arbU32,
  joined: fc.boolean(),
  state: arbShipState,
});

describe('the server header written field by field', () => {
  it('is the header the codec writes for the same Relay, Ping or Pong', () => {
    fc.assert(
      fc.property(fc.constantFrom(PacketType.Relay, PacketType.Ping, PacketType.Pong), arbU32, arbU32, arbU32, (type, id, time, token) => {
        const buf = new Uint8Array(SERVER_HEADER_SIZE);
        expect(writeServerHeader(buf, type, id, time, token)).toBe(SERVER_HEADER_SIZE);
        // The codec's datagram is the header and the event list's terminator.
        expect([...buf, 0]).toEqual([...encodePacket({ header: serverHeader(type, id, time, token), events: [] })]);
      }),
    );
  });
});

describe('what a gameserver encodes once and keeps (frozen headers and events)', () => {
  it('is written as the same packet unfrozen would be, however often', () => {
    fc.assert(
      fc.property(arbPacket.filter((p) => p.header.type !== PacketType.Relay), (packet) => {
        const plain = encodePacket(packet);
        const frozen: Packet = { ...packet, events: packet.events.map((e) => Object.freeze({ ...e })) };
        expect([...encodePacket(frozen)]).toEqual([...plain]);
        expect([...encodePacket(frozen)]).toEqual([...plain]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a relayed player written from kept bytes (its frozen header and events)', () => {
  it('is the Relay the codec writes unfrozen, or refused the same way', () => {
    const arbRelayed = fc.tuple(arbInner, arbPacket.filter((p) => p.header.type !== PacketType.Relay));
    let written = 0;
    fc.assert(
      fc.property(fc.array(arbRelayed, { minLength: 1, maxLength: 3 }), arbU32, (players, id) => {
        const relay = (freeze: boolean): Packet => ({
          header: serverHeader(PacketType.Relay, id, 0, 7),
          events: players.map(([h, p]): RelayMessage => {
            const header = freeze ? Object.freeze({ ...h }) : h;
            const events = freeze ? p.events.map((e) => Object.freeze({ ...e })) : p.events;
            return { type: 'relayed', slot: h.senderSlot, packet: { header, events } };
          }),
        });
        const encode = (p: Packet) => {
          try {
            return [...encodePacket(p)];
          } catch (e) {
            return (e as Error).constructor.name;
          }
        };
        const plain = encode(relay(false));
        if (Array.isArray(plain)) written += 1;
        expect(encode(relay(true))).toEqual(plain);
      }),
      { numRuns: 200 },
    );
    // Most Relays are valid ones (the rest are refused alike: a relayed player over an event's payload).
    expect(written).toBeGreaterThan(100);
  });
});

describe('a relay bundle', () => {
  it('writes the datagram encodePacket writes for the same states, and a client reads each state as sent', () => {
    fc.assert(
      fc.property(fc.uniqueArray(arbInner, { minLength: 1, maxLength: 20, selector: (h) => h.senderSlot }), arbU32, arbU32, arbU32, (inners, id, time, token) => {
        const bundle = new RelayBundle();
        bundle.begin(id, time, token);
        for (const h of inners) bundle.add(relayedStateBytes(h));
        expect(bundle.events).toBe(inners.length);
        const bytes = bundle.finish();
        const events: RelayMessage[] = inners.map((h) => ({ type: 'relayed', slot: h.senderSlot, packet: { header: h, events: [] } }));
        const packet: Packet = { header: serverHeader(PacketType.Relay, id, time, token), events };
        expect([...bytes]).toEqual([...encodePacket(packet)]);
        const read = decodePacket(bytes);
        expect(read.ok).toBe(true);
        const expected = decodePacket(encodePacket(packet));
        if (read.ok && expected.ok) expect(read.packet).toEqual(expected.packet);
      }),
      { numRuns: 60 },
    );
  });

  it('says when a state no longer fits and never writes past 1,200 bytes', () => {
    const h: PacketHeader = { type: PacketType.GameState, senderSlot: 3, messageId: 9, gameTime: 100, joined: true, state: { pos: { x: 1, y: 2, z: 3 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 50, damage: 0 } };
    const state = relayedStateBytes(h);
    const bundle = new RelayBundle();
    expect(bundle.fits(state.length)).toBe(false);
    bundle.begin(1, 2, 3);
    let n = 0;
    while (bundle.fits(state.length)) {
      bundle.add(state);
      n += 1;
    }
    expect(() => bundle.add(state)).toThrow(/does not fit/);
    const bytes = bundle.finish();
    expect(bytes.length).toBeLessThanOrEqual(MAX_RELAY_BYTES);
    expect(bytes.length + state.length).toBeGreaterThan(MAX_RELAY_BYTES);
    expect(n).toBe(Math.floor((MAX_RELAY_BYTES - SERVER_HEADER_SIZE - 1) / state.length));
    expect(bundle.open).toBe(false);
  });

  it('continues an encoded Relay after its own events, and nothing else (a Reliable of acknowledgements stays as it is)', () => {
    const h: PacketHeader = { type: PacketType.GameState, senderSlot: 4, messageId: 2, gameTime: 50, joined: true, state: { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 90, damage: 0 } };
    const bundle = new RelayBundle();
    const reliable = encodePacket({ header: serverHeader(PacketType.Reliable, 5, 6, 7), events: [], link: { acks: [1, 2] } });
    expect(bundle.resume(reliable)).toBe(false);
    expect(bundle.open).toBe(false);
    const relay = encodePacket({ header: serverHeader(PacketType.Relay, 5, 6, 7), events: [], link: { acks: [1, 2] } });
    expect(bundle.resume(relay)).toBe(true);
    bundle.add(relayedStateBytes(h));
    const both = encodePacket({ header: serverHeader(PacketType.Relay, 5, 6, 7), events: [{ type: 'relayed', slot: 4, packet: { header: h, events: [] } }], link: { acks: [1, 2] } });
    expect([...bundle.finish()]).toEqual([...both]);
  });
});
