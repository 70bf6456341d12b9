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
import { PacketType } from '../../../shared/wire/types';
import { APP_VERSION } from '../../version';
import { DiscoveryResponder } from '../common/discoveryResponder';
import { OverloadWatch } from './overload';
import { BacklogProbe, PROBE_EVERY_MS, ReceiveBufferControl, SHED_AGE_MS } from './receiveBacklog';
import { tierEveryMs } from './levelOfDetail';
import { GalaxyRooms, JUMP_COOLDOWN_MS } from './galaxyRooms';
import type { SystemRoom } from './systemRoom';
import type { ClientSeat } from './seat';
import { UniverseDoor } from './universeDoor';
import { RULES } from '../../../shared/game/rules';
import { defaultGalaxy } from '../../../shared/servers/galaxyMap';
import { GameDatagrams } from './gameDatagrams';
import { resolveGameserverOptions, type Gameserver, type GameserverOptions, type GameserverStats } from './gameserverOptions';
import { startJoinServer } from '../join/joinServer';
import type { JoinServer } from '../join/joinOptions';
import { unwrapAddress } from '../common/lineServer';
import { hostPort } from '../common/playerAddress';
import { ServerUdp } from '../common/serverUdp';
import { SourceGuard } from '../common/strikes';
import { ServerTimeService } from '../common/timeService';
import { MAX_WIRE_SLOTS } from '../../../shared/wire/types';
import { A2sResponder } from '../common/a2sResponder';
import { a2sInfo, A2S_MAP } from '../common/a2sInfo';
import { serverMatch } from '../common/matchStatus';
import { WIRE_VERSION } from '../../../shared/wire/types';

/** How long a ship that went through a gate to another server waits for the masterserver's route before it may go through a gate again (ms). */
const DEPARTURE_WAIT_MS = 5000;

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
  /** The join server, once it listens (the hooks below run only after that). */
  let seats: JoinServer | undefined;
  // The galaxy's solar systems, each its own arena, match and interest space (galaxyRooms.ts, systemRoom.ts).
  const galaxy = options.galaxy ?? defaultGalaxy(name);
  const rooms: GalaxyRooms = new GalaxyRooms(galaxy, {
    forwarding: { radius: config.radius, outdatedMs: config.outdatedMs, budget, queueCap: config.queueCap, levelOfDetail: config.levelOfDetail, spectatorDelayMs: config.spectatorDelayMs },
    match: { killLimit: options.killLimit, timeLimitS: options.timeLimitS },
    maxPlayers,
    grantAmmo: (slot, missiles, mines) => datagrams.rules.grantAmmo(slot, missiles, mines),
    playersIn: (room) => (seats ? seats.players().filter((p) => rooms.roomOfSlot(p.slot) === room).map((p) => ({ slot: p.slot, name: p.name })) : []),
    ...(options.record ? { record: { dir: options.record.dir, keep: options.record.keep, serverName: name, server: `${options.host ?? '0.0.0.0'}:${options.port ?? GAMESERVER_PORT}`, log, timers } } : {}),
    log,
    now: clock(),
    clock,
    nameOf: (slot) => seats?.players().find((p) => p.slot === slot)?.name ?? `slot ${slot}`,
    jumped(s, from, to, arrival, before) {
      log.info({ slot: s.slot, player: seats?.players().find((p) => p.slot === s.slot)?.name, from: from.name, to: to.name, at: arrival.pos }, 'player jumped');
      // The spectators watch the first system: they hear the player come or go when its jump leaves or enters it.
      seats?.regroup(s.slot, before, `jumped to ${to.name}`, `still in ${from.name}`, new Set(from === rooms.first ? rooms.spectators.keys() : []));
    },
    elsewhere: (s, from, to) => departure(s, from, to),
  });
  // The wall-clock ms the game clock counts from: the servers of a universe share the wall clock as their time reference.
  const epoch = Date.now() - clock();
  /** Jumps to and from the other servers of the universe (universeDoor.ts); null: not in one. */
  /** The join port players reach (the masterserver lists it, a universe's tickets name it): the mapped one, else the bound one. */
  const announcedTcp = (): number => options.announce?.tcp ?? seats?.port ?? 0;
  const door = options.universe
    ? new UniverseDoor({ key: options.universe.key, link: options.universe.link, self: () => `${name}:${announcedTcp()}`, epoch, hosts: (system) => rooms.hosts(system), log })
    : null;
  /** `s` flew through the gate from `from` to `to`, a system this server does not host: to the server of the universe that has it, or refused. */
  const departure = (s: ClientSeat, from: SystemRoom, to: string): void => {
    const player = seats?.players().find((p) => p.slot === s.slot)?.name ?? `slot ${s.slot}`;
    const refuse = (why: string, text: string) => {
      rooms.jumps.refused += 1;
      s.jumpReadyAt = clock() + JUMP_COOLDOWN_MS;
      log.info({ slot: s.slot, player, from: from.name, to, why }, 'jump refused');
      from.fwd.sayToSeat(s, { type: 'sendText', text }, clock());
    };
    if (!door) return refuse('no server has that solar system', `The stargate to ${to} leads nowhere: no server has that solar system.`);
    // No second departure while this one is on its way.
    s.jumpReadyAt = clock() + DEPARTURE_WAIT_MS;
    const state = s.header?.state;
    const vel = state?.vel ?? { x: 0, y: 0, z: 0 };
    const ammo = datagrams.rules.ammoOf(s.slot) ?? { missiles: RULES.missile.startAmmo, mines: RULES.mine.startAmmo };
    const career = rooms.careerOf(s.slot);
    const carried = {
      from: from.name,
      energy: Math.min(100, Math.max(0, state?.energy ?? 100)),
      damage: Math.min(100, Math.max(0, state?.damage ?? 0)),
      missiles: Math.min(255, ammo.missiles),
      mines: Math.min(255, ammo.mines),
      speed: Math.min(10_000, Math.sqrt(vel.x * vel.x + vel.y * vel.y + vel.z * vel.z)),
      career: { ...career, jumps: career.jumps + 1 },
    };
    void door.depart(player, to, carried).then((r) => {
      if (!rooms.seated(s)) return;
      if (!r.ok) return refuse(r.why, `The stargate to ${to} is closed: ${r.why}.`);
      rooms.jumpedAway(s.slot);
      log.info({ slot: s.slot, player, from: from.name, to, server: `${r.order.host}:${r.order.port}`, carried }, 'player jumping to another server');
      rooms.forwarderOf(s).sayToSeat(s, { type: 'jumpTicket', ...r.order, clockShift: r.order.clockShift >>> 0 }, clock());
      // At once, not at the next tick: the ship is in the ring.
      datagrams.flushSoon();
    });
  };
  let closing = false;
  let kicked = 0;

  // The same packet API code as the clients' (udp, or udp6 for an IPv6 host).
  const recvBufferBytes = options.recvBufferBytes ?? 4 * 1024 * 1024;
  const udp = await ServerUdp.bind(options.host ?? '0.0.0.0', options.udpPort ?? GAMESERVER_UDP_PORT, 'gameserver', { recvBufferBytes });
  for (const warning of udp.warnings()) log.warn(warning);
  const udpPort = udp.port;
  // What players are told to send to (the join reply's udp:): the mapped port behind a NAT or container runtime, else the bound one.
  const announcedUdp = options.announce?.udp ?? udpPort;
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
        const now = clock();
        const matches = new Map(rooms.rooms.map((r) => [r, serverMatch(r.referee.announcement(now))]));
        return (seats?.players() ?? []).map((p) => {
          const room = rooms.roomOfSlot(p.slot);
          return { name: p.name, score: (room ? matches.get(room)?.scoreOf(p.slot).kills : 0) ?? 0, seconds: Math.max(0, (Date.now() - p.joinedAt) / 1000) };
        });
      },
      rules: () => {
        const m = rooms.first.referee.announcement(clock());
        return [
          ['protocol', 'gameserver'],
          ['version', APP_VERSION],
          ['wire', String(WIRE_VERSION)],
          ['join', `tcp ${seats?.port ?? 0}`],
          ['kill_limit', String(m.killLimit)],
          ['time_limit', String(m.timeLimitS)],
          ['filter_radius', String(config.radius)],
          ['tick_hz', String(config.tickHz)],
          ['spectators', `${rooms.spectators.size}/${config.maxSpectators}`],
          ['galaxy', galaxy.name],
          ['systems', rooms.rooms.map((r) => r.name).join(',')],
          ['spectator_delay', String(config.spectatorDelayMs / 1000)],
        ];
      },
    },
  });
  const datagrams: GameDatagrams = new GameDatagrams({
    udp,
    rooms,
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
      const player = seats?.players().find((p) => p.slot === s.slot);
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
      for (const s of rooms.players()) s.inputAge.probed(backlog.lastSent);
      return;
    }
    if (now - lastTickAt >= STALL_MS) dropSilent?.(now);
    datagrams.onDatagram(msg, from);
  });
  const probing = timers.setInterval(() => udp.send(self, backlog.probe(clock())), PROBE_EVERY_MS);
  // A server that stays behind bounds its queue by its receive buffer, and gets it back once calm (receiveBacklog.ts).
  const buffer = new ReceiveBufferControl(recvBufferBytes, (bytes) => udp.setReceiveBuffer(bytes));
  const buffering = timers.setInterval(() => buffer.second(backlog.takeLongest(clock())), 1000);
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
        joined(player, ticket) {
          // It has a good token now: whatever it sent without one before no longer counts against it.
          sources.unblockAddress(player.address);
          // Through a stargate from another server: into that system with what it carried (the door let its ticket in).
          const arriving = ticket === undefined ? null : (door?.take(player.name) ?? null);
          const now = clock();
          // The newcomer hears its solar system, the match and the arena at once; everyone else the scores at the next tick.
          const c = arriving?.carried;
          const s = rooms.add(player.slot, player.name, player.address, () => randomInt(0, 0x1_0000_0000), now, arriving && c ? { system: arriving.system, from: c.from, speed: c.speed, career: c.career } : undefined);
          if (arriving && c) {
            datagrams.rules.arrivedWith(s, c.missiles, c.mines, now);
            log.info({ slot: player.slot, player: player.name, system: arriving.system, from: c.from, carried: c }, 'player arrived through a stargate');
          }
          return { udp: announcedUdp, token: s.token };
        },
        ...(door ? { admit: (ticket: string, who: string, address: string) => door.admit(ticket, who, address) } : {}),
        left: (player) => rooms.remove(player.slot),
        // A spectator (spectatorStand.ts): a seat apart, told the system, the match and the arena as a newcomer is, deciding nothing.
        spectatorJoined(spectator) {
          const s = rooms.addSpectator(spectator.slot, spectator.address, () => randomInt(0, 0x1_0000_0000), clock());
          return { udp: announcedUdp, token: s.token };
        },
        spectatorLeft: (spectator) => rooms.removeSpectator(spectator.slot),
        // Players see the players of their own solar system.
        together: (a, b) => rooms.together(a, b),
        watches: (_n, slot) => rooms.watched(slot),
      },
    });
  } catch (err) {
    // Nothing is left open: the probes' timers stop with the socket.
    timers.clearInterval(probing);
    timers.clearInterval(buffering);
    await udp.close();
    await Promise.all(rooms.rooms.map((r) => r.recorder?.close('the server did not start')));
    throw err;
  }
  const joinServer = seats;

  /** Drops a player's seat (the others told `othersRead`, if given) or a spectator's, telling it why. */
  const dropSeat = (s: { slot: number; spectator: number | null }, why: string, othersRead?: string): void => {
    if (s.spectator !== null) joinServer.kickSpectator(s.spectator, why, true);
    else joinServer.kick(s.slot, why, true, othersRead);
  };
  let lastPing = clock();
  dropSilent = (now) => {
    lastTickAt = now;
    for (const s of [...rooms.everySeat()]) {
      // A new seat proves its endpoint with a first datagram with its token (the game sends at once), or it is freed and its host struck.
      if (s.udp === null && config.proveUdpMs > 0 && now - s.lastHeard > config.proveUdpMs) {
        const why = `no game datagram with your token within ${Math.round(config.proveUdpMs / 1000)} s of joining`;
        log.info({ slot: s.slot, spectator: s.spectator ?? undefined, address: s.address }, 'player removed: no game datagram with its token after the join');
        if (s.spectator === null) joinServer.unproved(s.slot, why);
        else joinServer.kickSpectator(s.spectator, why, true);
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
    rooms.slowdown = overload.slowdown;
    dropSilent?.(now);
    for (const s of [...rooms.everySeat()]) {
      const unacked = s.link.check(now);
      if (unacked) {
        log.warn({ slot: s.slot, spectator: s.spectator ?? undefined, address: s.address, reason: unacked }, 'player dropped: stopped acknowledging reliable messages');
        dropSeat(s, `stopped acknowledging reliable messages (${unacked})`);
      }
    }
    datagrams.pruneEndpoints();
    const ping = now - lastPing >= pingEvery;
    if (ping) lastPing = now;
    for (const s of rooms.everySeat()) {
      s.budget = budget;
      if (ping && s.udp) {
        datagrams.send(s, { header: datagrams.header(s, PacketType.Ping, s.connection.roundTrip.ping(now)), events: [] });
      }
    }
    rooms.tick(now);
    datagrams.flushAll();
  }, 1000 / config.tickHz);

  log.info({ port: joinServer.port, udp: udpPort, ...(options.announce ? { announced: options.announce } : {}), server: name, galaxy: galaxy.name, systems: rooms.rooms.map((r) => r.name), maxPlayers, radius: config.radius, levelOfDetail: config.levelOfDetail, tickHz: config.tickHz, flush: config.flushOnArrival ? 'arrival' : 'tick', gatherMs: config.flushOnArrival ? config.gatherMs : null }, 'gameserver listening');

  return {
    kind: 'gameserver',
    name,
    maxPlayers,
    ports: { tcp: joinServer.port, udp: udpPort },
    announced: { tcp: announcedTcp(), udp: announcedUdp },
    playerCount: () => joinServer.playerCount(),
    players: () => joinServer.players(),
    reloadBans: (why) => joinServer.reloadBans(why),
    match: () => rooms.first.referee.announcement(clock()),
    recording: () => rooms.first.recorder?.status() ?? null,
    galaxy: galaxy.name,
    systems: () => rooms.census(clock()),
    epoch,
    carried: (id, state) => door?.carried(id, state),
    universe: () => (door ? { ...door.counters, ticketsRefused: { ...door.counters.ticketsRefused } } : null),
    stats() {
      const named = new Map(joinServer.players().map((p) => [p.slot, p.name]));
      const drops: Record<string, number> = { ...datagrams.codecDrops.snapshot(), ...Object.fromEntries(datagrams.serverDrops) };
      const clientStats = [...rooms.players()]
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
          system: rooms.roomOf(s).name,
          career: rooms.careerOf(s.slot),
          ...s.counters,
        }));
      const strikes = Object.fromEntries(datagrams.strikeKinds);
      const queries = a2s.stats();
      const answered = { discovery: discovery.stats().answered, timeSync: time.stats().answered, a2s: Object.values(queries.answered).reduce((a, b) => a + b, 0), a2sChallenges: queries.challenges };
      const watching = new Map(joinServer.spectators().map((p) => [p.slot, p.name]));
      const spectators = [...rooms.spectators.values()].map((s) => ({
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
      const stand = rooms.first.fwd.stand;
      const watchers = { max: config.maxSpectators, delayS: config.spectatorDelayMs / 1000, held: stand.held, drops: { ...stand.drops }, list: spectators };
      const eventDrops = { outdated: 0, overflow: 0, foreign: 0, farPickup: 0, spectator: 0 };
      for (const r of rooms.rooms) for (const k of Object.keys(eventDrops) as (keyof typeof eventDrops)[]) eventDrops[k] += r.fwd.eventDrops[k];
      return { ...datagrams.totals, drops, answered, eventDrops, jumps: { ...rooms.jumps }, strikes, kicked, blocks: sources.blocks, blockedNow: sources.blockedNow(clock()), tcp: joinServer.counters(), clients: clientStats, spectators: watchers, load: loadOf(overload, backlog, buffer, { count: datagrams.serverDrops.get('backlog') ?? 0, longestMs: datagrams.longestShedMs }, config.levelOfDetail) };
    },
    async close(reason = 'server shutting down') {
      if (closing) return;
      closing = true;
      log.info({ reason, players: joinServer.playerCount() }, 'gameserver closing');
      timers.clearInterval(tick);
      timers.clearInterval(probing);
      timers.clearInterval(buffering);
      await Promise.all(rooms.rooms.map((r) => r.recorder?.close(reason)));
      datagrams.close();
      await joinServer.close(reason);
      for (const s of [...rooms.players()]) rooms.remove(s.slot);
      for (const n of [...rooms.spectators.keys()]) rooms.removeSpectator(n);
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
