/**
 * The netgame server's status page and its JSON twin (statusHttp.ts): the
 * server's frame, the match of its master state (time left, limits, each
 * player's kills and deaths), each player's control lead, round trip, how far behind the
 * server it runs (and whether the sync gate has activated it yet), its
 * control changes (late ones and refused ones) and the
 * size of its last state difference, and the datagrams dropped by reason.
 * Every client-sent string reaches the HTML only through statusPage's
 * escaping.
 */
import { statusPage } from '../../../shared/servers/html';
import type { RunningNetgameServer } from './netgameServer';
import { duration } from '../common/playerAddress';
import { processStatus } from '../common/statusHttp';
import { serverMatch } from '../common/matchStatus';
import { recordingLine } from '../common/matchRecorder';

/** JSON: `{ name, maxPlayers, udpPort, frame, datagramsIn, drops, match (matchStatus.ts), players: [{ slot, name, address, udp, os, joinedForSeconds, kills, deaths, controlLead, rttMs, serverSync, active, controlChanges, lateChanges, refused, lastDiff }], spectators: { max, list: [{ spectator, name, udp, serverSync, datagramsSent, bytesSent }] }, recording (null, or as the gameserver's), memory, cpu, uptimeSeconds }`. */
export function renderNetgameStatus(server: RunningNetgameServer, now = Date.now()): { html: string; json: string } {
  const stats = server.stats();
  const match = serverMatch(server.match());
  const bySlot = new Map(stats.clients.map((c) => [c.slot, c]));
  const players = server.players().map((p) => {
    const c = bySlot.get(p.slot);
    return {
      slot: p.slot,
      name: p.name,
      address: p.address,
      udp: c?.udp ?? null,
      os: p.os,
      joinedForSeconds: Math.max(0, Math.floor((now - p.joinedAt) / 1000)),
      ...match.scoreOf(p.slot),
      controlLead: c?.controlLead ?? null,
      rttMs: c?.rttMs ?? null,
      serverSync: c?.serverSync ?? null,
      active: c?.active ?? false,
      controlChanges: c?.controlChanges ?? 0,
      lateChanges: c?.lateChanges ?? 0,
      refused: c?.refused ?? 0,
      lastDiff: c?.lastDiff ?? null,
    };
  });
  const recording = recordingLine(server.recording());
  const drops = Object.entries(stats.drops).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  const html = statusPage(
    `Starlane netgame server: ${server.name}`,
    [`${players.length} of ${server.maxPlayers} slots taken. UDP port ${server.ports.udp}. Frame ${stats.frame}.`, match.line, ...(recording === null ? [] : [recording]), spectatorsLine(stats.spectators), `In: ${stats.datagramsIn} datagrams. Dropped datagrams: ${drops}.`],
    ['slot', 'name', 'kills', 'deaths', 'plays from', 'ping', 'frames behind', 'control lead', 'changes (late, refused)', 'last state difference', 'joined for'],
    players.map((p) => [
      String(p.slot),
      p.name,
      String(p.kills),
      String(p.deaths),
      p.udp ?? `${p.address} (no datagram yet)`,
      p.rttMs === null ? '-' : `${p.rttMs} ms`,
      `${p.serverSync === null ? '-' : String(p.serverSync)}${p.active ? '' : ' (joining)'}`,
      p.controlLead === null ? '-' : `${p.controlLead} frames`,
      `${p.controlChanges} (${p.lateChanges}, ${p.refused})`,
      p.lastDiff ? `${p.lastDiff.packed} B in ${p.lastDiff.chunks} datagrams (${p.lastDiff.raw} B unpacked)` : '-',
      duration(p.joinedForSeconds * 1000),
    ]),
  );
  const json = JSON.stringify({ name: server.name, maxPlayers: server.maxPlayers, udpPort: server.ports.udp, frame: stats.frame, datagramsIn: stats.datagramsIn, drops: stats.drops, match: match.json, players, spectators: stats.spectators, recording: server.recording(), ...processStatus() });
  return { html, json };
}

/** The page's line on spectators: how many of how many seats, and each one with its endpoint, how far behind it runs and what it was sent. */
function spectatorsLine(w: ReturnType<RunningNetgameServer['stats']>['spectators']): string {
  if (w.max === 0) return 'Spectators: none allowed (--max-spectators 0).';
  const each = w.list.map((s) => `${s.name} (${s.udp ?? 'no game packet yet'}, ${s.serverSync === null ? 'syncing' : `${s.serverSync} frames behind`}, ${s.datagramsSent} datagrams sent)`);
  return `Spectators: ${w.list.length} of ${w.max} seats${each.length > 0 ? `: ${each.join(', ')}` : ''}.`;
}
