/**
 * The slotserver (Parsec §2.3.2): hands out player slots over TCP and keeps
 * every joined client's list of the others up to date, so peer-to-peer games
 * can start across networks where broadcast discovery cannot reach. Game
 * packets never touch it; it only knows who is joined, from where, and which
 * UDP port they play on (the `port:` extension in joinProtocol.ts). The join
 * handling (and the choices the 1998 text leaves open) lives in joinServer.ts,
 * shared with the gameserver.
 */
import { MAX_SLOTS } from '../../shared/wire/types';
import { statusPage } from '../../shared/servers/html';
import { formatEndpoint } from '../../shared/servers/joinProtocol';
import { duration, startJoinServer, type SeatedPlayer } from './joinServer';
import type { CommonServerOptions, RunningServer } from './types';

/** Options of {@link startSlotserver}. */
export interface SlotserverOptions extends CommonServerOptions {
  /** TCP port (default 6582 in the CLI); 0 = any free port. */
  port: number;
  /** Slots 0..maxPlayers-1 (1..MAX_SLOTS: a slotserver game is peer-to-peer, whose slot table holds 8; the CLI's default is 8). */
  maxPlayers: number;
  /** Up to four message lines sent after every accepted join; fewer are padded with empty lines. */
  welcome: string[];
  /** Ban file (see banList.ts); read once at start. */
  banFile?: string;
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
}

/**
 * Starts a slotserver; resolves once it listens. Rejects on a bad option
 * (server name, message lines, player count), an unreadable ban file or a
 * port in use. Invalid ban-file lines are logged as warnings, not fatal.
 */
export async function startSlotserver(options: SlotserverOptions): Promise<Slotserver> {
  const { log, name, maxPlayers } = options;
  const seats = await startJoinServer({ ...options, kind: 'slotserver', slotLimit: MAX_SLOTS });
  // `server`, not `name`: pino's own `name` field is the logger's.
  log.info({ port: seats.port, server: name, maxPlayers }, 'slotserver listening');
  let closing = false;
  return {
    kind: 'slotserver',
    name,
    maxPlayers,
    ports: { tcp: seats.port },
    playerCount: () => seats.playerCount(),
    players: () => seats.players(),
    async close(reason = 'server shutting down') {
      if (closing) return;
      closing = true;
      log.info({ reason, players: seats.playerCount() }, 'slotserver closing');
      await seats.close();
    },
  };
}

/**
 * The status page (Parsec's HTML player list) and its JSON twin. Every string
 * a client sent reaches the HTML only through statusPage's escaping; the JSON
 * carries them verbatim (serve it as application/json).
 * JSON: `{ name, players: [{ slot, name, address, port, endpoint, os, joinedAt (ISO), joinedForSeconds }], maxPlayers }`.
 */
export function renderSlotserverStatus(server: Slotserver, now = Date.now()): { html: string; json: string } {
  const players = server.players();
  const endpoint = (p: SlotPlayer) => formatEndpoint({ address: p.address, port: p.port });
  const html = statusPage(
    `Starlane slotserver: ${server.name}`,
    `${players.length} of ${server.maxPlayers} slots taken.`,
    ['slot', 'name', 'address', 'OS', 'joined for'],
    players.map((p) => [String(p.slot), p.name, endpoint(p), p.os, duration(now - p.joinedAt)]),
  );
  const json = JSON.stringify({
    name: server.name,
    players: players.map((p) => ({
      slot: p.slot,
      name: p.name,
      address: p.address,
      port: p.port,
      endpoint: endpoint(p),
      os: p.os,
      joinedAt: new Date(p.joinedAt).toISOString(),
      joinedForSeconds: Math.max(0, Math.floor((now - p.joinedAt) / 1000)),
    })),
    maxPlayers: server.maxPlayers,
  });
  return { html, json };
}
