/**
 * Wire format v2's link-layer envelopes: `reliable` (a kill, chat line or
 * name with a 16-bit message id) and `ack` (the ids received), and the
 * Reliable packet type that carries them alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACK_EVENT_CODE, decodePacket, encodePacket, eventSize, headerSize, RELIABLE_EVENT_CODE } from '../../../src/shared/wire/codec';
import { PacketType, type Packet, type PacketHeader, type RemoteEvent } from '../../../src/shared/wire/types';
import { arbAckEvent, arbHeader, arbReliableEvent, expectWireEqual } from '../../support/wireArbitraries';

const header: PacketHeader = {
  type: PacketType.Reliable,
  senderSlot: 2,
  messageId: 0,
  joined: true,
};

/** A datagram with the given raw event bytes after the header. */
function withEventBytes(bytes: number[]): Uint8Array {
  const base = encodePacket({ header, events: [] });
  return Uint8Array.from([...base.subarray(0, headerSize(header)), ...bytes, 0]);
}

describe('reliable and ack events on the wire', () => {
  it('a reliable message and an acknowledgement round-trip in any packet type, sized exactly', () => {
    fc.assert(
      fc.property(arbHeader, arbReliableEvent, arbAckEvent, (h, reliable, ack) => {
        const packet: Packet = { header: h, events: [ack, reliable] };
        const bytes = encodePacket(packet);
        expect(bytes.length).toBe(headerSize(h) + eventSize(ack) + eventSize(reliable) + 1);
        const r = decodePacket(bytes);
        expect(r.ok).toBe(true);
        if (r.ok) expectWireEqual(r.packet, packet);
      }),
      { numRuns: 300 },
    );
  });

  it('a reliable chat line is [12][len][id u16][6][len][text] and an ack is [13][len][count][ids]', () => {
    const bytes = encodePacket({ header, events: [{ type: 'reliable', id: 0x1234, event: { type: 'sendText', text: 'hi' } }, { type: 'ack', ids: [7, 0xffff] }] });
    expect([...bytes.subarray(headerSize(header))]).toEqual([RELIABLE_EVENT_CODE, 0, 8, 0x12, 0x34, 6, 0, 3, 2, 0x68, 0x69, ACK_EVENT_CODE, 0, 5, 2, 0, 7, 0xff, 0xff, 0]);
  });

  it('refuses to send a laser or a player list reliably, and refuses an empty ack', () => {
    const laser = { type: 'createLaser', id: 1, pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 0 }, ttl: 1 };
    expect(() => encodePacket({ header, events: [{ type: 'reliable', id: 1, event: laser } as unknown as RemoteEvent] })).toThrow(/cannot be sent as a reliable message/);
    expect(() => encodePacket({ header, events: [{ type: 'ack', ids: [] }] })).toThrow(/no ids/);
    expect(() => encodePacket({ header, events: [{ type: 'ack', ids: Array.from({ length: 33 }, (_, i) => i) }] })).toThrow(/more than 32/);
  });

  it('drops datagrams with a reliable laser, a nested reliable, an empty or over-long ack, or a length that lies', () => {
    const cases: [string, number[]][] = [
      ['bad-nesting', [12, 0, 3, 0, 1, 2]], // reliable wrapping a createLaser code (truncated body does not matter: the type is refused first)
      ['bad-nesting', [12, 0, 6, 0, 1, 12, 0, 0, 0]], // reliable inside reliable
      ['bad-list', [13, 0, 1, 0]], // ack of zero ids
      ['bad-list', [13, 0, 67, 33, ...Array.from({ length: 66 }, () => 0)]], // 33 ids
      ['bad-length', [13, 0, 4, 1, 0, 7]], // declared 4 bytes, the ack needs 3
      ['truncated', [12, 0, 40, 0, 1, 6, 0, 3, 2, 0x68]],
    ];
    for (const [reason, bytes] of cases) {
      const r = decodePacket(withEventBytes(bytes));
      expect(r.ok ? 'accepted' : r.reason, JSON.stringify(bytes)).toBe(reason);
    }
  });
});
