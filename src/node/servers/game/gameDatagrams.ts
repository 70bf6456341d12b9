/**
 * The gameserver's UDP port, datagram by datagram. Every datagram is
 * distrusted:
 * - before any decoding, blocked sources and sources over their rate cost
 *   one map lookup (joined endpoints have their own table and are never
 *   blocked, since anyone can forge a source address);
 * - a datagram from a joined endpoint is charged to the seat's rate only when
 *   the token peeked from its bytes is the seat's (time-sync and discovery
 *   requests have a budget of their own there); anything else on that address
 *   and port is a forgery, dropped as `forged-token` at no cost to the seat;
 * - LAN discovery and time-sync requests share the port and are answered;
 * - a game datagram climbs the servers' one admission ladder
 *   (common/seatAdmission.ts): its seat's token, TCP address, UDP port (once
 *   bound; NAT rebinding), slot, an allowed type, an id the seat's connection
 *   never took, a GameState with its ship and time; GameStates far behind
 *   (`stale`) are dropped here, everything dropped is counted by reason;
 * - while the server is behind, a state that waited in the receive queue
 *   longer than SHED_AGE_MS is shed (`backlog`, receiveBacklog.ts);
 * - a seat's ship states and lasers are checked by its ClientGuard, mild
 *   violations corrected before relaying, every violation a strike; its
 *   missiles, mines, EMPs, kill claims and the hits it ignores by the
 *   RuleGuard (ruleGuard.ts), refused events dropped, a strike each;
 * - a source with no seat that keeps sending what cannot be accepted
 *   collects strikes and is blocked for a while.
 * It also sends: Relay datagrams (on arrival or on the tick), pongs, pings.
 */
import { DropCounters, encodePacket } from '../../../shared/wire/codec';
import { peekToken } from '../../../shared/wire/header';
import { PacketType, type Packet } from '../../../shared/wire/types';
import { isTimeDatagram } from '../../../shared/time';
import { isDiscoveryRequest } from '../../../shared/servers/lanDiscovery';
import { spawnPoints } from '../../../shared/sim/spawn';
import type { Logger } from '../../log';
import type { DiscoveryResponder } from '../common/discoveryResponder';
import type { A2sResponder } from '../common/a2sResponder';
import type { Forwarder } from './forwarder';
import type { Vec3 } from '../../../shared/sim/types';
import type { GameserverConfig } from './gameserverOptions';
import { unwrapAddress } from '../common/lineServer';
import { SeatAdmission, settleSeat, type SeatAdmissionRules, type SeatDrop } from '../common/seatAdmission';
import { serverHeader } from './relay';
import type { ClientSeat } from './seat';
import { stateVerdict } from './interest';
import type { ServerUdp, UdpEndpoint } from '../common/serverUdp';
import { ClientGuard, type SourceGuard } from '../common/strikes';
import { RuleGuard, type RuleViolation } from './ruleGuard';
import { stateTime } from '../../../shared/game/shipValidation';
import type { ServerTimeService } from '../common/timeService';
import type { Clock } from '../../../shared/time/clock';
import type { BacklogProbe } from './receiveBacklog';

/** Where a respawned player may reappear: it takes a free spawn point, not necessarily its slot's. */
const SPAWN_POINTS = spawnPoints();
/**
 * How long datagrams carrying the token of a session that just ended are
 * dropped without a strike against their source: a player removed after a
 * stall (its backlog still in the socket buffer) must not get its address
 * blocked when it joins again.
 */
const ENDED_TOKEN_GRACE_MS = 30_000;

export { MIGRATE_AFTER_QUIET_MS } from '../common/seatAdmission';

/**
 * The gameserver's rungs of the admission ladder: its clients send GameStates (always with their ship and
 * time), NodeAlives, pings and the pongs of the server's pings, and reliable messages; anything else is an
 * `unexpected-type`.
 */
export const GAME_ADMISSION: SeatAdmissionRules = {
  types: new Set<number>([PacketType.GameState, PacketType.NodeAlive, PacketType.Ping, PacketType.Pong, PacketType.Reliable]),
  typeDrop: 'unexpected-type',
  gameStateCarriesState: true,
};

/** The gameserver's own drop reasons besides the ladder's (SeatDrop: no-token … replayed, unexpected-type, no-state). */
type ServerDrop = SeatDrop | 'bad-discovery' | 'bad-time-sync' | 'bad-a2s' | 'stale' | 'rate-limited' | 'strangers-over-budget' | 'blocked' | 'forged-token' | 'backlog' | 'spectator-state' | 'arriving';

/** The seats the datagrams are for, in their solar systems (galaxyRooms.ts GalaxyRooms). */
export interface SeatRooms {
  /** Every seat by its token. */
  readonly tokens: ReadonlyMap<number, ClientSeat>;
  hasPlayer(slot: number): boolean;
  players(): Iterable<ClientSeat>;
  readonly spectators: ReadonlyMap<number, ClientSeat>;
  /** The forwarder of `s`'s solar system. */
  forwarderOf(s: ClientSeat): Forwarder;
  seated(s: ClientSeat): boolean;
  undirty(s: ClientSeat): void;
  takeDirty(flush: (c: ClientSeat) => void): void;
  /** `s` took a newer state, its ship having been at `from` (through a stargate, it jumps). */
  stateTaken(s: ClientSeat, from: Vec3 | undefined, now: number): void;
}

export interface GameDatagramsParts {
  udp: ServerUdp;
  /** The galaxy's solar systems, each with its forwarder; the seats' tokens (galaxyRooms.ts). */
  rooms: SeatRooms;
  sources: SourceGuard;
  discovery: DiscoveryResponder;
  /** Valve's server query (A2S) on the game port (common/a2sResponder.ts). */
  a2s: A2sResponder;
  time: ServerTimeService;
  /** The server's probes through its own receive queue: how long a datagram read now can have waited (receiveBacklog.ts). */
  backlog: BacklogProbe;
  config: GameserverConfig;
  log: Logger;
  /** Server clock (ms since start): the common game time. */
  clock: () => number;
  /** The server's timers (the flush on arrival's gathering). */
  timers: Clock;
  /** Drops a player (through the join server) for bad data. */
  kick(seat: ClientSeat, reason: string): void;
}

export class GameDatagrams {
  readonly codecDrops = new DropCounters();
  readonly serverDrops = new Map<ServerDrop, number>();
  /** `migrations`: seats moved to another UDP port of the same address (NAT rebinding). */
  readonly totals = { packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0, nodeAlive: 0, migrations: 0 };
  readonly strikeKinds = new Map<string, number>();
  /** The longest wait in the receive queue of a state shed for it (ms; receiveBacklog.ts). */
  longestShedMs = 0;
  /** Joined clients' bound UDP endpoints (ip:port). */
  private readonly endpoints = new Map<string, ClientSeat>();
  private readonly guards = new WeakMap<ClientSeat, ClientGuard>();
  /** The rules of the match: weapons, kill claims, hits ignored (per seat, and what the server saw of every projectile). */
  readonly rules = new RuleGuard((slot) => this.parts.rooms.hasPlayer(slot));
  /** Tokens of sessions that ended lately → until when their datagrams are excused (see ENDED_TOKEN_GRACE_MS). */
  private readonly endedTokens = new Map<number, number>();
  /** Why the datagram being handled was dropped (null: accepted), so the handler can hold it against its source. */
  private dropped: string | null = null;
  /** The flush on arrival waiting to run: after this turn of the event loop, or after the gathering time on the server's clock. */
  private flushPending: { immediate: NodeJS.Immediate } | { timer: unknown } | undefined;
  private readonly admission: SeatAdmission<ClientSeat>;

  constructor(private readonly parts: GameDatagramsParts) {
    this.admission = new SeatAdmission<ClientSeat>({
      rules: GAME_ADMISSION,
      seatByToken: (token) => parts.rooms.tokens.get(token),
      // The backlog of a session that just ended is no attack: counted, but no strike against its source.
      endedLately: (token) => (this.endedTokens.get(token) ?? -Infinity) > parts.clock(),
      codecDrops: this.codecDrops,
      drop: (reason) => this.drop(reason),
    });
  }

  /** Strikes counted against `seat` so far. */
  strikesOf(seat: ClientSeat): number {
    return [...(this.guards.get(seat)?.strikes.kinds.values() ?? [])].reduce((a, b) => a + b, 0);
  }

  /** Every datagram read: admitted or not, answered, or handed to the game. Never throws. */
  onDatagram(msg: Uint8Array, from: UdpEndpoint): void {
    try {
      // Every datagram read counts, whatever becomes of it (dropped, discovery, time sync, game).
      this.totals.packetsIn += 1;
      this.totals.bytesIn += msg.length;
      const source = `${from.address}:${from.port}`;
      const now = this.parts.clock();
      const seat = this.admitted(msg, source, now);
      if (seat === false) return;
      this.dropped = null;
      // LAN discovery and time sync share the port; what they take but do not answer counts as a drop like any other.
      const discovered = this.parts.discovery.offer(msg, from);
      const timed = discovered === 'other' ? this.parts.time.offer(msg, from) : 'other';
      const queried = discovered === 'other' && timed === 'other' ? this.parts.a2s.offer(msg, from) : 'other';
      if (discovered === 'dropped') this.drop('bad-discovery');
      else if (timed === 'dropped') this.drop('bad-time-sync');
      else if (queried === 'dropped') this.drop('bad-a2s');
      else if (discovered === 'other' && timed === 'other' && queried === 'other') this.receive(msg, from);
      // A joined client's own endpoint is never struck for what fails here: its source address proves nothing.
      if (this.dropped !== null && seat === null) this.offence(source, from, this.dropped, now);
    } catch (err) {
      this.parts.log.error({ err }, 'udp handler threw (datagram dropped)');
    }
  }

  /** Sends `packet` to `seat`'s bound endpoint (nothing before it is bound). */
  send(seat: ClientSeat, packet: Packet): void {
    if (!seat.udp) return;
    let bytes: Uint8Array;
    try {
      bytes = encodePacket(packet);
    } catch (err) {
      return this.parts.log.error({ err, slot: seat.slot }, 'could not encode a datagram (server bug)');
    }
    this.sendBytes(seat, bytes);
  }

  /** Sends an encoded datagram to `seat`'s bound endpoint (nothing before it is bound). */
  private sendBytes(seat: ClientSeat, bytes: Uint8Array): void {
    if (!seat.udp) return;
    seat.connection.sent(bytes.length);
    this.totals.packetsOut += 1;
    this.totals.bytesOut += bytes.length;
    if (!this.parts.udp.send(seat.udp, bytes)) this.parts.log.debug({ slot: seat.slot }, 'udp send failed');
  }

  /** A header of the server's own datagrams to `seat`, numbered. */
  header(seat: ClientSeat, type: PacketType, gameTime = this.parts.clock()) {
    return serverHeader(type, seat.connection.stamp(), Math.floor(gameTime), seat.token);
  }

  /** Relays what waits for every seat (within its per-tick budget): the tick's flush. */
  flushAll(): void {
    // The gathering this flush overtakes has nothing left to relay: cancelled, or it would run beside the next one.
    this.cancelPendingFlush();
    const now = this.parts.clock();
    for (const c of this.parts.rooms.players()) {
      this.parts.rooms.undirty(c);
      this.flushSeat(c, now);
    }
    // Spectators only on the tick: what they watch is no race (spectatorStand.ts).
    for (const c of this.parts.rooms.spectators.values()) this.flushSeat(c, now);
  }

  /** With `flush: arrival`, a flush of the seats with something new after this turn of the event loop (or the gathering time). */
  flushSoon(): void {
    const { config, timers } = this.parts;
    if (config.flushOnArrival) this.flushPending ??= config.gatherMs > 0 ? { timer: timers.setTimeout(() => this.flushDirty(), config.gatherMs) } : { immediate: setImmediate(() => this.flushDirty()) };
  }

  /** Relays what waits for the seats that got something new since their last flush: the flush on arrival. */
  flushDirty(): void {
    this.flushPending = undefined;
    const now = this.parts.clock();
    this.parts.rooms.takeDirty((c) => this.flushSeat(c, now));
  }

  private flushSeat(c: ClientSeat, now: number): void {
    let datagrams: Uint8Array[];
    try {
      datagrams = this.parts.rooms.forwarderOf(c).flush(c, now, () => this.header(c, PacketType.Relay, now));
    } catch (err) {
      return this.parts.log.error({ err, slot: c.slot }, 'could not encode a relay datagram (server bug)');
    }
    for (const bytes of datagrams) this.sendBytes(c, bytes);
  }

  /** Forgets endpoints of seats that are gone (their tokens are excused for a while). */
  pruneEndpoints(): void {
    const now = this.parts.clock();
    for (const [token, until] of this.endedTokens) if (now >= until) this.endedTokens.delete(token);
    for (const [source, s] of this.endpoints) if (!this.parts.rooms.seated(s)) this.forgetEndpoint(source, s, now);
  }

  /** `source` was the endpoint of `seat`, which is gone: its token's backlog is excused for ENDED_TOKEN_GRACE_MS. */
  private forgetEndpoint(source: string, seat: ClientSeat, now: number): void {
    this.endpoints.delete(source);
    this.endedTokens.set(seat.token, now + ENDED_TOKEN_GRACE_MS);
  }

  /** Stops: no flush pending, no endpoints. */
  close(): void {
    this.cancelPendingFlush();
    this.endpoints.clear();
    this.endedTokens.clear();
  }

  private cancelPendingFlush(): void {
    const pending = this.flushPending;
    if (pending && 'immediate' in pending) clearImmediate(pending.immediate);
    else if (pending) this.parts.timers.clearTimeout(pending.timer);
    this.flushPending = undefined;
  }

  private drop(reason: ServerDrop): void {
    this.count(reason);
    this.dropped = reason;
  }

  private count(reason: ServerDrop): void {
    this.serverDrops.set(reason, (this.serverDrops.get(reason) ?? 0) + 1);
  }

  private receive(msg: Uint8Array, from: UdpEndpoint): void {
    const { rooms } = this.parts;
    const now = this.parts.clock();
    // Token, address, port (NAT rebinding), slot, type, replay window, a GameState's ship and time: the servers' one ladder.
    const a = this.admission.admit(msg, from, now);
    if (!a.ok) {
      this.dropped = a.excused ? null : a.reason;
      return;
    }
    const { seat: s, seq, moved } = a;
    const h = a.packet.header;
    // A spectator has no ship: a state from it is nothing the game can take.
    if (s.spectator !== null && h.type === PacketType.GameState) return this.drop('spectator-state');
    // Reliable messages and acknowledgements count whatever the packet's age: an overtaken packet's chat line is still news.
    // A datagram without a game time (reliable messages only) counts as sent when it arrived.
    const sentAt = h.gameTime === undefined ? now : stateTime(h.gameTime, now);
    const claims: RuleViolation[] = [];
    const pos = h.type === PacketType.GameState ? h.state?.pos : undefined;
    const fwd = rooms.forwarderOf(s);
    const { packet, farPickups } = fwd.takeLinkEvents(s, a.packet, now, (ev) => {
      const v = this.rules.reliable(s, ev, sentAt, pos);
      if (v) claims.push(v);
      return v !== null;
    });
    if (claims.length > 0 && this.ruleStrikes(s, claims, now)) return;
    // Claims of extras from afar are dropped (the authority never hears them) and struck.
    if (farPickups > 0) {
      this.strike('far-pickup', farPickups);
      const why = this.guards.get(s)?.strike('far-pickup', `${farPickups} claim(s) of an extra it was nowhere near`, now, farPickups);
      if (why) return this.parts.kick(s, why);
    }
    // After a jump its states wait for the acknowledgement of the system message that placed it (galaxyRooms.ts):
    // one sent before it knew would put its ship back at the old gate. Then the guard's track starts where it arrived.
    if (s.arrival !== null) {
      if (s.link.unacknowledged(s.arrival.linkId) && h.type === PacketType.GameState) {
        if (!moved && s.udp) settleSeat(s, from, msg.length, now);
        // Its first datagram binds its endpoint: what waits for it (the system message placing it) goes now, not at the tick.
        if (!s.udp) {
          settleSeat(s, from, msg.length, now);
          this.endpoints.set(`${from.address}:${from.port}`, s);
        }
        this.flushSoon();
        return this.drop('arriving');
      }
      if (!s.link.unacknowledged(s.arrival.linkId)) {
        this.guardOf(s, now).arrived(s.arrival.pos, now);
        s.arrival = null;
      }
    }
    let verdict: 'newest' | 'late' | undefined;
    if (h.type === PacketType.GameState) {
      // Newer than every datagram taken: its state counts; a little late: its events still do; far behind: nothing.
      const v = stateVerdict(seq);
      if (v === 'stale' || v === 'replayed') return this.drop(v);
      verdict = v;
      // A state that waited too long in the receive queue of a server that is behind is shed (receiveBacklog.ts):
      // counted as `backlog`, never held against its source; its events and link section still count.
      const shed = v === 'newest' && h.gameTime !== undefined ? s.inputAge.shed(h.gameTime, now, this.parts.backlog.bound(now)) : null;
      if (shed !== null) {
        verdict = 'late';
        this.count('backlog');
        this.longestShedMs = Math.max(this.longestShedMs, shed);
      }
    }
    // The first datagram that passes every check fixes the client's UDP endpoint; a rebound one moves it.
    if (!s.udp || moved) {
      if (s.udp) {
        this.endpoints.delete(`${s.udp.address}:${s.udp.port}`);
        this.parts.log.info({ slot: s.slot, from: s.udp.port, to: from.port }, 'player moved to another UDP port (NAT rebinding): seat kept');
        this.totals.migrations += 1;
      }
      this.endpoints.set(`${from.address}:${from.port}`, s);
    }
    settleSeat(s, from, msg.length, now);
    if (verdict !== undefined) {
      // Impossible ship states and lasers are corrected in the packet before anyone sees them, and counted.
      const guard = this.guardOf(s, now);
      const checked = guard.check(packet, verdict === 'newest', now);
      for (const v of checked.violations) this.strike(v.kind, 1);
      if (checked.kick) return this.parts.kick(s, checked.kick);
      // Weapons, kill claims and ignored hits: refused events leave the packet before it is forwarded.
      if (this.ruleStrikes(s, this.rules.gameState(s, packet, verdict === 'newest', sentAt), now)) return;
      const before = s.pos;
      const foreign = fwd.onGameState(s, packet, verdict === 'newest', now);
      // Through a stargate: a jump (galaxyRooms.ts), after the state was relayed where it was.
      if (verdict === 'newest') rooms.stateTaken(s, before, now);
      if (foreign > 0) {
        this.strike('foreign-event', foreign);
        const why = guard.strike('foreign-event', `${foreign} event(s) it may not send`, now, foreign);
        if (why) return this.parts.kick(s, why);
      }
      // After the datagrams read in this turn of the event loop (or gathered for gatherMs): relayed together, with no tick to wait for.
      this.flushSoon();
    } else if (h.type === PacketType.NodeAlive) {
      this.totals.nodeAlive += 1;
    } else if (h.type === PacketType.Ping) {
      this.send(s, { header: this.header(s, PacketType.Pong, h.gameTime), events: [] });
    } else if (h.type === PacketType.Pong && h.gameTime !== undefined) {
      // A pong: the round trip of the server's ping in flight (on the seat's connection), if it echoes that one.
      s.connection.roundTrip.answer(h.gameTime, now);
    }
  }

  private guardOf(s: ClientSeat, now: number): ClientGuard {
    let guard = this.guards.get(s);
    if (!guard) this.guards.set(s, (guard = new ClientGuard(SPAWN_POINTS, this.parts.config.strikePolicy, now)));
    return guard;
  }

  /** Strikes for broken rules of the match; true when the seat was dropped for them. */
  private ruleStrikes(s: ClientSeat, violations: RuleViolation[], now: number): boolean {
    if (violations.length === 0) return false;
    const guard = this.guardOf(s, now);
    let kick: string | null = null;
    for (const v of violations) {
      this.strike(v.kind, 1);
      kick ??= guard.strikes.add(v.kind, v.detail, now, v.severity === 'blatant');
    }
    if (kick) this.parts.kick(s, kick);
    return kick !== null;
  }

  private strike(kind: string, n: number): void {
    this.strikeKinds.set(kind, (this.strikeKinds.get(kind) ?? 0) + n);
  }

  /** The seat of a joined endpoint, null for any other admitted source, false when refused before decoding. */
  private admitted(msg: Uint8Array, source: string, now: number): ClientSeat | null | false {
    let seat = this.endpoints.get(source) ?? null;
    if (seat && !this.parts.rooms.seated(seat)) {
      // The seat went between two ticks (its TCP link closed): its backlog may be read before the tick forgets it.
      this.forgetEndpoint(source, seat, now);
      seat = null;
    }
    let key = source;
    if (seat) {
      // Anyone can send from a joined player's address and port: only the seat's token is charged to its rate,
      // time-sync and discovery requests go to a budget of their own, and the rest costs the seat nothing.
      if (peekToken(msg) !== seat.token) {
        if (!isTimeDatagram(msg) && !isDiscoveryRequest(msg)) {
          this.drop('forged-token');
          return false;
        }
        key = `${source} service`;
      }
    }
    const refused = this.parts.sources.admit(key, seat !== null, now);
    if (!refused) return seat;
    this.drop(refused);
    return false;
  }

  /** A datagram from a source with no seat that could not be accepted: strikes, maybe a block, a rationed log line. */
  private offence(source: string, from: UdpEndpoint, reason: string, now: number): void {
    const o = this.parts.sources.offence(source, unwrapAddress(from.address), reason, now);
    if (!o.log) return;
    const fields = { source: `${unwrapAddress(from.address)}:${from.port}`, reason, heldBack: o.log.suppressed };
    if (o.blocked) this.parts.log.warn({ ...fields, blockMs: this.parts.config.blockMs }, 'source blocked: too many datagrams that cannot be accepted');
    else this.parts.log.warn(fields, 'dropping datagrams from a source with no session (logged at most once a minute per address)');
  }
}
