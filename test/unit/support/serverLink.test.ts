/**
 * The bench and test clients' link to a gameserver (test/support/serverLink.ts):
 * the byte scan finds acknowledgements and reliable messages wherever a
 * server puts them (outer list, inside relayed packets) and nowhere else,
 * and the link layer acknowledges what arrived on the client's next
 * datagrams, or in a Reliable packet of its own once the ack delay passed.
 */
import { describe, expect, it } from 'vitest';
import { RELIABLE_DEFAULTS } from '../../../src/shared/net/reliable';
import { encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, type Packet, type PacketHeader, type RemoteEvent } from '../../../src/shared/wire/types';
import { shipAt } from '../../support/gameClient';
import { carriesLinkEvents, ServerLink } from '../../support/serverLink';
import { carrierHeader, serverHeader } from '../../../src/node/servers/game/relay';

const header = (type: PacketType, slot: number, token?: number): PacketHeader => ({
  type,
  senderSlot: slot,
  messageId: 5,
  gameTime: 1000,
  joined: true,
  state: shipAt({ x: 1, y: 2, z: 3 }),
  ...(token === undefined ? {} : { token }),
});
const laser: RemoteEvent = { type: 'createLaser', id: 0x10001, pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -500 }, ttl: 40 };
const relay = (outer: RemoteEvent[], inner: RemoteEvent[]): Packet => ({
  header: header(PacketType.Relay, 255, 0xabcdef),
  events: [...outer, { type: 'relayed', slot: 1, packet: { header: header(PacketType.GameState, 1), events: [laser] } }, { type: 'relayed', slot: 2, packet: { header: header(PacketType.GameState, 2), events: inner } }],
});

describe('carriesLinkEvents', () => {
  it('finds an ack or a reliable message in the outer list or inside a relayed packet, and nothing in plain relays', () => {
    expect(carriesLinkEvents(encodePacket(relay([], [laser])))).toBe(false);
    expect(carriesLinkEvents(encodePacket(relay([{ type: 'ack', ids: [3, 4] }], [])))).toBe(true);
    expect(carriesLinkEvents(encodePacket(relay([{ type: 'reliable', id: 9, event: { type: 'sendText', text: 'gg' } }], [])))).toBe(true);
    expect(carriesLinkEvents(encodePacket(relay([], [laser, { type: 'reliable', id: 9, event: { type: 'sendText', text: 'gg' } }])))).toBe(true);
    expect(carriesLinkEvents(encodePacket({ header: header(PacketType.Ping, 255, 1), events: [] }))).toBe(false);
    expect(carriesLinkEvents(encodePacket({ header: { ...header(PacketType.Reliable, 255, 1), joined: false }, events: [{ type: 'ack', ids: [1] }] }))).toBe(true);
  });

  it('reads a gameserver\'s own headers (wire v10: its time and token, no ship) and carriers without a ship', () => {
    const server = serverHeader(PacketType.Relay, 7, 1000, 0xabcdef);
    const carrier = carrierHeader(header(PacketType.GameState, 1));
    const plain: Packet = { header: server, events: [{ type: 'relayed', slot: 1, packet: { header: carrier, events: [laser] } }] };
    expect(carriesLinkEvents(encodePacket(plain))).toBe(false);
    expect(carriesLinkEvents(encodePacket({ ...plain, events: [{ type: 'ack', ids: [2] }, ...plain.events] }))).toBe(true);
    expect(carriesLinkEvents(encodePacket({ header: server, events: [{ type: 'relayed', slot: 1, packet: { header: carrier, events: [{ type: 'reliable', id: 3, event: { type: 'sendText', text: 'hi' } }] } }] }))).toBe(true);
  });

  it('answers true for a truncated datagram (the decoder judges it)', () => {
    const bytes = encodePacket(relay([], [laser]));
    expect(carriesLinkEvents(bytes.subarray(0, bytes.length - 20))).toBe(true);
  });
});

describe('ServerLink', () => {
  it("acknowledges the server's and the players' reliable messages on the next game states, three times each", () => {
    const link = new ServerLink(() => 0.5);
    const fresh = link.incoming(relay([{ type: 'reliable', id: 40, event: { type: 'sendText', text: 'server' } }], [{ type: 'reliable', id: 41, event: { type: 'sendText', text: 'player' } }]), 0);
    expect(fresh).toBe(2);
    const acks = (p: Packet) => p.events.flatMap((e) => (e.type === 'ack' ? e.ids : []));
    const state = (): Packet => ({ header: header(PacketType.GameState, 3, 99), events: [laser] });
    for (let i = 0; i < RELIABLE_DEFAULTS.ackRepeats; i++) {
      const out = link.withEnvelopes(state(), 10 + i);
      expect(acks(out).sort()).toEqual([40, 41]);
      expect(out.events.at(-1)).toEqual(laser);
    }
    expect(acks(link.withEnvelopes(state(), 20))).toEqual([]);
    // A copy is acknowledged again but not delivered twice.
    expect(link.incoming(relay([{ type: 'reliable', id: 40, event: { type: 'sendText', text: 'server' } }], []), 30)).toBe(0);
    expect(acks(link.withEnvelopes(state(), 31))).toEqual([40]);
  });

  it('owes a Reliable packet of its own once an acknowledgement waited the ack delay without a datagram to ride on', () => {
    const link = new ServerLink(() => 0.5);
    link.incoming(relay([{ type: 'reliable', id: 7, event: { type: 'sendText', text: 'hi' } }], []), 100);
    expect(link.owed(100 + RELIABLE_DEFAULTS.ackDelayMs - 1)).toBe(false);
    expect(link.owed(100 + RELIABLE_DEFAULTS.ackDelayMs)).toBe(true);
    const out = link.withEnvelopes({ header: { ...header(PacketType.Reliable, 3, 99), joined: false }, events: [] }, 140);
    expect(out.events).toEqual([{ type: 'ack', ids: [7] }]);
    expect(link.owed(200)).toBe(false);
    // Pongs carry no envelopes (as in the client's session).
    link.incoming(relay([{ type: 'reliable', id: 8, event: { type: 'sendText', text: 'again' } }], []), 300);
    expect(link.withEnvelopes({ header: header(PacketType.Pong, 3, 99), events: [] }, 301).events).toEqual([]);
  });
});
