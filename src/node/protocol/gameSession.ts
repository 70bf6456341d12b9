/**
 * What every protocol that sends game packets to a set of peers shares (p2p
 * and, later, slotserver): decoding with drop counters, Ping/Pong round
 * trips, sending the local ship at `sendfreq` with dead reckoning, turning
 * received game states into deliveries and console lines, the `players`
 * listing. The membership — who the peers are and which slot is ours — comes
 * from a {@link Membership}: P2pPeer, or a server-managed peer set.
 */
import { randomInt } from 'node:crypto';
import type { NodeAddress } from '../../shared/net/packetApi';
import { isReliableEvent, LinkLayer, LINK_RESERVE_BYTES } from '../../shared/net/linkLayer';
import { LossMeter } from '../../shared/net/lossMeter';
import { VersionNotices } from '../../shared/net/versionNotices';
import { checkShipState, newShipTrack, type ShipTrack } from '../../shared/net/shipValidation';
import { spawnPoints } from '../../shared/sim/spawn';
import { isTimeDatagram } from '../../shared/time';
import { MAX_DATAGRAM_BYTES } from '../../shared/net/packetApi';
import type { LinkStats, ProtocolContext } from '../../shared/net/protocol';
import type { NetPlayer } from '../../shared/net/gameLink';
import { SHIP_LOCAL_ID, playerNameOf } from '../../shared/net/gameCode';
import { PingTable } from '../../shared/net/pingTable';
import type { Membership } from './membership';
import { protocolCommands, type ProtocolActions } from './p2pCommands';
import { SessionClock, timeReference } from './sessionClock';
import { sendDecision, type SendMemory } from '../../shared/net/sendPolicy';
import { NEUTRAL_STATE } from '../../shared/p2p';
import { addrKey } from '../../shared/wire/addr';
import { DropCounters, decodePacket, encodePacket } from '../../shared/wire/codec';
import { NO_SLOT, PacketType, objectId, type Packet, type PacketHeader, type ReliableGameEvent, type RemoteEvent, type ShipState, type WireAddr } from '../../shared/wire/types';

export type { Membership } from './membership';

/** Where a respawned peer may reappear (it takes a free spawn point, not necessarily its slot's). */
const SPAWN_POINTS = spawnPoints();

export class GameSession {
  /** Received datagrams refused by the codec, by reason. */
  readonly drops = new DropCounters();
  private readonly versions = new VersionNotices();
  /** Set right after construction (the membership needs this session's `sendTo` as its transport). */
  member: Membership | null = null;
  private readonly pings = new PingTable();
  /** Reliable messages (kills, chat, names) per linked node. */
  readonly links = new LinkLayer(() => randomInt(0, 0x10000));
  private readonly loss = new LossMeter();
  /** Per remote slot: what its ship did so far, for the plausibility checks. */
  private readonly tracks = new Map<number, ShipTrack>();
  /** Remote ship states that broke the simulation's limits: clamped, or not shown. */
  readonly implausible = { corrected: 0, ignored: 0 };
  /** Common game time: the reference's clock, the sync with it, the join gate. */
  readonly clock = new SessionClock({
    print: (line) => this.ctx.print(line),
    describe: (addr) => this.describe(addr),
    send: (to, bytes, node) => this.transmitBytes(to, bytes, node),
  });
  /**
   * What happens when a linked node stops acknowledging: by default a
   * console line; a server protocol disconnects instead.
   */
  onLinkFailure: (addr: WireAddr, reason: string) => void = (addr, reason) => this.ctx.print(`${this.describe(addr)} stopped acknowledging (${reason}); treating them as gone`);
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
        join: () => this.whenConnected(() => this.requestJoin()),
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
    const withLink = this.links.outgoing(to, packet, this.ctx.game.now());
    try {
      api.send(node, encodePacket(withLink));
    } catch (err) {
      this.ctx.print(`could not send to ${api.nodeToString(node)}: ${(err as Error).message}`);
    }
  }

  /** Every received datagram: own echoes ignored, undecodable ones counted, pings answered, the rest to the membership. */
  handlePacket(from: NodeAddress, data: Uint8Array): void {
    const member = this.member;
    const api = this.ctx.packetApi;
    if (!member || api.nodeEquals(from, this.self)) return;
    if (isTimeDatagram(data)) {
      const fromBytes = api.encodeNode(from);
      const mayAnswer = () => member.state === 'connected' && this.slotOf(member, fromBytes) !== null;
      if (!this.clock.onDatagram(data, fromBytes, from, this.ctx.game.now(), mayAnswer)) this.drops.count('bad-length');
      return;
    }
    const decoded = decodePacket(data);
    if (!decoded.ok) {
      this.drops.count(decoded.reason);
      // Another wire version: the player hears of that peer once (a minute), not once per packet.
      const line = decoded.reason === 'bad-version' ? this.versions.line(api.nodeToString(from), data, this.ctx.game.now()) : null;
      if (line) this.ctx.print(line);
      return;
    }
    const fromBytes = api.encodeNode(from);
    const { header } = decoded.packet;
    const now = this.ctx.game.now();
    // Numbered datagrams (game packets; everything a gameserver sends) show loss as gaps in their ids.
    if (header.messageId !== 0 && member.state === 'connected') this.loss.record(addrKey(fromBytes), header.messageId, now);
    if (header.type === PacketType.Ping || header.type === PacketType.Pong) return this.onPing(member, from, fromBytes, header);
    const { packet, delivered } = this.links.incoming(fromBytes, decoded.packet, now, () => this.slotOf(member, fromBytes));
    if (packet) member.receive(fromBytes, packet, now);
    for (const d of delivered) this.deliverReliable(d.slot, d.event);
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
      member.setName(name, now);
      if (member.state === 'connected') game.events.playerName(member.ownName?.() ?? name, now);
    }
    member.tick(now);
    const slot = member.slot();
    if (member.state !== 'connected' || slot === null) {
      this.links.clear();
      this.clock.reset();
      return;
    }
    if (this.clock.tick(now, () => this.lowestOther(member))) member.join(now);
    this.links.retain(this.targets(member));
    for (const event of game.events.takeWhere(isReliableEvent, slot, now)) this.links.queueAll(event, now);
    for (const { addr, reason } of this.links.failures(now)) this.onLinkFailure(addr, reason);
    if (this.pings.due(now)) this.pingPeers(member, now);
    this.sendGameStateIfDue(member, slot, now);
    for (const { to, packet } of this.links.standalone(now, () => this.reliableHeader(member, slot, now))) this.transmit(to, packet);
  }

  /** The local ship's state at `sendfreq` with dead reckoning, and what the game-code queue has for the others. */
  private sendGameStateIfDue(member: Membership, slot: number, now: number): void {
    const game = this.ctx.game;
    if (!member.players().find((p) => p.slot === slot)?.joined) return;
    const ship = game.localShip();
    const decision = sendDecision(this.memory, now, game.sendFrequency(), ship, game.events.pending > 0);
    if (!decision.send) return;
    this.memory = decision.memory;
    const state = ship ?? NEUTRAL_STATE;
    const header: PacketHeader = { type: PacketType.GameState, senderSlot: slot, messageId: 0, gameTime: Math.floor(this.clock.commonTime(now)) >>> 0, joined: true, state };
    const packet = game.events.take(header, slot, now, MAX_DATAGRAM_BYTES - LINK_RESERVE_BYTES);
    member.sendGameState(now, { gameTime: header.gameTime, state }, packet.events);
  }

  /** Joins now if the clock is synchronised, else as soon as it is (the player is told). */
  requestJoin(): void {
    const member = this.member;
    if (!member || member.state !== 'connected') return;
    const now = this.ctx.game.now();
    if (this.clock.requestJoin(now, () => this.lowestOther(member))) member.join(now);
  }

  /**
   * Peer to peer (and slotservers without a time port): the reference clock
   * is the joined member with the lowest slot — joined players have a good
   * clock already, so a newcomer in a freed lower slot syncs with them first
   * and takes over the same time when it joins, without a jump. Everyone
   * else asks the reference (null: we are it). Before anyone has joined, the
   * lowest slot is the reference. Sources always have lower slots or are
   * joined when we are not, so no two players ask each other.
   */
  private lowestOther(member: Membership): WireAddr | null {
    return timeReference(member.players(), member.slot());
  }

  private transmitBytes(to: WireAddr, bytes: Uint8Array, node?: NodeAddress): void {
    const api = this.ctx.packetApi;
    const target = node ?? api.decodeNode(to, this.self);
    if (!target) return;
    try {
      api.send(target, bytes);
    } catch {
      /* a lost sample or answer is repaired by the next one */
    }
  }

  /** Header of a packet carrying only reliable messages and acknowledgements. */
  private reliableHeader(member: Membership, slot: number, now: number): PacketHeader {
    const joined = member.players().find((p) => p.slot === slot)?.joined ?? false;
    const header: PacketHeader = { type: PacketType.Reliable, senderSlot: slot, messageId: 0, gameTime: Math.floor(now) >>> 0, joined, state: NEUTRAL_STATE };
    return member.sessionToken === undefined ? header : { ...header, token: member.sessionToken };
  }

  /** Sends an already complete packet (no piggybacking). */
  private transmit(to: WireAddr, packet: Packet): void {
    const api = this.ctx.packetApi;
    const node = api.decodeNode(to, this.self);
    if (!node) return;
    try {
      api.send(node, encodePacket(packet));
    } catch (err) {
      this.ctx.print(`could not send to ${api.nodeToString(node)}: ${(err as Error).message}`);
    }
  }

  /** The nodes with reliable links: the membership's choice, or every other member. */
  private targets(member: Membership): WireAddr[] {
    if (member.linkTargets) return member.linkTargets();
    const mine = member.slot();
    return member.players().filter((p) => p.slot !== mine).map((p) => p.addr);
  }

  /** The slot of the member at `addr`, or null for a stranger. */
  private slotOf(member: Membership, addr: WireAddr): number | null {
    const key = addrKey(addr);
    return member.players().find((p) => addrKey(p.addr) === key)?.slot ?? null;
  }

  /** A reliable message from `slot`, delivered once. */
  private deliverReliable(slot: number, event: ReliableGameEvent): void {
    if (event.type === 'playerName') {
      this.member?.heardName?.(slot, event.name);
      this.deliverPlayers();
    } else this.deliverEvent(slot, event);
  }

  /** Link quality for the net graph. */
  linkStats(): LinkStats {
    return { ...this.pings.summary(), lossPct: this.loss.lossPct(this.ctx.game.now()) };
  }

  /** A node for console lines: the player's name when it is one, else its address. */
  private describe(addr: WireAddr): string {
    const member = this.member;
    const slot = member ? this.slotOf(member, addr) : null;
    if (slot !== null) return this.nameOf(slot);
    const node = this.ctx.packetApi.decodeNode(addr, this.self);
    return node ? this.ctx.packetApi.nodeToString(node) : 'a node';
  }

  /** A fresh game state from `slot`: its ship state and events go to the game view; chat and kills are printed. */
  onGameState(slot: number, packet: Packet): void {
    const game = this.ctx.game;
    const state = packet.header.joined ? this.believable(slot, packet.header.state) : null;
    if (state) game.deliver({ kind: 'state', slot, gameTime: packet.header.gameTime, state, ...this.clock.ageOf(packet.header.gameTime, this.ctx.game.now()) });
    for (const event of packet.events) this.deliverEvent(slot, event);
  }

  /**
   * A peer's ship state as far as the simulation allows (the same checks a
   * gameserver makes): a mild violation — speed or spin a little over the
   * limit — is clamped, a blatant one is not shown at all (and the next
   * state starts a fresh track, so an honest jump cannot freeze a ship).
   */
  private believable(slot: number, state: ShipState): ShipState | null {
    const now = this.ctx.game.now();
    let track = this.tracks.get(slot);
    if (!track) this.tracks.set(slot, (track = newShipTrack(now)));
    const check = checkShipState(state, track, now, SPAWN_POINTS);
    if (check.violations.length === 0) return state;
    if (check.violations.some((v) => v.severity === 'blatant')) {
      this.implausible.ignored += 1;
      this.tracks.delete(slot);
      return null;
    }
    this.implausible.corrected += 1;
    return check.state;
  }

  /** One game event from `slot` to the game view (chat and kills also to the console). */
  private deliverEvent(slot: number, event: RemoteEvent): void {
    const game = this.ctx.game;
    if (event.type === 'sendText') {
      const from = this.nameOf(slot);
      this.ctx.print(`${from}: ${event.text}`);
      game.deliver({ kind: 'chat', slot, from, text: event.text });
    } else if (event.type === 'playerName') {
      this.deliverPlayers();
    } else if (event.type !== 'playerList' && event.type !== 'connectQueue' && event.type !== 'relayed' && event.type !== 'reliable' && event.type !== 'ack') {
      if (event.type === 'killObject' && event.id === objectId(slot, SHIP_LOCAL_ID)) this.printKill(slot, event.killerSlot);
      game.deliver({ kind: 'event', slot, event });
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
    this.ctx.game.deliver({ kind: 'chat', slot: this.member?.slot() ?? NO_SLOT, from: this.member?.ownName?.() ?? this.ctx.game.playerName(), text });
    return null;
  }

  /** Sends the slot table to the game view. */
  deliverPlayers(): void {
    const member = this.member;
    if (!member) return;
    // A slot's next occupant starts a fresh plausibility track.
    const present = new Set(member.players().map((p) => p.slot));
    for (const slot of [...this.tracks.keys()]) if (!present.has(slot)) this.tracks.delete(slot);
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
    lines.push(this.clock.line());
    const c = this.links.counters();
    lines.push(`reliable messages: ${this.links.pending} awaiting acknowledgement, ${c['resent'] ?? 0} resent, ${c['duplicates'] ?? 0} duplicate copies dropped`);
    const { corrected, ignored } = this.implausible;
    if (corrected + ignored > 0) lines.push(`implausible ship states from other players: ${corrected} clamped, ${ignored} not shown`);
    return lines;
  }


  /** The protocol stops: nothing queued survives, and the game view hears the table is gone. */
  reset(): void {
    this.links.clear();
    this.tracks.clear();
    this.clock.reset();
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
      // A gameserver takes nothing without the session token, pings and pongs included.
      header: { type, senderSlot: member.slot() ?? NO_SLOT, messageId: 0, gameTime, joined: false, state: NEUTRAL_STATE, ...(member.sessionToken === undefined ? {} : { token: member.sessionToken }) },
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
    for (const addr of this.targets(member)) {
      keys.add(addrKey(addr));
      const node = this.ctx.packetApi.decodeNode(addr, this.self);
      if (node) this.sendControl(member, node, PacketType.Ping, this.pings.stamp(now));
    }
    this.pings.retain(keys);
    this.loss.retain(keys);
  }
}
