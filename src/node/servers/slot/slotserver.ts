/**
 * The slotserver (Parsec §2.3.2): hands out player slots over TCP and keeps
 * every joined client's list of the others up to date, so peer-to-peer games
 * can start across networks where broadcast discovery cannot reach. Game
 * packets never touch it; it only knows who is joined, from where, and which
 * UDP port they play on (the `port:` extension in joinProtocol.ts). The join
 * handling (and the choices the 1998 text leaves open) lives in joinServer.ts,
 * shared with the gameserver. A joined player whose host sends no time-sync
 * request to the UDP port for `silenceTimeoutMs` loses its seat (slotLiveness.ts).
 */
import { MAX_SLOTS, WIRE_VERSION } from '../../../shared/wire/types';
import { statusPage } from '../../../shared/servers/html';
import { formatEndpoint } from '../../../shared/servers/joinFields';
import { startJoinServer } from '../join/joinServer';
import { allButOneSeat, proveUdpMsOf, type SeatedPlayer } from '../join/joinOptions';
import { duration } from '../common/playerAddress';
import { DiscoveryResponder, type DiscoveryStats } from '../common/discoveryResponder';
import { A2sResponder, type A2sStats } from '../common/a2sResponder';
import { a2sInfo, A2S_MAP } from '../common/a2sInfo';
import { ServerUdp, type UdpEndpoint } from '../common/serverUdp';
import { PortInUseError } from '../common/portInUse';
import { PLAYERS_DECIDE_MATCH } from '../common/matchStatus';
import { ServerTimeService } from '../common/timeService';
import { SlotLiveness } from './slotLiveness';
import { systemClock } from '../../../shared/time/clock';
import { slotserverPlaysFrom } from '../common/playerAddress';
import { APP_VERSION } from '../../version';
import type { CommonServerOptions, RunningServer } from '../common/types';

/** Options of {@link startSlotserver}. */
export interface SlotserverOptions extends CommonServerOptions {
  /** TCP port (default 6582 in the CLI); 0 = any free port. */
  port: number;
  /** UDP port answering LAN discovery (6523 in the CLI); default 0 = any free port, so embedded servers never fight over it. */
  udpPort?: number;
  /** When `udpPort` is taken, bind any free port instead of failing (a warning says LAN discovery will miss this server). */
  udpPortFallback?: boolean;
  /** Slots 0..maxPlayers-1 (1..MAX_SLOTS: a slotserver game is peer-to-peer, whose slot table holds 8; the CLI's default is 8). */
  maxPlayers: number;
  /** Up to four message lines sent after every accepted join; fewer are padded with empty lines. */
  welcome: string[];
  /** Ban file (see banList.ts); re-read when it changes (polled every `banPollMs`, default 1000) and on reloadBans(). */
  banFile?: string;
  banPollMs?: number;
  /** Seats one host (IPv4 address or IPv6 /64) may hold (default maxPlayers − 1, at least 1: one host cannot fill the server; a LAN party behind one NAT sets maxPlayers). */
  maxPerAddress?: number;
  /** A new seat whose host sent no time-sync request within this long is freed and the host struck (default 5000 ms; 0 = never). */
  proveUdpMs?: number;
  /** A joined player whose host sent no time-sync request for this long is removed (default 30,000 ms; 0 = never). */
  silenceTimeoutMs?: number;
  /** Called after every join and leave with the new player count (not for the players dropped by close()). */
  onPlayersChanged?(count: number, max: number): void;
  /** Time an unjoined connection may stay open (default 30 s). */
  joinTimeoutMs?: number;
}

/** One joined player as the status page and the CLI see it. */
export type SlotPlayer = SeatedPlayer;

/** A running slotserver: its TCP port, name and players; `close()` tells every client `removing you`. */
export interface Slotserver extends RunningServer {
  /** The server name sent in every accept. */
  readonly name: string;
  readonly maxPlayers: number;
  playerCount(): number;
  /** Joined players by slot. */
  players(): SlotPlayer[];
  /** The UDP socket's counters: datagrams no handler took, LAN discovery's, and time-sync requests answered. */
  udpStats(): { unknown: number; discovery: DiscoveryStats; timeSyncAnswered: number; a2s: A2sStats };
  /** Reads the ban file again (SIGHUP) and removes the seated players it bans. */
  reloadBans(why?: string): Promise<void>;
}

/**
 * Starts a slotserver; resolves once it listens. Rejects on a bad option
 * (server name, message lines, player count), an unreadable ban file or a
 * port in use. Invalid ban-file lines are logged as warnings, not fatal.
 */
export async function startSlotserver(options: SlotserverOptions): Promise<Slotserver> {
  const { log, name, maxPlayers } = options;
  const host = options.host ?? '0.0.0.0';
  const udp = await ServerUdp.bind(host, options.udpPort ?? 0, 'slotserver').catch((err: Error) => {
    // The UDP port only serves LAN discovery: a taken default costs that, not the slotserver.
    if (!options.udpPortFallback || !(err instanceof PortInUseError)) throw err;
    log.warn({ udpPort: options.udpPort }, `${err.message}; using any free UDP port, so LAN discovery will not find this slotserver`);
    return ServerUdp.bind(host, 0, 'slotserver');
  });
  const silenceMs = options.silenceTimeoutMs ?? 30_000;
  if (!Number.isFinite(silenceMs) || silenceMs < 0) {
    await udp.close();
    throw new Error('slotserver: silenceTimeoutMs must be ≥ 0');
  }
  let proveMs: number;
  try {
    proveMs = proveUdpMsOf('slotserver', options.proveUdpMs);
  } catch (err) {
    await udp.close();
    throw err;
  }
  let seats: Awaited<ReturnType<typeof startJoinServer>>;
  const liveness =
    silenceMs > 0 || proveMs > 0
      ? new SlotLiveness(options.clock ?? systemClock, silenceMs, proveMs, (slot, why, silentMs, unproved) => {
          log.info({ slot, silentMs, unproved }, 'player removed: no time-sync datagram from its address');
          if (unproved) seats.unproved(slot, why);
          else seats.kick(slot, why, true, 'timed out');
        })
      : undefined;
  try {
    // Players learn the UDP port from the accept line (`, time: <port>`): they synchronise their clocks with it before joining.
    const timePort = udp.port;
    const hooks = {
      joined: (p: SeatedPlayer) => (liveness?.joined(p.slot, p.address), { time: timePort }),
      left: (p: SeatedPlayer) => liveness?.left(p.slot),
    };
    seats = await startJoinServer({ ...options, maxPerAddress: options.maxPerAddress ?? allButOneSeat(maxPlayers), kind: 'slotserver', slotLimit: MAX_SLOTS, hooks });
  } catch (err) {
    liveness?.close();
    await udp.close();
    throw err;
  }
  const discovery = new DiscoveryResponder({
    udp,
    log,
    info: () => ({ kind: 'slotserver', name, port: seats.port, players: seats.playerCount(), maxPlayers, version: APP_VERSION }),
  });
  // Datagram kinds the UDP socket serves, tried in order: each takes what is
  // its own and returns true. Another kind (e.g. time sync) goes in front.
  const t0 = performance.now();
  const time = new ServerTimeService(udp, () => performance.now() - t0);
  const timeSync = (msg: Uint8Array, from: UdpEndpoint) => {
    const verdict = time.offer(msg, from);
    // An answered request is a joined player's sign of life (slotLiveness.ts).
    if (verdict === 'answered') liveness?.heard(from.address);
    return verdict !== 'other';
  };
  // Valve's server query (A2S) for server browsers and monitoring tools: the players' games decide the match, so no scores.
  const a2s = new A2sResponder({
    udp,
    log,
    clock: () => performance.now() - t0,
    source: {
      info: () => a2sInfo({ name, map: A2S_MAP, players: seats.playerCount(), maxPlayers, gamePort: seats.port }),
      players: () => seats.players().map((p) => ({ name: p.name, score: 0, seconds: Math.max(0, (Date.now() - p.joinedAt) / 1000) })),
      rules: () => [
        ['protocol', 'slotserver'],
        ['version', APP_VERSION],
        ['wire', String(WIRE_VERSION)],
        ['join', `tcp ${seats.port}`],
        ['match', 'decided by the players'],
      ],
    },
  });
  const datagramHandlers: Array<(msg: Uint8Array, from: UdpEndpoint) => boolean> = [timeSync, (msg, from) => discovery.offer(msg, from) !== 'other', (msg, from) => a2s.offer(msg, from) !== 'other'];
  let unknownDatagrams = 0;
  udp.onDatagram((msg, from) => {
    try {
      if (!datagramHandlers.some((take) => take(msg, from))) unknownDatagrams += 1;
    } catch (err) {
      log.error({ err }, 'udp handler threw (datagram dropped)');
    }
  });
  const udpPort = udp.port;
  // `server`, not `name`: pino's own `name` field is the logger's.
  log.info({ port: seats.port, udp: udpPort, server: name, maxPlayers }, 'slotserver listening');
  let closing = false;
  return {
    kind: 'slotserver',
    name,
    maxPlayers,
    ports: { tcp: seats.port, udp: udpPort },
    playerCount: () => seats.playerCount(),
    players: () => seats.players(),
    udpStats: () => ({ unknown: unknownDatagrams, discovery: discovery.stats(), timeSyncAnswered: time.stats().answered, a2s: a2s.stats() }),
    reloadBans: (why) => seats.reloadBans(why),
    async close(reason = 'server shutting down') {
      if (closing) return;
      closing = true;
      log.info({ reason, players: seats.playerCount() }, 'slotserver closing');
      liveness?.close();
      await seats.close(reason);
      await udp.close();
    },
  };
}

/**
 * The status page (Parsec's HTML player list) and its JSON twin. Every string
 * a client sent reaches the HTML only through statusPage's escaping; the JSON
 * carries them verbatim (serve it as application/json). The match is not
 * the slotserver's: its players' games decide it peer to peer, out of its
 * sight, and the page says so (`match: { decidedBy: 'players' }`).
 * JSON: `{ name, players: [{ slot, name, address, port, endpoint, playsFrom (address:port, the port always written), via ('udp'), os, joinedAt (ISO), joinedForSeconds }], maxPlayers, match }`.
 */
export function renderSlotserverStatus(server: Slotserver, now = Date.now()): { html: string; json: string } {
  const players = server.players();
  const endpoint = (p: SlotPlayer) => formatEndpoint({ address: p.address, port: p.port });
  const html = statusPage(
    `Starlane slotserver: ${server.name}`,
    [`${players.length} of ${server.maxPlayers} slots taken.`, PLAYERS_DECIDE_MATCH.line],
    ['slot', 'name', 'plays from', 'OS', 'joined for'],
    players.map((p) => [String(p.slot), p.name, slotserverPlaysFrom(p).playsFrom, p.os, duration(now - p.joinedAt)]),
  );
  const json = JSON.stringify({
    name: server.name,
    players: players.map((p) => ({
      slot: p.slot,
      name: p.name,
      address: p.address,
      port: p.port,
      endpoint: endpoint(p),
      ...slotserverPlaysFrom(p),
      os: p.os,
      joinedAt: new Date(p.joinedAt).toISOString(),
      joinedForSeconds: Math.max(0, Math.floor((now - p.joinedAt) / 1000)),
    })),
    maxPlayers: server.maxPlayers,
    match: PLAYERS_DECIDE_MATCH.json,
  });
  return { html, json };
}
