/**
 * The netgame server (Purple Martians' input sync, issue 15): players join
 * over TCP exactly as at a gameserver (joinServer.ts: the same lines, the
 * accept carrying a UDP port and a session token), then exchange the netgame
 * messages over UDP (netgameDatagrams.ts). The game is the pure
 * NetgameServer (src/shared/netgame/server.ts): the master game-moves array
 * and state, stepped 40 times a second on this process's clock, with moves
 * and state differences (raw deflate at `zlibLevel`) to every client.
 * Chat and names travel as reliable messages, hop by hop (netgameReliable.ts).
 * The sync gate (src/shared/netgame/syncGate.ts) activates a client once it
 * holds the state and runs at the server's frame, and drops one that falls
 * more than `maxBehindFrames` behind (logged, and told to it and the
 * others); players silent for the timeout are removed; their ships leave
 * the game.
 */
import type { MatchLimits } from '../../../shared/game/match';
import { randomInt } from 'node:crypto';
import { NetgameServer, SPECTATOR_KEYS } from '../../../shared/netgame/server';
import { NO_SLOT, WIRE_VERSION } from '../../../shared/wire/types';
import { A2sResponder, type A2sStats } from '../common/a2sResponder';
import { a2sInfo, A2S_MAP } from '../common/a2sInfo';
import { spectatorSeats } from '../common/spectatorSeats';
import { behindReason, MAX_MAX_BEHIND_FRAMES, MIN_MAX_BEHIND_FRAMES } from '../../../shared/netgame/syncGate';
import { announcementOf, type MatchStanding } from '../../../shared/game/matchSync';
import { NETGAME_PORT, NETGAME_UDP_PORT } from '../../../shared/servers/joinProtocol';
import { systemClock } from '../../../shared/time/clock';
import { STEP_MS } from '../../../shared/sim/types';
import { zlibPacker } from '../../lockstep/zlibPacker';
import { APP_VERSION } from '../../version';
import { DiscoveryResponder } from '../common/discoveryResponder';
import { startJoinServer } from '../join/joinServer';
import { allButOneSeat, proveUdpMsOf, type SeatedPlayer } from '../join/joinOptions';
import { NetgameDatagrams, newSeat, type NetSeat } from './netgameDatagrams';
import { NetgameReliable } from './netgameReliable';
import { ServerUdp } from '../common/serverUdp';
import { ServerTimeService } from '../common/timeService';
import { SourceGuard } from '../common/strikes';
import type { CommonServerOptions, RunningServer } from '../common/types';
import { MatchRecorder, type RecordingStatus } from '../common/matchRecorder';

/** Most players of a netgame (the seed's 8). */
export const NETGAME_MAX_PLAYERS = 8;

export interface NetgameServerOptions extends CommonServerOptions {
  port?: number;
  udpPort?: number;
  maxPlayers?: number;
  welcome?: string[];
  banFile?: string;
  banPollMs?: number;
  joinTimeoutMs?: number;
  /** Seats one host may hold (default maxPlayers − 1, at least 1: one host cannot fill the server; a LAN party behind one NAT sets maxPlayers). */
  maxPerAddress?: number;
  /** A new seat whose token arrived in no accepted datagram within this long of the join is freed and its host struck (default 5000 ms; 0 = never). */
  proveUdpMs?: number;
  onPlayersChanged?(count: number, max: number): void;
  /** The seed's control_lead_frames: the smallest control lead (default 3). */
  controlLead?: number;
  /** The seed's server_lead_frames (default 1). */
  serverLead?: number;
  /** Frames between state differences (default 20). */
  diffEvery?: number;
  /** zlib level of state differences, 1..9 (the seed's zlib_cmp; default 7). */
  zlibLevel?: number;
  /** A player silent this long is removed (default 10 s). */
  timeoutMs?: number;
  /** An active player more frames than this behind the server is dropped (the seed's 100, the default). */
  maxBehindFrames?: number;
  /** Datagrams per second per source (default 200). */
  udpRate?: number;
  seed?: number;
  /** Kill and time limits of the matches its world plays (default RULES.match). */
  matchLimits?: Partial<MatchLimits>;
  /** Records every match into `dir`, one demo file each, keeping the newest `keep` (common/matchRecorder.ts); absent: none. */
  record?: { dir: string; keep: number };
  /** Spectator seats apart from the players' (default 32; 0: none): each holds the state and the moves, and never enters the game. */
  maxSpectators?: number;
}

export interface NetgameServerStats {
  frame: number;
  datagramsIn: number;
  drops: Record<string, number>;
  clients: {
    slot: number;
    name: string;
    udp: string | null;
    controlLead: number;
    rttMs: number | null;
    /** Frames the server is ahead of the client (by the frame it last reported). */
    serverSync: number | null;
    /** Activated by the sync gate: its ship is in the game. */
    active: boolean;
    controlChanges: number;
    lateChanges: number;
    refused: number;
    lastDiff: { raw: number; packed: number; chunks: number } | null;
    /** The server's reliable messages (chat, names) to it not yet acknowledged. */
    reliablePending: number;
  }[];
  /** A2S queries answered, challenges sent and queries dropped by reason (common/a2sResponder.ts). */
  a2s: A2sStats;
  /** The spectator seats there are, and each spectator: its endpoint, how far behind it runs, what it was sent. */
  spectators: {
    max: number;
    list: { spectator: number; name: string; udp: string | null; serverSync: number | null; datagramsSent: number; bytesSent: number }[];
  };
}

export interface RunningNetgameServer extends RunningServer {
  readonly kind: 'netgame';
  readonly name: string;
  readonly maxPlayers: number;
  readonly ports: { tcp: number; udp: number };
  playerCount(): number;
  players(): SeatedPlayer[];
  stats(): NetgameServerStats;
  /** The match of its master state (every node steps it alike): scores, phase, time left, limits. */
  match(): MatchStanding;
  reloadBans(why?: string): Promise<void>;
  /** Its match recordings (`--record`), or null when it records nothing. */
  recording(): RecordingStatus | null;
}

export async function startNetgameServer(options: NetgameServerOptions): Promise<RunningNetgameServer> {
  const { log, name } = options;
  const maxPlayers = options.maxPlayers ?? NETGAME_MAX_PLAYERS;
  if (!Number.isInteger(maxPlayers) || maxPlayers < 1 || maxPlayers > NETGAME_MAX_PLAYERS) throw new Error(`netgame: maxPlayers must be an integer 1..${NETGAME_MAX_PLAYERS}`);
  const zlibLevel = options.zlibLevel ?? 7;
  if (!Number.isInteger(zlibLevel) || zlibLevel < 1 || zlibLevel > 9) throw new Error('netgame: zlibLevel must be an integer 1..9');
  const maxBehind = options.maxBehindFrames;
  if (maxBehind !== undefined && (!Number.isInteger(maxBehind) || maxBehind < MIN_MAX_BEHIND_FRAMES || maxBehind > MAX_MAX_BEHIND_FRAMES)) {
    throw new Error(`netgame: maxBehindFrames must be an integer ${MIN_MAX_BEHIND_FRAMES}..${MAX_MAX_BEHIND_FRAMES}`);
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const proveMs = proveUdpMsOf('netgame', options.proveUdpMs);
  const timers = options.clock ?? systemClock;
  const t0 = timers.now();
  const clock = () => timers.now() - t0;
  const sources = new SourceGuard({ datagramsPerSecond: options.udpRate ?? 200 });
  /** Players' seats by slot, spectators' by SPECTATOR_KEYS + their number. */
  const seats = new Map<number, NetSeat>();
  const { maxSpectators } = spectatorSeats('netgame', { maxSpectators: options.maxSpectators });

  const udp = await ServerUdp.bind(options.host ?? '0.0.0.0', options.udpPort ?? NETGAME_UDP_PORT, 'netgame', { recvBufferBytes: 1024 * 1024 });
  for (const warning of udp.warnings()) log.warn(warning);
  let join: Awaited<ReturnType<typeof startJoinServer>> | null = null;
  const discovery = new DiscoveryResponder({ udp, log, info: () => (join ? { kind: 'netgame', name, port: join.port, players: join.playerCount(), maxPlayers, version: APP_VERSION } : null) });
  let datagrams: NetgameDatagrams | null = null;
  // Every match into a demo file (--record): a watching game shown each frame of the shared world.
  let recorder: MatchRecorder | null = null;
  let recordedRound = -1;
  let playersChanged = false;
  const core = new NetgameServer({
    stepped: (f) => {
      if (!recorder) return;
      const round = f.world.match.round;
      if (round !== recordedRound) {
        recordedRound = round;
        recorder.startMatch({ round, players: join?.players().map((p) => ({ slot: p.slot, name: p.name })) ?? [], welcome: [] });
      }
      recorder.frames([f]);
    },
    seed: options.seed ?? 0x5741524c,
    ...(options.matchLimits ? { matchLimits: options.matchLimits } : {}),
    send: (slot, events) => {
      const seat = seats.get(slot);
      if (seat && datagrams) datagrams.send(seat, events);
    },
    packer: zlibPacker(zlibLevel),
    ...(options.serverLead !== undefined ? { serverLead: options.serverLead } : {}),
    ...(options.controlLead !== undefined ? { baseLead: options.controlLead } : {}),
    ...(options.diffEvery !== undefined ? { diffEvery: options.diffEvery } : {}),
    ...(maxBehind !== undefined ? { maxBehindFrames: maxBehind } : {}),
  });
  // Its clock is its players' common game time: they synchronise with it before their ship enters, as at a gameserver.
  const time = new ServerTimeService(udp, clock);
  const reliable = new NetgameReliable(
    () => seats.values(),
    (reason) => datagrams?.serverDrops.set(reason, (datagrams.serverDrops.get(reason) ?? 0) + 1),
  );
  // Valve's server query (A2S), for server browsers and monitoring tools.
  const a2s = new A2sResponder({
    udp,
    log,
    clock,
    source: {
      info: () => (join ? a2sInfo({ name, map: A2S_MAP, players: join.playerCount(), maxPlayers, gamePort: join.port }) : null),
      players: () => {
        const scores = new Map(announcementOf(core.state.world).scores.map((x) => [x.slot, x.kills]));
        return join?.players().map((p) => ({ name: p.name, score: scores.get(p.slot) ?? 0, seconds: Math.max(0, (Date.now() - p.joinedAt) / 1000) })) ?? [];
      },
      rules: () => {
        const m = announcementOf(core.state.world);
        return [
          ['protocol', 'netgame'],
          ['version', APP_VERSION],
          ['wire', String(WIRE_VERSION)],
          ['join', `tcp ${join?.port ?? 0}`],
          ['kill_limit', String(m.killLimit)],
          ['time_limit', String(m.timeLimitS)],
          ['control_lead', String(core.baseLead)],
          ['spectators', `${[...seats.values()].filter((x) => x.spectator !== null).length}/${maxSpectators}`],
        ];
      },
    },
  });
  datagrams = new NetgameDatagrams({
    udp,
    sources,
    discovery,
    time,
    a2s,
    seats,
    clock,
    deliver: (seat, ev, now) => core.receive(seat.key, ev, now),
    envelopes: (seat, link, now) => reliable.take(seat, link, now),
  });
  const d = datagrams;
  udp.onDatagram((msg, from) => d.onDatagram(msg, from));

  try {
    join = await startJoinServer({
      ...options,
      port: options.port ?? NETGAME_PORT,
      maxPerAddress: options.maxPerAddress ?? allButOneSeat(maxPlayers),
      kind: 'netgame',
      maxPlayers,
      slotLimit: NETGAME_MAX_PLAYERS,
      maxSpectators,
      welcome: options.welcome ?? [],
      hooks: {
        joined(player) {
          sources.unblockAddress(player.address);
          playersChanged = true;
          const seat = newSeat(player.slot, player.address, randomInt(0, 0x1_0000_0000), clock(), randomInt(0, 0x10000));
          seats.set(player.slot, seat);
          return { udp: udp.port, token: seat.token };
        },
        left(player) {
          seats.delete(player.slot);
          core.leave(player.slot);
          playersChanged = true;
        },
        renamed(player) {
          reliable.renamed(player.slot, player.name, clock());
        },
        // A spectator: the state and every move, as a client that never enters (NetgameServer.watch).
        spectatorJoined(spectator) {
          const key = SPECTATOR_KEYS + spectator.slot;
          const seat = newSeat(NO_SLOT, spectator.address, randomInt(0, 0x1_0000_0000), clock(), randomInt(0, 0x10000), { n: spectator.slot, key });
          seats.set(key, seat);
          return { udp: udp.port, token: seat.token };
        },
        spectatorLeft(spectator) {
          const key = SPECTATOR_KEYS + spectator.slot;
          seats.delete(key);
          core.leave(key);
        },
      },
    });
  } catch (err) {
    await udp.close();
    throw err;
  }
  const j = join;
  /** Drops a player's seat (the others told `othersRead`, if given) or a spectator's, telling it why. */
  const dropSeat = (seat: NetSeat, why: string, othersRead?: string): void => {
    if (seat.spectator !== null) j.kickSpectator(seat.spectator, why, true);
    else j.kick(seat.slot, why, true, othersRead);
  };
  if (options.record) recorder = new MatchRecorder({ dir: options.record.dir, keep: options.record.keep, serverName: name, server: `${options.host ?? '0.0.0.0'}:${j.port}`, protocol: 'netgame', log, clock, timers });

  // A seat joins the game once its first datagram shows where to send (the welcome and the state go there).
  const welcomed = new Set<number>();
  let closing = false;
  const tick = timers.setInterval(() => {
    const now = clock();
    for (const seat of [...seats.values()]) {
      if (!welcomed.has(seat.key) && seat.udp) {
        welcomed.add(seat.key);
        if (seat.spectator === null) core.join(seat.slot, now);
        else core.watch(seat.key, now);
      }
      const who = { slot: seat.slot, spectator: seat.spectator ?? undefined, address: seat.address };
      // A new seat proves its endpoint with a first datagram with its token (the game sends at once), or it is freed and its host struck.
      if (!seat.udp && proveMs > 0 && now - seat.lastHeard > proveMs) {
        log.info(who, 'player removed: no datagram with its token after the join');
        const why = `no game datagram with your token within ${Math.round(proveMs / 1000)} s of joining`;
        if (seat.spectator === null) j.unproved(seat.slot, why);
        else j.kickSpectator(seat.spectator, why, true);
        continue;
      }
      if (now - seat.lastHeard > timeoutMs) {
        log.info({ ...who, silentMs: Math.round(now - seat.lastHeard) }, 'player removed: no datagram within the timeout');
        dropSeat(seat, `no game datagram for ${Math.round((now - seat.lastHeard) / 1000)} s`, 'timed out');
        continue;
      }
      const unacked = seat.link.check(now);
      if (unacked) {
        log.warn({ ...who, reason: unacked }, 'player dropped: stopped acknowledging reliable messages');
        dropSeat(seat, `stopped acknowledging reliable messages (${unacked})`);
      }
    }
    for (const key of welcomed) if (!seats.has(key)) welcomed.delete(key);
    if (playersChanged) {
      playersChanged = false;
      recorder?.players(j.players().map((p) => ({ slot: p.slot, name: p.name })));
    }
    // The sync gate: a player fallen too far behind is already out of the game; its seat goes, with the reason.
    for (const drop of core.tick(now)) {
      const seat = seats.get(drop.slot);
      const why = behindReason(drop.behind, drop.limit);
      log.warn({ slot: seat?.slot ?? drop.slot, spectator: seat?.spectator ?? undefined, address: seat?.address, behind: drop.behind, limit: drop.limit }, `${drop.watcher ? 'spectator' : 'player'} dropped: ${drop.behind} frames behind (limit ${drop.limit})`);
      if (seat) dropSeat(seat, why);
      else j.kick(drop.slot, why, true);
    }
    for (const seat of seats.values()) {
      const due = reliable.due(seat, now);
      if (due) d.send(seat, due.events, due.type, undefined, due.link);
    }
  }, STEP_MS);

  log.info({ port: j.port, udp: udp.port, server: name, maxPlayers, maxSpectators, controlLead: core.baseLead, serverLead: core.serverLead, zlibLevel, maxBehindFrames: core.maxBehindFrames }, 'netgame server listening');

  return {
    kind: 'netgame',
    name,
    maxPlayers,
    ports: { tcp: j.port, udp: udp.port },
    playerCount: () => j.playerCount(),
    players: () => j.players(),
    reloadBans: (why) => j.reloadBans(why),
    recording: () => recorder?.status() ?? null,
    match: () => announcementOf(core.state.world),
    stats() {
      const named = new Map(j.players().map((p) => [p.slot, p.name]));
      const drops = { ...d.codecDrops.snapshot(), ...Object.fromEntries(d.serverDrops) };
      const clients = [...core.clients.values()]
        .filter((c) => !c.watcher)
        .sort((a, b) => a.slot - b.slot)
        .map((c) => {
          const seat = seats.get(c.slot);
          return {
            slot: c.slot,
            name: named.get(c.slot) ?? '?',
            udp: seat?.udp ? `${seat.udp.address}:${seat.udp.port}` : null,
            controlLead: c.lead,
            rttMs: c.rttMs === null ? null : Math.round(c.rttMs),
            serverSync: core.behind(c),
            active: c.active,
            controlChanges: c.changes,
            lateChanges: c.late,
            refused: c.refused,
            lastDiff: c.lastDiff,
            reliablePending: seat?.link.pending ?? 0,
          };
        });
      const watching = new Map(j.spectators().map((p) => [p.slot, p.name]));
      const list = [...seats.values()].flatMap((seat) => {
        if (seat.spectator === null) return [];
        const c = core.clients.get(seat.key);
        const traffic = seat.connection.counters;
        return [{ spectator: seat.spectator, name: watching.get(seat.spectator) ?? '?', udp: seat.udp ? `${seat.udp.address}:${seat.udp.port}` : null, serverSync: c ? core.behind(c) : null, datagramsSent: traffic.datagramsOut, bytesSent: traffic.bytesOut }];
      });
      return { frame: core.frame, datagramsIn: [...seats.values()].reduce((n, s) => n + s.connection.counters.datagramsIn, 0), drops, clients, a2s: a2s.stats(), spectators: { max: maxSpectators, list } };
    },
    async close(reason = 'server shutting down') {
      if (closing) return;
      closing = true;
      log.info({ reason, players: j.playerCount() }, 'netgame server closing');
      timers.clearInterval(tick);
      await recorder?.close(reason);
      await j.close(reason);
      await udp.close();
    },
  };
}
