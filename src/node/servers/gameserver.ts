/**
 * The gameserver (Parsec §2.3.3): players join over TCP exactly as at a
 * slotserver (joinServer.ts) and get a UDP port and a session token; they
 * then send every game packet to the server, which decides what each of the
 * others gets:
 * - states only of players within the filter radius, once per new state;
 * - NodeAlive packets refresh the sender's session and go no further;
 * - events queue per recipient by priority (lasers and missiles first, world
 *   changes next, chat and names last); late time-critical ones are dropped;
 *   chat, names and kills reach everyone whatever the distance;
 * - everything for one client goes out in as few ≤ 512-byte Relay datagrams
 *   as possible, at the latest on the next tick. With `flush: 'arrival'`
 *   (default) the server also relays right after each burst of datagrams it
 *   has read (within the client's per-tick budget), so forwarding adds no
 *   tick latency while a burst still goes out together; with `tick`
 *   everything waits for the tick and is aggregated (fewest datagrams).
 * Every datagram is distrusted: wrong token, address, port or slot, stale ids
 * and undecodable bytes are dropped and counted, never thrown.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { GAMESERVER_PORT, GAMESERVER_UDP_PORT } from '../../shared/servers/joinProtocol';
import { decodePacket, DropCounters, encodePacket } from '../../shared/wire/codec';
import { MAX_WIRE_SLOTS, PacketType, type Packet } from '../../shared/wire/types';
import { Forwarder, type EventDrops } from './forwarder';
import type { ClientCounters, ClientSeat } from './seat';
import { startJoinServer, type SeatedPlayer } from './joinServer';
import { unwrapAddress } from './lineServer';
import { DiscoveryResponder } from './discoveryResponder';
import { ServerTimeService } from './timeService';
import { APP_VERSION } from '../version';
import { serverHeader } from './relay';
import { ClientGuard, SourceGuard } from './strikes';
import { spawnPoints } from '../../shared/sim/spawn';
import { hostPort } from './playerAddress';
import type { CommonServerOptions, RunningServer } from './types';
import { systemClock } from '../../shared/time/clock';

/** Where a respawned player may reappear: it takes a free spawn point, not necessarily its slot's. */
const SPAWN_POINTS = spawnPoints();

/** Options of {@link startGameserver}; everything but the name, ports and logger has a default. */
export interface GameserverOptions extends CommonServerOptions {
  /** TCP join port (default 6581, Parsec's); 0 = any free port. */
  port?: number;
  /** UDP game port (default 6522); 0 = any free port. */
  udpPort?: number;
  /** Seats 0..maxPlayers-1, 1..MAX_WIRE_SLOTS (default 16). */
  maxPlayers?: number;
  /** Up to four message lines after every accepted join. */
  welcome?: string[];
  banFile?: string;
  /** Players farther apart than this (units) get no state or local events of each other (default 2000). */
  filterRadius?: number;
  /** Server ticks per second (default 20): relays at the latest, budgets, pings, timeouts. */
  tickHz?: number;
  /** `arrival` (default): relay right after each burst read (within the budget); `tick`: only on the tick. */
  flush?: 'arrival' | 'tick';
  /** A player not heard on UDP or TCP for this long is removed (default 10,000 ms). */
  timeoutMs?: number;
  /** Lasers and missiles older than this when their turn comes are dropped (default 500 ms). */
  outdatedMs?: number;
  /** Relay datagrams one client may get per tick (default 32); the rest waits for the next tick. */
  maxDatagramsPerTick?: number;
  /** Events queued per client and tier before the oldest is dropped (default 256). */
  queueCap?: number;
  /** Time between the server's pings to each client (default 1000 ms). */
  pingIntervalMs?: number;
  joinTimeoutMs?: number;
  onPlayersChanged?(count: number, max: number): void;
  /**
   * Datagrams per second one source (ip:port) may send (default 200, bursts
   * of twice that); the rest is dropped as `rate-limited` before decoding.
   * An honest client sends at most 60 game packets a second plus pings.
   */
  udpRate?: number;
  /** Strikes that get a joined client dropped (default 10), each fading over `strikeWindowMs` (default 10,000 ms). */
  strikeLimit?: number;
  strikeWindowMs?: number;
  /** Bad datagrams (within 10 s) that get a source with no session blocked (default 50), and for how long (default 60,000 ms). */
  sourceStrikeLimit?: number;
  blockMs?: number;
  /** UDP receive buffer asked of the kernel (default 4 MiB; Linux caps it at net.core.rmem_max), so a busy moment does not cost honest datagrams. */
  recvBufferBytes?: number;
}

/** One client's line in {@link GameserverStats}. */
export interface ClientStats extends ClientCounters {
  slot: number;
  name: string;
  /** TCP address, and the UDP endpoint once bound (`null` before; `ip:port`, the port always written). */
  address: string;
  udp: string | null;
  /** The bound UDP endpoint as address and port (`null` before). */
  udpEndpoint: { address: string; port: number } | null;
  /** Last measured round trip (ms) or null. */
  pingMs: number | null;
  /** Events waiting for this client. */
  queued: number;
  /** Strikes counted against this client (corrected states, impossible lasers, events it may not send). */
  strikes: number;
}

/** Counters of the whole server since start. */
export interface GameserverStats {
  /** Datagrams read from the UDP socket (all of them: game packets, drops, LAN discovery and time-sync requests). */
  packetsIn: number;
  bytesIn: number;
  packetsOut: number;
  bytesOut: number;
  /** Accepted NodeAlive packets (never forwarded). */
  nodeAlive: number;
  /** Dropped datagrams by reason: the codec's (`truncated`, …) and the server's (`unknown-token`, `wrong-port`, …). */
  drops: Record<string, number>;
  /** Dropped events: `outdated`, `overflow`, `foreign` (not the client's to send). */
  eventDrops: EventDrops;
  /** Strikes by kind (`speed`, `teleport`, `foreign-event`, …) over all clients since start. */
  strikes: Record<string, number>;
  /** Datagrams answered without a session: LAN-discovery and time-sync requests. */
  answered: { discovery: number; timeSync: number };
  /** Players dropped for their strikes. */
  kicked: number;
  /** Sources (ip:port) blocked for bad datagrams since start, and blocked right now. */
  blocks: number;
  blockedNow: number;
  /** TCP join connections closed or refused by reason (`invalid-requests`, `line-too-long`, `rate-limited`, …). */
  tcp: Record<string, number>;
  clients: ClientStats[];
}

/** A running gameserver: ports `{ tcp, udp }`, its players and counters; `close()` says goodbye and closes every socket and timer. */
export interface Gameserver extends RunningServer {
  readonly name: string;
  readonly maxPlayers: number;
  playerCount(): number;
  players(): SeatedPlayer[];
  stats(): GameserverStats;
}

type ServerDrop = 'bad-discovery' | 'bad-time-sync' | 'no-token' | 'unknown-token' | 'wrong-address' | 'wrong-port' | 'wrong-slot' | 'duplicate' | 'stale' | 'unexpected-type' | 'rate-limited' | 'blocked';

/**
 * Starts a gameserver; resolves once both sockets listen. Rejects on a bad
 * option, an unreadable ban file or a port in use (nothing is left open).
 */
export async function startGameserver(options: GameserverOptions): Promise<Gameserver> {
  const { log, name } = options;
  const maxPlayers = options.maxPlayers ?? MAX_WIRE_SLOTS;
  const radius = options.filterRadius ?? 2000;
  const tickHz = options.tickHz ?? 20;
  const flushOnArrival = (options.flush ?? 'arrival') === 'arrival';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const outdatedMs = options.outdatedMs ?? 500;
  const budget = options.maxDatagramsPerTick ?? 32;
  const queueCap = options.queueCap ?? 256;
  const pingEvery = options.pingIntervalMs ?? 1000;
  const positive = (v: number) => Number.isFinite(v) && v > 0;
  if (!positive(radius)) throw new Error('gameserver: filterRadius must be a positive number of units');
  if (!positive(tickHz) || tickHz > 1000) throw new Error('gameserver: tickHz must be in (0, 1000]');
  if (![timeoutMs, outdatedMs, pingEvery].every(positive)) throw new Error('gameserver: timeoutMs, outdatedMs and pingIntervalMs must be positive');
  if (!Number.isInteger(budget) || budget < 1 || !Number.isInteger(queueCap) || queueCap < 1) throw new Error('gameserver: maxDatagramsPerTick and queueCap must be integers ≥ 1');
  const udpRate = options.udpRate ?? 200;
  const strikePolicy = { limit: options.strikeLimit ?? 10, windowMs: options.strikeWindowMs ?? 10_000 };
  if (!positive(udpRate)) throw new Error('gameserver: udpRate must be a positive number of datagrams per second');
  if (!Number.isInteger(strikePolicy.limit) || strikePolicy.limit < 1 || !positive(strikePolicy.windowMs)) throw new Error('gameserver: strikeLimit must be an integer ≥ 1 and strikeWindowMs positive');
  const sources = new SourceGuard({ datagramsPerSecond: udpRate, strikes: { limit: options.sourceStrikeLimit ?? 50, windowMs: 10_000 }, blockMs: options.blockMs ?? 60_000 });

  const timers = options.clock ?? systemClock;
  const t0 = timers.now();
  const clock = () => timers.now() - t0;
  const fwd = new Forwarder({ radius, outdatedMs, budget, queueCap });
  const sessions = fwd.sessions;
  const codecDrops = new DropCounters();
  const serverDrops = new Map<ServerDrop, number>();
  const totals = { packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0, nodeAlive: 0 };
  let closing = false;
  // Why the datagram being handled was dropped (null: accepted), so the handler can hold it against its source.
  let dropped: string | null = null;
  const drop = (reason: ServerDrop) => {
    serverDrops.set(reason, (serverDrops.get(reason) ?? 0) + 1);
    dropped = reason;
  };
  // Joined clients' bound UDP endpoints (ip:port): they get their own rate table and are never blocked,
  // because anyone can forge a source address and must not get an honest player cut off that way.
  const endpoints = new Map<string, ClientSeat>();
  const guards = new WeakMap<ClientSeat, ClientGuard>();
  const strikeKinds = new Map<string, number>();
  let kicked = 0;

  const socket = dgram.createSocket(options.host?.includes(':') ? 'udp6' : 'udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.udpPort ?? GAMESERVER_UDP_PORT, options.host ?? '0.0.0.0', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  socket.on('error', (err) => log.warn({ err }, 'udp socket error'));
  const udpPort = socket.address().port;
  try {
    socket.setRecvBufferSize(options.recvBufferBytes ?? 4 * 1024 * 1024);
  } catch (err) {
    log.warn({ err }, 'could not enlarge the UDP receive buffer');
  }
  // LAN discovery requests share the game port; `seats` exists once the join server listens.
  // Time-sync requests too: the server's clock is the common game time of its players.
  const time = new ServerTimeService(socket, clock);
  const discovery = new DiscoveryResponder({ socket, log, info: () => (seats ? { kind: 'gameserver', name, port: seats.port, players: seats.playerCount(), maxPlayers, version: APP_VERSION } : null) });

  const send = (s: ClientSeat, packet: Packet) => {
    if (!s.udp) return;
    let bytes: Uint8Array;
    try {
      bytes = encodePacket(packet);
    } catch (err) {
      return log.error({ err, slot: s.slot }, 'could not encode a datagram (server bug)');
    }
    s.counters.datagramsSent += 1;
    s.counters.bytesSent += bytes.length;
    totals.packetsOut += 1;
    totals.bytesOut += bytes.length;
    socket.send(bytes, s.udp.port, s.udp.address, (err) => {
      if (err) log.debug({ err, slot: s.slot }, 'udp send failed');
    });
  };
  const header = (s: ClientSeat, type: PacketType, gameTime = clock()) => serverHeader(type, s.nextId++, Math.floor(gameTime), s.token);

  let flushPending: NodeJS.Immediate | undefined;
  const flushAll = () => {
    flushPending = undefined;
    const now = clock();
    for (const c of fwd.sessions.values()) for (const packet of fwd.flush(c, now, () => header(c, PacketType.Relay, now))) send(c, packet);
  };

  const receive = (msg: Buffer, rinfo: dgram.RemoteInfo) => {
    const decoded = decodePacket(msg);
    if (!decoded.ok) {
      codecDrops.count(decoded.reason);
      dropped = decoded.reason;
      return;
    }
    const { header: h } = decoded.packet;
    if (h.token === undefined) return drop('no-token');
    const s = fwd.byToken.get(h.token);
    if (!s) return drop('unknown-token');
    if (unwrapAddress(rinfo.address) !== s.address) return drop('wrong-address');
    if (s.udp && s.udp.port !== rinfo.port) return drop('wrong-port');
    if (h.senderSlot !== s.slot) return drop('wrong-slot');
    const now = clock();
    // Reliable messages and acknowledgements count whatever the packet's age: an overtaken packet's chat line is still news.
    const { packet } = fwd.takeLinkEvents(s, decoded.packet, now);
    let verdict: ReturnType<ClientSeat['ids']['check']> | undefined;
    if (h.type === PacketType.GameState) {
      verdict = s.ids.check(h.messageId);
      if (verdict === 'duplicate' || verdict === 'stale') return drop(verdict);
    } else if (h.type !== PacketType.NodeAlive && h.type !== PacketType.Ping && h.type !== PacketType.Pong && h.type !== PacketType.Reliable) {
      return drop('unexpected-type');
    }
    // The first datagram that passes every check fixes the client's UDP endpoint.
    if (!s.udp) {
      s.udp = { address: rinfo.address, port: rinfo.port };
      endpoints.set(`${rinfo.address}:${rinfo.port}`, s);
    }
    s.lastHeard = now;
    s.counters.packetsIn += 1;
    s.counters.bytesIn += msg.length;
    if (verdict !== undefined) {
      // Impossible ship states and lasers are corrected in the packet before anyone sees them, and counted.
      let guard = guards.get(s);
      if (!guard) guards.set(s, (guard = new ClientGuard(SPAWN_POINTS, strikePolicy, now)));
      const checked = guard.check(packet, verdict === 'newest', now);
      for (const v of checked.violations) strikeKinds.set(v.kind, (strikeKinds.get(v.kind) ?? 0) + 1);
      if (checked.kick) return kick(s, checked.kick);
      const foreign = fwd.onGameState(s, packet, verdict === 'newest', now);
      if (foreign > 0) {
        strikeKinds.set('foreign-event', (strikeKinds.get('foreign-event') ?? 0) + foreign);
        const why = guard.strike('foreign-event', `${foreign} event(s) it may not send`, now, foreign);
        if (why) return kick(s, why);
      }
      // After the datagrams read in this turn of the event loop: a burst is relayed together, with no tick to wait for.
      if (flushOnArrival) flushPending ??= setImmediate(flushAll);
    } else if (h.type === PacketType.NodeAlive) {
      totals.nodeAlive += 1;
    } else if (h.type === PacketType.Ping) {
      send(s, { header: header(s, PacketType.Pong, h.gameTime), events: [] });
    } else if (s.pingAt !== null && h.gameTime === s.pingAt >>> 0) {
      s.rttMs = now - s.pingAt;
      s.pingAt = null;
    }
  };
  const kick = (s: ClientSeat, reason: string) => {
    kicked += 1;
    const player = seats.players().find((p) => p.slot === s.slot);
    log.warn({ slot: s.slot, player: player?.name, address: s.address, udp: s.udp ? `${s.udp.address}:${s.udp.port}` : null, reason }, 'player dropped for bad data');
    seats.kick(s.slot, `dropped for bad data: ${reason}`, true);
  };
  // Before any decoding: blocked sources and sources over their rate cost one map lookup.
  const admitted = (source: string, now: number): ClientSeat | null | false => {
    let session = endpoints.get(source) ?? null;
    if (session && sessions.get(session.slot) !== session) {
      endpoints.delete(source);
      session = null;
    }
    const refused = sources.admit(source, session !== null, now);
    if (!refused) return session;
    drop(refused);
    return false;
  };
  // A datagram from a source with no session that could not be accepted: strikes, maybe a block, a rationed log line.
  const offence = (source: string, rinfo: dgram.RemoteInfo, reason: string, now: number) => {
    const o = sources.offence(source, unwrapAddress(rinfo.address), reason, now);
    if (!o.log) return;
    const fields = { source: `${unwrapAddress(rinfo.address)}:${rinfo.port}`, reason, heldBack: o.log.suppressed };
    if (o.blocked) log.warn({ ...fields, blockMs: options.blockMs ?? 60_000 }, 'source blocked: too many datagrams that cannot be accepted');
    else log.warn(fields, 'dropping datagrams from a source with no session (logged at most once a minute per address)');
  };
  socket.on('message', (msg, rinfo) => {
    try {
      // Every datagram read counts, whatever becomes of it (dropped, discovery, time sync, game).
      totals.packetsIn += 1;
      totals.bytesIn += msg.length;
      const source = `${rinfo.address}:${rinfo.port}`;
      const now = clock();
      const session = admitted(source, now);
      if (session === false) return;
      dropped = null;
      // LAN discovery and time sync share the port; what they take but do not answer counts as a drop like any other.
      const discovered = discovery.offer(msg, rinfo);
      const timed = discovered === 'other' ? time.offer(msg, rinfo) : 'other';
      if (discovered === 'dropped') drop('bad-discovery');
      else if (timed === 'dropped') drop('bad-time-sync');
      else if (discovered === 'other' && timed === 'other') receive(msg, rinfo);
      // A joined client's own endpoint is never struck for what fails here: its source address proves nothing.
      if (dropped !== null && session === null) offence(source, rinfo, dropped, now);
    } catch (err) {
      log.error({ err }, 'udp handler threw (datagram dropped)');
    }
  });

  let seats: Awaited<ReturnType<typeof startJoinServer>>;
  try {
    seats = await startJoinServer({
      ...options,
      port: options.port ?? GAMESERVER_PORT,
      kind: 'gameserver',
      maxPlayers,
      slotLimit: MAX_WIRE_SLOTS,
      welcome: options.welcome ?? [],
      hooks: {
        joined(player) {
          // It has a good token now: whatever it sent without one before no longer counts against it.
          sources.unblockAddress(player.address);
          const s = fwd.add(player.slot, player.address, () => randomInt(0, 0x1_0000_0000), clock());
          return { udp: udpPort, token: s.token };
        },
        left: (player) => fwd.remove(player.slot),
        heard(slot) {
          const s = sessions.get(slot);
          if (s) s.lastHeard = clock();
        },
      },
    });
  } catch (err) {
    socket.close();
    throw err;
  }

  let lastPing = clock();
  const tick = timers.setInterval(() => {
    const now = clock();
    for (const s of [...sessions.values()]) {
      if (now - s.lastHeard > timeoutMs) seats.kick(s.slot, `silent for ${Math.round(now - s.lastHeard)} ms`);
      else {
        const unacked = s.link.check(now);
        if (unacked) {
          log.warn({ slot: s.slot, address: s.address, reason: unacked }, 'player dropped: stopped acknowledging reliable messages');
          seats.kick(s.slot, `stopped acknowledging reliable messages (${unacked})`, true);
        }
      }
    }
    for (const [source, s] of endpoints) if (sessions.get(s.slot) !== s) endpoints.delete(source);
    const ping = now - lastPing >= pingEvery;
    if (ping) lastPing = now;
    for (const s of sessions.values()) {
      s.budget = budget;
      if (ping && s.udp) {
        s.pingAt = Math.floor(now);
        send(s, { header: header(s, PacketType.Ping, s.pingAt), events: [] });
      }
    }
    flushAll();
  }, 1000 / tickHz);

  log.info({ port: seats.port, udp: udpPort, server: name, maxPlayers, radius, tickHz, flush: flushOnArrival ? 'arrival' : 'tick' }, 'gameserver listening');

  return {
    kind: 'gameserver',
    name,
    maxPlayers,
    ports: { tcp: seats.port, udp: udpPort },
    playerCount: () => seats.playerCount(),
    players: () => seats.players(),
    stats() {
      const named = new Map(seats.players().map((p) => [p.slot, p.name]));
      const drops: Record<string, number> = { ...codecDrops.snapshot(), ...Object.fromEntries(serverDrops) };
      const clients = [...sessions.values()]
        .sort((a, b) => a.slot - b.slot)
        .map((s) => ({
          slot: s.slot,
          name: named.get(s.slot) ?? '?',
          address: s.address,
          udp: s.udp ? hostPort(unwrapAddress(s.udp.address), s.udp.port) : null,
          udpEndpoint: s.udp ? { address: unwrapAddress(s.udp.address), port: s.udp.port } : null,
          pingMs: s.rttMs === null ? null : Math.round(s.rttMs * 10) / 10,
          queued: s.outbox.size,
          strikes: [...(guards.get(s)?.strikes.kinds.values() ?? [])].reduce((a, b) => a + b, 0),
          ...s.counters,
        }));
      const strikes = Object.fromEntries(strikeKinds);
      const answered = { discovery: discovery.stats().answered, timeSync: time.stats().answered };
      return { ...totals, drops, answered, eventDrops: { ...fwd.eventDrops }, strikes, kicked, blocks: sources.blocks, blockedNow: sources.blockedNow(clock()), tcp: seats.counters(), clients };
    },
    async close(reason = 'server shutting down') {
      if (closing) return;
      closing = true;
      log.info({ reason, players: seats.playerCount() }, 'gameserver closing');
      timers.clearInterval(tick);
      if (flushPending) clearImmediate(flushPending);
      await seats.close();
      for (const slot of [...sessions.keys()]) fwd.remove(slot);
      endpoints.clear();
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
