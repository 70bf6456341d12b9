/**
 * Who the peers of a session are: the slot table, our slot, and the
 * packets that keep it. P2pPeer fits it, and so does ManagedPeer (a table a
 * slot- or gameserver runs).
 */
import type { Arrival } from '../net/connection';
import type { ShipLook } from '../wire/shipLook';
import type { Packet, PacketHeader, PlayerEntry, WireAddr } from '../wire/types';
import type { GameStateMessage } from '../wire/channels';

/** Where a membership is: p2p passes through `connecting` (and `slave`) or ends in `failed`; a server-run one is `idle` or `connected`. */
export type MemberState = 'idle' | 'connecting' | 'slave' | 'connected' | 'failed';

/**
 * A game state the membership took from a member (slot), or the server's own
 * messages in a relayed game (slot NO_SLOT): what the session hands on.
 */
export interface GameStateFrom {
  slot: number;
  packet: Packet;
}

/** Who the peers are: the slot table, our slot, and the packets that keep it (P2pPeer fits). */
export interface Membership {
  readonly state: MemberState;
  slot(): number | null;
  players(): PlayerEntry[];
  /** The player asked for `name` (the `name` command). */
  setName(name: string, now: number): void;
  /** The player chose the ship look it is seen in (`ship_design`, `ship_colour`); the membership takes it to the others. */
  setLook?(look: ShipLook, now: number): void;
  /** The look the player in `slot` chose, as this membership heard it (AUTO_LOOK: unknown or left to the slot). */
  lookOf?(slot: number): ShipLook;
  /** The name we play under here, when the membership may differ from the one asked for (p2p renames a taken one). */
  ownName?(): string;
  tick(now: number): void;
  /**
   * A decoded packet from `from` and what its connection made of its number
   * (connections.ts: duplicates never arrive; state is taken only from the
   * newest): the table follows it; returns the game states it carried for
   * the game (fresh, in order), for the session to hand on.
   */
  receive(from: WireAddr, packet: Packet, now: number, arrival: Arrival): GameStateFrom[];
  sendGameState(now: number, header: Omit<PacketHeader, 'type' | 'senderSlot' | 'messageId' | 'joined'>, events: GameStateMessage[]): void;
  join(now: number): void;
  unjoin(now: number): void;
  /** Nodes besides the members whose pings we answer (a gameserver). */
  trusts?(from: WireAddr): boolean;
  /** Nodes our game packets go to, each with a reliable link (default: every other member; a relayed game: the server). */
  linkTargets?(): WireAddr[];
  /** A player's new name arrived as a reliable message (it bypasses `receive`). */
  heardName?(slot: number, name: string): void;
  /** The node at `addr` has just proven its address (sessions that prove addresses; p2p answers a request that waited for it). */
  proven?(addr: WireAddr, now: number): void;
  /** A challenge arrived (`rttMs` after the first of our LAN broadcasts, while we broadcast; else null). */
  challenged?(now: number, rttMs: number | null): void;
  /** Session token to put in packets the session sends itself (reliable-only packets to a gameserver). */
  readonly sessionToken?: number;
}
