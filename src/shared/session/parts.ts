/**
 * What a client session (pipeline.ts) is built from and the shapes its
 * console-facing methods return.
 */
import type { NodeAddress, PacketApi } from '../net/packetApi';
import type { ProtocolGame } from '../protocol/protocol';
import type { CookieMac } from './addressProof';
import type { DatagramCodec } from './datagram';
import type { Membership } from './membership';
import type { SessionNotice } from './notices';
import type { SessionSender } from './sender';
import type { Packet } from '../wire/types';

/** What a session is built from. */
export interface SessionParts<M extends Membership> {
  /** The packet API table (never an implementation) and our own node on it. */
  packetApi: PacketApi;
  self: NodeAddress;
  game: ProtocolGame;
  /** Host time in ms: the only clock the session reads (a virtual one in tests). */
  clock: { now(): number };
  /** Uniform in [0, 1): the first id of each reliable link, so a restarted node is not taken for its predecessor. */
  random: () => number;
  /** Builds the membership on the session's outgoing path. */
  member: (transport: SessionSender) => M;
  /** Where the session's notices go (the adapter prints them). */
  notify: (notice: SessionNotice) => void;
  /** One line describing the connection, for the slot-table delivery. */
  status: () => string;
  /** Whole seconds of wall-clock time: where each link's sequence numbers start (default: the system clock). */
  wallSeconds?: () => number;
  /** The datagram codec (tests count its calls). */
  codec?: DatagramCodec;
  /**
   * Given: the session takes datagrams only from nodes that proved their
   * address (addressProof.ts), with cookies from this keyed hash. p2p and
   * slotserver games; a gameserver's session token does this job there.
   */
  proveAddresses?: CookieMac;
  /**
   * A lockstep game (wire v7): every datagram sent carries the lockstep flag,
   * datagrams without it are dropped (counted in `otherGameKind`) — and the
   * other way round without it, so p2p and lockstep games on one LAN never
   * mix — and the session sends no ship states: the protocol sends its
   * frame packets itself.
   */
  lockstep?: boolean;
  /** False: the session sends no ship states (a netgame: the protocol sends its own messages). Lockstep implies it. */
  shipStates?: boolean;
  /**
   * A protocol that takes game states itself returns true for those it took
   * (lockstep: every one, for its engine; a server client: the server's own
   * messages, slot NO_SLOT); the rest go to the game (deliveries.ts).
   */
  takeGameState?(slot: number, packet: Packet): boolean;
}

/** Why an action that needs a connection did not run. */
export type NotConnected = 'not-connected';

/** One row of the `players` listing. */
export interface PlayerRow {
  slot: number;
  name: string;
  address: string;
  /** Round trip in ms; null: not measured yet; undefined: this is us. */
  pingMs: number | null | undefined;
  joined: boolean;
  mine: boolean;
}
