/**
 * The `p2p` protocol: Parsec's peer-to-peer game on a LAN. The start-up,
 * slot table and packet filtering live in the pure core (src/shared/p2p);
 * this adapter gives it real packets through the packet API jump table, a
 * timer, the console commands, and the game it carries.
 */
import type { Protocol, ProtocolContext } from '../../shared/net/protocol';
import type { NodeAddress } from '../../shared/net/packetApi';
import { CLIENT_PORT_FALLBACK_RANGE } from '../../shared/net/packetApi';
import { NEUTRAL_STATE, P2pPeer, type P2pConfig, type P2pNotice } from '../../shared/p2p';
import { DropCounters, decodePacket, encodePacket } from '../../shared/wire/codec';
import { NO_SLOT, PacketType, objectId, type Packet, type PacketHeader, type PlayerEntry } from '../../shared/wire/types';
import { addrKey } from '../../shared/wire/addr';
import { PingTable } from '../../shared/net/pingTable';
import type { NetPlayer } from '../../shared/net/gameLink';
import { SHIP_LOCAL_ID, playerNameOf } from '../../shared/net/gameCode';
import { sendDecision, type SendMemory } from '../../shared/net/sendPolicy';
import { protocolCommands } from './p2pCommands';

export const P2P_PROTOCOL = 'p2p';
/** How often the core's timers run. */
const TICK_MS = 10;


export class P2pProtocol implements Protocol {
  readonly name = P2P_PROTOCOL;
  /** Received datagrams refused by the codec, by reason. */
  readonly drops = new DropCounters();
  private peer: P2pPeer | null = null;
  private self: NodeAddress | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private removers: (() => void)[] = [];
  private memory: SendMemory = { at: -Infinity, key: '' };
  private names = new Map<number, string>();
  private readonly pings = new PingTable();
  private myName = '';

  constructor(
    private readonly ctx: ProtocolContext,
    private readonly config: Partial<P2pConfig> = {},
  ) {}

  async init(): Promise<void> {
    if (this.peer) return;
    const api = this.ctx.packetApi;
    const game = this.ctx.game;
    this.self = api.localNode();
    this.myName = game.playerName();
    const selfBytes = api.encodeNode(this.self);
    this.peer = new P2pPeer(
      selfBytes,
      game.playerName(),
      {
        send: (to, packet) => this.sendTo(to, packet),
        broadcast: (packet) => this.broadcast(packet),
      },
      (notice) => this.onNotice(notice),
      this.config,
    );
    api.onPacket(({ from, data }) => this.onPacket(from, data));
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.removers = protocolCommands({
      connect: () => this.connect(),
      disconnect: () => this.disconnect(),
      join: () => this.withPeer((p) => p.join(game.now())),
      unjoin: () => this.withPeer((p) => p.unjoin(game.now())),
      say: (text) => this.say(text),
      players: () => this.playerLines(),
    }).map((def) => this.ctx.addCommand(def));
  }

  async kill(): Promise<void> {
    const peer = this.peer;
    if (peer && peer.state !== 'idle') {
      // Best effort: the packet API may already be swapped or gone.
      try {
        peer.disconnect(this.ctx.game.now());
      } catch {
        /* nothing left to tell */
      }
    }
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const remove of this.removers.splice(0)) remove();
    this.peer = null;
    this.self = null;
    this.ctx.game.events.clear();
    this.ctx.game.deliver({ kind: 'players', players: [], localSlot: null, status: 'offline' });
  }

  status(): string {
    const peer = this.peer;
    if (!peer) return 'not started';
    const slot = peer.slot();
    const n = peer.players().length;
    switch (peer.state) {
      case 'connected':
        return `connected as slot ${slot}, ${n} player${n === 1 ? '' : 's'}`;
      case 'connecting':
      case 'slave':
        return 'looking for a game on the LAN';
      case 'failed':
        return 'not connected (last attempt failed)';
      default:
        return 'not connected (type connect)';
    }
  }

  private withPeer(run: (peer: P2pPeer) => void): string | null {
    if (!this.peer) return 'p2p is not running';
    if (this.peer.state !== 'connected') return 'not connected (type connect first)';
    run(this.peer);
    return null;
  }

  private connect(): string {
    const peer = this.peer;
    if (!peer) return 'p2p is not running';
    if (peer.state === 'connected') return `already connected as slot ${peer.slot()}`;
    if (peer.state === 'connecting' || peer.state === 'slave') return 'already looking for a game';
    peer.connect(this.ctx.game.now());
    return 'looking for a peer-to-peer game on the LAN…';
  }

  private disconnect(): string {
    const peer = this.peer;
    if (!peer || peer.state === 'idle') return 'not connected';
    peer.disconnect(this.ctx.game.now());
    this.ctx.game.events.clear();
    return 'disconnected';
  }

  private say(text: string): string | null {
    const error = this.withPeer(() => this.ctx.game.events.sendText(text, this.ctx.game.now()));
    if (error) return error;
    this.ctx.game.deliver({ kind: 'chat', slot: this.peer?.slot() ?? NO_SLOT, from: this.ctx.game.playerName(), text });
    return null;
  }

  private sendTo(to: Uint8Array, packet: Packet): void {
    const api = this.ctx.packetApi;
    const node = api.decodeNode(to, this.self ?? undefined);
    if (!node) return;
    try {
      api.send(node, encodePacket(packet));
    } catch (err) {
      this.ctx.print(`p2p: could not send to ${api.nodeToString(node)}: ${(err as Error).message}`);
    }
  }

  /** LAN broadcast to the discovery port and the ports above it, so a second instance on one machine hears it too. */
  private broadcast(packet: Packet): void {
    const bytes = encodePacket(packet);
    for (let i = 0; i <= CLIENT_PORT_FALLBACK_RANGE; i++) {
      const port = this.ctx.discoveryPort + i;
      if (port > 65535) break;
      try {
        this.ctx.packetApi.broadcast(port, bytes);
      } catch {
        /* counted by the packet API; discovery retries on its own schedule */
      }
    }
  }

  private onPacket(from: NodeAddress, data: Uint8Array): void {
    const peer = this.peer;
    const api = this.ctx.packetApi;
    if (!peer || !this.self) return;
    if (api.nodeEquals(from, this.self)) return; // our own broadcast coming back
    const decoded = decodePacket(data);
    if (!decoded.ok) {
      this.drops.count(decoded.reason);
      return;
    }
    const { header } = decoded.packet;
    const fromBytes = api.encodeNode(from);
    if (header.type === PacketType.Ping || header.type === PacketType.Pong) {
      this.onPing(from, fromBytes, header);
      return;
    }
    peer.receive(fromBytes, decoded.packet, this.ctx.game.now());
  }

  /** Pings are answered only between members of the same game (no reflection for strangers). */
  private onPing(from: NodeAddress, fromBytes: Uint8Array, header: PacketHeader): void {
    const peer = this.peer;
    if (!peer || peer.state !== 'connected') return;
    const key = addrKey(fromBytes);
    if (!peer.players().some((p) => addrKey(p.addr) === key)) return;
    if (header.type === PacketType.Ping) {
      this.sendControl(from, PacketType.Pong, header.gameTime);
    } else {
      this.pings.pong(key, header.gameTime, this.ctx.game.now());
    }
  }

  private sendControl(to: NodeAddress, type: PacketType, gameTime: number): void {
    const slot = this.peer?.slot() ?? NO_SLOT;
    const packet: Packet = {
      header: { type, senderSlot: slot, messageId: 0, gameTime, joined: false, state: NEUTRAL_STATE },
      events: [],
    };
    try {
      this.ctx.packetApi.send(to, encodePacket(packet));
    } catch {
      /* a failed probe is just a missing sample */
    }
  }

  private pingPeers(now: number): void {
    const peer = this.peer;
    if (!peer) return;
    const keys = new Set<string>();
    for (const p of peer.players()) {
      if (p.slot === peer.slot()) continue;
      keys.add(addrKey(p.addr));
      const node = this.ctx.packetApi.decodeNode(p.addr, this.self ?? undefined);
      if (node) this.sendControl(node, PacketType.Ping, this.pings.stamp(now));
    }
    this.pings.retain(keys);
  }

  private tick(): void {
    const peer = this.peer;
    if (!peer) return;
    const game = this.ctx.game;
    const now = game.now();
    const name = game.playerName();
    if (name !== this.myName) {
      // The name command changed it: tell the table and, when connected, the other players.
      this.myName = name;
      peer.setName(name);
      if (peer.state === 'connected') game.events.playerName(name, now);
    }
    peer.tick(now);
    const slot = peer.slot();
    if (peer.state !== 'connected' || slot === null) return;
    if (this.pings.due(now)) this.pingPeers(now);
    const me = peer.players().find((p) => p.slot === slot);
    if (!me?.joined) return;
    const ship = game.localShip();
    const decision = sendDecision(this.memory, now, game.sendFrequency(), ship, game.events.pending > 0);
    if (!decision.send) return;
    this.memory = decision.memory;
    const header: PacketHeader = {
      type: PacketType.GameState,
      senderSlot: slot,
      messageId: 0,
      gameTime: now >>> 0,
      joined: true,
      state: ship ?? NEUTRAL_STATE,
    };
    const packet = game.events.take(header, slot, now);
    peer.sendGameState(now, { gameTime: header.gameTime, state: header.state }, packet.events);
  }

  private onNotice(n: P2pNotice): void {
    const game = this.ctx.game;
    switch (n.kind) {
      case 'connected':
        this.ctx.print(`connected to the peer-to-peer game as slot ${n.slot} (${n.players.length} player${n.players.length === 1 ? '' : 's'})`);
        this.deliverPlayers();
        if (game.autoJoin()) this.peer?.join(game.now());
        break;
      case 'failed':
        this.ctx.print(`connect failed: ${n.message}`);
        this.deliverPlayers();
        break;
      case 'player-added':
        this.ctx.print(`${n.player.name} connected (slot ${n.player.slot})`);
        this.deliverPlayers();
        break;
      case 'player-removed':
        this.ctx.print(n.reason === 'timeout' ? `lost connection to ${n.player.name} (slot ${n.player.slot} timed out)` : `${n.player.name} disconnected`);
        this.deliverPlayers();
        break;
      case 'player-changed':
        this.deliverPlayers();
        break;
      case 'game-state':
        this.onGameState(n.slot, n.packet);
        break;
      case 'disconnected':
        this.deliverPlayers();
        break;
    }
  }

  private onGameState(slot: number, packet: Packet): void {
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

  private printKill(victim: number, killer: number): void {
    this.ctx.print(killer === NO_SLOT ? `${this.nameOf(victim)} was destroyed` : `${this.nameOf(victim)} was shot down by ${this.nameOf(killer)}`);
  }

  private nameOf(slot: number): string {
    const name = playerNameOf(this.peer?.players() ?? [], slot);
    return name === `slot ${slot}` ? (this.names.get(slot) ?? name) : name;
  }

  private deliverPlayers(): void {
    const peer = this.peer;
    if (!peer) return;
    const mine = peer.slot();
    const api = this.ctx.packetApi;
    const players: NetPlayer[] = peer.players().map((p: PlayerEntry) => {
      this.names.set(p.slot, p.name);
      const node = api.decodeNode(p.addr, this.self ?? undefined);
      return { slot: p.slot, name: p.name, joined: p.joined, local: p.slot === mine, address: node ? api.nodeToString(node) : '?' };
    });
    this.ctx.game.deliver({ kind: 'players', players, localSlot: mine, status: this.status() });
  }

  private playerLines(): string[] {
    const peer = this.peer;
    if (!peer || peer.state !== 'connected') return ['not connected'];
    const api = this.ctx.packetApi;
    const lines = [`slot  name              address                  ping    state`];
    for (const p of peer.players()) {
      const node = api.decodeNode(p.addr, this.self ?? undefined);
      const mine = p.slot === peer.slot();
      const rtt = this.pings.get(addrKey(p.addr));
      const ping = mine ? '-' : rtt === undefined ? '?' : `${Math.round(rtt)} ms`;
      lines.push(
        `${String(p.slot).padEnd(5)} ${p.name.padEnd(17)} ${(node ? api.nodeToString(node) : '?').padEnd(24)} ${ping.padEnd(7)} ${p.joined ? 'joined' : 'connected'}${mine ? ' (you)' : ''}`,
      );
    }
    return lines;
  }
}
