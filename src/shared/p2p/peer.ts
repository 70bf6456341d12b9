/**
 * P2pPeer: one node of a peer-to-peer game, as a pure deterministic state
 * machine. The owner feeds it decoded packets (`receive`, each with what its
 * connection made of its number) and the time (`tick`, every 5–20 ms); it
 * answers through the transport and the notice callback. No clock, no
 * randomness, no I/O of its own, and no message ids: the connection below it
 * (a session's, session/connections.ts) numbers what it sends and admits
 * what it receives.
 */
import type { Arrival, UnnumberedPacket } from '../net/connection';
import { PacketType, type Packet, type PacketHeader, type PlayerEntry, type WireAddr } from '../wire/types';
import type { GameStateMessage } from '../wire/channels';
import { leaveReason } from '../net/leaveReason';
import { resolveConfig, type P2pConfig } from './config';
import { PeerCore, type P2pNotice, type P2pTransport, type PeerState } from './core';
import { connectedReceive, connectedTick, handshaking, knowledgeAfterLoss, provenNow, sendAliveToAll, settleOwnName } from './gameLoop';
import { lookOf, nameOf, sanitizeName } from './packets';
import { AUTO_LOOK, sameLook, type ShipLook } from '../wire/shipLook';
import { beginStartup, startupReceive, startupTick } from './startup';
import { toPlayer } from './slotTable';

/** Name used when the one given is empty after sanitising. */
export const DEFAULT_PLAYER_NAME = 'player';

/**
 * One node of a peer-to-peer game (see STATE-MACHINE.md). All methods are
 * synchronous and deterministic; `now` must not go backwards between calls.
 */
export class P2pPeer {
  private readonly core: PeerCore;

  /**
   * `self` is this node's serialised address (as the others see it), `name`
   * its player name (made wire-valid: printable ASCII, ≤ 16 characters).
   * `notify` is called synchronously from the methods below. Throws
   * RangeError for an invalid config.
   */
  constructor(self: WireAddr, name: string, transport: P2pTransport, notify: (n: P2pNotice) => void, config?: Partial<P2pConfig>) {
    this.core = new PeerCore(Uint8Array.from(self), sanitizeName(name, DEFAULT_PLAYER_NAME), transport, notify, resolveConfig(config));
  }

  /** 'idle' (not started or disconnected), 'connecting' (connect loop), 'slave' (slot-request loop), 'connected' (has a slot), 'failed' (last attempt failed). */
  get state(): PeerState {
    return this.core.state;
  }

  /** The resolved configuration (defaults filled in). */
  get config(): Readonly<P2pConfig> {
    return this.core.cfg;
  }

  /**
   * Starts the start-up protocol; ignored unless 'idle' or 'failed'. Ends in
   * a 'connected' or 'failed' notice. A `config` given here replaces the one
   * from the constructor for this attempt and after (missing fields take the
   * defaults, as there); an invalid one throws RangeError and changes nothing.
   */
  connect(now: number, config?: Partial<P2pConfig>): void {
    if (this.core.state !== 'idle' && this.core.state !== 'failed') return;
    if (config) this.core.cfg = resolveConfig(config);
    beginStartup(this.core, now, []);
  }

  /**
   * Leaves: a best-effort Disconnect to every member (or to the master while
   * a slave), then 'idle' with the slot freed and a 'disconnected' notice.
   * `reason` (e.g. "switched to netgame") rides in the Disconnect as its one
   * sendText event, for the others to read.
   * From 'failed' it just returns to 'idle'; from 'idle' it does nothing.
   */
  disconnect(now: number, reason?: string): void {
    const core = this.core;
    if (core.state === 'idle') return;
    const was = core.state;
    const why = reason === undefined ? null : leaveReason(reason);
    if (was === 'connected') core.sendToMembers(core.packet(PacketType.Disconnect, why === null ? [] : [{ type: 'sendText', text: why }]));
    if (was === 'slave' && core.run?.master) core.send(core.run.master, core.packet(PacketType.Disconnect, []));
    core.resetSession();
    core.state = 'idle';
    if (was !== 'failed') core.emit({ kind: 'disconnected' });
  }

  /** Joins the game (the ship enters); only while connected. The flag rides on every packet from now on; a NodeAlive carries it at once. */
  join(now: number): void {
    this.setJoined(true, now);
  }

  /** Leaves the game but keeps the slot; only while connected. */
  unjoin(now: number): void {
    this.setJoined(false, now);
  }

  private setJoined(joined: boolean, now: number): void {
    const core = this.core;
    if (core.state !== 'connected' || core.joined === joined) return;
    core.joined = joined;
    const me = core.table.byAddrKey(core.selfKey);
    if (me) {
      me.joined = joined;
      core.emit({ kind: 'player-changed', player: toPlayer(me) });
    }
    sendAliveToAll(core, now);
  }

  /** The player in `slot` renamed itself (a reliable playerName message, which does not pass `receive`). */
  heardName(slot: number, name: string): void {
    const core = this.core;
    const entry = core.table.atSlot(slot);
    if (!entry || entry.key === core.selfKey) return;
    const clean = sanitizeName(name, DEFAULT_PLAYER_NAME);
    core.names.set(entry.key, clean);
    if (entry.name !== clean) {
      entry.name = clean;
      core.emit({ kind: 'player-changed', player: toPlayer(entry) });
    }
  }

  /**
   * Changes the name we want (sanitised). While connected it is checked
   * against the table at once: if another player holds it we take
   * `name-<slot+1>` instead ('renamed' notice, see names.ts). A NodeAlive
   * takes it to the others at once (the game code's reliable playerName
   * event repairs its loss).
   */
  setName(name: string, now: number): void {
    const core = this.core;
    const clean = sanitizeName(name, DEFAULT_PLAYER_NAME);
    if (clean === core.wantedName && clean === core.name) return;
    core.wantedName = clean;
    core.name = clean;
    core.nameSince = now;
    const me = core.table.byAddrKey(core.selfKey);
    if (me) {
      me.name = clean;
      core.emit({ kind: 'player-changed', player: toPlayer(me) });
    }
    // The new name (ours, or the one taken instead) goes to every member at once, so a clash is seen within a one-way delay.
    if (!settleOwnName(core, now) && core.state === 'connected') sendAliveToAll(core, now);
  }

  /** Chooses the ship look we are seen in; while connected a NodeAlive takes it to every member at once. */
  setLook(look: ShipLook, now: number): void {
    const core = this.core;
    if (sameLook(look, core.look)) return;
    core.look = { design: look.design, colour: look.colour };
    const me = core.table.byAddrKey(core.selfKey);
    if (me) core.emit({ kind: 'player-changed', player: toPlayer(me) });
    if (core.state === 'connected') sendAliveToAll(core, now);
  }

  /** The look the player in `slot` chose (ours for our slot), AUTO_LOOK when unknown or left to the slot. */
  lookOf(slot: number): ShipLook {
    const core = this.core;
    const entry = core.table.atSlot(slot);
    if (!entry) return AUTO_LOOK;
    return entry.key === core.selfKey ? core.look : (core.looks.get(entry.key) ?? AUTO_LOOK);
  }

  /** A packet of node `key` said which look it flies in (null: it did not say): a member's change goes to the table's listeners. */
  private heardLook(key: string, look: ShipLook | null): void {
    const core = this.core;
    if (look === null || key === core.selfKey) return;
    const before = core.looks.get(key) ?? AUTO_LOOK;
    core.looks.set(key, look);
    const entry = core.table.byAddrKey(key);
    if (entry && !sameLook(before, look)) core.emit({ kind: 'player-changed', player: toPlayer(entry) });
  }

  /** The name we use in this game: the wanted one, or the one we took because another player held it. */
  ownName(): string {
    return this.core.name;
  }

  /**
   * Every received, decoded packet, with what its sender's connection made of
   * its number (duplicates were dropped there; a ConnectRequest that is not
   * the newest restarted the sender's numbers there). Our own (looped-back
   * broadcasts) and anything while 'idle' or 'failed' is ignored. GameState,
   * NodeAlive and Disconnect packets that are not the newest from their
   * sender have no effect at all. Older control packets are still used:
   * their effects are idempotent. Returns the fresh, in-order GameStates of
   * members it carried, for the game.
   */
  receive(from: WireAddr, packet: Packet, now: number, arrival: Arrival): { slot: number; packet: Packet }[] {
    const core = this.core;
    core.taken = [];
    this.take(from, packet, now, arrival);
    const taken = core.taken;
    core.taken = [];
    return taken;
  }

  /** One received packet through the state machine; fresh GameStates of members collect in `core.taken`. */
  private take(from: WireAddr, packet: Packet, now: number, arrival: Arrival): void {
    const core = this.core;
    const key = this.core.keyOf(from);
    if (key === core.selfKey || core.state === 'idle' || core.state === 'failed') return;
    const h = packet.header;
    const fresh = arrival === 'newest';
    // State a newer packet supersedes is only taken from the newest; a Disconnect older than something newer ended an earlier session.
    const overtakenKept = h.type === PacketType.GameState && core.cfg.keepOvertakenGameStates;
    if (!fresh && !overtakenKept && (h.type === PacketType.GameState || h.type === PacketType.NodeAlive || h.type === PacketType.Disconnect)) return;
    const name = nameOf(packet);
    if (name !== null) core.names.set(key, name);
    this.heardLook(key, lookOf(packet));
    if (core.state === 'connected') {
      const lost = connectedReceive(core, from, key, packet, fresh, now);
      if (lost) {
        // A higher node proved it holds our slot (a conflict after lost packets): ask again, telling what we knew.
        const knowledge = knowledgeAfterLoss(core, lost);
        core.emit({ kind: 'disconnected' });
        beginStartup(core, now, knowledge);
      }
      return;
    }
    startupReceive(core, from, key, packet, now);
  }

  /** The node at `addr` has just proven its address (see P2pTransport.proven): a request of its that waited for this is answered. */
  proven(addr: WireAddr, now: number): void {
    provenNow(this.core, addr, now);
  }

  /** A node sent us a challenge (`rttMs` after the first broadcast of our series, or null): while we look for a game, its answer is worth waiting for. */
  challenged(now: number, rttMs: number | null): void {
    handshaking(this.core, now, rttMs);
  }

  /** Runs the timers; call every few ms (the tick period adds to every bound in STATE-MACHINE.md). */
  tick(now: number): void {
    const core = this.core;
    if (core.state === 'connecting' || core.state === 'slave') startupTick(core, now);
    else if (core.state === 'connected') connectedTick(core, now);
  }

  /**
   * Sends a GameState to every other member (unicast each); ignored unless
   * connected. The peer fills in type, senderSlot and joined; each copy's
   * connection numbers it.
   * `events` must fit one datagram with the header (see fillPacket).
   */
  sendGameState(now: number, header: Omit<PacketHeader, 'type' | 'senderSlot' | 'messageId' | 'joined'>, events: GameStateMessage[]): void {
    const core = this.core;
    if (core.state !== 'connected' || core.mySlot === null) return;
    const packet: UnnumberedPacket = { header: { ...header, type: PacketType.GameState, senderSlot: core.mySlot, joined: core.joined }, events };
    core.sendToMembers(packet);
    core.lastToAllAt = now;
  }

  /** Sends a GameState to the member in `slot` only (as sendGameState); ignored unless connected and `slot` is another member's. */
  sendGameStateTo(slot: number, header: Omit<PacketHeader, 'type' | 'senderSlot' | 'messageId' | 'joined'>, events: GameStateMessage[]): void {
    const core = this.core;
    const to = core.table.atSlot(slot);
    if (core.state !== 'connected' || core.mySlot === null || !to || to.key === core.selfKey) return;
    core.send(to.addr, { header: { ...header, type: PacketType.GameState, senderSlot: core.mySlot, joined: core.joined }, events });
  }

  /** Our slot while connected, else null. */
  slot(): number | null {
    return this.core.state === 'connected' ? this.core.mySlot : null;
  }

  /** The slot table including us, sorted by slot (copies); empty unless connected. */
  players(): PlayerEntry[] {
    return this.core.state === 'connected' ? this.core.table.toPlayers() : [];
  }
}
