/**
 * The netgame server's UDP: every datagram distrusted, as at the gameserver.
 * LAN discovery and time-sync requests are answered; anything else must be
 * within the source's rate and climb the servers' one admission ladder
 * (common/seatAdmission.ts): a joined player's session token, from that
 * player's address (its port learnt from the first datagram, moved only after
 * two quiet seconds and by a datagram newer than any taken), its slot, an
 * allowed type, a message id its seat's connection never took: a GameState carrying the messages
 * a client sends (controlChange, movesAck, stateAck), a NodeAlive (it keeps
 * the seat), a Ping (answered), reliable messages and their acknowledgements
 * (any datagram's link section, to the seat's link: netgameReliable.ts passes chat on). Server → client
 * datagrams are Relay packets with the netgame messages in the outer event
 * list. Everything else is dropped and counted by reason, never thrown.
 */
import { DropCounters } from '../../../shared/wire/codec';
import { Connection } from '../../../shared/net/connection';
import { sequenceStart } from '../../../shared/net/replayWindow';
import { NO_SLOT, PacketType, type LinkSection, type Packet, type RemoteEvent } from '../../../shared/wire/types';
import { isNetgameClientMessage, type NetgameClientMessage } from '../../../shared/wire/channels';
import type { ServerTimeService } from '../common/timeService';
import { encodePacket } from '../../../shared/wire/codec';
import type { DiscoveryResponder } from '../common/discoveryResponder';
import type { A2sResponder } from '../common/a2sResponder';
import { unwrapAddress } from '../common/lineServer';
import type { ServerUdp, UdpEndpoint } from '../common/serverUdp';
import type { SourceGuard } from '../common/strikes';
import { SeatAdmission, settleSeat, type SeatAdmissionRules } from '../common/seatAdmission';
import { newNetLink, type NetLink } from './netgameReliable';

/**
 * The netgame server's rungs of the admission ladder: its clients send GameStates (their messages, no ship
 * needed), NodeAlives, pings and reliable messages; anything else is a `wrong-type`.
 */
export const NETGAME_ADMISSION: SeatAdmissionRules = {
  types: new Set<number>([PacketType.GameState, PacketType.NodeAlive, PacketType.Ping, PacketType.Reliable]),
  typeDrop: 'wrong-type',
  gameStateCarriesState: false,
};
/** What a client's NodeAlive says of it besides (its name and look travel over TCP too): not dropped, not used. */
const ALIVE_EXTRAS: ReadonlySet<RemoteEvent['type']> = new Set(['playerName', 'playerLook']);

/** One joined player's UDP session (or a spectator's: `spectator`). */
export interface NetSeat {
  /** Its slot; NO_SLOT for a spectator (its datagrams carry that slot). */
  slot: number;
  /** Its key among the seats and the game's clients: the slot, or SPECTATOR_KEYS + a spectator's number. */
  readonly key: number;
  /** A spectator's number among the spectators; null for a player. */
  readonly spectator: number | null;
  /** The TCP peer address it joined from: its datagrams must come from there. */
  address: string;
  token: number;
  udp: UdpEndpoint | null;
  udpHeardAt: number;
  lastHeard: number;
  /** It as a remote node: the message ids of the server's datagrams to it, its datagrams taken, traffic each way. */
  readonly connection: Connection;
  /** The reliable link with it (chat and names, netgameReliable.ts). */
  readonly link: NetLink;
}

/**
 * A seat for a player seated in `slot` (or, with `spectator`, for spectator `spectator`, keyed `key`);
 * `firstLinkId`: the first id of the server's reliable messages to it (random per seat).
 */
export function newSeat(slot: number, address: string, token: number, now: number, firstLinkId = 1, spectator?: { n: number; key: number }): NetSeat {
  const who = spectator ? { slot: NO_SLOT, key: spectator.key, spectator: spectator.n } : { slot, key: slot, spectator: null };
  return { ...who, address, token, udp: null, udpHeardAt: now, lastHeard: now, connection: new Connection(sequenceStart(Math.floor(Date.now() / 1000))), link: newNetLink(firstLinkId) };
}

export interface NetgameDatagramsParts {
  udp: ServerUdp;
  sources: SourceGuard;
  discovery: DiscoveryResponder;
  time: ServerTimeService;
  /** Valve's server query (A2S) on the same port (common/a2sResponder.ts). */
  a2s: A2sResponder;
  seats: Map<number, NetSeat>;
  clock(): number;
  /** A client's message, from its seat. */
  deliver(seat: NetSeat, ev: NetgameClientMessage, now: number): void;
  /** The link section of a datagram from the seat (netgameReliable.ts). */
  envelopes(seat: NetSeat, link: LinkSection, now: number): void;
}

export class NetgameDatagrams {
  /** Undecodable datagrams by the codec's reason. */
  readonly codecDrops = new DropCounters();
  /** Datagrams refused by the server's rules, by reason. */
  readonly serverDrops = new Map<string, number>();
  private readonly admission: SeatAdmission<NetSeat>;

  constructor(private readonly parts: NetgameDatagramsParts) {
    this.admission = new SeatAdmission<NetSeat>({
      rules: NETGAME_ADMISSION,
      seatByToken: (token) => [...parts.seats.values()].find((s) => s.token === token),
      codecDrops: this.codecDrops,
      drop: (reason) => this.drop(reason),
    });
  }

  onDatagram(msg: Uint8Array, from: UdpEndpoint): void {
    try {
      if (this.parts.discovery.offer(msg, from) !== 'other') return;
      if (this.parts.time.offer(msg, from) !== 'other') return;
      const queried = this.parts.a2s.offer(msg, from);
      if (queried === 'dropped') return this.drop('bad-a2s');
      if (queried === 'answered') return;
      this.receive(msg, from);
    } catch {
      this.drop('internal');
    }
  }

  /** Sends `events` (and a link section) to the seat (one datagram), with its token; nothing before its UDP port is known. */
  send(seat: NetSeat, events: RemoteEvent[], type: PacketType = PacketType.Relay, gameTime?: number, link?: LinkSection): void {
    if (!seat.udp) return;
    const packet: Packet = {
      // Only a pong carries a game time (its ping's stamp); the netgame's messages go by frames (wire v10).
      header: { type, senderSlot: NO_SLOT, messageId: seat.connection.stamp(), ...(gameTime === undefined ? {} : { gameTime }), joined: false, token: seat.token },
      events,
      ...(link === undefined ? {} : { link }),
    };
    let bytes: Uint8Array;
    try {
      bytes = encodePacket(packet);
    } catch {
      // A server bug (a message the wire cannot carry): counted, never thrown into the server's tick.
      return this.drop('unencodable-out');
    }
    if (this.parts.udp.send(seat.udp, bytes)) seat.connection.sent(bytes.length);
  }

  private drop(reason: string): void {
    this.serverDrops.set(reason, (this.serverDrops.get(reason) ?? 0) + 1);
  }

  private receive(msg: Uint8Array, from: UdpEndpoint): void {
    const now = this.parts.clock();
    const source = `${unwrapAddress(from.address)}:${from.port}`;
    const refused = this.parts.sources.admit(source, this.seatAt(from) !== null, now);
    if (refused) return this.drop(refused);
    // Token, address, port (NAT rebinding), slot, type, replay window: the servers' one ladder.
    const a = this.admission.admit(msg, from, now);
    if (!a.ok) return;
    const { seat } = a;
    const { header: h, events } = a.packet;
    settleSeat(seat, from, msg.length, now);
    if (h.type === PacketType.Ping) return this.send(seat, [], PacketType.Pong, h.gameTime);
    for (const ev of events) {
      if (isNetgameClientMessage(ev) && h.type === PacketType.GameState) this.parts.deliver(seat, ev, now);
      else if (!ALIVE_EXTRAS.has(ev.type)) this.drop('foreign-event');
    }
    // Chat and names: acknowledged on the seat's link (the acknowledgement goes with the server's next datagram of the link), chat passed on.
    if (a.packet.link) this.parts.envelopes(seat, a.packet.link, now);
  }

  private seatAt(from: UdpEndpoint): NetSeat | null {
    const address = unwrapAddress(from.address);
    for (const s of this.parts.seats.values()) if (s.address === address && (s.udp === null || s.udp.port === from.port)) return s;
    return null;
  }
}
