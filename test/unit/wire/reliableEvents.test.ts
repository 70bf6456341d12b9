/**
 * The link section (wire v11, header flags bit 6): acknowledgements (the ids
 * received) and reliable messages (a kill, chat line or name with a 16-bit
 * message id), and the Reliable packet type that carries them alone. Until
 * wire v10 they were the `reliable` (12) and `ack` (13) events.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePacket, encodePacket, FLAG_LINK, headerSize, linkSize } from '../../../src/shared/wire/codec';
import { PacketType, type LinkSection, type Packet, type PacketHeader } from '../../../src/shared/wire/types';
import { arbHeader, arbLinkSection, expectWireEqual } from '../../support/wireArbitraries';

const header: PacketHeader = {
  type: PacketType.Reliable,
  senderSlot: 2,
  messageId: 0,
  joined: true,
};
/** Where the flags byte sits: after magic u16, version u8, type u8 and sender slot u8. */
const FLAGS_AT = 5;

/** A datagram whose header says a link section follows, with the given raw section bytes and then an empty event list. */
function withLinkBytes(bytes: number[]): Uint8Array {
  const base = encodePacket({ header, events: [] });
  const out = Uint8Array.from([...base.subarray(0, headerSize(header)), ...bytes, 0]);
  out[FLAGS_AT] = (out[FLAGS_AT] as number) | FLAG_LINK;
  return out;
}

describe('the link section on the wire', () => {
  it('acknowledgements and reliable messages round-trip in any packet type, sized exactly', () => {
    fc.assert(
      fc.property(arbHeader, arbLinkSection, (h, link) => {
        const packet: Packet = { header: h, events: [], link };
        const bytes = encodePacket(packet);
        expect(bytes.length).toBe(headerSize(h) + linkSize(link) + 1);
        expect((bytes[FLAGS_AT] as number) & FLAG_LINK).toBe(FLAG_LINK);
        const r = decodePacket(bytes);
        expect(r.ok).toBe(true);
        if (r.ok) expectWireEqual(r.packet, packet);
      }),
      { numRuns: 300 },
    );
  });

  it('a section of two ids and a chat line is [0x42][ids u16 × 2][1][id u16][6][len][text]; ids alone are [count][ids]; a state acknowledgement sets bit 7, a relay acknowledgement bit 5; none sets no flag', () => {
    const both = encodePacket({ header, events: [], link: { acks: [7, 0xffff], messages: [{ id: 0x1234, event: { type: 'sendText', text: 'hi' } }] } });
    expect([...both.subarray(headerSize(header))]).toEqual([0x42, 0, 7, 0xff, 0xff, 1, 0x12, 0x34, 6, 0, 3, 2, 0x68, 0x69, 0]);
    const acks = encodePacket({ header, events: [], link: { acks: [7] } });
    expect([...acks.subarray(headerSize(header))]).toEqual([0x01, 0, 7, 0]);
    // Wire v13: bit 7 and the acknowledged state's id (low 16 bits) right after the link byte, before the ids.
    const stateAck = encodePacket({ header, events: [], link: { stateAck: 0xbeef, acks: [7] } });
    expect([...stateAck.subarray(headerSize(header))]).toEqual([0x81, 0xbe, 0xef, 0, 7, 0]);
    const onlyStateAck = decodePacket(encodePacket({ header, events: [], link: { stateAck: 3 } }));
    expect(onlyStateAck.ok && onlyStateAck.packet.link).toEqual({ stateAck: 3 });
    // Wire v14: bit 5 and a gameserver client's acknowledgement of Relays (newest u16, the 32 before it u32) after the state acknowledgement.
    const relayAck = encodePacket({ header, events: [], link: { stateAck: 0xbeef, relayAck: { newest: 0x0102, mask: 0x80000001 }, acks: [7] } });
    expect([...relayAck.subarray(headerSize(header))]).toEqual([0xa1, 0xbe, 0xef, 0x01, 0x02, 0x80, 0, 0, 1, 0, 7, 0]);
    const onlyRelayAck = decodePacket(encodePacket({ header, events: [], link: { relayAck: { newest: 9, mask: 0xffffffff } } }));
    expect(onlyRelayAck.ok && onlyRelayAck.packet.link).toEqual({ relayAck: { newest: 9, mask: 0xffffffff } });
    const none = encodePacket({ header, events: [] });
    expect((none[FLAGS_AT] as number) & FLAG_LINK).toBe(0);
    expect(none.length).toBe(headerSize(header) + 1);
  });

  it('refuses to send a laser or a player list reliably, an empty or over-long acknowledgement, and an empty section', () => {
    const laser = { type: 'createLaser', id: 1, pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 0 }, ttl: 1 };
    const send = (link: LinkSection) => encodePacket({ header, events: [], link });
    expect(() => send({ messages: [{ id: 1, event: laser as unknown as never }] })).toThrow(/cannot be sent as a reliable message/);
    expect(() => send({ acks: [] })).toThrow(/1\.\.31 ids/);
    expect(() => send({ acks: Array.from({ length: 32 }, (_, i) => i) })).toThrow(/1\.\.31 ids/);
    expect(() => send({ relayAck: { newest: 0x10000, mask: 0 } })).toThrow(/relayAck\.newest: 65536 is not a u16/);
    expect(() => send({ relayAck: { newest: 1, mask: -1 } })).toThrow(/relayAck\.mask: -1 is not a u32/);
    expect(() => send({ messages: [] })).toThrow(/1\.\.255 messages/);
    expect(() => send({})).toThrow(/empty link section/);
  });

  it('drops datagrams with a reliable laser, a nested envelope, an empty section, over-long acknowledgements, a reserved bit, no messages, or a length that lies', () => {
    const cases: [string, number[]][] = [
      ['bad-link-message', [0x40, 1, 0, 1, 2, 0, 3]], // a message wrapping a createLaser code (the type is refused before its body)
      ['bad-link-message', [0x40, 1, 0, 1, 11, 0, 0]], // a relayed envelope as a message
      ['bad-link-message', [0x40, 1, 0, 1, 12, 0, 0]], // the old reliable event's code inside a message
      ['bad-link', [0x00]], // a section with nothing in it
      ['truncated', [0x20, 0, 7, 0, 0, 1]], // bit 5: a relay acknowledgement (v14), its mask cut short
      ['truncated', [0x81, 0, 7, 0]], // bit 7: a state acknowledgement (v13), then the one id it promises is cut off
      ['bad-link', [0x40, 0]], // messages follow, but none
      ['bad-length', [0x40, 1, 0, 1, 6, 0, 4, 2, 0x68, 0x69, 0]], // declared 4 bytes, the chat line needs 3
      ['truncated', [0x40, 1, 0, 1, 6, 0, 40, 2, 0x68]],
      ['truncated', [0x40, 200, 0, 1, 7, 0, 2, 1, 0x61]], // a count of 200 messages in a short datagram ends at its end
    ];
    for (const [reason, bytes] of cases) {
      const r = decodePacket(withLinkBytes(bytes));
      expect(r.ok ? 'accepted' : r.reason, JSON.stringify(bytes)).toBe(reason);
    }
  });

  it('a relayed packet carries its own link section, and the events 12 and 13 are no more', () => {
    const inner: Packet = { header: { type: PacketType.GameState, senderSlot: 1, messageId: 3, joined: false }, events: [], link: { messages: [{ id: 9, event: { type: 'sendText', text: 'gg' } }] } };
    const relay: Packet = { header: { type: PacketType.Relay, senderSlot: 255, messageId: 4, joined: false, token: 5 }, events: [{ type: 'relayed', slot: 1, packet: inner }], link: { acks: [2] } };
    const r = decodePacket(encodePacket(relay));
    expect(r.ok && r.packet).toEqual(relay);
    const base = encodePacket({ header, events: [] });
    for (const code of [12, 13]) {
      const old = Uint8Array.from([...base.subarray(0, headerSize(header)), code, 0, 0, 0]);
      const d = decodePacket(old);
      expect(d.ok ? 'accepted' : d.reason).toBe('unknown-event');
    }
  });
});
