/**
 * Protocol layer contract (Parsec §2.3): the high-level game protocol
 * (offline now; peer-to-peer, slotserver and gameserver later) is a
 * jump-table entry bound through a `SubsystemKind<Protocol>`, exchangeable at
 * run time independently of the packet API underneath it.
 */
import type { PacketApi } from '../net/packetApi';
import type { CommandDef } from '../console/registry';
import type { ShipState } from '../wire/types';
import type { GameCodeInterface } from '../net/gameCode';
import type { NetDelivery, PlayerPing } from '../net/gameLink';
import type { FrameSync } from '../game/frameSync';
import type { ShipLook } from '../wire/shipLook';
import type { LockstepStats } from '../lockstep/engineTypes';

/**
 * The game as a protocol sees it: the local ship to put in headers, the
 * game-code interface's event queue, and where received things go. The host
 * implements it from the renderer's frame batches; a headless bot from its
 * own simulation.
 */
export interface ProtocolGame {
  /** The local ship now, or null while there is none (destroyed, no game view). */
  localShip(): ShipState | null;
  /** Remote events raised by the local game, waiting for a packet. */
  readonly events: GameCodeInterface;
  /** Hands received states, events, chat and slot-table changes to the game view. */
  deliver(delivery: NetDelivery): void;
  /** The local player's name. */
  playerName(): string;
  /** The ship look the player chose (`ship_design`, `ship_colour`); absent: left to the slot. */
  shipLook?(): ShipLook;
  /** Packets per second to send while joined (the `sendfreq` cvar, 5..60). */
  sendFrequency(): number;
  /** Join automatically once connected. */
  autoJoin(): boolean;
  /** Host time in ms (monotonic); the only clock a protocol reads. */
  now(): number;
  /**
   * A protocol that runs the simulation itself (lockstep) attaches its frame
   * sync while it is bound, and detaches it (null) when killed. Games that
   * cannot show a shared world (a test's idle game) omit it.
   */
  attachSync?(sync: FrameSync | null): void;
}

/**
 * What a protocol is given when it is created. Ownership: the context belongs
 * to the subsystem set; the protocol may keep it for its whole life.
 */
export interface ProtocolContext {
  /**
   * The packet API jump table, never an implementation: it keeps working when
   * the console switches `udp` ↔ `udp6`. Receive handlers registered on it
   * belong to the implementation bound at the time, so a protocol registers
   * its handler in `init` (it is re-inited after every packet API change).
   */
  readonly packetApi: PacketApi;
  /** Writes one line to the game console. */
  print(line: string): void;
  /**
   * Writes a line about the connection's internals (the clock's offset and
   * error, say) that a player needs only when looking into a problem: a host
   * shows it with `net_verbose 1`, a headless bot always. Absent: dropped.
   */
  printDetail?(line: string): void;
  /** Why the player is leaving the game now, when a protocol switch takes them away (e.g. "switched to netgame"); null otherwise. */
  leavingFor?(): string | null;
  /**
   * Adds a console command for as long as the protocol runs: call it in
   * `init`, and call the returned remover in `kill` (Parsec's subsystems bring
   * their own commands).
   */
  addCommand(def: CommandDef): () => void;
  /** The game the protocol carries. */
  readonly game: ProtocolGame;
  /** UDP port that LAN discovery broadcasts to (and the ports above it within the fallback range). */
  readonly discoveryPort: number;
  /** Where LAN server discovery asks: the host's IPv4 broadcast address and IPv6 interfaces, when configured. */
  readonly lan?: { broadcastAddress?: string; lanInterfaces?: readonly string[] };
  /**
   * `connect <n>`: the n-th server of the last `servers` list, as the
   * protocol it needs and a `host:port` target; null when `text` is not such a number.
   */
  pickServer?(text: string): { protocol: string | null; target: string } | null;
  /** Switches to `protocol` and connects it to `target` (the host rebinds the table, then calls the protocol's `connect`). */
  switchTo?(protocol: string, target: string): void;
  /**
   * Called once a connect attempt ends without a game (`failed`: refused,
   * full, unreachable, nothing found on the LAN) or a game ends without the
   * player asking (`lost`: connection broken, removed by the server).
   * `reason` is the text of the console line printed with it; `target`, the
   * server as `connect` takes it (absent when there is none to go back to).
   * A window shows a dialog (or the reason in its server browser); a
   * headless bot exits on it.
   */
  connectionEnded?(outcome: 'failed' | 'lost', reason: string, target?: string): void;
  /**
   * A lockstep game reached a hash check frame (every 40th): the world's
   * hash there and the epoch (state transfers so far) it belongs to. The
   * headless bot prints it with --json, so players can be compared from
   * outside.
   */
  frameHash?(report: { frame: number; hash: string; epoch: number }): void;
}

/**
 * One protocol implementation. `init` starts it on the current packet API,
 * `kill` stops it and releases every timer and handler it made; both may be
 * called repeatedly and `kill` must cope with a half-finished `init` and with
 * the packet API having been swapped or unbound already.
 */
export interface Protocol {
  /** Name as typed in the console, e.g. `offline`. */
  readonly name: string;
  init(): Promise<void>;
  kill(): Promise<void>;
  /** One human-readable line describing the current state, for `net.status`. */
  status(): string;
  /**
   * Starts joining a game, as the `connect` console command does: `target`
   * is host[:port] or n (server n of the last `servers` list); without it
   * p2p looks on the LAN and a server protocol joins the first server of its
   * kind answering there. Returns the line for the console, or null when the
   * protocol prints its own outcome. Protocols that never connect omit it.
   * `carried`: the connect a protocol switch makes on the player's behalf,
   * which words its own failure (where the player was, and the way back).
   */
  connect?(target?: string, carried?: CarriedConnect): string | null;
  /**
   * `spectate`: watches a game rather than playing in it. A server with
   * spectator seats (a gameserver) gives one, with no slot and no ship; any
   * other game is joined connected but not joined. `target` as for
   * `connect`. Returns the console line, or null when the protocol prints
   * its own outcome. Protocols that never connect omit it.
   */
  spectate?(target?: string): string | null;
  /**
   * Where we are playing, if anywhere: `{}` for a LAN game, `{ host, port,
   * name }` for a server (so a protocol switch can reconnect to the same
   * place, and say which); null when not connected.
   */
  connection?(): { host?: string; port?: number; name?: string } | null;
  /**
   * Link quality to the other players (or the server), for the net graph:
   * null fields are not measured (yet). Protocols without peers omit it.
   */
  linkStats?(): LinkStats;
  /**
   * Each player's round trip as far as this node knows it, for the
   * scoreboard (players without a figure are left out; empty when not in a
   * game). Our own slot: our round trip to the server in a gameserver or
   * slotserver game (its time port), none peer to peer (we have no link to
   * ourselves). Another player: our round trip to that peer when we send to
   * it directly (p2p and slotserver games), none through a gameserver (only
   * the server knows it). Protocols without peers (offline, its bots) omit it.
   */
  playerPings?(): PlayerPing[];
  /**
   * `host`: starts a server of this protocol's kind inside this game (a
   * netgame server, the seed's "the server is player 0") and joins it.
   * Resolves with the console line. Protocols that cannot host omit it.
   */
  hostGame?(): Promise<string>;
  /** A protocol that runs the simulation (lockstep): its frame figures (frame, input lead, frames waited, resends, desyncs), null before it has them. Others omit it. */
  syncStats?(): LockstepStats | null;
}

/** A connect made by a protocol switch rather than typed: its failure is one line the switch words. */
export interface CarriedConnect {
  /** The console line for a failed attempt, given the reason (e.g. "nothing is listening at 127.0.0.1:6583"). */
  failed(reason: string): string;
}

/** What the net graph plots besides traffic (which the packet API wrapper counts). */
export interface LinkStats {
  /** Smoothed round trip in ms (mean over the peers / to the server), or null. */
  pingMs: number | null;
  /** Mean absolute difference between successive round-trip samples, in ms, or null. */
  jitterMs: number | null;
  /** Received game packets missing from the senders' message-id sequences over the last few seconds, in %, or null. */
  lossPct: number | null;
  /** A protocol that runs the simulation (lockstep, netgame): its figures in one line, starting with its name. */
  sync?: string;
}

/** Creates a protocol bound to a context; registered per name in the protocol subsystem kind. */
export type ProtocolFactory = (context: ProtocolContext) => Protocol;
