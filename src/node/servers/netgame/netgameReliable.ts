/**
 * The netgame server's reliable messages: chat and names, hop by hop as at
 * a gameserver (docs/PROTOCOL.md, "Reliable messages"). Each seat has a
 * ReliableLink with its client (src/shared/net/reliable.ts): the server
 * acknowledges what the client sends, and passes a chat line (`sendText`) on
 * once, queued on every other seat's link with the sender's slot; each
 * client acknowledges what the server sends it.
 *
 * Names: the join server is the one authority (`my new name:`, which it may
 * refuse as taken). The name it accepted goes to every other player both
 * ways it always went — the TCP `name ip:` line — and as a reliable
 * `playerName` from that slot, so the two never disagree; a client's own
 * reliable name is only acknowledged. Whatever else a client sends reliably
 * in a netgame (kills, extras, match states: the server's world decides
 * them) is acknowledged, dropped and counted.
 *
 * Each tick a seat owed acknowledgements or messages gets one datagram: a
 * Reliable packet of acknowledgements (its link section), or a Relay packet
 * whose `relayed` carriers — one per sender: a GameState header of its slot,
 * no ship, not joined — hold the messages in their link sections, so the
 * receiver knows whose line it is.
 */
import { ackSize, messageSize } from '../../../shared/net/linkLayer';
import { ReliableLink } from '../../../shared/net/reliable';
import { BASE_HEADER_SIZE, LINK_BYTE_SIZE, MESSAGE_COUNT_SIZE, RELAYED_OVERHEAD, TERMINATOR_SIZE, TOKEN_SIZE } from '../../../shared/wire/codec';
import { MAX_DATAGRAM_BYTES, NO_SLOT, PacketType, type LinkedMessage, type LinkSection, type PacketHeader, type ReliableGameEvent } from '../../../shared/wire/types';
import type { RelayMessage } from '../../../shared/wire/channels';

/** A reliable message the server sends a client: the event and the slot it is from. */
export interface NetForwarded {
  from: number;
  event: ReliableGameEvent;
}

/** The server's link with one client. */
export type NetLink = ReliableLink<NetForwarded>;

/** A seat as this needs it: its slot, whether its UDP port is known, its link. */
export interface LinkedSeat {
  readonly slot: number;
  readonly udp: unknown;
  readonly link: NetLink;
}

/**
 * Bytes of the server's outer header (base, token, its link section's link
 * byte) with the terminator, and of each sender's carrier (relayed envelope,
 * base header, its link section's link byte and message count, terminator).
 */
const OUTER_BYTES = BASE_HEADER_SIZE + TOKEN_SIZE + LINK_BYTE_SIZE + TERMINATOR_SIZE;
const CARRIER_BYTES = RELAYED_OVERHEAD + BASE_HEADER_SIZE + LINK_BYTE_SIZE + MESSAGE_COUNT_SIZE + TERMINATOR_SIZE;
/** Most senders one datagram may carry messages of (every slot of a netgame). */
const MAX_SENDERS = 8;
/** Bytes of acknowledgements and messages one datagram takes from a link: what is left of 512 bytes once every carrier is paid for. */
export const RELIABLE_BUDGET = MAX_DATAGRAM_BYTES - OUTER_BYTES - MAX_SENDERS * CARRIER_BYTES;

/** A new link with a client; `firstId`: the first id of the server's messages to it (random per seat). */
export function newNetLink(firstId: number): NetLink {
  return new ReliableLink<NetForwarded>((m) => messageSize(m.event), firstId & 0xffff);
}

/** The carrier of a sender's messages: its slot, no id, no ship, not joined (receivers take no position or join state from it). */
function carrier(slot: number): PacketHeader {
  return { type: PacketType.GameState, senderSlot: slot, messageId: 0, joined: false };
}

export class NetgameReliable {
  constructor(
    /** The seats now joined (the server's table). */
    private readonly seats: () => Iterable<LinkedSeat>,
    /** Counts a dropped message by reason. */
    private readonly drop: (reason: string) => void,
  ) {}

  /**
   * The link section of a datagram accepted from `seat`: acknowledgements
   * settle what the server sent; each message is acknowledged and, the first
   * time, passed on (chat) or dropped (see the header).
   */
  take(seat: LinkedSeat, link: LinkSection, now: number): void {
    if (link.acks) seat.link.onAcks(link.acks, now);
    for (const m of link.messages ?? []) if (seat.link.onMessage(m.id, now)) this.passOn(seat, m.event, now);
  }

  private passOn(seat: LinkedSeat, event: ReliableGameEvent, now: number): void {
    // A spectator (no slot) has no voice in the game: acknowledged, passed to nobody.
    if (seat.slot === NO_SLOT) return this.drop('spectator-reliable');
    if (event.type === 'sendText') {
      for (const s of this.seats()) if (s !== seat) s.link.queue({ from: seat.slot, event }, now);
    } else if (event.type !== 'playerName') this.drop('foreign-reliable');
  }

  /** The join server accepted `name` for the player in `slot`: every other player hears it (a newer name supersedes one still in flight). */
  renamed(slot: number, name: string, now: number): void {
    for (const s of this.seats()) if (s.slot !== slot) s.link.queue({ from: slot, event: { type: 'playerName', name } }, now, `name:${slot}`);
  }

  /**
   * What `seat` is owed now, as one datagram's packet type, events (the
   * relay's carriers of messages) and link section (the acknowledgements);
   * null: nothing (or no UDP port to send to yet).
   */
  due(seat: LinkedSeat, now: number): { type: PacketType; events: RelayMessage[]; link?: LinkSection } | null {
    if (!seat.udp || !seat.link.wantsSend(now)) return null;
    const take = seat.link.take(now, RELIABLE_BUDGET, ackSize);
    const bySender = new Map<number, LinkedMessage[]>();
    for (const m of take.messages) {
      const list = bySender.get(m.message.from) ?? [];
      list.push({ id: m.id, event: m.message.event });
      bySender.set(m.message.from, list);
    }
    const events: RelayMessage[] = [];
    for (const [from, messages] of bySender) events.push({ type: 'relayed', slot: from, packet: { header: carrier(from), events: [], link: { messages } } });
    if (events.length === 0 && take.acks.length === 0) return null;
    return { type: bySender.size > 0 ? PacketType.Relay : PacketType.Reliable, events, ...(take.acks.length > 0 ? { link: { acks: take.acks } } : {}) };
  }
}
