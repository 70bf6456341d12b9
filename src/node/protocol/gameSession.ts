/**
 * What every protocol that sends game packets to a set of peers shares (p2p
 * and, later, slotserver): decoding with drop counters, Ping/Pong round
 * trips, sending the local ship at `sendfreq` with dead reckoning, turning
 * received game states into deliveries and console lines, the `players`
 * listing. The membership — who the peers are and which slot is ours — comes
 * from a {@link Membership}: P2pPeer, or a server-managed peer set.
 */
import type { NodeAddress } from '../../shared/net/packetApi';
import type { ProtocolContext } from '../../shared/net/protocol';
import type { NetPlayer } from '../../shared/net/gameLink';
import { SHIP_LOCAL_ID, playerNameOf } from '../../shared/net/gameCode';
import { PingTable } from '../../shared/net/pingTable';
import { protocolCommands, type ProtocolActions } from './p2pCommands';
import { sendDecision, type SendMemory } from '../../shared/net/sendPolicy';
import { NEUTRAL_STATE } from '../../shared/p2p';
import { addrKey } from '../../shared/wire/addr';
import { DropCounters, decodePacket, encodePacket } from '../../shared/wire/codec';
import { NO_SLOT, PacketType, objectId, type Packet, type PacketHeader, type PlayerEntry, type RemoteEvent, type WireAddr } from '../../shared/wire/types';

/** Who the peers are: the slot table, our slot, and the packets that keep it (P2pPeer fits). */
export interface Membership {
  readonly state: string;
  slot(): number | null;
  players(): PlayerEntry[];
  setName(name: string): void;
  tick(now: number): void;
  receive(from: WireAddr, packet: Packet, now: number): void;
  sendGameState(now: number, header: Omit<PacketHeader, 'type' | 'senderSlot' | 'messageId' | 'joined'>, events: RemoteEvent[]): void;
  join(now: number): void;
  unjoin(now: number): void;
  /** Nodes besides the members whose pings we answer (a gameserver). */
  trusts?(from: WireAddr): boolean;
}

export class GameSession {
  /** Received datagrams refused by the codec, by reason. */
  readonly drops = new DropCounters();
  /** Set right after construction (the membership needs this session's `sendTo` as its transport). */
  member: Membership | null = null;
  private readonly pings = new PingTable();
  private readonly names = new Map<number, string>();
  private memory: SendMemory = { at: -Infinity, key: '' };
  private myName: string;

  constructor(
    private readonly ctx: ProtocolContext,
    readonly self: NodeAddress,
    /** One line describing the connection, for the slot-table delivery. */
    private readonly status: () => string,
  ) {
    this.myName = ctx.game.playerName();
  }

  /**
   * Starts the session: receives on the packet API table, runs the timer
   * every `tickMs`, and adds the console commands (connect and disconnect
   * from the protocol, the rest from the session). Returns the stop function
   * (timer cleared, commands removed) for the protocol's kill.
   */
  start(own: Pick<ProtocolActions, 'connect' | 'disconnect'>, connectHelp?: string, tickMs = 10): () => void {
    this.ctx.packetApi.onPacket(({ from, data }) => this.handlePacket(from, data));
    const timer = setInterval(() => this.tick(), tickMs);
    const removers = protocolCommands(
      {
        ...own,
        join: () => this.whenConnected((m, now) => m.join(now)),
        unjoin: () => this.whenConnected((m, now) => m.unjoin(now)),
        say: (text) => this.say(text),
        players: () => this.playerLines(),
      },
      connectHelp,
    ).map((def) => this.ctx.addCommand(def));
    return () => {
      clearInterval(timer);
      for (const remove of removers) remove();
    };
  }

  /** Sends a packet to a peer given as wire address bytes (the membership's transport). */
  sendTo(to: WireAddr, packet: Packet): void {
    const api = this.ctx.packetApi;
    const node = api.decodeNode(to, this.self);
    if (!node) return;
    try {
      api.send(node, encodePacket(packet));
    } catch (err) {
      this.ctx.print(`could not send to ${api.nodeToString(node)}: ${(err as Error).message}`);
    }
  }

  /** Every received datagram: own echoes ignored, undecodable ones counted, pings answered, the rest to the membership. */
  handlePacket(from: NodeAddress, data: Uint8Array): void {
    const member = this.member;
    const api = this.ctx.packetApi;
    if (!member || api.nodeEquals(from, this.self)) return;
    const decoded = decodePacket(data);
    if (!decoded.ok) {
      this.drops.count(decoded.reason);
      return;
    }
    const fromBytes = api.encodeNode(from);
    const { header } = decoded.packet;
    if (header.type === PacketType.Ping || header.type === PacketType.Pong) this.onPing(member, from, fromBytes, header);
    else member.receive(fromBytes, decoded.packet, this.ctx.game.now());
  }

  /** The timer: name changes, membership timers, pings, and the local ship's state at `sendfreq`. */
  tick(): void {
    const member = this.member;
    if (!member) return;
    const game = this.ctx.game;
    const now = game.now();
    const name = game.playerName();
    if (name !== this.myName) {
      // The name command changed it: tell the table and, when connected, the other players.
      this.myName = name;
      member.setName(name);
      if (member.state === 'connected') game.events.playerName(name, now);
    }
    member.tick(now);
    const slot = member.slot();
    if (member.state !== 'connected' || slot === null) return;
    if (this.pings.due(now)) this.pingPeers(member, now);
    if (!member.players().find((p) => p.slot === slot)?.joined) return;
    const ship = game.localShip();
    const decision = sendDecision(this.memory, now, game.sendFrequency(), ship, game.events.pending > 0);
    if (!decision.send) return;
    this.memory = decision.memory;
    const state = ship ?? NEUTRAL_STATE;
    const header: PacketHeader = { type: PacketType.GameState, senderSlot: slot, messageId: 0, gameTime: now >>> 0, joined: true, state };
    const packet = game.events.take(header, slot, now);
    member.sendGameState(now, { gameTime: header.gameTime, state }, packet.events);
  }

  /** A fresh game state from `slot`: its ship state and events go to the game view; chat and kills are printed. */
  onGameState(slot: number, packet: Packet): void {
    const game = this.ctx.game;
    if (packet.header.joined) game.deliver({ kind: 'state', slot, gameTime: packet.header.gameTime, state: packet.header.state });
    for (const event of packet.events) {
      if (event.type === 'sendText') {
        const from = this.nameOf(slot);
        this.ctx.print(`${from}: ${event.text}`);
        game.deliver({ kind: 'chat', slot, from, text: event.text });
      } else if (event.type === 'playerName') {
        this.deliverPlayers();
      } else if (event.type !== 'playerList' && event.type !== 'connectQueue') {
        if (event.type === 'killObject' && event.id === objectId(slot, SHIP_LOCAL_ID)) this.printKill(slot, event.killerSlot);
        game.deliver({ kind: 'event', slot, event });
      }
    }
  }

  /** Runs `action` on the membership when connected; otherwise returns why not. */
  whenConnected(action: (member: Membership, now: number) => void): string | null {
    const member = this.member;
    if (!member) return 'the protocol is not running';
    if (member.state !== 'connected') return 'not connected (type connect first)';
    action(member, this.ctx.game.now());
    return null;
  }

  /** `say`: queues the chat line for every player and shows it locally. */
  say(text: string): string | null {
    const error = this.whenConnected((_m, now) => this.ctx.game.events.sendText(text, now));
    if (error) return error;
    this.ctx.game.deliver({ kind: 'chat', slot: this.member?.slot() ?? NO_SLOT, from: this.ctx.game.playerName(), text });
    return null;
  }

  /** Sends the slot table to the game view. */
  deliverPlayers(): void {
    const member = this.member;
    if (!member) return;
    const mine = member.slot();
    const api = this.ctx.packetApi;
    const players: NetPlayer[] = member.players().map((p) => {
      this.names.set(p.slot, p.name);
      const node = api.decodeNode(p.addr, this.self);
      return { slot: p.slot, name: p.name, joined: p.joined, local: p.slot === mine, address: node ? api.nodeToString(node) : '?' };
    });
    this.ctx.game.deliver({ kind: 'players', players, localSlot: mine, status: this.status() });
  }

  /** The `players` listing: slot, name, address, ping, state. */
  playerLines(): string[] {
    const member = this.member;
    if (!member || member.state !== 'connected') return ['not connected'];
    const api = this.ctx.packetApi;
    const lines = [`slot  name              address                  ping    state`];
    for (const p of member.players()) {
      const node = api.decodeNode(p.addr, this.self);
      const mine = p.slot === member.slot();
      const rtt = this.pings.get(addrKey(p.addr));
      const ping = mine ? '-' : rtt === undefined ? '?' : `${Math.round(rtt)} ms`;
      lines.push(
        `${String(p.slot).padEnd(5)} ${p.name.padEnd(17)} ${(node ? api.nodeToString(node) : '?').padEnd(24)} ${ping.padEnd(7)} ${p.joined ? 'joined' : 'connected'}${mine ? ' (you)' : ''}`,
      );
    }
    return lines;
  }

  /** The protocol stops: nothing queued survives, and the game view hears the table is gone. */
  reset(): void {
    this.ctx.game.events.clear();
    this.ctx.game.deliver({ kind: 'players', players: [], localSlot: null, status: 'offline' });
  }

  private printKill(victim: number, killer: number): void {
    this.ctx.print(killer === NO_SLOT ? `${this.nameOf(victim)} was destroyed` : `${this.nameOf(victim)} was shot down by ${this.nameOf(killer)}`);
  }

  private nameOf(slot: number): string {
    const name = playerNameOf(this.member?.players() ?? [], slot);
    return name === `slot ${slot}` ? (this.names.get(slot) ?? name) : name;
  }

  /** Pings are answered only between members of the same game (no reflection for strangers). */
  private onPing(member: Membership, from: NodeAddress, fromBytes: Uint8Array, header: PacketHeader): void {
    if (member.state !== 'connected') return;
    const key = addrKey(fromBytes);
    if (!member.players().some((p) => addrKey(p.addr) === key) && !member.trusts?.(fromBytes)) return;
    if (header.type === PacketType.Ping) this.sendControl(member, from, PacketType.Pong, header.gameTime);
    else this.pings.pong(key, header.gameTime, this.ctx.game.now());
  }

  private sendControl(member: Membership, to: NodeAddress, type: PacketType, gameTime: number): void {
    const packet: Packet = {
      header: { type, senderSlot: member.slot() ?? NO_SLOT, messageId: 0, gameTime, joined: false, state: NEUTRAL_STATE },
      events: [],
    };
    try {
      this.ctx.packetApi.send(to, encodePacket(packet));
    } catch {
      /* a failed probe is just a missing sample */
    }
  }

  private pingPeers(member: Membership, now: number): void {
    const keys = new Set<string>();
    for (const p of member.players()) {
      if (p.slot === member.slot()) continue;
      keys.add(addrKey(p.addr));
      const node = this.ctx.packetApi.decodeNode(p.addr, this.self);
      if (node) this.sendControl(member, node, PacketType.Ping, this.pings.stamp(now));
    }
    this.pings.retain(keys);
  }
}
