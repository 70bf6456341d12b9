/**
 * The servers' side of the one admission ladder (src/shared/net/admission.ts,
 * which a client session climbs too), shared by the gameserver
 * (game/gameDatagrams.ts) and the netgame server (netgame/netgameDatagrams.ts).
 * A datagram that got past the source's rate (each side keeps its own, before
 * this) climbs, in this order:
 *
 *   decode            the codec's reason (counted in its DropCounters)
 *   token present     `no-token`
 *   seat by token     `unknown-token` (a token of a session that ended lately
 *                     is counted but excused: no offence against its source)
 *   TCP address       `wrong-address` (the address the seat joined from)
 *   UDP port          `wrong-port`: once a port is bound, another port of the
 *                     address is taken only after the bound one has been quiet
 *                     MIGRATE_AFTER_QUIET_MS and with a number newer than any
 *                     taken (a NAT that rebound its mapping; a replay or a late
 *                     copy never moves a seat)
 *   slot              `wrong-slot`
 *   type              the side's reason (`unexpected-type`, `wrong-type`)
 *   replay window     `replayed` (the seat's Connection: a number taken once,
 *                     or older than the window, whatever the datagram's kind)
 *   GameState body    `no-state` where the side wants a ship state and a time
 *
 * Each side configures it (SeatAdmissionRules, the token lookup, the grace
 * hook) and does what is its own with what passes: the seat, the decoded
 * packet, its place in the sequence (newest, or late and how far behind) and
 * whether it came from another port. `settleSeat` then binds or moves the
 * seat's endpoint, once the side has taken the datagram. Nothing here throws
 * on what a datagram holds.
 */
import type { Connection } from '../../../shared/net/connection';
import { admitDatagram, pass, refuse, type AdmissionRules, type Refusal, type Rung } from '../../../shared/net/admission';
import type { DropCounters } from '../../../shared/wire/codec';
import { PacketType, type Packet } from '../../../shared/wire/types';
import { unwrapAddress } from './lineServer';
import type { UdpEndpoint } from './serverUdp';

/**
 * How long a seat's bound UDP port must have been quiet before a datagram with
 * the seat's token from another port of the same address moves the seat there
 * (a NAT that rebound its mapping; the silence timeout is 10 s).
 */
export const MIGRATE_AFTER_QUIET_MS = 2000;

/** What the ladder needs of a seat: its TCP identity, its UDP endpoint and its connection. */
export interface AdmissionSeat {
  readonly slot: number;
  /** The TCP peer address it joined from (unwrapped): its datagrams must come from there. */
  readonly address: string;
  readonly token: number;
  /** Bound by the first datagram taken; null before. */
  udp: UdpEndpoint | null;
  /** Server clock (ms) of the last datagram taken from the bound endpoint. */
  udpHeardAt: number;
  /** Server clock (ms) of the last datagram taken (what keeps the seat). */
  lastHeard: number;
  /** The remote node's connection: its replay window, outgoing numbers and traffic counters. */
  readonly connection: Connection;
}

/** The reason a side gives a datagram type its clients may not send. */
export type TypeDrop = 'unexpected-type' | 'wrong-type';

/** The ladder's own drop reasons (the codec's come from its DropCounters). */
export type SeatDrop = 'no-token' | 'unknown-token' | 'wrong-address' | 'wrong-port' | 'wrong-slot' | 'replayed' | 'no-state' | TypeDrop;

/** How one side configures the ladder. */
export interface SeatAdmissionRules {
  /** Packet types its clients may send. */
  readonly types: ReadonlySet<number>;
  /** The drop reason of any other type. */
  readonly typeDrop: TypeDrop;
  /** A GameState must carry its ship state and game time (wire v10 makes both optional), else `no-state`. */
  readonly gameStateCarriesState: boolean;
}

export interface SeatAdmissionParts<S extends AdmissionSeat> {
  readonly rules: SeatAdmissionRules;
  /** The seat holding `token`, if any. */
  seatByToken(token: number): S | undefined;
  /** True for a token of a session that ended lately (its backlog is no attack): counted, but excused. */
  endedLately?(token: number): boolean;
  /** Where undecodable datagrams are counted, by the codec's reason. */
  readonly codecDrops: DropCounters;
  /** Counts one of the ladder's drops. */
  drop(reason: SeatDrop): void;
}

/** A datagram's place among those taken from its seat (never a replay: those are dropped). */
export type TakenSequence = { verdict: 'newest'; behind: 0 } | { verdict: 'late'; behind: number };

/** A datagram that climbed the whole ladder. */
export interface Admitted<S> {
  ok: true;
  seat: S;
  packet: Packet;
  seq: TakenSequence;
  /** It came from another port than the seat's bound one (a NAT rebinding the ladder believed). */
  moved: boolean;
}

/** A datagram dropped on the way (already counted): the codec's reason or the ladder's; `excused`, no offence (the backlog of a session that ended lately). */
export type Refused = Refusal;

export type Admission<S> = Admitted<S> | Refused;

export class SeatAdmission<S extends AdmissionSeat> {
  /** The datagram climbing now: its source and the server clock (the ladder's rungs read them). */
  private from: Pick<UdpEndpoint, 'address' | 'port'> = { address: '', port: 0 };
  private now = 0;
  /** The server side of the one ladder (net/admission.ts). */
  private readonly ladder: AdmissionRules<{ seat: S; moved: boolean }, TakenSequence>;

  constructor(private readonly parts: SeatAdmissionParts<S>) {
    const { rules } = parts;
    this.ladder = {
      codecDrops: parts.codecDrops,
      sender: (packet) => this.seatOf(packet),
      types: { allowed: rules.types, drop: rules.typeDrop },
      // Each datagram is taken once, whatever kind and however old: a replay cannot keep a seat alive.
      sequence: ({ seat }, packet) => {
        const seq = seat.connection.admit(packet.header.messageId);
        return seq.verdict === 'newest' || seq.verdict === 'late' ? pass(seq) : refuse('replayed');
      },
      body: (_s, { header: h }) => (rules.gameStateCarriesState && h.type === PacketType.GameState && (h.state === undefined || h.gameTime === undefined) ? refuse('no-state') : null),
      refused: (r) => parts.drop(r.reason as SeatDrop),
    };
  }

  /** Runs `msg` from `from` up the ladder at server clock `now`; counts a drop where it falls. */
  admit(msg: Uint8Array, from: UdpEndpoint, now: number): Admission<S> {
    this.from = from;
    this.now = now;
    const a = admitDatagram(msg, this.ladder);
    return a.ok ? { ok: true, seat: a.sender.seat, packet: a.packet, seq: a.seq, moved: a.sender.moved } : a;
  }

  /** The sender rung: the seat of the datagram's token, from its address, its port (or a believed move) and its slot. */
  private seatOf(packet: Packet): Rung<{ seat: S; moved: boolean }> {
    const h = packet.header;
    const from = this.from;
    if (h.token === undefined) return refuse('no-token');
    const seat = this.parts.seatByToken(h.token);
    if (!seat) return refuse('unknown-token', this.parts.endedLately?.(h.token) ?? false);
    if (unwrapAddress(from.address) !== seat.address) return refuse('wrong-address');
    const moved = seat.udp !== null && seat.udp.port !== from.port;
    if (moved && (this.now - seat.udpHeardAt < MIGRATE_AFTER_QUIET_MS || !seat.connection.ahead(h.messageId))) return refuse('wrong-port');
    if (h.senderSlot !== seat.slot) return refuse('wrong-slot');
    return pass({ seat, moved });
  }
}

/**
 * The side took a datagram of `bytes` from `from` for `seat`: the first one
 * binds its endpoint, one the ladder let through from another port moves it;
 * the seat was heard now. Returns the endpoint it moved from (null when it
 * did not move).
 */
export function settleSeat(seat: AdmissionSeat, from: UdpEndpoint, bytes: number, now: number): UdpEndpoint | null {
  const was = seat.udp;
  const moved = was !== null && was.port !== from.port;
  if (was === null || moved) seat.udp = from;
  seat.udpHeardAt = now;
  seat.lastHeard = now;
  seat.connection.received(bytes);
  return moved ? was : null;
}
