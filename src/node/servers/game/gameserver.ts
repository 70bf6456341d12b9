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
 * - everything for one client goes out in as few ≤ 1,200-byte Relay datagrams
 *   as possible, at the latest on the next tick. With `flush: 'arrival'`
 *   (default) the server also relays right after each burst of datagrams it
 *   has read (within the client's per-tick budget), so forwarding adds no
 *   tick latency while a burst still goes out together; with `tick`
 *   everything waits for the tick and is aggregated (fewest datagrams).
 * Every datagram is distrusted: wrong token, address, port or slot, stale ids
 * and undecodable bytes are dropped and counted, never thrown.
 */
import { randomInt } from 'node:crypto';
import { GAMESERVER_PORT, GAMESERVER_UDP_PORT } from '../../../shared/servers/joinProtocol';
import { systemClock } from '../../../shared/time/clock';
import { PacketType, type ReliableGameEvent } from '../../../shared/wire/types';
import { APP_VERSION } from '../../version';
import { DiscoveryResponder } from '../common/discoveryResponder';
import { OverloadWatch } from './overload';
import { BacklogProbe, PROBE_EVERY_MS, ReceiveBufferControl, SHED_AGE_MS } from './receiveBacklog';
import { tierEveryMs } from './levelOfDetail';
import { Forwarder } from './forwarder';
import { GameDatagrams } from './gameDatagrams';
import { resolveGameserverOptions, type Gameserver, type GameserverOptions, type GameserverStats } from './gameserverOptions';
import { startJoinServer } from '../join/joinServer';
import { unwrapAddress } from '../common/lineServer';
import { hostPort } from '../common/playerAddress';
import { ServerUdp } from '../common/serverUdp';
import { SourceGuard } from '../common/strikes';
import { MatchReferee } from './matchReferee';
import { ArenaOwner } from './arenaOwner';
import { EXTRA_KINDS } from '../../../shared/game/combat';
import { RULES } from '../../../shared/game/rules';
import { MATCH_OVER } from '../../../shared/game/types';
import { matchPages } from '../../../shared/game/matchSync';
import { ServerTimeService } from '../common/timeService';
import { MAX_WIRE_SLOTS, NO_SLOT, type RemoteEvent } from '../../../shared/wire/types';
import { MatchRecorder } from '../common/matchRecorder';
import { A2sResponder } from '../common/a2sResponder';
import { a2sInfo, A2S_MAP } from '../common/a2sInfo';
import { serverMatch } from '../common/matchStatus';
import { WIRE_VERSION } from '../../../shared/wire/types';

/** A tick this late (ms) means the server itself was stopped: the silence check runs before the backlog is read. */
const STALL_MS = 1000;

export type { ClientStats, Gameserver, GameserverOptions, GameserverStats } from './gameserverOptions';

/**
 * Starts a gameserver; resolves once both sockets listen. Rejects on a bad
 * option, an unreadable ban file or a port in use (nothing is left open).
 */
export async function startGameserver(options: GameserverOptions): Promise<Gameserver> {
  const { log, name } = options;
  const config = resolveGameserverOptions(options);
  const { maxPlayers, timeoutMs, pingEvery, budget } = config;
  const sources = new SourceGuard({ datagramsPerSecond: config.udpRate, strangersPerSecond: config.strangerRate, strikes: { limit: config.sourceStrikeLimit, windowMs: 10_000 }, blockMs: config.blockMs });

  const timers = options.clock ?? systemClock;
  const t0 = timers.now();
  const clock = () => timers.now() - t0;
  const fwd = new Forwarder({ radius: config.radius, outdatedMs: config.outdatedMs, budget, queueCap: config.queueCap, levelOfDetail: config.levelOfDetail, spectatorDelayMs: config.spectatorDelayMs });
  const clients = fwd.clients;
  let closing = false;
  let kicked = 0;

  // The same packet API code as the clients' (udp, or udp6 for an IPv6 host).
  const recvBufferBytes = options.recvBufferBytes ?? 4 * 1024 * 1024;
  const udp = await ServerUdp.bind(options.host ?? '0.0.0.0', options.udpPort ?? GAMESERVER_UDP_PORT, 'gameserver', { recvBufferBytes });
  for (const warning of udp.warnings()) log.warn(warning);
  const udpPort = udp.port;
  // LAN discovery requests share the game port; `seats` exists once the join server listens.
  // Time-sync requests too: the server's clock is the common game time of its players.
  const time = new ServerTimeService(udp, clock);
  // Probes through its own receive queue say how long what it reads waited (receiveBacklog.ts).
  const backlog = new BacklogProbe();
  const self = udp.self();
  const discovery = new DiscoveryResponder({ udp, log, info: () => (seats ? { kind: 'gameserver', name, port: seats.port, players: seats.playerCount(), maxPlayers, version: APP_VERSION } : null) });
  // Valve's server query (A2S) on the game port, for server browsers and monitoring tools (a2sQuery.ts).
  const a2s = new A2sResponder({
    udp,
    log,
    clock,
    source: {
      info: () => (seats ? a2sInfo({ name, map: A2S_MAP, players: seats.playerCount(), maxPlayers, gamePort: seats.port }) : null),
      players: () => {
        const match = serverMatch(referee.announcement(clock()));
        return seats.players().map((p) => ({ name: p.name, score: match.scoreOf(p.slot).kills, seconds: Math.max(0, (Date.now() - p.joinedAt) / 1000) }));
      },
      rules: () => {
        const m = referee.announcement(clock());
        return [
          ['protocol', 'gameserver'],
          ['version', APP_VERSION],
          ['wire', String(WIRE_VERSION)],
          ['join', `tcp ${seats.port}`],
          ['kill_limit', String(m.killLimit)],
          ['time_limit', String(m.timeLimitS)],
          ['filter_radius', String(config.radius)],
          ['tick_hz', String(config.tickHz)],
          ['spectators', `${fwd.stand.seats.size}/${config.maxSpectators}`],
          ['spectator_delay', String(config.spectatorDelayMs / 1000)],
        ];
      },
    },
  });
  const datagrams = new GameDatagrams({
    udp,
    fwd,
    sources,
    discovery,
    a2s,
    time,
    backlog,
    config,
    log,
    clock,
    timers,
    kick(s, reason) {
      kicked += 1;
      const player = seats.players().find((p) => p.slot === s.slot);
      log.warn({ slot: s.slot, spectator: s.spectator ?? undefined, player: player?.name, address: s.address, udp: s.udp ? `${s.udp.address}:${s.udp.port}` : null, reason }, 'player dropped for bad data');
      dropSeat(s, `dropped for bad data: ${reason}`);
    },
  });
  // After a stall of the server itself (a tick overdue by a second or more), the seats silent for the
  // timeout are judged before the backlog of datagrams is read: that backlog is not news.
  let lastTickAt = clock();
  let dropSilent: ((now: number) => void) | null = null;
  udp.onDatagram((msg, from) => {
    const now = clock();
    if (from.port === udpPort && backlog.take(msg, now)) {
      // What each player sent before the probe waited at least since the probe left (receiveBacklog.ts).
      for (const s of clients.values()) s.inputAge.probed(backlog.lastSent);
      return;
    }
    if (now - lastTickAt >= STALL_MS) dropSilent?.(now);
    datagrams.onDatagram(msg, from);
  });
  const probing = timers.setInterval(() => udp.send(self, backlog.probe(clock())), PROBE_EVERY_MS);
  // A server that stays behind bounds its queue by its receive buffer, and gets it back once calm (receiveBacklog.ts).
  const buffer = new ReceiveBufferControl(recvBufferBytes, (bytes) => udp.setReceiveBuffer(bytes));
  const buffering = timers.setInterval(() => buffer.second(backlog.takeLongest(clock())), 1000);
  // The server is its game's match authority: scores from the kills players' games announce, limits from its options.
  const referee = new MatchReferee({ killLimit: options.killLimit, timeLimitS: options.timeLimitS }, clock());
  fwd.onOwnKill = (victim, killer, now) => referee.kill(victim, killer, now);
  // A missile or mine pack the authority gave a player: the rules guard lets it fire those too.
  fwd.onExtraTaken = (winner, type) => {
    const x = RULES.extras;
    if (EXTRA_KINDS[type] === 'missiles') datagrams.rules.grantAmmo(winner, x.missilePack, 0);
    else if (EXTRA_KINDS[type] === 'mines') datagrams.rules.grantAmmo(winner, 0, x.minePack);
  };
  // The server owns the arena too: asteroids, energy fields and extras (arenaOwner.ts), on the referee's clock.
  const arena = new ArenaOwner(referee.currentRound);
  /** Tells every player what the arena did (new extras, extras gone, breaks), keeping the claimable extras in step. */
  const sayArena = (events: ReliableGameEvent[], now: number): void => {
    for (const ev of events) {
      recorder?.event(NO_SLOT, ev);
      if (ev.type === 'createExtra') fwd.serverExtra(ev.id, ev.pos, ev.kind);
      else if (ev.type === 'killObject') fwd.forget(ev.id);
      fwd.sayToEveryone(ev, now);
    }
  };
  fwd.onLaser = (slot, ev) => arena.laser(slot, ev);
  fwd.onServerClaim = (slot, id, now) => {
    const r = arena.claim(slot, id);
    if (r.won !== undefined) fwd.onExtraTaken?.(slot, r.won);
    sayArena([r.answer], now);
  };

  // Every match into a demo file (--record): the server watches its own game as a spectator would (matchRecorder.ts).
  let recorder: MatchRecorder | null = null;
  let playersChanged = false;
  fwd.onRelayed = (slot, what, gameTime) => {
    if (!recorder) return;
    if (what.state) recorder.state(slot, what.state, gameTime);
    else recorder.event(slot, what.event, gameTime);
  };
  let seats: Awaited<ReturnType<typeof startJoinServer>>;
  try {
    seats = await startJoinServer({
      ...options,
      port: options.port ?? GAMESERVER_PORT,
      kind: 'gameserver',
      maxPlayers,
      slotLimit: MAX_WIRE_SLOTS,
      maxSpectators: config.maxSpectators,
      welcome: options.welcome ?? [],
      hooks: {
        joined(player) {
          // It has a good token now: whatever it sent without one before no longer counts against it.
          sources.unblockAddress(player.address);
          const now = clock();
          const s = fwd.add(player.slot, player.address, () => randomInt(0, 0x1_0000_0000), now);
          // The newcomer hears the match at once; everyone else at the next tick (the scores changed).
          referee.join(player.slot, player.name);
          playersChanged = true;
          for (const page of matchPages(referee.announcement(now), config.maxPlayers)) fwd.sayToSeat(s, { type: 'matchState', ...page }, now);
          for (const ev of arena.forNewcomer()) fwd.sayToSeat(s, ev, now);
          return { udp: udpPort, token: s.token };
        },
        left: (player) => {
          fwd.remove(player.slot);
          referee.leave(player.slot);
          playersChanged = true;
        },
        // A spectator (spectatorStand.ts): a seat apart, told the match and the arena as a newcomer is, deciding nothing.
        spectatorJoined(spectator) {
          const now = clock();
          const s = fwd.addSpectator(spectator.slot, spectator.address, () => randomInt(0, 0x1_0000_0000), now);
          for (const page of matchPages(referee.announcement(now), config.maxPlayers)) fwd.sayToSeat(s, { type: 'matchState', ...page }, now);
          for (const ev of arena.forNewcomer()) fwd.sayToSeat(s, ev, now);
          return { udp: udpPort, token: s.token };
        },
        spectatorLeft: (spectator) => fwd.removeSpectator(spectator.slot),
      },
    });
  } catch (err) {
    // Nothing is left open: the probes' timers stop with the socket.
    timers.clearInterval(probing);
    timers.clearInterval(buffering);
    await udp.close();
    throw err;
  }

  /** Drops a player's seat (the others told `othersRead`, if given) or a spectator's, telling it why. */
  const dropSeat = (s: { slot: number; spectator: number | null }, why: string, othersRead?: string): void => {
    if (s.spectator !== null) seats.kickSpectator(s.spectator, why, true);
    else seats.kick(s.slot, why, true, othersRead);
  };
  /** The match's word and the arena's as a newcomer hears them (the first thing a match recording's game hears). */
  const welcomeNow = (now: number): RemoteEvent[] => [...matchPages(referee.announcement(now), config.maxPlayers).map((page) => ({ type: 'matchState' as const, ...page })), ...arena.forNewcomer()];
  const recordedPlayers = () => seats.players().map((p) => ({ slot: p.slot, name: p.name }));
  if (options.record) {
    recorder = new MatchRecorder({ dir: options.record.dir, keep: options.record.keep, serverName: name, server: `${options.host ?? '0.0.0.0'}:${seats.port}`, protocol: 'gameserver', log, clock, timers });
    recorder.startMatch({ round: referee.currentRound, players: recordedPlayers(), welcome: welcomeNow(clock()) });
  }
  let lastPing = clock();
  /** The round whose end was logged last. */
  let loggedEnd = -1;
  dropSilent = (now) => {
    lastTickAt = now;
    for (const s of [...fwd.everySeat()]) {
      // A new seat proves its endpoint with a first datagram with its token (the game sends at once), or it is freed and its host struck.
      if (s.udp === null && config.proveUdpMs > 0 && now - s.lastHeard > config.proveUdpMs) {
        const why = `no game datagram with your token within ${Math.round(config.proveUdpMs / 1000)} s of joining`;
        log.info({ slot: s.slot, spectator: s.spectator ?? undefined, address: s.address }, 'player removed: no game datagram with its token after the join');
        if (s.spectator === null) seats.unproved(s.slot, why);
        else seats.kickSpectator(s.spectator, why, true);
        continue;
      }
      // Only game datagrams with the seat's token keep it: a TCP line costs a squatter nothing and plays no game.
      if (now - s.lastHeard > timeoutMs) {
        log.info({ slot: s.slot, spectator: s.spectator ?? undefined, address: s.address, silentMs: Math.round(now - s.lastHeard) }, 'player removed: no game datagram within the timeout');
        dropSeat(s, `no game datagram for ${Math.round((now - s.lastHeard) / 1000)} s`, 'timed out');
      }
    }
  };
  // The tick's lateness says when the process cannot keep up: far players' rates go down first (overload.ts).
  const tickMs = 1000 / config.tickHz;
  const overload = new OverloadWatch(tickMs);
  let tickDue = clock() + tickMs;
  const tick = timers.setInterval(() => {
    const now = clock();
    overload.tick(now, now - tickDue);
    // The interval timer's next run comes a tick after this one ran, however late this one was.
    tickDue = Math.max(tickDue, now) + tickMs;
    fwd.slowdown = overload.slowdown;
    dropSilent?.(now);
    for (const s of [...fwd.everySeat()]) {
      const unacked = s.link.check(now);
      if (unacked) {
        log.warn({ slot: s.slot, spectator: s.spectator ?? undefined, address: s.address, reason: unacked }, 'player dropped: stopped acknowledging reliable messages');
        dropSeat(s, `stopped acknowledging reliable messages (${unacked})`);
      }
    }
    datagrams.pruneEndpoints();
    const ping = now - lastPing >= pingEvery;
    if (ping) lastPing = now;
    for (const s of fwd.everySeat()) {
      s.budget = budget;
      if (ping && s.udp) {
        datagrams.send(s, { header: datagrams.header(s, PacketType.Ping, s.connection.roundTrip.ping(now)), events: [] });
      }
    }
    if (playersChanged) {
      playersChanged = false;
      recorder?.players(recordedPlayers());
    }
    const roundBefore = referee.currentRound;
    referee.tick(now);
    // A new match: a new recording, which hears the arena's fresh start as a newcomer would.
    if (recorder && referee.currentRound !== roundBefore) recorder.startMatch({ round: referee.currentRound, players: recordedPlayers(), welcome: welcomeNow(now) });
    sayArena(arena.advance(referee.currentRound, referee.playedMs(now)), now);
    const said = referee.due(now);
    if (said) {
      const pages = matchPages(said, config.maxPlayers);
      for (const page of pages) fwd.sayToEveryone({ type: 'matchState', ...page }, now);
      for (const page of pages) recorder?.event(NO_SLOT, { type: 'matchState', ...page });
      if (said.phase === MATCH_OVER && said.round !== loggedEnd) {
        loggedEnd = said.round;
        log.info({ round: said.round, ranking: referee.lastRanking }, 'match over');
      }
    }
    fwd.releaseHeld(now);
    datagrams.flushAll();
  }, 1000 / config.tickHz);

  log.info({ port: seats.port, udp: udpPort, server: name, maxPlayers, radius: config.radius, levelOfDetail: config.levelOfDetail, tickHz: config.tickHz, flush: config.flushOnArrival ? 'arrival' : 'tick', gatherMs: config.flushOnArrival ? config.gatherMs : null }, 'gameserver listening');

  return {
    kind: 'gameserver',
    name,
    maxPlayers,
    ports: { tcp: seats.port, udp: udpPort },
    playerCount: () => seats.playerCount(),
    players: () => seats.players(),
    reloadBans: (why) => seats.reloadBans(why),
    match: () => referee.announcement(clock()),
    recording: () => recorder?.status() ?? null,
    stats() {
      const named = new Map(seats.players().map((p) => [p.slot, p.name]));
      const drops: Record<string, number> = { ...datagrams.codecDrops.snapshot(), ...Object.fromEntries(datagrams.serverDrops) };
      const clientStats = [...clients.values()]
        .sort((a, b) => a.slot - b.slot)
        .map((s) => ({
          slot: s.slot,
          name: named.get(s.slot) ?? '?',
          address: s.address,
          udp: s.udp ? hostPort(unwrapAddress(s.udp.address), s.udp.port) : null,
          udpEndpoint: s.udp ? { address: unwrapAddress(s.udp.address), port: s.udp.port } : null,
          pingMs: s.connection.roundTrip.last === undefined ? null : Math.round(s.connection.roundTrip.last * 10) / 10,
          queued: s.outbox.size,
          strikes: datagrams.strikesOf(s),
          ...s.counters,
        }));
      const strikes = Object.fromEntries(datagrams.strikeKinds);
      const queries = a2s.stats();
      const answered = { discovery: discovery.stats().answered, timeSync: time.stats().answered, a2s: Object.values(queries.answered).reduce((a, b) => a + b, 0), a2sChallenges: queries.challenges };
      const watching = new Map(seats.spectators().map((p) => [p.slot, p.name]));
      const spectators = [...fwd.stand.seats.values()].map((s) => ({
        spectator: s.spectator ?? 0,
        name: watching.get(s.spectator ?? -1) ?? '?',
        address: s.address,
        udp: s.udp ? hostPort(unwrapAddress(s.udp.address), s.udp.port) : null,
        pingMs: s.connection.roundTrip.last === undefined ? null : Math.round(s.connection.roundTrip.last * 10) / 10,
        queued: s.outbox.size,
        statesSent: s.counters.statesSent,
        statesPartial: s.counters.statesPartial,
        eventsSent: s.counters.eventsSent,
        datagramsSent: s.counters.datagramsSent,
        bytesSent: s.counters.bytesSent,
      }));
      const watchers = { max: config.maxSpectators, delayS: config.spectatorDelayMs / 1000, held: fwd.stand.held, drops: { ...fwd.stand.drops }, list: spectators };
      return { ...datagrams.totals, drops, answered, eventDrops: { ...fwd.eventDrops }, strikes, kicked, blocks: sources.blocks, blockedNow: sources.blockedNow(clock()), tcp: seats.counters(), clients: clientStats, spectators: watchers, load: loadOf(overload, backlog, buffer, { count: datagrams.serverDrops.get('backlog') ?? 0, longestMs: datagrams.longestShedMs }, config.levelOfDetail) };
    },
    async close(reason = 'server shutting down') {
      if (closing) return;
      closing = true;
      log.info({ reason, players: seats.playerCount() }, 'gameserver closing');
      timers.clearInterval(tick);
      timers.clearInterval(probing);
      timers.clearInterval(buffering);
      await recorder?.close(reason);
      datagrams.close();
      await seats.close(reason);
      for (const slot of [...clients.keys()]) fwd.remove(slot);
      for (const n of [...fwd.stand.seats.keys()]) fwd.removeSpectator(n);
      await udp.close();
    },
  };
}

/**
 * The status JSON's `load`: overloaded or not (its tick late, or its receive queue more than SHED_AGE_MS behind
 * at the 99th percentile), the state rates held (per second, or every state), the tick's lateness, the receive
 * queue's wait as the probes measured it, the receive buffer asked for now, the states shed for waiting and the
 * longest wait of one of those.
 */
function loadOf(o: OverloadWatch, backlog: BacklogProbe, buffer: ReceiveBufferControl, shed: { count: number; longestMs: number }, levelOfDetail: boolean): GameserverStats['load'] {
  const rate = (tier: number): number | 'every' => {
    const every = tierEveryMs(tier, o.slowdown);
    return every === 0 || (!levelOfDetail && tier > 0) ? 'every' : Math.round(10_000 / every) / 10;
  };
  const receiveWaitMs = backlog.waits();
  return {
    overloaded: o.overloaded || receiveWaitMs.p99 > SHED_AGE_MS,
    stateRates: { near: rate(0), mid: rate(1), far: rate(2) },
    tickLateMs: o.lateness(),
    lateTicks: o.lateTicks,
    receiveWaitMs: { ...receiveWaitMs, max: Math.round(backlog.maxWaitMs * 10) / 10 },
    receiveBufferBytes: buffer.bytes,
    receiveBufferCut: buffer.bytes < buffer.full,
    statesShed: shed.count,
    longestShedMs: Math.round(shed.longestMs),
  };
}
