/**
 * `npm run server -- <masterserver|slotserver> [options]` /
 * `node out/main/server.js`: runs one Starlane server. Prints one line for a
 * person on stdout once it listens; structured logs (pino JSON) go to stderr.
 * SIGINT/SIGTERM shut it down gracefully (leave the masterserver list, say
 * goodbye to clients, close every socket) and exit 0.
 */
import { hostname } from 'node:os';
import { MAX_SLOTS } from '../../shared/wire/types';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger, type Logger } from '../log';
import { APP_VERSION } from '../version';
import { startMasterserver } from './masterserver';
import { MasterRegistration, parseHostPort } from './masterClient';
import { startSlotserver, renderSlotserverStatus } from './slotserver';
import { SLOTSERVER_PORT } from '../../shared/servers/joinProtocol';
import { startStatusHttp, type StatusHttp } from './statusHttp';
import { DEFAULT_MASTER_PORT, DEFAULT_MAX_SERVERS, validateServerToken, validateServerUrl } from '../../shared/servers/masterProtocol';

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
}

/** The options every server subcommand takes. */
function withCommonOptions(cmd: Command, defaults: { name: string; port: number; nameHelp: string; parseName: (v: string) => string }): Command {
  return cmd
    .option('--name <name>', defaults.nameHelp, defaults.parseName, defaults.name)
    .option('--host <address>', 'address to listen on (TCP and HTTP)', '0.0.0.0')
    .option('--port <port>', 'TCP port (0 = any free port)', int(0, 65535), defaults.port)
    .option('--http-port <port>', 'HTTP port of the status page (0 = any free port; default: no status page)', int(0, 65535))
    .addOption(new Option('--log-level <level>', 'log level of the JSON logs on stderr').choices(LOG_LEVELS).default(process.env.STARLANE_LOG_LEVEL ?? 'info'))
    .showHelpAfterError();
}

/** The one line a person reads: what runs, under which name, on which ports. */
function announce(kind: string, name: string, ports: Record<string, number | undefined>): void {
  const http = ports.http === undefined ? '' : `, http ${ports.http}`;
  process.stdout.write(`${kind} "${name}" listening on tcp ${ports.tcp}${http}\n`);
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
  .description('Starlane servers: a masterserver that lists game servers, and a slotserver that hands out game slots')
  .version(APP_VERSION)
  .showHelpAfterError();

withCommonOptions(program.command('masterserver').description('list running slot- and gameservers for players (TCP masterserver protocol, HTML/JSON list)'), {
  name: 'starlane-master',
  port: DEFAULT_MASTER_PORT,
  nameHelp: 'name in the page title (1-31 printable ASCII characters, no spaces)',
  parseName: serverName,
})
  .option('--max-servers <n>', 'most servers listed at once', int(1, DEFAULT_MAX_SERVERS), DEFAULT_MAX_SERVERS)
  .addOption(new Option('--expire-seconds <s>', 'drop a server not heard from for this long').argParser(seconds(0.1, 86_400)).default(90).hideHelp())
  .action(async (o: CommonOpts & { maxServers: number; expireSeconds: number }) => {
    const log = createLogger('starlane-masterserver', o.logLevel);
    const server = await startMasterserver({
      name: o.name,
      host: o.host,
      port: o.port,
      httpPort: o.httpPort,
      log,
      maxServers: o.maxServers,
      expireMs: Math.round(o.expireSeconds * 1000),
    });
    stopOnSignals(log, 'masterserver', (reason) => server.close(reason));
    announce('masterserver', o.name, server.ports);
  });

interface SlotOpts extends CommonOpts {
  maxPlayers: number;
  welcome?: string[];
  banFile?: string;
  master?: string;
  url?: string;
  heartbeatSeconds: number;
}

withCommonOptions(program.command('slotserver').description('hand out game slots to players over TCP (Parsec slotserver protocol)'), {
  name: 'starlane-slots',
  port: SLOTSERVER_PORT,
  nameHelp: 'server name sent to players and listed by the masterserver (1-31 printable ASCII characters; no spaces with --master)',
  // The slotserver checks its own names (spaces allowed inside); --master adds the no-space rule below.
  parseName: (v) => v,
})
  // Game packets between the players carry slots 0..7 (MAX_SLOTS), so a slotserver hands out at most 8.
  .option('--max-players <n>', `number of slots (1-${MAX_SLOTS})`, int(1, MAX_SLOTS), MAX_SLOTS)
  .option('--welcome <line>', 'a line sent to each player who joins (repeat for up to 4 lines)', welcomeLine)
  .option('--ban-file <path>', 'file of banned IP addresses or CIDR blocks, one per line')
  .option('--master <host:port>', 'register with this masterserver', masterAddress)
  .option('--url <url>', 'web page about this server, linked from the masterserver list (default: its status page)', serverUrl)
  .addOption(new Option('--heartbeat-seconds <s>', 'how often the player count is re-sent to the masterserver').argParser(seconds(0.05, 3600)).default(30).hideHelp())
  .action(async (o: SlotOpts, cmd: Command) => {
    if (o.master && !o.url && o.httpPort === undefined) cmd.error('error: --master needs --url (or --http-port, whose status page is then the URL)');
    // The masterserver protocol separates fields by spaces, so a listed name cannot contain one.
    if (o.master && validateServerToken(o.name)) cmd.error(`error: --name with --master: ${validateServerToken(o.name)}`);
    const log = createLogger('starlane-slotserver', o.logLevel);
    let registration: MasterRegistration | undefined;
    const server = await startSlotserver({
      name: o.name,
      host: o.host,
      port: o.port,
      maxPlayers: o.maxPlayers,
      welcome: o.welcome ?? [],
      banFile: o.banFile,
      log,
      onPlayersChanged: (count, max) => registration?.update(count, max),
    });
    let status: StatusHttp | undefined;
    if (o.httpPort !== undefined) {
      try {
        status = await startStatusHttp({
          port: o.httpPort,
          host: o.host,
          routes: {
            '/': () => ({ type: 'html', body: renderSlotserverStatus(server).html }),
            '/status.json': () => ({ type: 'json', body: renderSlotserverStatus(server).json }),
          },
        });
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
        registration = new MasterRegistration({
          master: o.master,
          name: o.name,
          os: `${process.platform}-${process.arch}`,
          maxPlayers: server.maxPlayers,
          url,
          port: server.ports.tcp,
          type: 'slotserver',
          log,
          heartbeatMs: Math.round(o.heartbeatSeconds * 1000),
        });
      } catch (err) {
        // Only the default URL (built from the host name) can still be invalid here.
        await Promise.all([server.close('bad masterserver registration'), status?.close()]);
        throw new Error(`--master: ${(err as Error).message} (${url}); pass --url`);
      }
      registration.update(server.playerCount(), server.maxPlayers);
      registration.start();
    }
    stopOnSignals(log, 'slotserver', async (reason) => {
      // Leave the list first, so nobody is sent to a server that is going away.
      await registration?.stop();
      await server.close(reason);
      await status?.close();
    });
    announce('slotserver', o.name, { ...server.ports, http: status?.port });
  });

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`starlane-server: ${(err as Error).message}\n`);
  process.exit(1);
});
