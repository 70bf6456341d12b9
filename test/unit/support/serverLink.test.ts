/**
 * The bench and test clients' link to a gameserver (test/support/serverLink.ts):
 * the byte scan finds acknowledgements and reliable messages wherever a
 * server puts them (the Relay's link section, relayed packets' sections) and nowhere else,
 * and the link layer acknowledges what arrived on the client's next
 * datagrams, or in a Reliable packet of its own once the ack delay passed.
 */
import { describe, expect, it } from 'vitest';
import { RELIABLE_DEFAULTS } from '../../../src/shared/net/reliable';
import { encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, type LinkSection, type Packet, type PacketHeader, type RemoteEvent } from '../../../src/shared/wire/types';
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
const relay = (outer: LinkSection | null, inner: RemoteEvent[], innerLink?: LinkSection): Packet => ({
  header: header(PacketType.Relay, 255, 0xabcdef),
  events: [
    { type: 'relayed', slot: 1, packet: { header: header(PacketType.GameState, 1), events: [laser] } },
    { type: 'relayed', slot: 2, packet: { header: header(PacketType.GameState, 2), events: inner, ...(innerLink ? { link: innerLink } : {}) } },
  ],
  ...(outer ? { link: outer } : {}),
});
const text = (id: number, t: string): LinkSection => ({ messages: [{ id, event: { type: 'sendText', text: t } }] });

describe('carriesLinkEvents', () => {
  it('finds an ack or a reliable message in the outer list or inside a relayed packet, and nothing in plain relays', () => {
    expect(carriesLinkEvents(encodePacket(relay(null, [laser])))).toBe(false);
    expect(carriesLinkEvents(encodePacket(relay({ acks: [3, 4] }, [])))).toBe(true);
    expect(carriesLinkEvents(encodePacket(relay(text(9, 'gg'), [])))).toBe(true);
    expect(carriesLinkEvents(encodePacket(relay(null, [laser], text(9, 'gg'))))).toBe(true);
    expect(carriesLinkEvents(encodePacket({ header: header(PacketType.Ping, 255, 1), events: [] }))).toBe(false);
    expect(carriesLinkEvents(encodePacket({ header: { ...header(PacketType.Reliable, 255, 1), joined: false }, events: [], link: { acks: [1] } }))).toBe(true);
  });

  it('reads a gameserver\'s own headers (wire v10: its time and token, no ship) and carriers without a ship', () => {
    const server = serverHeader(PacketType.Relay, 7, 1000, 0xabcdef);
    const carrier = carrierHeader(header(PacketType.GameState, 1));
    const plain: Packet = { header: server, events: [{ type: 'relayed', slot: 1, packet: { header: carrier, events: [laser] } }] };
    expect(carriesLinkEvents(encodePacket(plain))).toBe(false);
    expect(carriesLinkEvents(encodePacket({ ...plain, link: { acks: [2] } }))).toBe(true);
    expect(carriesLinkEvents(encodePacket({ header: server, events: [{ type: 'relayed', slot: 1, packet: { header: carrier, events: [], link: text(3, 'hi') } }] }))).toBe(true);
  });

  it('answers true for a truncated datagram (the decoder judges it)', () => {
    const bytes = encodePacket(relay(null, [laser]));
    expect(carriesLinkEvents(bytes.subarray(0, bytes.length - 20))).toBe(true);
  });
});

describe('ServerLink', () => {
  it("acknowledges the server's and the players' reliable messages on the next game states, three times each", () => {
    const link = new ServerLink(() => 0.5);
    const fresh = link.incoming(relay(text(40, 'server'), [], text(41, 'player')), 0);
    expect(fresh).toBe(2);
    const acks = (p: Packet) => p.link?.acks ?? [];
    const state = (): Packet => ({ header: header(PacketType.GameState, 3, 99), events: [laser] });
    for (let i = 0; i < RELIABLE_DEFAULTS.ackRepeats; i++) {
      const out = link.withEnvelopes(state(), 10 + i);
      expect(acks(out).sort()).toEqual([40, 41]);
      expect(out.events.at(-1)).toEqual(laser);
    }
    expect(acks(link.withEnvelopes(state(), 20))).toEqual([]);
    // A copy is acknowledged again but not delivered twice.
    expect(link.incoming(relay(text(40, 'server'), []), 30)).toBe(0);
    expect(acks(link.withEnvelopes(state(), 31))).toEqual([40]);
  });

  it('owes a Reliable packet of its own once an acknowledgement waited the ack delay without a datagram to ride on', () => {
    const link = new ServerLink(() => 0.5);
    link.incoming(relay(text(7, 'hi'), []), 100);
    expect(link.owed(100 + RELIABLE_DEFAULTS.ackDelayMs - 1)).toBe(false);
    expect(link.owed(100 + RELIABLE_DEFAULTS.ackDelayMs)).toBe(true);
    const out = link.withEnvelopes({ header: { ...header(PacketType.Reliable, 3, 99), joined: false }, events: [] }, 140);
    expect(out.events).toEqual([]);
    expect(out.link).toEqual({ acks: [7] });
    expect(link.owed(200)).toBe(false);
    // Pongs carry no envelopes (as in the client's session).
    link.incoming(relay(text(8, 'again'), []), 300);
    expect(link.withEnvelopes({ header: header(PacketType.Pong, 3, 99), events: [] }, 301).link).toBeUndefined();
  });
});
