/**
 * A client game session as one column of layers, each talking only to its
 * neighbours (what p2p, slotserver and gameserver clients share):
 *
 *   in:  datagram → time sync | decode (drops counted) → proof of address →
 *        the sender's connection admits its number (connections.ts) →
 *        ping/pong → link layer (acks, reliable messages) → membership
 *        (with the connection's verdict) → game deliveries
 *   out: game events + link envelopes → one byte budget per target →
 *        numbered by the target's connection → encoded once
 *        (SessionSender) → packet API
 *
 * A datagram's number (`messageId`) is written and read in one place, the
 * connection of its remote node: the membership builds its packets without
 * one and keeps no window of its own — a duplicate never reaches it, and
 * what the connection made of the number (newest, late, too old) comes
 * with the packet.
 *
 * Pure: the clock, the random source (first ids of reliable links) and the
 * membership are given at construction — the membership through a factory
 * that receives this session's sender as its transport, so nothing is set
 * afterwards and the membership never calls back into the session. Nothing
 * here prints: what a player should read is a SessionNotice (notices.ts) for the
 * adapter (src/node/protocol/gameSession.ts), which also runs the timer and
 * the console commands. Its parts: what the game is handed (deliveries.ts),
 * the pings and the figures they feed (sessionPings.ts), the outgoing budget
 * and encoder (sender.ts), the connections (connections.ts), the clock
 * (sessionClock.ts).
 */
import { isReliableEvent, LinkLayer } from '../net/linkLayer';
import type { NodeAddress, PacketApi } from '../net/packetApi';
import type { LinkStats, ProtocolGame } from '../protocol/protocol';
import type { PlayerPing } from '../net/gameLink';
import { sendDecision, type SendMemory } from '../net/sendPolicy';
import { NEUTRAL_STATE } from '../p2p/packets';
import { isTimeDatagram } from '../time';
import { DropCounters } from '../wire/codec';
import type { UnnumberedHeader } from '../net/connection';
import { ClientAdmission } from './clientAdmission';
import { NO_SLOT, PacketType, type Packet, type WireAddr } from '../wire/types';
import { AddressBook } from './addressBook';
import { AddressProof } from './addressProof';
import { GameDeliveries } from './deliveries';
import { SessionPings } from './sessionPings';
import { decodeChallenge, isChallengeDatagram } from './challengeWire';
import { GAME_EVENT_BUDGET, lockstepDatagramCodec, wireDatagramCodec } from './datagram';
import type { Membership } from './membership';
import { PeerPlausibility } from './plausibility';
import { SessionSender } from './sender';
import { SessionClock, timeReference } from './sessionClock';
import { SessionConnections } from './connections';
import type { NotConnected, PlayerRow, SessionParts } from './parts';
import { AUTO_LOOK, sameLook, type ShipLook } from '../wire/shipLook';

export type { NotConnected, PlayerRow, SessionParts } from './parts';

/** How often the proof of address forgets expired held packets and long-silent nodes. */
const PRUNE_INTERVAL_MS = 1000;

export class SessionPipeline<M extends Membership> {
  /** Received datagrams refused by the codec, by reason. */
  readonly drops = new DropCounters();
  /** Received datagrams from a sender this packet API cannot name (never from its own socket; counted, not thrown). */
  unknownSenders = 0;
  readonly member: M;
  /** Reliable messages (kills, chat, names) per linked node. */
  readonly links: LinkLayer;
  readonly sender: SessionSender;
  /** One connection per remote node, by packet API key: the only place a datagram's number is written and read (connections.ts). */
  private readonly connections: SessionConnections;
  /** The client side of the one admission ladder (clientAdmission.ts over net/admission.ts). */
  private readonly admission: ClientAdmission;
  /** Datagrams of the session refused by their connection: numbers already taken, and numbers older than the window. */
  readonly replays: { readonly replayed: number; readonly tooOld: number };

  /** Ship states we sent, partial (against a state the receiver acknowledged) and full, over every connection. */
  shipStatesSent(): { partial: number; full: number } {
    const out = { partial: 0, full: 0 };
    for (const [, c] of this.connections.entries()) {
      out.partial += c.states.counts.partial;
      out.full += c.states.counts.full;
    }
    return out;
  }
  readonly addresses: AddressBook;
  /** Proof of address, when the protocol asks for it (null: a gameserver client). */
  readonly proof: AddressProof | null;
  /** Common game time: the reference's clock, the sync with it, the join gate. */
  readonly clock: SessionClock;
  readonly plausibility = new PeerPlausibility();
  private readonly pingTalk: SessionPings;
  private readonly deliveries: GameDeliveries;
  private nextPruneAt = -Infinity;
  private memory: SendMemory = { at: -Infinity, key: '' };
  private myName: string;
  private myLook: ShipLook;
  private readonly game: ProtocolGame;
  private readonly api: PacketApi;
  private readonly now: () => number;

  constructor(private readonly parts: SessionParts<M>) {
    const { packetApi, self, game, clock, random, notify } = parts;
    this.api = packetApi;
    this.game = game;
    this.now = () => clock.now();
    this.addresses = new AddressBook(packetApi, self);
    const keyOf = (addr: WireAddr) => this.addresses.identity(addr);
    this.links = new LinkLayer(() => Math.floor(random() * 0x10000) & 0xffff, {}, keyOf);
    this.proof = parts.proveAddresses ? new AddressProof(parts.proveAddresses) : null;
    this.connections = new SessionConnections(parts.wallSeconds ?? (() => Math.floor(Date.now() / 1000)), this.proof !== null);
    this.admission = new ClientAdmission({
      drops: this.drops,
      connections: this.connections,
      proof: this.proof,
      lockstep: parts.lockstep === true,
      notify: parts.notify,
      sendRaw: (to, bytes) => this.sender.sendRaw(to, bytes),
      now: this.now,
      connected: () => this.member.state === 'connected',
    });
    this.replays = this.connections.counts;
    const codec = parts.codec ?? wireDatagramCodec;
    this.sender = new SessionSender(packetApi, this.addresses, this.links, parts.lockstep ? lockstepDatagramCodec(codec) : codec, this.now, (f) => notify({ kind: 'send-failed', ...f }), this.connections, this.proof);
    this.clock = new SessionClock({
      report: (report) => notify({ kind: 'clock', report, who: 'source' in report && report.source ? this.describe(report.source) : 'the game' }),
      send: (to, bytes, node) => this.sender.sendBytes(to, bytes, node),
      keyOf,
    });
    this.member = parts.member(this.sender);
    this.pingTalk = new SessionPings({
      member: this.member,
      addresses: this.addresses,
      api: packetApi,
      clock: this.clock,
      sender: this.sender,
      now: this.now,
      targets: () => this.targets(),
      slotOfKey: (key) => this.slotOfKey(key),
      tokenField: () => this.tokenField(),
      connections: this.connections,
    });
    this.deliveries = new GameDeliveries({ game, member: this.member, clock: this.clock, plausibility: this.plausibility, addresses: this.addresses, notify, status: () => parts.status(), now: this.now });
    this.myName = game.playerName();
    this.myLook = game.shipLook?.() ?? AUTO_LOOK;
    this.member.setLook?.(this.myLook, clock.now());
    // A new session starts with nothing queued: what the game raised before it (offline practice, another game) is nobody's business here.
    game.events.setScope('none');
  }

  /**
   * Tells the game-code queue where we are (gameCode.ts, EventScope):
   * nothing outside a game; chat and names once connected; world events only
   * while our ship is in the game, and never in a game whose world is shared
   * (lockstep, a netgame: their protocols send inputs, not Parsec events).
   * Called wherever the membership may have moved: every tick, every
   * received datagram, every slot-table delivery.
   */
  private syncScope(): void {
    const member = this.member;
    const slot = member.slot();
    if (member.state !== 'connected' || slot === null) return this.game.events.setScope('none');
    const joined = member.players().some((p) => p.slot === slot && p.joined);
    const worldEvents = !this.parts.lockstep && this.parts.shipStates !== false;
    this.game.events.setScope(joined && worldEvents ? 'joined' : 'connected');
  }

  /** Every received datagram: own echoes ignored, undecodable ones counted, pings answered, the rest through the link layer to the membership. */
  receive(from: NodeAddress, data: Uint8Array): void {
    const member = this.member;
    if (this.api.nodeEquals(from, this.parts.self)) return;
    const fromKey = this.addresses.keyOf(from);
    if (fromKey === null) {
      this.unknownSenders += 1;
      return;
    }
    if (isTimeDatagram(data)) {
      const mayAnswer = () => member.state === 'connected' && this.slotOfKey(fromKey) !== null;
      if (!this.clock.onDatagram(data, this.api.encodeNode(from), from, this.now(), mayAnswer)) this.drops.count('bad-length');
      return;
    }
    // A node that is in no game and looking for none answers nothing (a handshake starts when it connects).
    const inactive = member.state === 'idle' || member.state === 'failed';
    if (isChallengeDatagram(data)) return inactive ? undefined : this.onChallenge(from, fromKey, data);
    // The client side of the one admission ladder: decode, game kind and proof of address, the sender's connection.
    const admitted = this.admission.admit(from, fromKey, data, inactive);
    if (!admitted.ok) return;
    const header = admitted.packet.header;
    const arrival = admitted.seq;
    const now = this.now();
    // Numbered datagrams (game packets; everything a gameserver sends) show loss as gaps in their ids.
    if (header.messageId !== 0 && member.state === 'connected') this.pingTalk.numbered(fromKey, header.messageId, now);
    if (header.type === PacketType.Ping || header.type === PacketType.Pong) return this.pingTalk.onPing(from, fromKey, header);
    const fromBytes = this.api.encodeNode(from);
    const { packet, delivered } = this.links.incoming(fromBytes, admitted.packet, now, () => this.slotOfKey(fromKey));
    if (packet) for (const g of member.receive(fromBytes, packet, now, arrival)) this.gameState(g.slot, g.packet);
    for (const d of delivered) this.deliveries.reliable(d.slot, d.event, d.stamp);
    this.syncScope();
  }

  /** A challenge datagram: part of a handshake when the session proves addresses, else foreign. */
  private onChallenge(from: NodeAddress, fromKey: string, data: Uint8Array): void {
    if (!this.proof) return this.drops.count('unknown-type');
    const decoded = decodeChallenge(data);
    if (!decoded.ok) return this.drops.count(decoded.reason === 'bad-version' ? 'bad-version' : 'bad-length');
    this.member.challenged?.(this.now(), this.sender.sinceBroadcast());
    const { reply, learned } = this.proof.onChallenge(fromKey, from, decoded.challenge, this.now());
    if (reply) this.sender.sendRaw(from, reply);
    if (learned) {
      this.sender.flushProven(fromKey, from);
      this.member.proven?.(this.api.encodeNode(from), this.now());
    }
  }

  /** The timer: name changes, membership timers, pings, the local ship's state at `sendfreq`, owed envelopes. */
  tick(): void {
    const member = this.member;
    const game = this.game;
    const now = this.now();
    this.syncScope();
    const name = game.playerName();
    if (name !== this.myName) {
      // The name command changed it: tell the table and, when connected, the other players.
      this.myName = name;
      member.setName(name, now);
      if (member.state === 'connected') game.events.playerName(member.ownName?.() ?? name, now);
    }
    const look = game.shipLook?.() ?? AUTO_LOOK;
    if (!sameLook(look, this.myLook)) {
      // ship_design or ship_colour changed: the membership takes it to the others (and the table shows it).
      this.myLook = look;
      member.setLook?.(look, now);
      this.deliverPlayers();
    }
    member.tick(now);
    this.syncScope();
    if (this.proof && now >= this.nextPruneAt) {
      this.nextPruneAt = now + PRUNE_INTERVAL_MS;
      this.proof.prune(now, new Set(member.players().flatMap((p) => this.addresses.key(p.addr) ?? [])));
    }
    const slot = member.slot();
    if (member.state !== 'connected' || slot === null) {
      this.links.clear();
      this.clock.reset();
      this.connections.retain(new Set(), now);
      return;
    }
    if (this.clock.tick(now, () => this.lowestOther())) {
      member.join(now);
      this.syncScope();
    }
    const targets = this.targets();
    this.links.retain(targets);
    const timeSource = this.clock.syncingWith;
    const sessionNodes = [...member.players().map((p) => p.addr), ...targets, ...(timeSource ? [timeSource] : [])];
    this.addresses.retain(sessionNodes);
    this.connections.retain(new Set(sessionNodes.flatMap((addr) => this.addresses.key(addr) ?? [])), now);
    for (const event of game.events.takeWhere(isReliableEvent, slot, now)) this.links.queueAll(event, now);
    for (const { addr, reason } of this.links.failures(now)) this.parts.notify({ kind: 'link-failed', addr, who: this.describe(addr), reason });
    this.pingTalk.tick(now);
    if (!this.parts.lockstep && this.parts.shipStates !== false) this.sendGameStateIfDue(slot, now);
    for (const to of this.links.owed(now)) this.sender.sendEnvelopes(to, { header: this.reliableHeader(slot), events: [] });
  }

  /** The local ship's state at `sendfreq` with dead reckoning, and what the game-code queue has for the others. */
  private sendGameStateIfDue(slot: number, now: number): void {
    const game = this.game;
    const member = this.member;
    if (!member.players().find((p) => p.slot === slot)?.joined) return;
    const ship = game.localShip();
    const decision = sendDecision(this.memory, now, game.sendFrequency(), ship, game.events.pending > 0);
    if (!decision.send) return;
    this.memory = decision.memory;
    const state = ship ?? NEUTRAL_STATE;
    const gameTime = Math.floor(this.clock.commonTime(now)) >>> 0;
    const events = game.events.takeEvents(slot, now, GAME_EVENT_BUDGET, (ev) => this.sender.sizes.of(ev));
    member.sendGameState(now, { gameTime, state }, events);
  }

  /** Joins now if the clock is synchronised, else as soon as it is (the player is told). */
  requestJoin(): void {
    const member = this.member;
    if (member.state !== 'connected') return;
    const now = this.now();
    if (this.clock.requestJoin(now, () => this.lowestOther())) member.join(now);
    this.syncScope();
  }

  /** The time reference when no server names one: see {@link timeReference}. */
  private lowestOther(): WireAddr | null {
    return timeReference(this.member.players(), this.member.slot());
  }

  private tokenField(): { token?: number } {
    const token = this.member.sessionToken;
    return token === undefined ? {} : { token };
  }

  /** Header of a packet carrying only reliable messages and acknowledgements (numbered by its connection as it leaves). */
  private reliableHeader(slot: number): UnnumberedHeader {
    const joined = this.member.players().find((p) => p.slot === slot)?.joined ?? false;
    return { type: PacketType.Reliable, senderSlot: slot, joined, ...this.tokenField() };
  }

  /** The nodes with reliable links: the membership's choice, or every other member. */
  private targets(): WireAddr[] {
    const member = this.member;
    if (member.linkTargets) return member.linkTargets();
    const mine = member.slot();
    return member.players().filter((p) => p.slot !== mine).map((p) => p.addr);
  }

  /** The slot of the member whose node has the packet API key `key`, or null for a stranger. */
  private slotOfKey(key: string): number | null {
    for (const p of this.member.players()) if (this.addresses.key(p.addr) === key) return p.slot;
    return null;
  }

  /** Received datagrams of the other kind of game (a p2p datagram in a lockstep session or the other way round): dropped. */
  get otherGameKind(): number {
    return this.admission.otherGameKind;
  }

  /** Link quality for the net graph. */
  linkStats(): LinkStats {
    return this.pingTalk.linkStats();
  }

  /** A node for console lines: the player's name when it is one, else its address. */
  describe(addr: WireAddr): string {
    const key = this.addresses.key(addr);
    const slot = key === null ? null : this.slotOfKey(key);
    if (slot !== null) return this.nameOf(slot);
    const node = this.addresses.node(addr);
    return node ? this.api.nodeToString(node) : 'a node';
  }

  /** A game state the membership took: to the protocol when it takes it itself (lockstep, a server's own messages), else to the game. */
  private gameState(slot: number, packet: Packet): void {
    if (this.parts.takeGameState?.(slot, packet)) return;
    this.deliveries.gameState(slot, packet);
  }

  /** Runs `action` on the membership when connected; otherwise says why not. */
  whenConnected(action: (member: M, now: number) => void): NotConnected | null {
    if (this.member.state !== 'connected') return 'not-connected';
    action(this.member, this.now());
    return null;
  }

  /** `say`: queues the chat line for every player and shows it locally. */
  say(text: string): NotConnected | null {
    const error = this.whenConnected((_m, now) => this.game.events.sendText(text, now));
    if (error) return error;
    this.game.deliver({ kind: 'chat', slot: this.member.slot() ?? NO_SLOT, from: this.member.ownName?.() ?? this.game.playerName(), text });
    return null;
  }

  /** Sends the slot table to the game view. */
  deliverPlayers(): void {
    this.syncScope();
    this.deliveries.players();
  }

  /** The rows of the `players` listing (empty when not connected). */
  playerRows(): PlayerRow[] {
    return this.pingTalk.playerRows();
  }

  /** Each player's round trip for the scoreboard, whole ms (sessionPings.ts). */
  playerPings(server: WireAddr | null): PlayerPing[] {
    return this.pingTalk.playerPings(server);
  }

  /** The protocol stops: nothing queued survives, and the game view hears the table is gone. */
  reset(): void {
    this.links.clear();
    this.proof?.clear();
    this.connections.forgetReceived();
    this.plausibility.clear();
    this.clock.reset();
    this.game.events.setScope('none');
    this.game.deliver({ kind: 'players', players: [], localSlot: null, status: 'offline' });
  }

  /** The name of the player in `slot` (or the last name it had here). */
  nameOf(slot: number): string {
    return this.deliveries.nameOf(slot);
  }
}
