/**
 * The state one peer shares between its start-up (startup.ts), game loop
 * (gameLoop.ts) and membership rules (membership.ts), and the primitives
 * they all use: sending, notices, table changes. Packets leave unnumbered:
 * the session's connection to each node numbers them (session/connections.ts).
 * Internal to src/shared/p2p; the public face is P2pPeer (peer.ts).
 */
import { addrKey } from '../wire/addr';
import type { UnnumberedPacket } from '../net/connection';
import { NO_SLOT, type Packet, type PacketType, type PlayerEntry, type WireAddr } from '../wire/types';
import type { ControlPacketEvent } from '../wire/channels';
import type { P2pConfig } from './config';
import type { NameRecord } from './names';
import { outgoingControl } from './packets';
import { AUTO_LOOK, type ShipLook } from '../wire/shipLook';
import { SlotTable, toPlayer, UNKNOWN_NAME } from './slotTable';

/** Where a peer is in its life cycle (STATE-MACHINE.md has the diagram). */
export type PeerState = 'idle' | 'connecting' | 'slave' | 'connected' | 'failed';

/**
 * How a peer reaches the others. Implementations must not call back into the
 * peer synchronously. Packets come unnumbered: the transport's connection to
 * each node writes the `messageId` (a session's SessionSender).
 */
export interface P2pTransport {
  /** Unicast `packet` to one node. */
  send(to: WireAddr, packet: UnnumberedPacket): void;
  /** Broadcast `packet` on the LAN (start-up discovery only). */
  broadcast(packet: UnnumberedPacket): void;
  /**
   * A node's identity from its wire address, as the packet API compares
   * nodes (a session gives the packet API's key). Default: the bytes. Which
   * of two nodes is higher stays a rule on the bytes (`compareAddr`), the
   * same on every peer.
   */
  keyOf?(addr: WireAddr): string;
  /**
   * Whether the node has proven it receives at its address (answered a
   * challenge, see src/shared/session/addressProof.ts). Only proven nodes
   * are given slots: a connect queue naming other addresses takes none of
   * them until each proves itself. Default: every node.
   */
  proven?(addr: WireAddr): boolean;
}

/** What the peer tells its owner (the protocol adapter / game code). */
export type P2pNotice =
  /** We hold `slot`; `players` is the whole table including us (sorted by slot). Can come again with a new slot after a repaired split (see STATE-MACHINE.md). */
  | { kind: 'connected'; slot: number; players: PlayerEntry[] }
  /** The attempt ended without a slot; `message` is one line for the console. */
  | { kind: 'failed'; reason: 'game-full' | 'slave-timeout'; message: string }
  /** Another node entered the table. */
  | { kind: 'player-added'; player: PlayerEntry }
  /** A node left the table: it said so, or was silent for aliveTimeoutMs (or lost its slot in a conflict: 'disconnect'). */
  | { kind: 'player-removed'; player: PlayerEntry; reason: 'disconnect' | 'timeout'; why?: string }
  /** A row changed: joined/unjoined, name, or (rarely) slot. Also for our own row. */
  | { kind: 'player-changed'; player: PlayerEntry }
  /** Another player holds the name we wanted, so we play as `name` in this game (see names.ts). */
  | { kind: 'renamed'; name: string; wanted: string; holder: PlayerEntry }
  /** We left the game: disconnect(), or a higher node proved it holds our slot (a new start-up follows at once). */
  | { kind: 'disconnected' };

/** Bookkeeping of one run of the start-up protocol (connect loop and slot-request loop). */
export interface StartupRun {
  startedAt: number;
  /** When the connect loop ends unless a node of higher status answers: startedAt + the start-up window, moved on when a node nearby proves its address late (at most maxPlayers times). */
  endsAt: number;
  extensions: number;
  requestsSent: number;
  nextRequestAt: number;
  /** Nodes of lower status whose requests we hold: assigned by us as master, or forwarded to our master. */
  queue: Map<string, WireAddr>;
  /** The table we knew before losing our slot in a conflict; sent along so answering peers can settle it. */
  knowledge: PlayerEntry[];
  /** Our master while a slave (the highest starting node heard of). */
  master: WireAddr | null;
  slaveSince: number;
  nextSlotRequestAt: number;
}

/**
 * An answer we gave that the node has not acknowledged yet (by sending us
 * anything with a slot in its header): re-sent to that node alone every
 * connect-request interval until then or until `until`.
 */
export interface UnackedAnswer {
  addr: WireAddr;
  kind: 'reply' | 'full';
  nextAt: number;
  until: number;
}

/** A connect request a connected peer will answer at `deadline` unless it snoops another peer's answer first. */
export interface PendingAnswer {
  requester: WireAddr;
  addrs: Map<string, WireAddr>;
  deadline: number;
}

/**
 * Mutable state of one peer plus the primitives every part of the protocol
 * uses. Not exported from the package: P2pPeer owns exactly one.
 */
export class PeerCore {
  readonly selfKey: string;
  state: PeerState = 'idle';
  joined = false;
  mySlot: number | null = null;
  readonly table: SlotTable;
  /** A node's identity (see P2pTransport.keyOf). */
  readonly keyOf: (addr: WireAddr) => string;
  /** Last name heard from each node (ConnectRequest, SlotRequest, NodeAlive, playerName events). */
  readonly names = new Map<string, string>();
  /** Last ship look heard from each node (beside its name; AUTO_LOOK when it named itself without one). */
  readonly looks = new Map<string, ShipLook>();
  /** The ship look we chose (shared/wire/shipLook.ts), sent beside our name. */
  look: ShipLook = AUTO_LOOK;
  /** Recently removed nodes → until when stale player lists may not bring them back. */
  readonly tombstones = new Map<string, number>();
  readonly pending = new Map<string, PendingAnswer>();
  readonly unacked = new Map<string, UnackedAnswer>();
  /** When some peer (we or another) last answered each node: a copy can overtake the request it answers. */
  readonly answeredAt = new Map<string, number>();
  /** Nodes whose request waits until they prove their address (gameLoop.ts `admissible`), with until when. */
  readonly deferred = new Map<string, { addr: WireAddr; until: number }>();
  /** Rate limit for conflict evidence we send, per target. */
  readonly lastEvidenceAt = new Map<string, number>();
  run: StartupRun | null = null;
  /** When we last sent something to every member (GameState, NodeAlive, an answer). */
  lastToAllAt = -Infinity;
  /** When we last sent NodeAlive to every member. */
  lastAliveAt = -Infinity;
  /** The name the player asked for; `name` is the one we use in this game (the same unless another player held it). */
  wantedName: string;
  /** When we took `name` in this game. */
  nameSince = -Infinity;
  /** Per other row: when we saw it take its current name (names.ts). */
  readonly nameSeen = new Map<string, NameRecord>();
  /** Per other row sharing our name: since when. */
  readonly clashSince = new Map<string, number>();

  constructor(
    readonly self: WireAddr,
    public name: string,
    readonly transport: P2pTransport,
    private readonly notify: (n: P2pNotice) => void,
    /** Replaced only between sessions (P2pPeer.connect), never while a start-up or game runs. */
    public cfg: P2pConfig,
  ) {
    this.keyOf = transport.keyOf ? (a) => transport.keyOf?.(a) ?? addrKey(a) : addrKey;
    this.table = new SlotTable(this.keyOf);
    this.selfKey = this.keyOf(self);
    this.wantedName = name;
  }

  /** A control packet from us (our slot and joined flag as of now; each copy is numbered on its way out). */
  packet(type: PacketType, events: ControlPacketEvent[]): UnnumberedPacket {
    const slot = this.state === 'connected' && this.mySlot !== null ? this.mySlot : NO_SLOT;
    return outgoingControl(type, slot, this.state === 'connected' && this.joined, events);
  }

  /** Fresh, in-order GameStates taken during the receive under way, for the game code (P2pPeer.receive returns them). */
  taken: { slot: number; packet: Packet }[] = [];

  /** Hands a notice to the owner (synchronously). */
  emit(n: P2pNotice): void {
    this.notify(n);
  }

  /** Whether `addr` may be given a slot (see P2pTransport.proven). */
  proven(addr: WireAddr): boolean {
    return this.transport.proven?.(addr) ?? true;
  }

  /** Unicast through the transport. */
  send(to: WireAddr, p: UnnumberedPacket): void {
    this.transport.send(to, p);
  }

  /** LAN broadcast through the transport. */
  broadcast(p: UnnumberedPacket): void {
    this.transport.broadcast(p);
  }

  /** Unicast to every other row of the table, except the keys in `skip`. */
  sendToMembers(p: UnnumberedPacket, skip?: ReadonlySet<string>): void {
    for (const e of this.table.rows()) {
      if (e.key === this.selfKey || skip?.has(e.key)) continue;
      this.transport.send(e.addr, p);
    }
  }

  /** The last name heard from a node, or UNKNOWN_NAME. */
  nameFor(key: string): string {
    return this.names.get(key) ?? UNKNOWN_NAME;
  }

  /** The own row as the wire sees it. */
  selfEntry(slot: number): PlayerEntry {
    return { slot, addr: this.self, name: this.name, joined: this.joined };
  }

  /** Adds a row for another node (connected state) and tells the owner. */
  addPlayer(addr: WireAddr, slot: number, name: string | null, joined: boolean, now: number): void {
    const key = this.keyOf(addr);
    if (name !== null && name !== UNKNOWN_NAME) this.names.set(key, name);
    const entry = { slot, addr, name: this.nameFor(key), joined, key, lastHeard: now };
    this.table.add(entry);
    this.tombstones.delete(key);
    this.emit({ kind: 'player-added', player: toPlayer(entry) });
  }

  /** Removes another node's row, remembers it for a while and tells the owner. */
  /** `why`: what a leaving player said of it (a Disconnect's reason), already validated. */
  removePlayer(key: string, reason: 'disconnect' | 'timeout', now: number, why?: string): void {
    const e = this.table.remove(key);
    if (!e) return;
    this.tombstones.set(key, now + this.cfg.aliveTimeoutMs);
    this.pending.delete(key);
    this.unacked.delete(key);
    this.emit({ kind: 'player-removed', player: toPlayer(e), reason, ...(why === undefined ? {} : { why }) });
  }

  /** Whether the node was removed less than aliveTimeoutMs ago (stale player lists must not bring it back). */
  tombstoned(key: string, now: number): boolean {
    const until = this.tombstones.get(key);
    return until !== undefined && now < until;
  }

  /**
   * Forgets the session: table, slot, queue, pending answers. Names and
   * tombstones survive, since they describe the other nodes, which have not
   * changed (so do the connections below, with what they received).
   */
  resetSession(): void {
    this.table.clear();
    this.mySlot = null;
    this.joined = false;
    this.pending.clear();
    this.unacked.clear();
    this.answeredAt.clear();
    this.deferred.clear();
    this.run = null;
    // A name we took instead of a taken one holds for that game only; the next one starts from the wanted name.
    this.name = this.wantedName;
  }

  /** Ends the attempt with a 'failed' notice (message: one line for the console). */
  fail(reason: 'game-full' | 'slave-timeout', message: string): void {
    this.resetSession();
    this.state = 'failed';
    this.emit({ kind: 'failed', reason, message });
  }
}
