/**
 * The netgame server's reliable messages (netgameReliable.ts), without
 * sockets: a chat line a player sends is acknowledged and passed on once to
 * every other player, never back to its sender, inside a carrier naming the
 * sender's slot; a copy that comes again is acknowledged, not passed on
 * twice; a name goes on as the join server accepted it (a newer one
 * supersedes an older still in flight), a player's own reliable name and
 * anything the server's world decides are not passed on; and the datagram
 * stays within 512 bytes with the longest lines of every other player.
 */
import { describe, expect, it } from 'vitest';
import { NetgameReliable, newNetLink, type LinkedSeat } from '../../../src/node/servers/netgame/netgameReliable';
import { encodePacket } from '../../../src/shared/wire/codec';
import { MAX_TEXT_BYTES, PacketType, type LinkSection, type ReliableGameEvent, type RemoteEvent } from '../../../src/shared/wire/types';

function table(n: number) {
  const seats: LinkedSeat[] = Array.from({ length: n }, (_, slot) => ({ slot, udp: {}, link: newNetLink(100 * slot) }));
  const drops: string[] = [];
  const relay = new NetgameReliable(() => seats, (r) => drops.push(r));
  return { seats, relay, drops };
}

/** The messages in a datagram the server would send: [from slot, event] per reliable message, and its acknowledged ids. */
function opened(due: { events: RemoteEvent[]; link?: LinkSection } | null | undefined): { acks: number[]; messages: [number, RemoteEvent][] } {
  const acks = due?.link?.acks ?? [];
  const messages = (due?.events ?? []).flatMap((e) => (e.type === 'relayed' ? [...(e.packet.link?.messages ?? []).map((m) => m.event), ...e.packet.events].map((m): [number, RemoteEvent] => [e.slot, m]) : []));
  return { acks, messages };
}
/** The ids of the messages in a datagram the server would send. */
const idsIn = (due: { events: RemoteEvent[] } | null | undefined) => (due?.events ?? []).flatMap((e) => (e.type === 'relayed' ? (e.packet.link?.messages ?? []).map((m) => m.id) : []));
const said = (id: number, event: ReliableGameEvent): LinkSection => ({ messages: [{ id, event }] });

describe('the netgame server\'s reliable messages', () => {
  it('a chat line is acknowledged and passed on once to every other player, not back to its sender', () => {
    const { seats, relay } = table(3);
    const [a, b, c] = seats as [LinkedSeat, LinkedSeat, LinkedSeat];
    relay.take(a, said(7, { type: 'sendText', text: 'hello' }), 0);
    // The same copy again (our acknowledgement was lost): acknowledged again, not passed on twice.
    relay.take(a, said(7, { type: 'sendText', text: 'hello' }), 10);
    const toA = relay.due(a, 60);
    expect(toA?.type).toBe(PacketType.Reliable);
    expect(opened(toA)).toEqual({ acks: [7], messages: [] });
    const ids: number[] = [];
    for (const s of [b, c]) {
      const due = relay.due(s, 60);
      ids.push(...idsIn(due));
      expect(due?.type).toBe(PacketType.Relay);
      expect(opened(due).messages).toEqual([[0, { type: 'sendText', text: 'hello' }]]);
      // The carrier names the sender's slot and carries no ship and no join state.
      const carrier = due?.events.find((e) => e.type === 'relayed');
      expect(carrier?.type === 'relayed' && carrier.packet.header).toEqual({ type: PacketType.GameState, senderSlot: 0, messageId: 0, joined: false });
    }
    // Nothing more is due until a resend falls due (200 ms), and an acknowledged line is never sent again.
    expect(relay.due(b, 100)).toBeNull();
    const sent = opened(relay.due(c, 60 + 200)).messages;
    expect(sent).toHaveLength(1);
    relay.take(b, { acks: [ids[0] as number] }, 300);
    expect(b.link.pending).toBe(0);
    expect(relay.due(b, 2000)).toBeNull();
  });

  it('names go on as the join server accepted them; a player\'s own reliable name and the world\'s events do not', () => {
    const { seats, relay, drops } = table(3);
    const [a, b] = seats as [LinkedSeat, LinkedSeat, LinkedSeat];
    relay.take(a, said(1, { type: 'playerName', name: 'sneaky' }), 0);
    relay.take(a, said(2, { type: 'killObject', id: 0x10000, killerSlot: 0 }), 0);
    expect(drops).toEqual(['foreign-reliable']);
    expect(opened(relay.due(b, 60)).messages).toEqual([]);
    relay.renamed(0, 'alpha2', 100);
    relay.renamed(0, 'alpha3', 110);
    const got = opened(relay.due(b, 120)).messages;
    expect(got).toEqual([[0, { type: 'playerName', name: 'alpha3' }]]);
    expect(opened(relay.due(a, 120)).messages).toEqual([]);
  });

  it('a datagram with the longest line of each of seven other players stays within 512 bytes; what does not fit follows', () => {
    const { seats, relay } = table(8);
    const text = 'x'.repeat(MAX_TEXT_BYTES);
    for (const s of seats.slice(1)) for (let i = 0; i < 3; i++) relay.take(s, said(i, { type: 'sendText', text }), 0);
    const me = seats[0] as LinkedSeat;
    let now = 50;
    let delivered = 0;
    let largest = 0;
    for (let n = 0; n < 40 && delivered < 21; n++, now += 10) {
      const due = relay.due(me, now);
      if (!due) continue;
      const bytes = encodePacket({ header: { type: due.type, senderSlot: 255, messageId: n, joined: false, token: 1 }, events: due.events, ...(due.link ? { link: due.link } : {}) }).length;
      largest = Math.max(largest, bytes);
      const got = opened(due).messages;
      delivered += got.length;
      const ids = idsIn(due);
      relay.take(me, { acks: ids }, now);
    }
    console.log(`21 lines of ${MAX_TEXT_BYTES} bytes from 7 players: delivered in datagrams of at most ${largest} bytes`);
    expect(delivered).toBe(21);
    expect(largest).toBeLessThanOrEqual(512);
  });
});
