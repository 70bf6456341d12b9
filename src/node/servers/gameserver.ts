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
import { GAMESERVER_PORT, GAMESERVER_UDP_PORT, formatEndpoint } from '../../shared/servers/joinProtocol';
import { decodePacket, DropCounters, encodePacket } from '../../shared/wire/codec';
import { MAX_WIRE_SLOTS, PacketType, type Packet } from '../../shared/wire/types';
import { Forwarder, type EventDrops } from './forwarder';
import type { ClientCounters, GameSession } from './gameSession';
import { startJoinServer, type SeatedPlayer } from './joinServer';
import { unwrapAddress } from './lineServer';
import { serverHeader } from './relay';
import type { CommonServerOptions, RunningServer } from './types';

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
}

/** One client's line in {@link GameserverStats}. */
export interface ClientStats extends ClientCounters {
  slot: number;
  name: string;
  /** TCP address, and the UDP endpoint once bound (`null` before). */
  address: string;
  udp: string | null;
  /** Last measured round trip (ms) or null. */
  pingMs: number | null;
  /** Events waiting for this client. */
  queued: number;
}

/** Counters of the whole server since start. */
export interface GameserverStats {
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

type ServerDrop = 'no-token' | 'unknown-token' | 'wrong-address' | 'wrong-port' | 'wrong-slot' | 'duplicate' | 'stale' | 'unexpected-type';

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

  const t0 = performance.now();
  const clock = () => performance.now() - t0;
  const fwd = new Forwarder({ radius, outdatedMs, budget, queueCap });
  const sessions = fwd.sessions;
  const codecDrops = new DropCounters();
  const serverDrops = new Map<ServerDrop, number>();
  const totals = { packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0, nodeAlive: 0 };
  let closing = false;
  const drop = (reason: ServerDrop) => serverDrops.set(reason, (serverDrops.get(reason) ?? 0) + 1);

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

  const send = (s: GameSession, packet: Packet) => {
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
  const header = (s: GameSession, type: PacketType, gameTime = clock()) => serverHeader(type, s.nextId++, Math.floor(gameTime), s.token);

  let flushPending: NodeJS.Immediate | undefined;
  const flushAll = () => {
    flushPending = undefined;
    const now = clock();
    for (const c of fwd.sessions.values()) for (const packet of fwd.flush(c, now, () => header(c, PacketType.Relay, now))) send(c, packet);
  };

  const receive = (msg: Buffer, rinfo: dgram.RemoteInfo) => {
    totals.packetsIn += 1;
    totals.bytesIn += msg.length;
    const decoded = decodePacket(msg);
    if (!decoded.ok) return codecDrops.count(decoded.reason);
    const { header: h } = decoded.packet;
    if (h.token === undefined) return drop('no-token');
    const s = fwd.byToken.get(h.token);
    if (!s) return drop('unknown-token');
    if (unwrapAddress(rinfo.address) !== s.address) return drop('wrong-address');
    if (s.udp && s.udp.port !== rinfo.port) return drop('wrong-port');
    if (h.senderSlot !== s.slot) return drop('wrong-slot');
    const now = clock();
    let verdict: ReturnType<GameSession['ids']['check']> | undefined;
    if (h.type === PacketType.GameState) {
      verdict = s.ids.check(h.messageId);
      if (verdict === 'duplicate' || verdict === 'stale') return drop(verdict);
    } else if (h.type !== PacketType.NodeAlive && h.type !== PacketType.Ping && h.type !== PacketType.Pong) {
      return drop('unexpected-type');
    }
    // The first datagram that passes every check fixes the client's UDP endpoint.
    s.udp ??= { address: rinfo.address, port: rinfo.port };
    s.lastHeard = now;
    s.counters.packetsIn += 1;
    s.counters.bytesIn += msg.length;
    if (verdict !== undefined) {
      fwd.onGameState(s, decoded.packet, verdict === 'newest', now);
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
  socket.on('message', (msg, rinfo) => {
    try {
      receive(msg, rinfo);
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
  const tick = setInterval(() => {
    const now = clock();
    for (const s of [...sessions.values()]) {
      if (now - s.lastHeard > timeoutMs) seats.kick(s.slot, `silent for ${Math.round(now - s.lastHeard)} ms`);
    }
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
          udp: s.udp ? formatEndpoint({ address: unwrapAddress(s.udp.address), port: s.udp.port }) : null,
          pingMs: s.rttMs === null ? null : Math.round(s.rttMs * 10) / 10,
          queued: s.outbox.size,
          ...s.counters,
        }));
      return { ...totals, drops, eventDrops: { ...fwd.eventDrops }, clients };
    },
    async close(reason = 'server shutting down') {
      if (closing) return;
      closing = true;
      log.info({ reason, players: seats.playerCount() }, 'gameserver closing');
      clearInterval(tick);
      if (flushPending) clearImmediate(flushPending);
      await seats.close();
      for (const slot of [...sessions.keys()]) fwd.remove(slot);
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
