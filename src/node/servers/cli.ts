/**
 * `npm run server -- <masterserver|slotserver|gameserver|netgame> [options]` /
 * `node out/main/server.js`: runs one Starlane server. Prints one line for a
 * person on stdout once it listens; structured logs (pino JSON) go to stderr.
 * SIGINT/SIGTERM shut it down gracefully (leave the masterserver list, say
 * goodbye to clients, close every socket) and exit 0. SIGHUP makes a slot- or
 * gameserver read its ban file again (it also does so by itself when the file
 * changes) and remove the seated players it now bans.
 */
import { hostname } from 'node:os';
import { MAX_SLOTS } from '../../shared/wire/types';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger, type Logger } from '../log';
import { APP_VERSION } from '../version';
import { DEFAULT_MAX_SERVERS_PER_ADDRESS, startMasterserver } from './masterserver';
import { DEFAULT_MAX_PER_ADDRESS } from './joinServer';
import { MasterRegistration, parseHostPort } from './masterClient';
import { startSlotserver, renderSlotserverStatus } from './slotserver';
import { startGameserver } from './gameserver';
import { NETGAME_MAX_PLAYERS, startNetgameServer } from './netgameServer';
import { renderNetgameStatus } from './netgameStatus';
import { MAX_CONTROL_LEAD } from '../../shared/netgame/config';
import { loopbackWarning } from './discoveryResponder';
import { renderGameserverStatus } from './gameserverStatus';
import { GAMESERVER_PORT, GAMESERVER_UDP_PORT, NETGAME_PORT, NETGAME_UDP_PORT, SLOTSERVER_PORT, SLOTSERVER_UDP_PORT } from '../../shared/servers/joinProtocol';
import { MAX_WIRE_SLOTS } from '../../shared/wire/types';
import { startStatusHttp, withProcessStatus, type StatusBody, type StatusHttp } from './statusHttp';
import type { RunningServer } from './types';
import { DEFAULT_HTTP_CAPS, DEFAULT_LINE_CAPS, httpCaps, type ServerLimits } from './connectionLimits';
import { DEFAULT_MASTER_PORT, DEFAULT_MAX_SERVERS, validateServerToken, validateServerUrl } from '../../shared/servers/masterProtocol';
import { MAX_KILL_LIMIT, MAX_TIME_LIMIT_S } from '../../shared/game/match';
import { RULES } from '../../shared/game/rules';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const int = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < lo || n > hi) throw new InvalidArgumentError(`must be an integer from ${lo} to ${hi}`);
  return n;
};
const seconds = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < lo || n > hi) throw new InvalidArgumentError(`must be a number of seconds from ${lo} to ${hi}`);
  return n;
};
const number = (lo: number, hi: number, unit: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < lo || n > hi) throw new InvalidArgumentError(`must be a number of ${unit} from ${lo} to ${hi}`);
  return n;
};
const serverName = (value: string) => {
  const error = validateServerToken(value);
  if (error) throw new InvalidArgumentError(error);
  return value;
};
const masterAddress = (value: string) => {
  if (!parseHostPort(value)) throw new InvalidArgumentError('must be host:port (or [ipv6]:port)');
  return value;
};
const serverUrl = (value: string) => {
  const error = validateServerUrl(value);
  if (error) throw new InvalidArgumentError(error);
  return value;
};
const welcomeLine = (value: string, previous: string[] = []) => {
  if (previous.length >= 4) throw new InvalidArgumentError('at most 4 welcome lines');
  if (Buffer.byteLength(value) > 160 || /[\x00-\x1f\x7f]/.test(value)) throw new InvalidArgumentError('must be at most 160 UTF-8 bytes without control characters');
  return [...previous, value];
};

interface CommonOpts {
  name: string;
  host: string;
  port: number;
  httpPort?: number;
  logLevel: string;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  connectsPerMinute: number;
  lineTimeoutSeconds: number;
  maxUnreadKib: number;
  httpMaxConnections: number;
  httpMaxConnectionsPerAddress: number;
}

/** The connection limits of the common options, as the servers take them. */
function limitsOf(o: CommonOpts): ServerLimits {
  return {
    maxConnections: o.maxConnections,
    maxConnectionsPerAddress: o.maxConnectionsPerAddress,
    connectsPerMinute: o.connectsPerMinute,
    lineTimeoutMs: Math.round(o.lineTimeoutSeconds * 1000),
    maxOutputBytes: o.maxUnreadKib * 1024,
    httpMaxConnections: o.httpMaxConnections,
    httpMaxConnectionsPerAddress: o.httpMaxConnectionsPerAddress,
  };
}

/** The options every server subcommand takes. */
function withCommonOptions(cmd: Command, defaults: { name: string; port: number; nameHelp: string; parseName: (v: string) => string }): Command {
  return cmd
    .option('--name <name>', defaults.nameHelp, defaults.parseName, defaults.name)
    .option('--host <address>', 'address to listen on (TCP, HTTP and UDP; :: = every IPv6 and IPv4 interface)', '0.0.0.0')
    .option('--port <port>', 'TCP port (0 = any free port)', int(0, 65535), defaults.port)
    .option('--http-port <port>', 'HTTP port of the status page (0 = any free port; default: no status page)', int(0, 65535))
    .addOption(new Option('--log-level <level>', 'log level of the JSON logs on stderr').choices(LOG_LEVELS).default(process.env.STARLANE_LOG_LEVEL ?? 'info'))
    .option('--max-connections <n>', 'most TCP connections at once (a quarter kept for addresses holding fewer than 4)', int(1, 1_000_000), DEFAULT_LINE_CAPS.max)
    .option('--max-connections-per-address <n>', 'most TCP connections from one IPv4 address or IPv6 /64', int(1, 1_000_000), DEFAULT_LINE_CAPS.perSource)
    .option('--connects-per-minute <n>', 'new TCP connections one IPv4 address or IPv6 /64 may open per minute (a minute\'s worth may come at once)', int(1, 1_000_000), 30)
    .option('--line-timeout-seconds <s>', 'close a TCP connection that leaves a line unfinished for this long', seconds(0.1, 3600), 10)
    .option('--max-unread-kib <n>', 'close a TCP connection once this many KiB of replies wait unread', int(16, 1_048_576), 256)
    .option('--http-max-connections <n>', 'most status-page connections at once (a quarter kept for addresses holding fewer than 4)', int(1, 1_000_000), DEFAULT_HTTP_CAPS.max)
    .option('--http-max-connections-per-address <n>', 'most status-page connections from one IPv4 address or IPv6 /64', int(1, 1_000_000), DEFAULT_HTTP_CAPS.perSource)
    .showHelpAfterError();
}

/** The one line a person reads: what runs, under which name, on which ports (`tcp N[, udp N][, http N]`). */
function announce(kind: string, name: string, ports: Record<string, number | undefined>): void {
  const udp = ports.udp === undefined ? '' : `, udp ${ports.udp}`;
  const http = ports.http === undefined ? '' : `, http ${ports.http}`;
  process.stdout.write(`${kind} "${name}" listening on tcp ${ports.tcp}${udp}${http}\n`);
}

/** Runs `stop` once on SIGINT/SIGTERM, logs one line, exits 0 (1 if stopping fails or hangs). */
function stopOnSignals(log: Logger, kind: string, stop: (reason: string) => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    // A peer that never reads must not keep a stopping server alive forever.
    setTimeout(() => {
      log.error({ signal }, `${kind} did not stop within 5 s; exiting`);
      process.exit(1);
    }, 5000).unref();
    stop(signal).then(
      () => {
        log.info({ signal, ms: Date.now() - started }, `${kind} stopped`);
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ signal, err }, `${kind} failed to stop cleanly`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

const program = new Command('starlane-server')
  .description('Starlane servers: a masterserver that lists game servers, a slotserver that hands out game slots, a gameserver that relays game packets, and a netgame server (input sync)')
  .version(APP_VERSION)
  .showHelpAfterError();

withCommonOptions(program.command('masterserver').description('list running slot- and gameservers for players (TCP masterserver protocol, HTML/JSON list)'), {
  name: 'starlane-master',
  port: DEFAULT_MASTER_PORT,
  nameHelp: 'name in the page title (1-31 printable ASCII characters, no spaces)',
  parseName: serverName,
})
  .option('--max-servers <n>', 'most servers listed at once', int(1, DEFAULT_MAX_SERVERS), DEFAULT_MAX_SERVERS)
  .option('--max-servers-per-address <n>', 'most servers one host (an IPv4 address or an IPv6 /64) may list at once', int(1, DEFAULT_MAX_SERVERS), DEFAULT_MAX_SERVERS_PER_ADDRESS)
  .addOption(new Option('--expire-seconds <s>', 'drop a server not heard from for this long').argParser(seconds(0.1, 86_400)).default(90).hideHelp())
  .action(async (o: CommonOpts & { maxServers: number; maxServersPerAddress: number; expireSeconds: number }) => {
    const log = createLogger('starlane-masterserver', o.logLevel);
    const server = await startMasterserver({
      name: o.name,
      host: o.host,
      port: o.port,
      httpPort: o.httpPort,
      log,
      maxServers: o.maxServers,
      maxServersPerAddress: o.maxServersPerAddress,
      expireMs: Math.round(o.expireSeconds * 1000),
      limits: limitsOf(o),
    });
    stopOnSignals(log, 'masterserver', (reason) => server.close(reason));
    // SIGHUP re-reads ban files on the other servers; here there is nothing to re-read, and it must not stop the list.
    process.on('SIGHUP', () => log.warn('SIGHUP ignored: the masterserver has nothing to read again'));
    announce('masterserver', o.name, server.ports);
  });

interface SlotOpts extends CommonOpts {
  maxPlayers: number;
  welcome?: string[];
  banFile?: string;
  master?: string;
  url?: string;
  heartbeatSeconds: number;
  joinTimeoutSeconds: number;
  maxPerAddress: number;
  banPollSeconds: number;
}

/** A slot- or gameserver as the shared CLI plumbing sees it. */
interface PlayerServer extends RunningServer {
  readonly maxPlayers: number;
  playerCount(): number;
  reloadBans(why?: string): Promise<void>;
}

/** Checks the masterserver options of a slot- or gameserver command before anything starts. */
function checkMasterOptions(o: SlotOpts, cmd: Command): void {
  if (o.master && !o.url && o.httpPort === undefined) cmd.error('error: --master needs --url (or --http-port, whose status page is then the URL)');
  // The masterserver protocol separates fields by spaces, so a listed name cannot contain one.
  if (o.master && validateServerToken(o.name)) cmd.error(`error: --name with --master: ${validateServerToken(o.name)}`);
}

/**
 * Everything around a running slot- or gameserver: its status page, its
 * masterserver registration (wired to `link` so player changes reach it),
 * graceful shutdown on signals, and the announce line.
 */
async function serveAndRegister(
  o: SlotOpts,
  log: Logger,
  server: PlayerServer,
  type: 'slotserver' | 'gameserver' | 'netgame',
  link: { registration?: MasterRegistration },
  routes: Record<string, () => StatusBody>,
): Promise<void> {
  let status: StatusHttp | undefined;
  if (o.httpPort !== undefined) {
    try {
      status = await startStatusHttp({ port: o.httpPort, host: o.host, routes, caps: httpCaps(limitsOf(o)) });
    } catch (err) {
      await server.close('status page failed');
      throw err;
    }
  }
  if (o.master) {
    // Listening on every interface says nothing about how others reach us; the host name is the best guess.
    const publicHost = o.host === '0.0.0.0' || o.host === '::' ? hostname() : o.host;
    const url = o.url ?? `http://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${status?.port}/`;
    try {
      link.registration = new MasterRegistration({
        master: o.master,
        name: o.name,
        os: `${process.platform}-${process.arch}`,
        maxPlayers: server.maxPlayers,
        url,
        port: server.ports.tcp,
        type,
        log,
        heartbeatMs: Math.round(o.heartbeatSeconds * 1000),
      });
    } catch (err) {
      // Only the default URL (built from the host name) can still be invalid here.
      await Promise.all([server.close('bad masterserver registration'), status?.close()]);
      throw new Error(`--master: ${(err as Error).message} (${url}); pass --url`);
    }
    link.registration.update(server.playerCount(), server.maxPlayers);
    link.registration.start();
  }
  stopOnSignals(log, type, async (reason) => {
    // Leave the list first, so nobody is sent to a server that is going away.
    await link.registration?.stop();
    await server.close(reason);
    await status?.close();
  });
  // SIGHUP: read the ban file again now (an admin's `kill -HUP`; the file is also watched). Not on Windows, which has no SIGHUP to send.
  process.on('SIGHUP', () => {
    if (o.banFile === undefined) log.info('SIGHUP: no --ban-file to read again');
    else void server.reloadBans('SIGHUP');
  });
  const loopback = loopbackWarning(o.host);
  if (loopback) log.warn({ host: o.host }, loopback);
  announce(type, o.name, { ...server.ports, http: status?.port });
}

/** Options of the slot- and gameserver commands beyond the common ones. */
function withPlayerOptions(cmd: Command, maxPlayers: number, maxHelp: string): Command {
  return cmd
    .option('--max-players <n>', maxHelp, int(1, maxPlayers), maxPlayers)
    .option('--welcome <line>', 'a line sent to each player who joins (repeat for up to 4 lines)', welcomeLine)
    .option('--ban-file <path>', 'file of banned IP addresses or CIDR blocks, one per line; read again when it changes and on SIGHUP, and players it bans are removed')
    .addOption(new Option('--ban-poll-seconds <s>', 'how often the ban file is checked for changes').argParser(seconds(0.05, 86_400)).default(1).hideHelp())
    .option('--max-per-address <n>', 'most seats one host (an IPv4 address or an IPv6 /64) may hold; the default lets a LAN party of 8 behind one public address play', int(1, MAX_WIRE_SLOTS), DEFAULT_MAX_PER_ADDRESS)
    .option('--master <host:port>', 'register with this masterserver', masterAddress)
    .option('--url <url>', 'web page about this server, linked from the masterserver list (default: its status page)', serverUrl)
    .addOption(new Option('--heartbeat-seconds <s>', 'how often the player count is re-sent to the masterserver').argParser(seconds(0.05, 3600)).default(30).hideHelp())
    .option('--join-timeout-seconds <s>', 'close a connection that has not joined within this long (half-open and idle connections included)', seconds(0.5, 3600), 30);
}

const SERVER_NAME_HELP = 'server name sent to players and listed by the masterserver (1-31 printable ASCII characters; no spaces with --master)';

withPlayerOptions(
  withCommonOptions(program.command('slotserver').description('hand out game slots to players over TCP (Parsec slotserver protocol)'), {
    name: 'starlane-slots',
    port: SLOTSERVER_PORT,
    nameHelp: SERVER_NAME_HELP,
    // The slotserver checks its own names (spaces allowed inside); --master adds the no-space rule below.
    parseName: (v) => v,
  }),
  // A slotserver game is peer-to-peer, whose slot table holds at most 8 (MAX_SLOTS).
  MAX_SLOTS,
  `number of slots (1-${MAX_SLOTS})`,
)
  .option('--udp-port <port>', `UDP port answering LAN discovery and players' time-sync requests (0 = any free port: the server is then not found on the LAN; with an IPv6 --host such as :: it also joins the udp6 discovery group)`, int(0, 65535), SLOTSERVER_UDP_PORT)
  .option('--silence-seconds <s>', "remove a joined player whose address sent no time-sync request to the UDP port for this long (Starlane clients send one a second; 0 = never)", seconds(0, 86_400), 30)
  .action(async (o: SlotOpts & { udpPort: number; silenceSeconds: number }, cmd: Command) => {
    checkMasterOptions(o, cmd);
    const log = createLogger('starlane-slotserver', o.logLevel);
    const link: { registration?: MasterRegistration } = {};
    const server = await startSlotserver({
      name: o.name,
      host: o.host,
      port: o.port,
      udpPort: o.udpPort,
      // Only the default may move: a port the user asked for is kept or the start fails.
      udpPortFallback: cmd.getOptionValueSource('udpPort') === 'default',
      maxPlayers: o.maxPlayers,
      welcome: o.welcome ?? [],
      banFile: o.banFile,
      banPollMs: Math.round(o.banPollSeconds * 1000),
      maxPerAddress: o.maxPerAddress,
      silenceTimeoutMs: Math.round(o.silenceSeconds * 1000),
      joinTimeoutMs: Math.round(o.joinTimeoutSeconds * 1000),
      limits: limitsOf(o),
      log,
      onPlayersChanged: (count, max) => link.registration?.update(count, max),
    });
    await serveAndRegister(o, log, server, 'slotserver', link, {
      '/': () => ({ type: 'html', body: renderSlotserverStatus(server).html }),
      '/status.json': () => ({ type: 'json', body: withProcessStatus(renderSlotserverStatus(server).json) }),
    });
  });

interface GameOpts extends SlotOpts {
  udpPort: number;
  filterRadius: number;
  tickHz: number;
  flush: 'arrival' | 'tick';
  timeoutSeconds: number;
  udpRate: number;
  strangerRate: number;
  strikeLimit: number;
  killLimit: number;
  timeLimit: number;
}

withPlayerOptions(
  withCommonOptions(program.command('gameserver').description('relay game packets between players over UDP, joined over TCP (Parsec gameserver protocol)'), {
    name: 'starlane-game',
    port: GAMESERVER_PORT,
    nameHelp: SERVER_NAME_HELP,
    parseName: (v) => v,
  }),
  MAX_WIRE_SLOTS,
  `number of slots (1-${MAX_WIRE_SLOTS})`,
)
  .option('--udp-port <port>', 'UDP port for game packets, time sync and LAN discovery (0 = any free port: the server is then not found on the LAN; with an IPv6 --host such as :: it also joins the udp6 discovery group)', int(0, 65535), GAMESERVER_UDP_PORT)
  .option('--filter-radius <units>', 'players farther apart get no state of each other', number(1, 1e6, 'units'), 2000)
  .option('--tick-hz <n>', 'server ticks per second (relays at the latest, pings, timeouts)', number(1, 1000, 'ticks per second'), 20)
  .addOption(new Option('--flush <when>', 'relay right after each burst of game packets (arrival) or only on the tick (fewest datagrams)').choices(['arrival', 'tick']).default('arrival'))
  .option('--timeout-seconds <s>', 'free the seat of a player that sent no game datagram for this long (TCP lines do not count)', seconds(0.1, 3600), 10)
  .option('--udp-rate <n>', 'datagrams per second one source (address and port) may send; more are dropped unread (bursts of twice this pass)', number(10, 100_000, 'datagrams per second'), 200)
  .option('--stranger-rate <n>', 'datagrams per second all sources without a seat may send together (discovery, time sync, joins, floods); more are dropped unread, joined players are served first', number(100, 1_000_000, 'datagrams per second'), 2000)
  .option('--strike-limit <n>', 'strikes for impossible data (speed, teleports, lasers, events a player may not send), fading over 10 s, that drop a player', int(1, 1000), 10)
  .option('--kill-limit <n>', 'kills that win a match, 0 for none (the server keeps the score and runs the match)', int(0, MAX_KILL_LIMIT), RULES.match.killLimit)
  .option('--time-limit <seconds>', 'length of a match in seconds, 0 for none', int(0, MAX_TIME_LIMIT_S), RULES.match.timeLimitS)
  .action(async (o: GameOpts, cmd: Command) => {
    checkMasterOptions(o, cmd);
    const log = createLogger('starlane-gameserver', o.logLevel);
    const link: { registration?: MasterRegistration } = {};
    const server = await startGameserver({
      name: o.name,
      host: o.host,
      port: o.port,
      udpPort: o.udpPort,
      maxPlayers: o.maxPlayers,
      welcome: o.welcome ?? [],
      banFile: o.banFile,
      banPollMs: Math.round(o.banPollSeconds * 1000),
      maxPerAddress: o.maxPerAddress,
      filterRadius: o.filterRadius,
      tickHz: o.tickHz,
      flush: o.flush,
      timeoutMs: Math.round(o.timeoutSeconds * 1000),
      joinTimeoutMs: Math.round(o.joinTimeoutSeconds * 1000),
      limits: limitsOf(o),
      udpRate: o.udpRate,
      strangerRate: o.strangerRate,
      strikeLimit: o.strikeLimit,
      killLimit: o.killLimit,
      timeLimitS: o.timeLimit,
      log,
      onPlayersChanged: (count, max) => link.registration?.update(count, max),
    });
    await serveAndRegister(o, log, server, 'gameserver', link, {
      '/': () => ({ type: 'html', body: renderGameserverStatus(server).html }),
      '/status.json': () => ({ type: 'json', body: renderGameserverStatus(server).json }),
    });
  });

interface NetgameOpts extends SlotOpts {
  udpPort: number;
  controlLead: number;
  serverLead: number;
  diffFrames: number;
  zlibLevel: number;
  timeoutSeconds: number;
  udpRate: number;
}

withPlayerOptions(
  withCommonOptions(program.command('netgame').description("run a netgame (Purple Martians' input sync): joined over TCP like a gameserver, the master moves array and state over UDP"), {
    name: 'starlane-netgame',
    port: NETGAME_PORT,
    nameHelp: SERVER_NAME_HELP,
    parseName: (v) => v,
  }),
  NETGAME_MAX_PLAYERS,
  `number of slots (1-${NETGAME_MAX_PLAYERS})`,
)
  .option('--udp-port <port>', 'UDP port for the netgame messages and LAN discovery (0 = any free port: the server is then not found on the LAN)', int(0, 65535), NETGAME_UDP_PORT)
  .option('--control-lead <frames>', "smallest control lead (the seed's control_lead_frames); each client's grows with its round trip", int(1, MAX_CONTROL_LEAD), 3)
  .option('--server-lead <frames>', "frames clients run behind the server (the seed's server_lead_frames)", int(0, 10), 1)
  .option('--diff-frames <n>', 'frames between two state differences to each client', int(1, 400), 20)
  .option('--zlib-level <n>', "zlib level of state differences (the seed's zlib_cmp)", int(1, 9), 7)
  .option('--timeout-seconds <s>', 'free the seat of a player that sent no datagram for this long', seconds(0.1, 3600), 10)
  .option('--udp-rate <n>', 'datagrams per second one source may send; more are dropped unread', number(10, 100_000, 'datagrams per second'), 200)
  .action(async (o: NetgameOpts, cmd: Command) => {
    checkMasterOptions(o, cmd);
    const log = createLogger('starlane-netgame', o.logLevel);
    const link: { registration?: MasterRegistration } = {};
    const server = await startNetgameServer({
      name: o.name,
      host: o.host,
      port: o.port,
      udpPort: o.udpPort,
      maxPlayers: o.maxPlayers,
      welcome: o.welcome ?? [],
      banFile: o.banFile,
      banPollMs: Math.round(o.banPollSeconds * 1000),
      maxPerAddress: o.maxPerAddress,
      joinTimeoutMs: Math.round(o.joinTimeoutSeconds * 1000),
      limits: limitsOf(o),
      controlLead: o.controlLead,
      serverLead: o.serverLead,
      diffEvery: o.diffFrames,
      zlibLevel: o.zlibLevel,
      timeoutMs: Math.round(o.timeoutSeconds * 1000),
      udpRate: o.udpRate,
      log,
      onPlayersChanged: (count, max) => link.registration?.update(count, max),
    });
    await serveAndRegister(o, log, server, 'netgame', link, {
      '/': () => ({ type: 'html', body: renderNetgameStatus(server).html }),
      '/status.json': () => ({ type: 'json', body: renderNetgameStatus(server).json }),
    });
  });

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`starlane-server: ${(err as Error).message}\n`);
  process.exit(1);
});
