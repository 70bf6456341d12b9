/**
 * A peer set run by a server: the server hands out our slot and tells us who
 * joins, leaves and renames. This keeps that table, takes state only from a
 * member's newest packet (as its connection found it: connections.ts),
 * carries joined/unjoined in every header and keeps the peers fed with
 * node-alive packets. It writes no message id: the session's connection to
 * each node numbers what it sends. Pure: time comes in as `now`.
 *
 * Two routes, chosen when the server accepts us (`adopt`):
 * - a slotserver game: game packets go peer to peer, and (as in p2p) a peer
 *   not heard from for the alive timeout is dropped from our table — the
 *   slotserver cannot see a frozen client — until it is heard again;
 * - a gameserver game (`relay`): every packet goes to the server only, with
 *   the session token from the TCP join, and the others' states come back
 *   bundled in Relay packets, which are unpacked here. A relayed player's
 *   packet carries the number of its own link to the server, which no
 *   connection of ours has seen (the Relay datagram has a number of its
 *   own): each relayed player has a connection here, by slot, that admits
 *   those numbers, so only its newest state is taken.
 */
import type { GameStateFrom } from './membership';
import { Connections, type Arrival, type UnnumberedPacket } from '../net/connection';
import { DEFAULT_P2P_CONFIG } from '../p2p/config';
import { nameEvent, nameOf, outgoingControl, sanitizeName } from '../p2p/packets';
import { addrKey } from '../wire/addr';
import { AUTO_LOOK, sameLook, type ShipLook } from '../wire/shipLook';
import { NO_SLOT, PacketType, type Packet, type PacketHeader, type PlayerEntry, type WireAddr } from '../wire/types';
import { isRelayMessage, type GameStateMessage } from '../wire/channels';

/** Node-alive spacing while connected but not joined, and while joined (when game states may be sparse). */
export const MANAGED_ALIVE_MS = 500;
export const MANAGED_ALIVE_JOINED_MS = 2000;
/**
 * A peer in a slotserver game not heard from for this long leaves our table
 * (p2p's alive timeout; a connected peer sends at least every 0.5 s: game
 * states while joined, node-alive otherwise).
 */
export const MANAGED_ALIVE_TIMEOUT_MS = DEFAULT_P2P_CONFIG.aliveTimeoutMs;

/** A gameserver's UDP address and our session token: where a relayed game's packets go. */
export interface RelayRoute {
  server: WireAddr;
  token: number;
}

export type ManagedNotice =
  | { kind: 'player-changed'; player: PlayerEntry }
  /** A peer (slotserver game) was silent for the alive timeout and left our table; it comes back if heard again. */
  | { kind: 'player-timed-out'; player: PlayerEntry; silentMs: number }
  /** A timed-out peer was heard again and is back in its slot. */
  | { kind: 'player-back'; player: PlayerEntry };

export class ManagedPeer {
  state: 'idle' | 'connected' = 'idle';
  protected mySlot: number | null = null;
  protected joined = false;
  protected readonly table = new Map<number, PlayerEntry>();
  /** A relayed game's players as the server passes their packets on, by slot: their numbers, admitted once (see the head of this file). */
  private readonly relayed = new Connections<number>(() => 0); // nothing is sent on them: no first number to choose
  private lastAliveAt = -Infinity;
  /** Set for a gameserver game (by `adopt`). */
  private relay: RelayRoute | null = null;
  /** When each other member was last heard (slotserver game), by slot. */
  private readonly heardAt = new Map<number, number>();
  /** Members dropped for silence, by node key, until heard again or removed by the server. */
  private readonly timedOut = new Map<string, PlayerEntry>();
  /** Our chosen ship look, and the others' as the server passed them on (by slot; absent: left to the slot). */
  private look: ShipLook = AUTO_LOOK;
  private readonly looks = new Map<number, ShipLook>();
  /** Called when our look changes while connected: the adapter tells the server (`my ship:`). */
  onLookChange: (look: ShipLook) => void = () => undefined;

  constructor(
    private readonly self: WireAddr,
    private name: string,
    protected readonly send: (to: WireAddr, packet: UnnumberedPacket) => void,
    protected readonly notify: (n: ManagedNotice) => void,
    /** Called when our name changes while connected (the adapter tells the server). */
    private readonly onRename: (name: string) => void = () => undefined,
    /** A node's identity from its wire address (a session passes the packet API's; default the bytes). */
    private readonly keyOf: (addr: WireAddr) => string = addrKey,
  ) {
    this.name = sanitizeName(name, 'player');
  }

  /**
   * The server gave us `slot`: we are connected, alone in the table until it
   * lists the others. With `relay`, everything goes through that gameserver.
   */
  adopt(slot: number, relay?: RelayRoute): void {
    this.reset();
    this.relay = relay ? { server: Uint8Array.from(relay.server), token: relay.token } : null;
    this.state = 'connected';
    this.mySlot = slot;
    this.table.set(slot, { slot, addr: this.self, name: this.name, joined: false });
  }

  /** Back to idle: table, relayed players' numbers and join state forgotten. */
  leave(): void {
    this.reset();
  }

  /** The server announced a player (or one already there). Replaces whoever held that slot. */
  add(slot: number, addr: WireAddr, name: string): PlayerEntry | null {
    if (this.state !== 'connected' || slot === this.mySlot) return null;
    const entry = { slot, addr, name: sanitizeName(name, 'player'), joined: false };
    const key = this.keyOf(addr);
    for (const [k, e] of this.timedOut) if (k === key || e.slot === slot) this.timedOut.delete(k);
    this.heardAt.delete(slot);
    this.looks.delete(slot);
    this.table.set(slot, entry);
    return { ...entry };
  }

  /**
   * Which other players are in the game, as a server that runs it (a
   * netgame server) shows them: their ships, not their packets. Returns
   * whether the table changed.
   */
  markJoined(inGame: ReadonlySet<number>): boolean {
    let changed = false;
    for (const entry of this.table.values()) {
      if (entry.slot === this.mySlot || entry.joined === inGame.has(entry.slot)) continue;
      entry.joined = inGame.has(entry.slot);
      changed = true;
    }
    return changed;
  }

  /** The server says the player at `addr` left; returns who it was. */
  remove(addr: WireAddr): PlayerEntry | null {
    this.timedOut.delete(this.keyOf(addr));
    const entry = this.byAddr(addr);
    if (!entry || entry.slot === this.mySlot) return null;
    this.table.delete(entry.slot);
    return { ...entry };
  }

  /** The server says the player at `addr` is now called `name`. */
  rename(addr: WireAddr, name: string): void {
    const entry = this.byAddr(addr);
    if (!entry || entry.slot === this.mySlot) return;
    entry.name = sanitizeName(name, entry.name);
    this.notify({ kind: 'player-changed', player: { ...entry } });
  }

  slot(): number | null {
    return this.state === 'connected' ? this.mySlot : null;
  }

  players(): PlayerEntry[] {
    return [...this.table.values()].sort((a, b) => a.slot - b.slot).map((p) => ({ ...p }));
  }

  setName(name: string): void {
    const clean = sanitizeName(name, 'player');
    if (clean === this.name) return;
    this.name = clean;
    const me = this.mySlot === null ? undefined : this.table.get(this.mySlot);
    if (me) me.name = clean;
    if (this.state === 'connected') this.onRename(clean);
  }

  /** Chooses the ship look we are seen in; while connected the server hears of it at once. */
  setLook(look: ShipLook): void {
    if (sameLook(look, this.look)) return;
    this.look = { design: look.design, colour: look.colour };
    if (this.state !== 'connected') return;
    this.onLookChange(this.look);
    const me = this.mySlot === null ? undefined : this.table.get(this.mySlot);
    if (me) this.notify({ kind: 'player-changed', player: { ...me } });
  }

  /** Our chosen look, whatever the state (the adapter sends it after a join). */
  ownLook(): ShipLook {
    return { ...this.look };
  }

  /** The look the player in `slot` chose (ours for our slot), AUTO_LOOK when the server has not said. */
  lookOf(slot: number): ShipLook {
    return slot === this.mySlot ? this.look : (this.looks.get(slot) ?? AUTO_LOOK);
  }

  /** The server says the player at `addr` flies in `look`. */
  heardLook(addr: WireAddr, look: ShipLook): void {
    const entry = this.byAddr(addr);
    if (!entry || entry.slot === this.mySlot || sameLook(look, this.lookOf(entry.slot))) return;
    this.looks.set(entry.slot, { design: look.design, colour: look.colour });
    this.notify({ kind: 'player-changed', player: { ...entry } });
  }

  /** The player in `slot` renamed itself (a reliable playerName message). */
  heardName(slot: number, name: string): void {
    const entry = this.table.get(slot);
    if (!entry || slot === this.mySlot) return;
    const clean = sanitizeName(name, 'player');
    if (entry.name === clean) return;
    entry.name = clean;
    this.notify({ kind: 'player-changed', player: { ...entry } });
  }

  join(now: number): void {
    this.setJoined(true, now);
  }

  unjoin(now: number): void {
    this.setJoined(false, now);
  }

  /**
   * A decoded packet, with what its connection made of its number. Only
   * members are heard (in a relayed game, only the server, each relayed
   * player packet counting as that player's own); a packet that is not the
   * newest from its sender has no effect. Returns the game states it carried
   * for the game (a relayed game's server messages under NO_SLOT).
   */
  receive(from: WireAddr, packet: Packet, now: number, arrival: Arrival): GameStateFrom[] {
    const taken: GameStateFrom[] = [];
    if (this.state !== 'connected') return taken;
    if (this.relay) {
      this.receiveRelayed(from, packet, taken);
      return taken;
    }
    const key = this.keyOf(from);
    const entry = this.byAddr(from) ?? this.back(key);
    if (!entry || entry.slot === this.mySlot) return taken;
    this.heardAt.set(entry.slot, now);
    this.accept(entry, packet, arrival === 'newest', taken);
    return taken;
  }

  /** A member dropped for silence speaks again: back in its slot, unless the server gave the slot to someone else meanwhile. */
  private back(key: string): PlayerEntry | undefined {
    const entry = this.timedOut.get(key);
    if (!entry) return undefined;
    this.timedOut.delete(key);
    if (this.table.has(entry.slot)) return undefined;
    this.table.set(entry.slot, entry);
    this.notify({ kind: 'player-back', player: { ...entry } });
    return entry;
  }

  /** Slotserver game: members silent for the alive timeout leave the table (p2p's rule; the server cannot see a frozen peer). */
  private dropSilent(now: number): void {
    for (const p of [...this.table.values()]) {
      if (p.slot === this.mySlot) continue;
      const heard = this.heardAt.get(p.slot);
      if (heard === undefined) this.heardAt.set(p.slot, now);
      else if (now - heard >= MANAGED_ALIVE_TIMEOUT_MS) {
        this.table.delete(p.slot);
        this.heardAt.delete(p.slot);
        this.timedOut.set(this.keyOf(p.addr), p);
        this.notify({ kind: 'player-timed-out', player: { ...p }, silentMs: now - heard });
      }
    }
  }

  private receiveRelayed(from: WireAddr, packet: Packet, taken: GameStateFrom[]): void {
    if (!this.relay || this.keyOf(from) !== this.keyOf(this.relay.server) || packet.header.type !== PacketType.Relay) return;
    // The server's own messages ride in the outer event list (a netgame server's moves and states): they come from no player's slot.
    const own = packet.events.filter((e) => !isRelayMessage(e));
    if (own.length > 0) taken.push({ slot: NO_SLOT, packet: { header: packet.header, events: own } });
    for (const event of packet.events) {
      if (!isRelayMessage(event) || event.slot === this.mySlot) continue;
      const entry = this.table.get(event.slot);
      if (!entry) continue;
      // By slot: the players' own addresses never reach us in this mode.
      if (event.packet.header.joined) this.accept(entry, event.packet, this.relayed.open(event.slot).admit(event.packet.header.messageId).verdict === 'newest', taken);
      // The server sends a player's events without a fresh state (chat beyond the filter radius,
      // events that waited a tick) as joined = 0 with its newest id: not a new state, not an unjoin.
      else if (event.packet.events.length > 0) taken.push({ slot: event.slot, packet: event.packet });
    }
  }

  /** Whether `from` may send us control packets (pings): members, or in a relayed game the server. */
  trusts(from: WireAddr): boolean {
    return this.relay ? this.keyOf(from) === this.keyOf(this.relay.server) : this.byAddr(from) !== undefined;
  }

  /** Reliable messages in a relayed game go to the server, which acknowledges them and sends them on itself. */
  linkTargets(): WireAddr[] {
    if (this.relay) return [this.relay.server];
    return this.players().filter((p) => p.slot !== this.mySlot).map((p) => p.addr);
  }

  /** Our session token at a gameserver (undefined otherwise). */
  get sessionToken(): number | undefined {
    return this.relay?.token;
  }

  /** A packet of member `entry` (`fresh`: the newest number from it): fresh ones update join state and name and go to the game. */
  protected accept(entry: PlayerEntry, packet: Packet, fresh: boolean, taken: GameStateFrom[]): void {
    const h = packet.header;
    if (h.type !== PacketType.GameState && h.type !== PacketType.NodeAlive) return;
    if (!fresh) return;
    const name = nameOf(packet);
    const changed = entry.joined !== h.joined || (name !== null && name !== entry.name);
    entry.joined = h.joined;
    if (name !== null) entry.name = name;
    if (changed) this.notify({ kind: 'player-changed', player: { ...entry } });
    if (h.type === PacketType.GameState) taken.push({ slot: entry.slot, packet });
  }

  /** Node-alive to every peer while connected (every 0.5 s unjoined, 2 s joined or in a spectator's seat), carrying our name. */
  tick(now: number): void {
    if (this.state !== 'connected') return;
    if (!this.relay) this.dropSilent(now);
    const every = this.joined || this.mySlot === NO_SLOT ? MANAGED_ALIVE_JOINED_MS : MANAGED_ALIVE_MS;
    if (now - this.lastAliveAt >= every) this.sendAlive(now);
  }

  sendGameState(now: number, header: Omit<PacketHeader, 'type' | 'senderSlot' | 'messageId' | 'joined'>, events: GameStateMessage[]): void {
    if (this.state !== 'connected' || this.mySlot === null) return;
    const packet: UnnumberedPacket = { header: { ...header, type: PacketType.GameState, senderSlot: this.mySlot, joined: this.joined }, events };
    this.toOthers(packet);
  }

  private setJoined(joined: boolean, now: number): void {
    // A spectator's seat (NO_SLOT) has no ship to join with.
    if (this.state !== 'connected' || this.joined === joined || this.mySlot === null || this.mySlot === NO_SLOT) return;
    this.joined = joined;
    const me = this.table.get(this.mySlot);
    if (me) {
      me.joined = joined;
      this.notify({ kind: 'player-changed', player: { ...me } });
    }
    this.sendAlive(now);
  }

  private sendAlive(now: number): void {
    this.lastAliveAt = now;
    const alive = outgoingControl(PacketType.NodeAlive, this.mySlot ?? 255, this.joined, [nameEvent(this.name)]);
    this.toOthers(alive);
    // Peers dropped for silence still get node-alive: if they were only frozen, both sides find each other again.
    if (!this.relay) for (const p of this.timedOut.values()) this.send(p.addr, alive);
  }

  /** Where our packets go: every other member, or only the server (with the session token) in a relayed game. */
  private toOthers(packet: UnnumberedPacket): void {
    if (this.relay) return this.send(this.relay.server, { ...packet, header: { ...packet.header, token: this.relay.token } });
    for (const p of this.table.values()) if (p.slot !== this.mySlot) this.send(p.addr, packet);
  }

  protected byAddr(addr: WireAddr): PlayerEntry | undefined {
    const key = this.keyOf(addr);
    for (const p of this.table.values()) if (this.keyOf(p.addr) === key) return p;
    return undefined;
  }

  private reset(): void {
    this.state = 'idle';
    this.mySlot = null;
    this.joined = false;
    this.table.clear();
    this.heardAt.clear();
    this.timedOut.clear();
    this.looks.clear();
    this.relayed.clear();
    this.lastAliveAt = -Infinity;
    this.relay = null;
  }
}
