/**
 * A slot- or gameserver's registration with a masterserver: joins over a TCP
 * connection it keeps open, reports the player count on every change and as
 * a heartbeat, and reconnects with backoff whenever the masterserver is down,
 * refuses or drops it. Nothing here throws at the server or crashes it: the
 * masterserver is a convenience, the game runs without it.
 */
import { connect, type Socket } from 'node:net';
import type { Logger } from '../../log';
import {
  DEFAULT_MASTER_PORT,
  ILLEGAL_REQUEST,
  JOIN_ACCEPTED,
  MASTERSERVER_FULL,
  NOT_JOINED,
  PLAYERS_ACKNOWLEDGED,
  FLEET_ACKNOWLEDGED,
  REMOVING_YOU,
  VERSION_INCOMPATIBLE,
  formatJoin,
  formatFleetState,
  formatPlayers,
  formatRemove,
  parseReply,
  type FleetState,
  type MasterServerType,
} from '../../../shared/servers/masterProtocol';
import { formatUniverseRequest, parseUniverseReply, type RouteFound, type SystemLine } from '../../../shared/servers/universeProtocol';
import { proofOf } from './universe';

/** Options of {@link MasterRegistration}. */
export interface MasterRegistrationOptions {
  /** The masterserver as `host:port` (`[v6addr]:port` for IPv6; the port defaults to 6502). */
  master: string;
  /** Server name, OS and URL as listed (validated like the join line: tokens without spaces, http(s) URL). */
  name: string;
  os: string;
  maxPlayers: number;
  url: string;
  /** The TCP port players join on, and the server kind (protocol extension fields). */
  port?: number;
  type?: MasterServerType;
  /** The UDP port that answers discovery requests (1.1 extension field: clients ping the server there). */
  udp?: number;
  log: Logger;
  /** How often the player count is re-sent as a heartbeat (default 30,000 ms: a third of the masterserver's default expiry). */
  heartbeatMs?: number;
  /** First reconnect delay; it doubles per failure up to `maxRetryMs` (defaults 1,000 and 60,000 ms). */
  retryMs?: number;
  maxRetryMs?: number;
  /** A gameserver of a universe (masterserver 1.2, universe.ts): its key, its solar systems, its clock's epoch, and where carried states for it go. */
  universe?: UniverseMembership;
}

/** What a gameserver tells its masterserver of its solar systems and, in a universe, hears from it. */
export interface UniverseMembership {
  /** The universe's key; absent: the server lists its systems but belongs to no universe (never a jump destination). */
  key?: Buffer;
  /** Its solar systems as they stand (players, gates). */
  systems(): SystemLine[];
  /** The wall-clock ms its game clock counts from. */
  epoch: number;
  /** A jumping ship's carried state for this server (ticket `id`): jumpTicket.ts openCarried checks it. */
  carried(id: string, state: string): void;
}

/** Where a solar system is, or why no server of the universe can take the jump. */
export type RouteAnswer = ({ ok: true } & Omit<RouteFound, 'ref'>) | { ok: false; why: string };

/** How long a route or a carry waits for the masterserver's answer (ms). */
const UNIVERSE_ANSWER_MS = 3000;

/** Where a registration is: not started, connecting/awaiting the join reply, listed, or stopped. */
export type RegistrationState = 'idle' | 'joining' | 'joined' | 'waiting' | 'stopped';

/** Splits `host:port` / `[v6]:port` / `host`; undefined if the port is not 1..65535 or the host is empty. */
export function parseHostPort(text: string, defaultPort = DEFAULT_MASTER_PORT): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\](?::([0-9]+))?$/.exec(text) ?? /^([^:[\]]+)(?::([0-9]+))?$/.exec(text);
  if (!m?.[1]) return undefined;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? { host: m[1], port } : undefined;
}

const MAX_REPLY_BUFFER = 4096;
const JOIN_REPLY_TIMEOUT_MS = 10_000;
const REMOVE_WAIT_MS = 1000;

/**
 * Registers one server with one masterserver. The constructor validates the
 * join line (and throws on a bad name, URL, etc., which is a configuration
 * error); after that no method throws.
 */
export class MasterRegistration {
  private readonly target: { host: string; port: number };
  private readonly joinLine: string;
  private readonly log: Logger;
  private readonly heartbeatMs: number;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;
  private players = 0;
  private maxPlayers: number;
  private socket: Socket | undefined;
  private current: RegistrationState = 'idle';
  private failures = 0;
  private readonly universe: UniverseMembership | undefined;
  private readonly serverName: string;
  private readonly serverPort: number | null;
  /** Whether the masterserver took this server's proof of the universe key. */
  private memberNow = false;
  private nextRef = 1;
  private readonly routes = new Map<number, { done: (a: RouteAnswer) => void; timer: NodeJS.Timeout }>();
  private readonly carries = new Map<string, { done: (why: string | null) => void; timer: NodeJS.Timeout }>();
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private joinTimer: NodeJS.Timeout | undefined;
  private onReply: ((reply: string) => void) | undefined;
  private lastReplyAt = 0;
  /** Its state in an orchestrator's fleet (`--agones`), told after every join; null: not in one. */
  private fleet: FleetState | null = null;
  /** Fleet state lines not answered yet: a masterserver before 1.3 refuses them, which is no reason to warn. */
  private fleetUnanswered = 0;

  constructor(options: MasterRegistrationOptions) {
    const target = parseHostPort(options.master);
    if (!target) throw new RangeError(`master: "${options.master}" is not host:port`);
    this.target = target;
    this.joinLine = formatJoin(options);
    this.maxPlayers = options.maxPlayers;
    this.log = options.log.child({ master: options.master });
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
    this.retryMs = options.retryMs ?? 1000;
    this.maxRetryMs = options.maxRetryMs ?? 60_000;
    this.universe = options.universe;
    this.serverName = options.name;
    this.serverPort = options.port ?? null;
  }

  /** Whether the masterserver counts this server a member of its universe (it proved the key). */
  get member(): boolean {
    return this.memberNow;
  }

  /** Asks the masterserver where solar system `system` is. Never rejects: no masterserver, no answer in time, or a refusal are answers with a reason. */
  route(system: string): Promise<RouteAnswer> {
    if (this.current !== 'joined') return Promise.resolve({ ok: false, why: 'the masterserver is not reachable' });
    const ref = this.nextRef++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done({ ok: false, why: 'the masterserver did not answer' }), UNIVERSE_ANSWER_MS);
      const done = (a: RouteAnswer) => {
        clearTimeout(timer);
        this.routes.delete(ref);
        resolve(a);
      };
      this.routes.set(ref, { done, timer });
      this.write(formatUniverseRequest({ kind: 'route', ref, system }));
    });
  }

  /** Hands ticket `id`'s sealed carried state to server `to` through the masterserver: null once forwarded, else why not. */
  carry(id: string, to: string, state: string): Promise<string | null> {
    if (this.current !== 'joined') return Promise.resolve('the masterserver is not reachable');
    return new Promise((resolve) => {
      const timer = setTimeout(() => done('the masterserver did not answer'), UNIVERSE_ANSWER_MS);
      const done = (why: string | null) => {
        clearTimeout(timer);
        this.carries.delete(id);
        resolve(why);
      };
      this.carries.set(id, { done, timer });
      this.write(formatUniverseRequest({ kind: 'carry', id, to, state }));
    });
  }

  /** Records where the orchestrator has this server (Agones: Ready, Reserved, Allocated) and tells the masterserver at once if listed. */
  fleetState(state: FleetState): void {
    this.fleet = state;
    if (this.current === 'joined') this.sendFleet();
  }

  private sendFleet(): void {
    if (this.fleet === null) return;
    this.fleetUnanswered += 1;
    this.write(formatFleetState(this.fleet));
  }

  /** Sends the solar systems' lines again (their players changed). */
  systemsChanged(): void {
    if (this.current === 'joined') this.sendSystems();
  }

  private sendSystems(): void {
    const u = this.universe;
    if (!u) return;
    for (const sys of u.systems()) this.write(formatUniverseRequest({ kind: 'system', ...sys }));
  }

  /** A universe line from the masterserver: handled (true) or not one (false). */
  private universeLine(line: string): boolean {
    const r = parseUniverseReply(line.trim());
    if (!r) return false;
    const u = this.universe;
    switch (r.kind) {
      case 'challenge':
        // Only a server of a universe answers; one without the key stays listed, never a destination.
        if (u?.key) this.write(formatUniverseRequest({ kind: 'proof', proof: proofOf(u.key, r.nonce, this.serverName, this.serverPort) }));
        return true;
      case 'member':
        this.memberNow = true;
        this.log.info('the masterserver took the universe key: this server is a jump destination');
        return true;
      case 'proof-refused':
        this.memberNow = false;
        this.log.error('the masterserver refused this server\'s universe key: it stays listed but is never a jump destination (is its key file the universe\'s?)');
        return true;
      case 'route':
        this.routes.get(r.ref)?.done({ ok: true, host: r.host, port: r.port, server: r.server, epoch: r.epoch });
        return true;
      case 'route-refused':
        this.routes.get(r.ref)?.done({ ok: false, why: r.why });
        return true;
      case 'carry':
        u?.carried(r.id, r.state);
        return true;
      case 'carry-forwarded':
        this.carries.get(r.id)?.done(null);
        return true;
      case 'carry-refused':
        this.carries.get(r.id)?.done(r.why);
        return true;
      case 'acknowledged':
        return true;
    }
  }

  /** Every route and carry waiting for an answer gets `why` (the connection is gone). */
  private failPending(why: string): void {
    for (const r of [...this.routes.values()]) r.done({ ok: false, why });
    for (const c of [...this.carries.values()]) c.done(why);
  }

  /** Where the registration is now. */
  get state(): RegistrationState {
    return this.current;
  }

  /** Connects and joins; on failure keeps retrying in the background. Calling it again does nothing. */
  start(): void {
    if (this.current !== 'idle') return;
    this.connect();
  }

  /** Records the player count (and optionally a new maximum) and sends it at once if listed. */
  update(players: number, maxPlayers = this.maxPlayers): void {
    const max = Number.isInteger(maxPlayers) && maxPlayers >= 1 && maxPlayers <= 256 ? maxPlayers : this.maxPlayers;
    // A bad count from the caller is clamped rather than thrown: the list being a little off beats a crash.
    this.maxPlayers = max;
    this.players = Number.isInteger(players) ? Math.min(Math.max(players, 0), max) : 0;
    if (this.current === 'joined') this.sendPlayers();
  }

  /** Says `remove me`, waits briefly for `removing you`, and closes; no reconnects afterwards. Never rejects. */
  async stop(): Promise<void> {
    if (this.current === 'stopped') return;
    // Also while a join is in flight: the masterserver answers in order, so `remove me` undoes it.
    const listed = this.current === 'joined' || this.current === 'joining';
    this.current = 'stopped';
    this.clearTimers();
    this.failPending('the server is stopping');
    const socket = this.socket;
    if (!socket) return;
    if (listed && socket.writable && !socket.connecting) {
      const confirmed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), REMOVE_WAIT_MS);
        const done = (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        };
        this.onReply = (reply) => {
          if (reply === REMOVING_YOU || reply === NOT_JOINED) done(true);
        };
        socket.once('close', () => done(false));
        this.write(formatRemove());
      });
      if (confirmed) this.log.debug('removed from the masterserver');
      else this.log.warn('masterserver did not confirm the removal; it will expire the entry');
    }
    this.onReply = undefined;
    socket.destroy();
    this.socket = undefined;
  }

  private connect(): void {
    this.current = 'joining';
    const socket = connect({ host: this.target.host, port: this.target.port });
    this.socket = socket;
    let buffer = '';
    let why = 'connection closed';
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    socket.on('connect', () => this.sendJoin(socket));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0 && this.socket === socket) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        this.handle(line, socket);
      }
      if (buffer.length > MAX_REPLY_BUFFER) {
        why = 'reply line too long';
        socket.destroy();
      }
    });
    socket.on('error', (err) => {
      why = err.message;
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.clearTimers();
      this.memberNow = false;
      this.fleetUnanswered = 0;
      this.failPending('the masterserver connection was lost');
      if (this.current === 'stopped') return;
      const wasJoined = this.current === 'joined';
      this.current = 'waiting';
      const delay = this.nextDelay();
      if (wasJoined || this.failures === 1) this.log.warn({ why, retryInMs: delay }, 'masterserver connection lost; will retry');
      else this.log.debug({ why, retryInMs: delay }, 'masterserver still unreachable');
      this.retryTimer = setTimeout(() => this.connect(), delay);
      this.retryTimer.unref();
    });
  }

  private handle(line: string, socket: Socket): void {
    const reply = parseReply(line);
    this.lastReplyAt = Date.now();
    this.onReply?.(line.trim());
    if (this.current === 'stopped') return;
    if (reply === undefined && this.universeLine(line)) return;
    if (this.current === 'joining') {
      // An acknowledgement of a heartbeat (or a fleet state) sent before a re-join is stale, not a problem.
      if (reply === PLAYERS_ACKNOWLEDGED || reply === FLEET_ACKNOWLEDGED) return;
      if (reply === JOIN_ACCEPTED) {
        clearTimeout(this.joinTimer);
        this.current = 'joined';
        this.failures = 0;
        this.log.info({ players: this.players, maxPlayers: this.maxPlayers }, 'listed by the masterserver');
        this.sendPlayers();
        this.sendFleet();
        if (this.universe) {
          this.write(formatUniverseRequest({ kind: 'clock', epoch: this.universe.epoch }));
          this.sendSystems();
        }
        this.heartbeat = setInterval(() => this.beat(socket), this.heartbeatMs);
        this.heartbeat.unref();
      } else if (reply === MASTERSERVER_FULL || reply === VERSION_INCOMPATIBLE || reply === ILLEGAL_REQUEST) {
        this.log.error({ reply, joinLine: this.joinLine }, 'masterserver refused the join; will retry later');
        socket.destroy();
      } else {
        this.log.warn({ line: line.slice(0, 200) }, 'unexpected masterserver reply to join');
      }
      return;
    }
    if (reply === PLAYERS_ACKNOWLEDGED) return;
    if (reply === FLEET_ACKNOWLEDGED) {
      this.fleetUnanswered = Math.max(0, this.fleetUnanswered - 1);
      return;
    }
    if (reply === ILLEGAL_REQUEST && this.fleetUnanswered > 0) {
      // The one line it could refuse: a masterserver before 1.3 lists the server as before, without its fleet state.
      this.fleetUnanswered -= 1;
      this.log.info({ fleet: this.fleet }, 'the masterserver does not take fleet state lines (it is older than 1.3); it lists this server without it');
      return;
    }
    if (reply === NOT_JOINED) {
      // The masterserver lost our entry (it expired or was replaced): join again on this connection.
      this.log.warn('masterserver no longer lists this server; joining again');
      clearInterval(this.heartbeat);
      this.current = 'joining';
      this.sendJoin(socket);
    } else {
      this.log.warn({ line: line.slice(0, 200) }, 'unexpected masterserver reply');
    }
  }

  private sendJoin(socket: Socket): void {
    this.write(this.joinLine);
    // A masterserver that accepts the connection but never answers is as good as down.
    clearTimeout(this.joinTimer);
    this.joinTimer = setTimeout(() => {
      this.log.warn('no reply to the join line; reconnecting');
      socket.destroy();
    }, JOIN_REPLY_TIMEOUT_MS);
  }

  /** Heartbeat; a masterserver that stopped answering (its host died, a link broke) gets a fresh connection. */
  private beat(socket: Socket): void {
    if (Date.now() - this.lastReplyAt > 3 * this.heartbeatMs) {
      this.log.warn({ silentMs: Date.now() - this.lastReplyAt }, 'masterserver stopped answering; reconnecting');
      socket.destroy();
      return;
    }
    this.sendPlayers();
  }

  private sendPlayers(): void {
    this.write(formatPlayers(this.players, this.maxPlayers));
  }

  private write(line: string): void {
    if (this.socket?.writable) this.socket.write(`${line}\n`);
  }

  /** Exponential backoff with ±20 % jitter, so servers restarted together do not reconnect in lockstep. */
  private nextDelay(): number {
    this.failures += 1;
    const base = Math.min(this.maxRetryMs, this.retryMs * 2 ** Math.min(this.failures - 1, 20));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private clearTimers(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.joinTimer);
    clearInterval(this.heartbeat);
  }
}
