/**
 * The Starlane masterserver: slot- and gameservers keep a TCP connection to
 * it and announce themselves with the masterserver protocol
 * (`src/shared/servers/masterProtocol.ts`); it keeps the list and shows it
 * over HTTP as an HTML page and as JSON for game clients.
 *
 * An entry lives until its server says `remove me`, goes silent for
 * `expireMs`, or its TCP connection closes: the list shows only servers that
 * hold a connection, so registrations cannot outlive whoever made them (a
 * server whose connection blips re-joins over a new one). One host (an IPv4
 * address or an IPv6 /64, addressKey.ts) may hold at most
 * `maxServersPerAddress` entries (default 8), so a few addresses cannot fill
 * the list; a join beyond that gets `masterserver full`.
 *
 * Bad lines are strikes (strikes.ts): a connection that has not joined is
 * closed after MAX_INVALID of them, a joined one once its strikes (fading over
 * a minute) reach the limit, and an address whose connections keep sending
 * them loses its unjoined connections at the first bad line. `list servers`
 * is rate limited per address, since every request costs a whole list.
 * Closes are logged with their reason, at most once a minute per address.
 */
import { httpCaps, lineLimits } from '../common/connectionLimits';
import { startLineServer, type LineConnection } from '../common/lineServer';
import { processStatus, startStatusHttp, type StatusHttp } from '../common/statusHttp';
import { addressKey } from '../common/addressKey';
import { LogThrottle, StrikeBook, StrikeCounter } from '../common/strikes';
import { RateLimiter } from '../../../shared/util/rateLimit';
import { systemClock } from '../../../shared/time/clock';
import type { CommonServerOptions, RunningServer } from '../common/types';
import { linkOrText, statusPage } from '../../../shared/servers/html';
import { Universe, type UniverseSeat, type UniverseSystem } from './universe';
import {
  DEFAULT_MAX_SERVERS,
  JOIN_ACCEPTED,
  MASTERSERVER_FULL,
  NOT_JOINED,
  PLAYERS_ACKNOWLEDGED,
  FLEET_ACKNOWLEDGED,
  REMOVING_YOU,
  parseRequest,
  resolveServerUrl,
  LIST_SERVERS,
  END_OF_LIST,
  formatListedServer,
  type JoinRequest,
  type MasterServerType,
  type FleetState,
} from '../../../shared/servers/masterProtocol';

/** Options of {@link startMasterserver}. */
export interface MasterserverOptions extends CommonServerOptions {
  /** TCP port for the masterserver protocol (6502 by convention; 0 = any free port). */
  port: number;
  /** Most servers listed at once (default 256); further joins get `masterserver full`. */
  maxServers?: number;
  /** Most entries one host (IPv4 address or IPv6 /64) may hold (default {@link DEFAULT_MAX_SERVERS_PER_ADDRESS}). */
  maxServersPerAddress?: number;
  /** A server not heard from (no line at all) for this long is dropped from the list (default 90,000 ms). */
  expireMs?: number;
  /** The universe's key (`--universe-key`, universeKey.ts): with it the masterserver routes jumps between the servers that prove it (universe.ts). */
  universeKey?: Buffer;
}

/** One listed server (a snapshot; changing it changes nothing). */
export interface MasterEntry {
  name: string;
  os: string;
  /** Protocol version of its join line, e.g. `1.0`. */
  version: string;
  players: number;
  maxPlayers: number;
  /** The page the list links to: the join line's url, its host the connection's address when that was `0.0.0.0` or `[::]`. */
  url: string;
  /** The remote IP of the connection it joined over. */
  address: string;
  /** Its TCP join port (extension field), or null if it did not say. */
  port: number | null;
  /** `slotserver` / `gameserver` / `netgame` (extension field), or null if it did not say. */
  type: MasterServerType | null;
  /** The UDP port it answers discovery requests on (1.1 extension field), or null if it did not say. */
  udp: number | null;
  /** Where its orchestrator has it (`fleet state:`, 1.3: ready, reserved, allocated), or null if it never said. */
  fleet: FleetState | null;
  /** When it joined and when it last sent a line, in ms on the server's clock (only differences mean anything). */
  joinedAt: number;
  lastHeard: number;
  /** Whether its TCP connection is still open (always true: an entry goes with its connection). */
  connected: boolean;
}

/** A running masterserver: {@link RunningServer} plus the current list and the universe's solar systems. */
export type Masterserver = RunningServer & { servers(): MasterEntry[]; universe(): UniverseSystem[] };

interface Entry extends MasterEntry {
  conn: LineConnection | undefined;
  /** What the universe knows of it (universe.ts). */
  uni: UniverseSeat;
}

/** Entries one host may hold by default: a machine running several slot- and gameservers fits. */
export const DEFAULT_MAX_SERVERS_PER_ADDRESS = 8;

/** Bad lines a connection that has not joined may send before it is closed. */
const MAX_INVALID = 5;
/** A joined server's bad lines, fading over a minute, that close its connection (its entry then expires unless it re-joins). */
const JOINED_STRIKES = { limit: 10, windowMs: 60_000 };
/** Bad lines from one address over all its connections, fading over a minute. */
const ADDRESS_STRIKES = { limit: 20, windowMs: 60_000 };

/** `host:port` with IPv6 addresses bracketed; just the host when the port is unknown. */
function hostPort(address: string, port: number | null): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return port === null ? host : `${host}:${port}`;
}

/**
 * Starts a masterserver on `options.port` (and a status page on
 * `options.httpPort` when given); resolves once both listen.
 * Routes: `/` (HTML list) and `/servers.json`.
 */
export async function startMasterserver(options: MasterserverOptions): Promise<Masterserver> {
  const { log } = options;
  const maxServers = options.maxServers ?? DEFAULT_MAX_SERVERS;
  const perAddress = options.maxServersPerAddress ?? DEFAULT_MAX_SERVERS_PER_ADDRESS;
  if (!Number.isInteger(perAddress) || perAddress < 1) throw new Error('masterserver: maxServersPerAddress must be an integer ≥ 1');
  const expireMs = options.expireMs ?? 90_000;
  const clock = options.clock ?? systemClock;
  const entries = new Set<Entry>();
  const universe = new Universe(options.universeKey ?? null, () => [...entries].map((e) => e.uni), log);
  /** The universe's view of an entry: its id as tickets name it, its address, and its connection to send on. */
  const seatOf = (e: Entry): UniverseSeat => ({
    id: () => `${e.name}:${e.port ?? '?'}`,
    address: () => e.address,
    port: () => e.port,
    send: (line) => e.conn?.send(line),
    challenge: null,
    member: false,
    systems: new Map(),
    epoch: null,
  });
  const entryOf = (conn: LineConnection) => conn.state as Entry | undefined;
  const logged = (e: Entry) => ({ server: e.name, address: e.address, port: e.port, type: e.type });
  // Per-connection bad-line counts live beside the connection (its `state` is the entry).
  const invalidLines = new WeakMap<LineConnection, { lines: number; strikes?: StrikeCounter }>();
  const addressStrikes = new StrikeBook(ADDRESS_STRIKES);
  const listRequests = new RateLimiter({ perSecond: 2, burst: 10, maxKeys: 4096 });
  const counts = new Map<string, number>();
  const logs = new LogThrottle(60_000);
  /** Tallies `reason` and logs it for `address` at most once a minute. */
  const note = (address: string, reason: string, fields: object, msg: string) => {
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
    const due = logs.due(`${reason} ${address}`, clock.now());
    if (due) log.warn({ address, reason, heldBack: due.suppressed, ...fields }, msg);
  };
  // Routine lines (joins, re-joins, removes, a full list) have their own ration, per address, reason and server name:
  // a join/remove loop on one connection must not become a line per line, nor crowd out the warnings above.
  const routineLogs = new LogThrottle(60_000);
  const routine = (level: 'info' | 'warn', address: string, server: string, fields: object, msg: string) => {
    const due = routineLogs.due(`${msg} ${address} ${server}`, clock.now());
    if (due) log[level]({ ...fields, heldBack: due.suppressed }, msg);
  };
  /** A bad line on `conn`: strikes for it and its address; closes it when they run out (else `reply` is sent). */
  const badLine = (conn: LineConnection, reply: string | null, what: string, now: number) => {
    const st = invalidLines.get(conn) ?? { lines: 0 };
    invalidLines.set(conn, st);
    st.lines += 1;
    const overAddress = addressStrikes.add(conn.address, 'invalid-request', what, now);
    let why: string | null = null;
    if (entryOf(conn)) {
      st.strikes ??= new StrikeCounter(JOINED_STRIKES);
      why = st.strikes.add('invalid-request', what, now);
    } else if (st.lines >= MAX_INVALID || overAddress) {
      why = overAddress ?? `${st.lines} invalid lines on one connection`;
    }
    if (!why) {
      if (reply !== null) conn.send(reply);
      return;
    }
    note(conn.address, 'invalid-requests', { server: entryOf(conn)?.name, why }, 'connection closed: repeated invalid requests');
    conn.close(reply ?? undefined);
  };

  const join = (conn: LineConnection, req: JoinRequest, now: number) => {
    const fields = {
      name: req.name,
      os: req.os,
      version: `${req.version.major}.${req.version.minor}`,
      players: 0,
      maxPlayers: req.maxPlayers,
      // A server on every interface registers its page at 0.0.0.0: the list links it at the address it joined from.
      url: resolveServerUrl(req.url, conn.address),
      address: conn.address,
      port: req.port ?? null,
      type: req.type ?? null,
      udp: req.udp ?? null,
      // A server in a fleet says its state again after every join.
      fleet: null,
      lastHeard: now,
      connected: true,
      conn,
    };
    // The same connection joining again, or the same server (address, name, port) back over a new connection
    // after its old one died: replace the entry rather than listing it twice or counting it against the limit.
    const old = entryOf(conn) ?? [...entries].find((e) => e.address === conn.address && e.name === req.name && e.port === fields.port);
    if (old) {
      if (old.conn && old.conn !== conn) old.conn.state = undefined;
      Object.assign(old, fields);
      old.uni = seatOf(old);
      conn.state = old;
      routine('info', conn.address, req.name, logged(old), 'server re-joined; entry replaced');
      conn.send(JOIN_ACCEPTED);
      return universe.joined(old.uni);
    }
    if (entries.size >= maxServers) {
      routine('warn', conn.address, req.name, { server: req.name, address: conn.address, limit: maxServers }, 'list full; join refused');
      return conn.send(MASTERSERVER_FULL);
    }
    const host = addressKey(conn.address);
    if ([...entries].filter((e) => addressKey(e.address) === host).length >= perAddress) {
      note(conn.address, 'address-full', { server: req.name, limit: perAddress }, 'this address holds its share of the list; join refused');
      return conn.send(MASTERSERVER_FULL);
    }
    const entry = { ...fields, joinedAt: now } as Entry;
    entry.uni = seatOf(entry);
    entries.add(entry);
    conn.state = entry;
    routine('info', conn.address, req.name, { ...logged(entry), maxPlayers: entry.maxPlayers, os: entry.os, url: entry.url }, 'server joined');
    conn.send(JOIN_ACCEPTED);
    universe.joined(entry.uni);
  };

  const lines = await startLineServer(
    {
      line(conn, line) {
        const now = clock.now();
        const entry = entryOf(conn);
        // Any line at all shows the server is alive.
        if (entry) entry.lastHeard = now;
        if (line === LIST_SERVERS) {
          // A request costs a whole list: asked faster than any client needs, it is ignored and counted against the asker.
          if (!listRequests.allow(conn.address, now)) return badLine(conn, null, 'list servers too often', now);
          // Game clients ask for the list (Starlane extension); servers never need it.
          for (const e of entries) conn.send(formatListedServer({ name: e.name, type: e.type, host: e.address, port: e.port, players: e.players, maxPlayers: e.maxPlayers, udp: e.udp, systems: [...e.uni.systems.values()].map((sys) => sys.name) }));
          return conn.send(END_OF_LIST);
        }
        // The universe's lines (masterserver 1.2) from a joined server: systems, proofs, routes, carried states.
        if (entry && universe.line(entry.uni, entry.name, line)) return;
        const req = parseRequest(line);
        if (!req.ok) {
          log.debug({ address: conn.address, error: req.error, reply: req.reply }, 'request refused');
          return badLine(conn, req.reply, req.error, now);
        }
        const msg = req.value;
        if (msg.kind === 'join') return join(conn, msg, now);
        if (!entry) return conn.send(NOT_JOINED);
        if (msg.kind === 'players') {
          entry.players = msg.players;
          entry.maxPlayers = msg.maxPlayers;
          return conn.send(PLAYERS_ACKNOWLEDGED);
        }
        if (msg.kind === 'fleet') {
          if (entry.fleet !== msg.state) routine('info', conn.address, entry.name, { ...logged(entry), fleet: msg.state }, 'server fleet state');
          entry.fleet = msg.state;
          return conn.send(FLEET_ACKNOWLEDGED);
        }
        entries.delete(entry);
        conn.state = undefined;
        routine('info', conn.address, entry.name, logged(entry), 'server removed itself');
        conn.send(REMOVING_YOU);
      },
      close(conn, reason) {
        const entry = entryOf(conn);
        if (!entry) return;
        entries.delete(entry);
        entry.conn = undefined;
        entry.connected = false;
        log.info({ ...logged(entry), reason }, 'connection lost without remove; entry dropped');
      },
    },
    // Idle connections outlive an entry's expiry slightly, so a silent server expires before its socket is cut.
    {
      ...lineLimits(options.limits),
      port: options.port,
      host: options.host,
      idleMs: expireMs + 1000,
      count: (reason, address) => {
        if (reason === 'socket-error' || reason === 'idle-timeout') counts.set(reason, (counts.get(reason) ?? 0) + 1);
        else note(address ?? '?', reason, {}, 'connection closed or refused by the line server');
      },
    },
  );

  const sweep = clock.setInterval(() => {
    const now = clock.now();
    for (const e of entries) {
      if (now - e.lastHeard < expireMs) continue;
      entries.delete(e);
      if (e.conn) {
        e.conn.state = undefined;
        e.conn.close();
      }
      log.info({ ...logged(e), silentMs: now - e.lastHeard }, 'server expired');
    }
  }, Math.min(1000, Math.max(25, expireMs / 4)));

  const snapshot = (): MasterEntry[] => [...entries].map(({ conn: _conn, uni: _uni, ...e }) => ({ ...e }));
  let http: StatusHttp | undefined;
  try {
    if (options.httpPort !== undefined) {
      http = await startStatusHttp({
        port: options.httpPort,
        host: options.host,
        caps: httpCaps(options.limits),
        routes: {
          '/': () => ({ type: 'html', body: renderHtml(options.name, snapshot(), universe.routing ? universe.systems() : null) }),
          '/universe.json': () => ({ type: 'json', body: JSON.stringify({ routing: universe.routing, systems: universe.systems(), counters: universe.counters }) }),
          '/servers.json': () => ({ type: 'json', body: renderJson(snapshot(), clock.now()) }),
          // For admins and tests: how the server itself is doing (the list stays as game clients expect it).
          '/status.json': () => ({ type: 'json', body: JSON.stringify({ name: options.name, listed: entries.size, connections: lines.connections().length, closed: Object.fromEntries(counts), ...processStatus() }) }),
        },
      });
    }
  } catch (err) {
    clock.clearInterval(sweep);
    await lines.close();
    throw err;
  }

  const ports: Record<string, number> = { tcp: lines.port };
  if (http) ports.http = http.port;
  let closing: Promise<void> | undefined;
  return {
    kind: 'masterserver',
    ports,
    servers: snapshot,
    universe: () => universe.systems(),
    close: (reason = 'close') => {
      closing ??= (async () => {
        clock.clearInterval(sweep);
        await Promise.all([lines.close(), http?.close()]);
        log.debug({ reason, listed: entries.size }, 'masterserver closed');
        entries.clear();
      })();
      return closing;
    },
  };
}

/**
 * The HTML list page: every listed server with its player count as `n/max` and a link to its URL; with a
 * universe (`systems` not null), its solar systems below: server, players, where each gate leads, a
 * destination no member of the universe hosts marked unreachable.
 */
export function renderHtml(title: string, servers: readonly MasterEntry[], systems: readonly UniverseSystem[] | null = null): string {
  const rows = servers.map((s) => [
    s.name,
    `${s.players}/${s.maxPlayers}`,
    s.fleet === null ? (s.type ?? '—') : `${s.type ?? '—'} (${s.fleet})`,
    hostPort(s.address, s.port),
    s.os,
    { html: linkOrText(s.url) },
  ]);
  const intro = `${servers.length} server${servers.length === 1 ? '' : 's'} listed. Join one with its address and port.`;
  const list = statusPage(`${title} — Starlane masterserver`, intro, ['name', 'players', 'type', 'address', 'OS', 'URL'], rows);
  if (systems === null) return list;
  const universe = statusPage(
    `The universe`,
    `${systems.length} solar system${systems.length === 1 ? '' : 's'} on ${new Set(systems.map((s) => s.server)).size} server(s). A jump goes only to a server that proved the universe's key.`,
    ['solar system', 'server', 'in the universe', 'players', 'stargates to'],
    systems.map((s) => [s.name, s.server, s.member ? 'yes' : 'no (never a destination)', String(s.players), s.gates.map((g) => (g.reachable ? g.to : `${g.to} (unreachable)`)).join(', ') || '—']),
  );
  // The second page's body goes after the first's table.
  const body = /<body>([\s\S]*)<\/body>/.exec(universe)?.[1] ?? '';
  return list.replace('</body>', `${body}</body>`);
}

/** The JSON list `{ servers: [{ name, players, maxPlayers, type, host, port, udp, fleet, os, url, lastHeardMs }] }`; lastHeardMs is the age of the last line, fleet null unless the server said one. */
export function renderJson(servers: readonly MasterEntry[], now: number): string {
  return JSON.stringify({
    servers: servers.map((s) => ({
      name: s.name,
      players: s.players,
      maxPlayers: s.maxPlayers,
      type: s.type,
      host: s.address,
      port: s.port,
      udp: s.udp,
      fleet: s.fleet,
      os: s.os,
      url: s.url,
      lastHeardMs: Math.max(0, now - s.lastHeard),
    })),
  });
}
