/**
 * The gameserver's options (with their defaults and checks) and what it
 * reports: the running server, its counters and each client's line.
 */
import type { MatchStanding } from '../../../shared/game/matchSync';
import type { EventDrops } from './forwarder';
import { proveUdpMsOf, type SeatedPlayer } from '../join/joinOptions';
import type { ClientCounters } from './seat';
import type { CommonServerOptions, RunningServer } from '../common/types';
import type { RecordingStatus } from '../common/matchRecorder';
import type { SpectatorDrops } from './spectatorStand';
import { spectatorSeats } from '../common/spectatorSeats';
import type { Galaxy } from '../../../shared/servers/galaxyMap';
import type { UniverseDoor, UniverseLink } from './universeDoor';

/** Seats of a gameserver unless `--max-players` says otherwise (up to MAX_WIRE_SLOTS, 255). */
export const DEFAULT_GAMESERVER_PLAYERS = 64;

/** Options of {@link startGameserver}; everything but the name, ports and logger has a default. */
export interface GameserverOptions extends CommonServerOptions {
  /** TCP join port (default 6581, Parsec's); 0 = any free port. */
  port?: number;
  /** UDP game port (default 6522); 0 = any free port. */
  udpPort?: number;
  /**
   * The ports players reach this server at when a NAT or a container runtime maps them to others
   * (Docker's `-p 7000:6522/udp`, an Agones fleet's dynamic ports): `udp` is what the join reply
   * tells players to send to, `tcp` the join port the masterserver lists and a universe's tickets
   * name. Absent: the ports it listens on.
   */
  announce?: { tcp?: number; udp?: number };
  /** Seats 0..maxPlayers-1, 1..MAX_WIRE_SLOTS (255; default DEFAULT_GAMESERVER_PLAYERS, 64). */
  maxPlayers?: number;
  /** Kills that win a match, 0 = none (default RULES.match.killLimit); the server is its game's match authority. */
  killLimit?: number;
  /** Seconds a match lasts, 0 = none (default RULES.match.timeLimitS). */
  timeLimitS?: number;
  /** Spectator seats apart from the players' (default 32, DEFAULT_MAX_SPECTATORS; 0: none). */
  maxSpectators?: number;
  /** How late spectators see the game, in seconds (default 0; at most MAX_SPECTATOR_DELAY_S, 120): a spectator cannot call out positions to a player. */
  spectatorDelayS?: number;
  /** Up to four message lines after every accepted join. */
  welcome?: string[];
  /** Records every match into `dir`, one demo file each, keeping the newest `keep` (matchRecorder.ts); absent: none. */
  record?: { dir: string; keep: number };
  /** Its galaxy (`--galaxy`, galaxyMap.ts): the solar systems it hosts and their stargates; absent: one system, the default arena. */
  galaxy?: Galaxy;
  /** Its universe (`--universe-key` with `--master`): the key, and the masterserver once registered (universeDoor.ts). */
  universe?: { key: Buffer; link: () => UniverseLink | null };
  banFile?: string;
  /** Players farther apart than this (units) get no state or local events of each other (default 2000). */
  filterRadius?: number;
  /** Far players' states at lower rates (levelOfDetail.ts: every state within half the radius, 10 Hz within three quarters, 5 Hz beyond; default true). */
  levelOfDetail?: boolean;
  /** Server ticks per second (default 20): relays at the latest, budgets, pings, timeouts. */
  tickHz?: number;
  /** `arrival` (default): relay soon after states arrive (within the budget; see gatherMs); `tick`: only on the tick. */
  flush?: 'arrival' | 'tick';
  /**
   * With `flush: 'arrival'`: how long (ms) the server gathers what arrives
   * before relaying it, so each client's datagram carries several players'
   * states (default 4; 0 relays after each burst of datagrams read).
   */
  gatherMs?: number;
  /**
   * A seat whose token arrived in no accepted game datagram (state, node-alive, ping, pong, reliable) for this long
   * is freed, its player told why (default 10,000 ms); TCP lines do not keep a seat.
   */
  timeoutMs?: number;
  /** A new seat whose token arrived in no accepted datagram within this long of the join is freed and its host struck (default 5000 ms; 0 = never). */
  proveUdpMs?: number;
  /** Lasers and missiles older than this when their turn comes are dropped (default 500 ms). */
  outdatedMs?: number;
  /** Relay datagrams one client may get per tick (default 32); the rest waits for the next tick. */
  maxDatagramsPerTick?: number;
  /** Events queued per client and tier before the oldest is dropped (default 256). */
  queueCap?: number;
  /** Time between the server's pings to each client (default 1000 ms). */
  pingIntervalMs?: number;
  joinTimeoutMs?: number;
  /** Seats one host (IPv4 address or IPv6 /64) may hold (default 8); ban-file poll interval (default 1000 ms). */
  maxPerAddress?: number;
  banPollMs?: number;
  onPlayersChanged?(count: number, max: number): void;
  /**
   * Datagrams per second one source (ip:port) may send (default 200, bursts
   * of twice that); the rest is dropped as `rate-limited` before decoding.
   * An honest client sends at most 60 game packets a second plus pings.
   */
  udpRate?: number;
  /**
   * Datagrams per second all sources without a seat may send together (default
   * 2000, bursts of twice that): past it they are dropped as
   * `strangers-over-budget` before decoding, so a flood from many source ports
   * never takes the joined players' share.
   */
  strangerRate?: number;
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
  /** The solar system it is in. */
  system: string;
  /** Its career totals over every system it played in (they travel through the gates). */
  career: { kills: number; deaths: number; jumps: number };
}

/** One spectator's line in {@link GameserverStats}. */
export interface SpectatorStats {
  /** Its number among the spectators. */
  spectator: number;
  name: string;
  address: string;
  udp: string | null;
  pingMs: number | null;
  queued: number;
  statesSent: number;
  statesPartial: number;
  eventsSent: number;
  datagramsSent: number;
  bytesSent: number;
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
  /** Seats moved to another UDP port of their address (NAT rebinding). */
  migrations: number;
  /** Dropped datagrams by reason: the codec's (`truncated`, …) and the server's (`unknown-token`, `wrong-port`, …). */
  drops: Record<string, number>;
  /** Dropped events: `outdated`, `overflow`, `foreign` (not the client's to send). */
  eventDrops: EventDrops;
  /** Stargate jumps made between this server's solar systems, and refused (no server has the destination). */
  jumps: { made: number; refused: number; elsewhere: number };
  /** Strikes by kind (`speed`, `teleport`, `foreign-event`, …) over all clients since start. */
  strikes: Record<string, number>;
  /** Datagrams answered without a session: LAN-discovery and time-sync requests, A2S queries (and the challenges sent for them). */
  answered: { discovery: number; timeSync: number; a2s: number; a2sChallenges: number };
  /** Players dropped for their strikes. */
  kicked: number;
  /** Sources (ip:port) blocked for bad datagrams since start, and blocked right now. */
  blocks: number;
  blockedNow: number;
  /** TCP join connections closed or refused by reason (`invalid-requests`, `line-too-long`, `rate-limited`, …). */
  tcp: Record<string, number>;
  clients: ClientStats[];
  /** The spectators (spectatorStand.ts): the seats there are, the delay, what waits for it, what was dropped for their sake (never a player's), and each one's line. */
  spectators: {
    max: number;
    delayS: number;
    held: number;
    drops: SpectatorDrops;
    list: SpectatorStats[];
  };
  /**
   * Graceful overload (overload.ts): whether the server is stretching far players' state rates, the
   * rates it holds (per second, or every state: near players until the last step of the slowdown), and its tick's lateness (ms, last minute).
   */
  load: {
    overloaded: boolean;
    stateRates: { near: number | 'every'; mid: number | 'every'; far: number | 'every' };
    tickLateMs: { p50: number; p99: number };
    lateTicks: number;
    /** How long the server's probes waited in its receive queue over the last minute, and the longest ever (ms; receiveBacklog.ts). */
    receiveWaitMs: { p50: number; p99: number; max: number };
    /** The receive buffer asked of the kernel now (bytes): smaller than the configured one while the server stays behind. */
    receiveBufferBytes: number;
    /** Whether that is less than the server was started with. */
    receiveBufferCut: boolean;
    /** States shed because they waited in the receive queue longer than SHED_AGE_MS while the server was behind (also `drops.backlog`). */
    statesShed: number;
    /** The longest a shed state had waited (ms): after a stall of the whole process (no probes went), the stall. */
    longestShedMs: number;
  };
}

/** A running gameserver: ports `{ tcp, udp }`, its players and counters; `close()` says goodbye and closes every socket and timer. */
export interface Gameserver extends RunningServer {
  /** The ports players reach it at (GameserverOptions.announce; else the ones it listens on). */
  readonly announced: { tcp: number; udp: number };
  readonly name: string;
  readonly maxPlayers: number;
  playerCount(): number;
  players(): SeatedPlayer[];
  stats(): GameserverStats;
  /** The match it runs, as it stands now (what its players are told: scores, phase, time left, limits). */
  match(): MatchStanding;
  /** Reads the ban file again (SIGHUP) and removes the seated players it bans. */
  reloadBans(why?: string): Promise<void>;
  /** Its match recordings (`--record`), or null when it records nothing. */
  recording(): RecordingStatus | null;
  /** Its galaxy's name. */
  readonly galaxy: string;
  /** The wall-clock ms its game clock counts from (its universe's time reference). */
  readonly epoch: number;
  /** A jumping ship's carried state for this server, from the masterserver (universeDoor.ts). */
  carried(id: string, state: string): void;
  /** Its universe door's counters (jumps out and refused, arrivals, tickets refused by reason), or null outside a universe. */
  universe(): UniverseDoor['counters'] | null;
  /** Its solar systems: players in each, where their stargates lead (`local`: a system of this server), each one's match. */
  systems(): SystemCensus[];
}

export interface SystemCensus {
  name: string;
  players: number;
  gates: { to: string; local: boolean }[];
  /** Its match as it stands (each system runs its own). */
  match: MatchStanding;
}

/** How long a flush on arrival gathers by default (ms): a few players' states share a datagram, for at most this much more latency. */
export const DEFAULT_GATHER_MS = 4;
/** The longest gathering allowed (ms): half a 20 Hz state interval. */
export const MAX_GATHER_MS = 25;

/** The options with every default filled in and checked. */
export interface GameserverConfig {
  maxPlayers: number;
  maxSpectators: number;
  /** How late spectators see the game (ms). */
  spectatorDelayMs: number;
  radius: number;
  levelOfDetail: boolean;
  tickHz: number;
  flushOnArrival: boolean;
  /** How long a flush on arrival gathers (0: after each burst read). */
  gatherMs: number;
  timeoutMs: number;
  /** Time a new seat has for its first accepted datagram (0 = no such rule). */
  proveUdpMs: number;
  outdatedMs: number;
  /** Relay datagrams per client and tick. */
  budget: number;
  queueCap: number;
  pingEvery: number;
  udpRate: number;
  strangerRate: number;
  strikePolicy: { limit: number; windowMs: number };
  sourceStrikeLimit: number;
  blockMs: number;
}

/** Fills in the defaults; throws one clear line for a bad option. */
export function resolveGameserverOptions(options: GameserverOptions): GameserverConfig {
  const maxPlayers = options.maxPlayers ?? DEFAULT_GAMESERVER_PLAYERS;
  const radius = options.filterRadius ?? 2000;
  const tickHz = options.tickHz ?? 20;
  const flushOnArrival = (options.flush ?? 'arrival') === 'arrival';
  const gatherMs = options.gatherMs ?? DEFAULT_GATHER_MS;
  if (!Number.isInteger(gatherMs) || gatherMs < 0 || gatherMs > MAX_GATHER_MS) throw new Error(`gameserver: gatherMs must be a whole number of milliseconds from 0 to ${MAX_GATHER_MS}`);
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
  const strangerRate = options.strangerRate ?? 2000;
  if (!positive(strangerRate)) throw new Error('gameserver: strangerRate must be a positive number of datagrams per second');
  const proveUdpMs = proveUdpMsOf('gameserver', options.proveUdpMs);
  const { maxSpectators, spectatorDelayMs } = spectatorSeats('gameserver', options);
  return { maxPlayers, maxSpectators, spectatorDelayMs, radius, levelOfDetail: options.levelOfDetail ?? true, tickHz, flushOnArrival, gatherMs, timeoutMs, proveUdpMs, outdatedMs, budget, queueCap, pingEvery, udpRate, strangerRate, strikePolicy, sourceStrikeLimit: options.sourceStrikeLimit ?? 50, blockMs: options.blockMs ?? 60_000 };
}

