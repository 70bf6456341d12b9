/**
 * What the slot-, game- and netgame server commands share (cli.ts): their
 * options beyond the common ones, the masterserver checks, and everything
 * around a running server — status page, masterserver registration,
 * graceful shutdown, SIGHUP, the announce line.
 */
import { Command, Option } from 'commander';
import type { Logger } from '../log';
import { DEFAULT_MAX_PER_ADDRESS, DEFAULT_PROVE_UDP_MS } from './join/joinOptions';
import { MasterRegistration, type UniverseMembership } from './master/masterClient';
import { loopbackWarning } from './common/discoveryResponder';
import { MAX_WIRE_SLOTS } from '../../shared/wire/types';
import { startStatusHttp, type StatusBody, type StatusHttp } from './common/statusHttp';
import type { RunningServer } from './common/types';
import { httpCaps } from './common/connectionLimits';
import { validateServerToken } from '../../shared/servers/masterProtocol';
import { announce, int, limitsOf, masterAddress, publicHost, seconds, serverUrl, stopOnSignals, welcomeLine, type CommonOpts } from './cliOptions';

export interface SlotOpts extends CommonOpts {
  maxPlayers: number;
  welcome?: string[];
  banFile?: string;
  master?: string;
  url?: string;
  publicHost?: string;
  heartbeatSeconds: number;
  joinTimeoutSeconds: number;
  /** Undefined: the server's own default (gameserver 8; slot- and netgame servers --max-players − 1). */
  maxPerAddress?: number;
  proveUdpSeconds: number;
  banPollSeconds: number;
}

/** A slot- or gameserver as the shared CLI plumbing sees it. */
export interface PlayerServer extends RunningServer {
  readonly maxPlayers: number;
  playerCount(): number;
  reloadBans(why?: string): Promise<void>;
}

/** Checks the masterserver options of a slot- or gameserver command before anything starts. */
export function checkMasterOptions(o: SlotOpts, cmd: Command): void {
  if (o.master && !o.url && o.httpPort === undefined) cmd.error('error: --master needs --url (or --http-port, whose status page is then the URL)');
  // The masterserver protocol separates fields by spaces, so a listed name cannot contain one.
  if (o.master && validateServerToken(o.name)) cmd.error(`error: --name with --master: ${validateServerToken(o.name)}`);
  if (o.publicHost !== undefined && !o.master) cmd.error('error: --public-host names the status page the masterserver links to: it needs --master');
}

/**
 * The page the masterserver lists for this server: `--url`, else its status
 * page at `--public-host`, at the address it listens on, or — listening on
 * every interface, which says nothing about how others reach it — at
 * `0.0.0.0`, which the masterserver replaces with the address it sees the
 * server connect from (masterProtocol.ts, resolveServerUrl).
 */
export function listedUrl(o: Pick<SlotOpts, 'url' | 'publicHost' | 'host'>, statusPort: number | undefined): string {
  if (o.url !== undefined) return o.url;
  const host = o.publicHost ?? (o.host === '0.0.0.0' || o.host === '::' ? '0.0.0.0' : o.host);
  return `http://${host.includes(':') ? `[${host}]` : host}:${statusPort}/`;
}

/** What a server kind adds around {@link serveAndRegister}: its universe, and steps once it listens and as it stops. */
export interface ServeExtras {
  /** A gameserver's solar systems (and universe) for the masterserver. */
  universe?: UniverseMembership;
  /** The ports players reach it at, for the masterserver's list (a gameserver's --announce-port / --announce-udp-port). */
  announced?: { tcp: number; udp?: number };
  /** Runs once every socket listens and the announce line is out (an orchestrator told the server is ready). */
  listening?(): Promise<void>;
  /** Runs last when a signal stops the server, after its players were told and its sockets closed. */
  stopped?(): Promise<void>;
}

/**
 * Everything around a running slot- or gameserver: its status page, its
 * masterserver registration (wired to `link` so player changes reach it),
 * graceful shutdown on signals, the announce line, and then `extras.listening`.
 */
export async function serveAndRegister(
  o: SlotOpts,
  log: Logger,
  server: PlayerServer,
  type: 'slotserver' | 'gameserver' | 'netgame',
  link: { registration?: MasterRegistration },
  routes: Record<string, () => StatusBody>,
  extras: ServeExtras = {},
): Promise<void> {
  const { universe } = extras;
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
    const url = listedUrl(o, status?.port);
    // Where players reach it (a gameserver behind a port mapping says so), else where it listens.
    const udp = extras.announced?.udp ?? server.ports.udp;
    try {
      link.registration = new MasterRegistration({
        master: o.master,
        name: o.name,
        os: `${process.platform}-${process.arch}`,
        maxPlayers: server.maxPlayers,
        url,
        port: extras.announced?.tcp ?? server.ports.tcp,
        type,
        ...(udp !== undefined ? { udp } : {}),
        log,
        heartbeatMs: Math.round(o.heartbeatSeconds * 1000),
        ...(universe ? { universe } : {}),
      });
    } catch (err) {
      // Only a URL built from --public-host or --host can still be invalid here (too long).
      await Promise.all([server.close('bad masterserver registration'), status?.close()]);
      throw new Error(`--master: ${(err as Error).message} (${url}); pass --url`, { cause: err });
    }
    link.registration.update(server.playerCount(), server.maxPlayers);
    link.registration.start();
  }
  stopOnSignals(log, type, async (reason) => {
    // Leave the list first, so nobody is sent to a server that is going away.
    await link.registration?.stop();
    // What the players read: "server closing: shut down by its admin (SIGTERM)".
    await server.close(`shut down by its admin (${reason})`);
    await status?.close();
    await extras.stopped?.();
  });
  // SIGHUP: read the ban file again now (an admin's `kill -HUP`; the file is also watched). Not on Windows, which has no SIGHUP to send.
  process.on('SIGHUP', () => {
    if (o.banFile === undefined) log.info('SIGHUP: no --ban-file to read again');
    else void server.reloadBans('SIGHUP');
  });
  const loopback = loopbackWarning(o.host);
  if (loopback) log.warn({ host: o.host }, loopback);
  announce(type, o.name, { ...server.ports, http: status?.port });
  await extras.listening?.();
}

/** Options of the slot- and gameserver commands beyond the common ones. */
export function withPlayerOptions(cmd: Command, maxPlayers: number, maxHelp: string, defaultPlayers = maxPlayers): Command {
  return cmd
    .option('--max-players <n>', maxHelp, int(1, maxPlayers), defaultPlayers)
    .option('--welcome <line>', 'a line sent to each player who joins (repeat for up to 4 lines)', welcomeLine)
    .option('--ban-file <path>', 'file of banned IP addresses or CIDR blocks, one per line; read again when it changes and on SIGHUP, and players it bans are removed')
    .addOption(new Option('--ban-poll-seconds <s>', 'how often the ban file is checked for changes').argParser(seconds(0.05, 86_400)).default(1).hideHelp())
    .option(
      '--max-per-address <n>',
      `most seats one host (an IPv4 address or an IPv6 /64) may hold (default: gameserver ${DEFAULT_MAX_PER_ADDRESS}; slotserver and netgame all seats but one, so one host cannot fill the server). A LAN party behind one NAT (one public address) that needs every seat: --max-per-address equal to --max-players`,
      int(1, MAX_WIRE_SLOTS),
    )
    .option(
      '--prove-udp-seconds <s>',
      "free a new seat whose player's UDP endpoint is not proved within this long of the join (a gameserver or netgame datagram with its token, a slotserver time-sync request; Starlane clients send at once) and strike its address: 3 such seats within a minute refuse its joins until they fade (0 = never)",
      seconds(0, 3600),
      DEFAULT_PROVE_UDP_MS / 1000,
    )
    .option('--master <host:port>', 'register with this masterserver', masterAddress)
    .option('--url <url>', 'web page about this server, linked from the masterserver list (default: its status page)', serverUrl)
    .addOption(
      new Option('--public-host <host>', 'host name or address others reach the status page by, for the masterserver link (default: the address the masterserver sees this server connect from, or --host when it names one)')
        .argParser(publicHost)
        .conflicts('url'),
    )
    .addOption(new Option('--heartbeat-seconds <s>', 'how often the player count is re-sent to the masterserver').argParser(seconds(0.05, 3600)).default(30).hideHelp())
    .option('--join-timeout-seconds <s>', 'close a connection that has not joined within this long (half-open and idle connections included)', seconds(0.5, 3600), 30);
}

export const SERVER_NAME_HELP = 'server name sent to players and listed by the masterserver (1-31 printable ASCII characters; no spaces with --master)';

/** The options every player server takes from its command line: name, address, ports, seats, bans, limits, log, and the masterserver told of player changes. */
export function seatOptions(o: SlotOpts, log: Logger, link: { registration?: MasterRegistration }) {
  return {
    name: o.name,
    host: o.host,
    port: o.port,
    maxPlayers: o.maxPlayers,
    welcome: o.welcome ?? [],
    banFile: o.banFile,
    banPollMs: Math.round(o.banPollSeconds * 1000),
    maxPerAddress: o.maxPerAddress,
    proveUdpMs: Math.round(o.proveUdpSeconds * 1000),
    joinTimeoutMs: Math.round(o.joinTimeoutSeconds * 1000),
    limits: limitsOf(o),
    log,
    onPlayersChanged: (count: number, max: number) => {
      link.registration?.update(count, max);
      // A gameserver of a universe says its solar systems' players too.
      link.registration?.systemsChanged();
    },
  };
}
