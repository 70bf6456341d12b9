/**
 * The gameserver's status page and its JSON twin, served by the CLI through
 * statusHttp.ts: the match it runs (time left, limits, each player's kills
 * and deaths), players with their endpoints, ping and traffic, server
 * totals, drops by reason, and the process's CPU time. Every client-sent
 * string reaches the HTML only through statusPage's escaping.
 */
import { statusPage } from '../../../shared/servers/html';
import { formatEndpoint } from '../../../shared/servers/joinFields';
import type { EventDrops } from './forwarder';
import type { Gameserver } from './gameserver';
import type { GameserverStats } from './gameserverOptions';
import { duration } from '../common/playerAddress';
import { gameserverPlaysFrom } from '../common/playerAddress';
import { processStatus } from '../common/statusHttp';
import { serverMatch } from '../common/matchStatus';
import { recordingLine } from '../common/matchRecorder';

/** The recording's line, when the server records its matches. */
const recordingLines = (server: Gameserver): string[] => {
  const line = recordingLine(server.recording());
  return line === null ? [] : [line];
};

/**
 * Renders the page and the JSON. JSON: `{ name, maxPlayers, udpPort,
 * match: { decidedBy, round, phase, killLimit, timeLimitSeconds, secondsLeft } (matchStatus.ts; the first solar system's),
 * galaxy: { name, systems: [{ name, players, gates: [{ to, local }], match }], jumps: { made, refused } } (galaxyRooms.ts),
 * players: [{ slot, name, system, address, port, endpoint, playsFrom, via, udp, os, joinedAt,
 * joinedForSeconds, kills, deaths, pingMs, packetsIn, bytesIn, statesSent, statesPartial, statesFiltered, statesThinned,
 * eventsSent, eventsFiltered, datagramsSent, bytesSent, queued, strikes }],
 * packetsIn, bytesIn, packetsOut, bytesOut, nodeAlive, drops, eventDrops,
 * strikes, kicked, blocks, blockedNow, tcp, load: { overloaded, stateRates: { near, mid, far },
 * tickLateMs: { p50, p99 }, lateTicks (overload.ts), receiveWaitMs: { p50, p99, max }, receiveBufferBytes,
 * receiveBufferCut, statesShed, longestShedMs (receiveBacklog.ts) }, spectators: { max, delayS, held, drops: { overflow,
 * outdated }, list: [{ spectator, name, address, udp, pingMs, queued, statesSent, statesPartial, eventsSent,
 * datagramsSent, bytesSent }] } (spectatorStand.ts), recording: null | { dir, file, files,
 * failed, keep } (--record: common/matchRecorder.ts), universe: null | { jumpsOut, refusedOut, arrivals,
 * ticketsRefused: { <reason>: n }, carriesRefused } (universeDoor.ts), memory: { rss, heapUsed },
 * cpu: { userMs, systemMs }, uptimeSeconds }`.
 */
export function renderGameserverStatus(server: Gameserver, now = Date.now()): { html: string; json: string } {
  const stats = server.stats();
  const match = serverMatch(server.match());
  const systems = server.systems();
  // Each solar system runs its own match: a player's score is its system's.
  const matches = new Map(systems.map((s) => [s.name, serverMatch(s.match)]));
  const bySlot = new Map(stats.clients.map((c) => [c.slot, c]));
  const players = server.players().map((p) => {
    const c = bySlot.get(p.slot);
    return {
      slot: p.slot,
      name: p.name,
      system: c?.system ?? systems[0]?.name ?? '',
      address: p.address,
      port: p.port,
      endpoint: formatEndpoint({ address: p.address, port: p.port }),
      // Where it plays from, port always written: its UDP endpoint, or its TCP connection until the first datagram.
      ...gameserverPlaysFrom(p, c?.udpEndpoint ?? null),
      udp: c?.udp ?? null,
      os: p.os,
      joinedAt: new Date(p.joinedAt).toISOString(),
      joinedForSeconds: Math.max(0, Math.floor((now - p.joinedAt) / 1000)),
      ...(matches.get(c?.system ?? '') ?? match).scoreOf(p.slot),
      pingMs: c?.pingMs ?? null,
      packetsIn: c?.packetsIn ?? 0,
      bytesIn: c?.bytesIn ?? 0,
      statesSent: c?.statesSent ?? 0,
      statesPartial: c?.statesPartial ?? 0,
      statesFiltered: c?.statesFiltered ?? 0,
      statesThinned: c?.statesThinned ?? 0,
      eventsSent: c?.eventsSent ?? 0,
      eventsFiltered: c?.eventsFiltered ?? 0,
      datagramsSent: c?.datagramsSent ?? 0,
      bytesSent: c?.bytesSent ?? 0,
      queued: c?.queued ?? 0,
      strikes: c?.strikes ?? 0,
      career: c?.career ?? { kills: 0, deaths: 0, jumps: 0 },
      joinedMs: now - p.joinedAt,
    };
  });
  const dropText = (d: Readonly<Record<string, number>> | EventDrops) =>
    Object.entries(d)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  const html = statusPage(
    `Starlane gameserver: ${server.name}`,
    [
      `${players.length} of ${server.maxPlayers} slots taken. UDP port ${server.ports.udp}.`,
      ...galaxyLines(server.galaxy, systems, stats.jumps),
      systems.length > 1 ? `${systems[0]?.name ?? ''}: ${match.line}` : match.line,
      ...recordingLines(server),
      spectatorsLine(stats.spectators),
      loadLine(stats.load),
      `In: ${stats.packetsIn} datagrams (${stats.nodeAlive} node-alive, not forwarded). Out: ${stats.packetsOut} datagrams. ` +
        `Dropped datagrams: ${dropText(stats.drops)}. Dropped events: ${dropText(stats.eventDrops)}. ` +
        `Strikes: ${dropText(stats.strikes)}; players dropped for bad data: ${stats.kicked}; sources blocked: ${stats.blockedNow} now, ${stats.blocks} since start. ` +
        `TCP connections closed or refused: ${dropText(stats.tcp)}.`,
    ],
    // A galaxy of several systems says which one each player is in.
    ['slot', 'name', ...(systems.length > 1 ? ['system'] : []), 'kills', 'deaths', 'plays from', 'OS', 'ping', 'in', 'out', 'states sent / filtered', 'joined for'],
    players.map((p) => [
      String(p.slot),
      p.name,
      ...(systems.length > 1 ? [p.system] : []),
      String(p.kills),
      String(p.deaths),
      p.via === 'udp' ? p.playsFrom : `${p.playsFrom} (tcp; no game packet yet)`,
      p.os,
      p.pingMs === null ? '-' : `${p.pingMs} ms`,
      String(p.packetsIn),
      `${p.datagramsSent} (${p.bytesSent} B)`,
      `${p.statesSent} / ${p.statesFiltered}`,
      duration(p.joinedMs),
    ]),
  );
  const json = JSON.stringify({
    name: server.name,
    maxPlayers: server.maxPlayers,
    udpPort: server.ports.udp,
    match: match.json,
    galaxy: { name: server.galaxy, systems: systems.map((s) => ({ name: s.name, players: s.players, gates: s.gates, match: serverMatch(s.match).json })), jumps: stats.jumps },
    players: players.map(({ joinedMs: _joinedMs, ...p }) => p),
    packetsIn: stats.packetsIn,
    bytesIn: stats.bytesIn,
    packetsOut: stats.packetsOut,
    bytesOut: stats.bytesOut,
    nodeAlive: stats.nodeAlive,
    drops: stats.drops,
    answered: stats.answered,
    eventDrops: stats.eventDrops,
    strikes: stats.strikes,
    kicked: stats.kicked,
    blocks: stats.blocks,
    blockedNow: stats.blockedNow,
    tcp: stats.tcp,
    load: stats.load,
    spectators: stats.spectators,
    recording: server.recording(),
    universe: server.universe(),
    ...processStatus(),
  });
  return { html, json };
}

/** The page's line on the galaxy: its solar systems, the players in each, where their gates lead (a system of another server marked so), and the jumps made. */
function galaxyLines(name: string, systems: ReturnType<Gameserver['systems']>, jumps: GameserverStats['jumps']): string[] {
  if (systems.length === 1 && (systems[0]?.gates.length ?? 0) === 0) return [];
  const each = systems.map((s) => {
    const gates = s.gates.map((g) => (g.local ? g.to : `${g.to} (not on this server)`));
    return `${s.name} (${s.players} player${s.players === 1 ? '' : 's'}${gates.length > 0 ? `; gates to ${gates.join(', ')}` : ''})`;
  });
  return [`Galaxy ${name}: ${each.join('; ')}. Jumps: ${jumps.made} made, ${jumps.refused} refused.`];
}

/** The page's line on spectators: how many of how many seats, the delay, and each one with its endpoint, ping and what it was sent. */
function spectatorsLine(w: GameserverStats['spectators']): string {
  if (w.max === 0) return 'Spectators: none allowed (--max-spectators 0).';
  const delay = w.delayS > 0 ? `they see the game ${w.delayS} s late` : 'they see the game as it happens';
  const each = w.list.map((s) => `${s.name} (${s.udp ?? `${s.address}, no game packet yet`}, ${s.pingMs === null ? 'no ping yet' : `ping ${s.pingMs} ms`}, ${s.statesSent} states in ${s.datagramsSent} datagrams)`);
  return `Spectators: ${w.list.length} of ${w.max} seats; ${delay}${each.length > 0 ? `: ${each.join(', ')}` : ''}.`;
}

/** The page's line on load: overloaded or not, the state rates held, the tick's lateness, the receive queue's wait and the states shed for it. */
function loadLine(load: GameserverStats['load']): string {
  const rate = (r: number | 'every') => (r === 'every' ? 'every state' : `${r} states a second`);
  const rates = `near players: ${rate(load.stateRates.near)}; mid: ${rate(load.stateRates.mid)}; far: ${rate(load.stateRates.far)}`;
  const w = load.receiveWaitMs;
  const shed = load.statesShed > 0 ? `; ${load.statesShed} states shed for waiting too long (up to ${load.longestShedMs} ms)` : '';
  const tick = `tick late p50 ${load.tickLateMs.p50} ms, p99 ${load.tickLateMs.p99} ms over the last minute; datagrams waited to be read p50 ${w.p50} ms, p99 ${w.p99} ms (longest ${w.max} ms)${load.receiveBufferCut ? `, receive buffer cut to ${Math.round(load.receiveBufferBytes / 1024)} KiB to keep it short` : ''}${shed}`;
  return load.overloaded ? `Overloaded: state rates lowered, far players' first (${rates}); ${tick}.` : `Load: keeping up (${rates}); ${tick}.`;
}
