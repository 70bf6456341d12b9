/**
 * The servers' command-line options (cli.ts): the value parsers, the options
 * every server kind has (name, host, port, status page, logs, connection
 * limits), the announce line and the signal handling.
 */
import { isIP } from 'node:net';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Logger } from '../log';
import { DEFAULT_HTTP_CAPS, DEFAULT_LINE_CAPS, HTTP_SMALL_SOURCE, type ServerLimits } from './common/connectionLimits';
import { parseHostPort } from './master/masterClient';
import { validateServerToken, validateServerUrl } from '../../shared/servers/masterProtocol';
import { explainPortInUse, type PortRole } from './common/portInUse';
import { optionsFromEnvironment } from './cliEnvironment';

/** What follows a command-line mistake: one line pointing to the help, not the whole help. */
export const HELP_POINTER = '(add --help for usage)';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const int = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < lo || n > hi) throw new InvalidArgumentError(`must be an integer from ${lo} to ${hi}`);
  return n;
};
export const seconds = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < lo || n > hi) throw new InvalidArgumentError(`must be a number of seconds from ${lo} to ${hi}`);
  return n;
};
export const number = (lo: number, hi: number, unit: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < lo || n > hi) throw new InvalidArgumentError(`must be a number of ${unit} from ${lo} to ${hi}`);
  return n;
};
export const serverName = (value: string) => {
  const error = validateServerToken(value);
  if (error) throw new InvalidArgumentError(error);
  return value;
};
export const masterAddress = (value: string) => {
  if (!parseHostPort(value)) throw new InvalidArgumentError('must be host:port (or [ipv6]:port)');
  return value;
};
/** A host name or IP address others can reach (IPv6 with or without brackets), without a port. */
export const publicHost = (value: string) => {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  const name = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/;
  if (isIP(bare) === 0 && !name.test(bare)) throw new InvalidArgumentError('must be a host name or an IP address, without a port');
  if (bare === '0.0.0.0' || bare === '::') throw new InvalidArgumentError('must be an address others can reach, not 0.0.0.0 or ::');
  return bare;
};
export const serverUrl = (value: string) => {
  const error = validateServerUrl(value);
  if (error) throw new InvalidArgumentError(error);
  return value;
};
export const welcomeLine = (value: string, previous: string[] = []) => {
  if (previous.length >= 4) throw new InvalidArgumentError('at most 4 welcome lines');
  if (Buffer.byteLength(value) > 160 || /[\x00-\x1f\x7f]/.test(value)) throw new InvalidArgumentError('must be at most 160 UTF-8 bytes without control characters');
  return [...previous, value];
};

export interface CommonOpts {
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
export function limitsOf(o: CommonOpts): ServerLimits {
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

/** The options every server subcommand takes; each of its options can also come from the environment (cliEnvironment.ts). */
export function withCommonOptions(cmd: Command, defaults: { name: string; port: number; nameHelp: string; parseName: (v: string) => string }): Command {
  return optionsFromEnvironment(cmd)
    .option('--name <name>', defaults.nameHelp, defaults.parseName, defaults.name)
    .option('--host <address>', 'address to listen on (TCP, HTTP and UDP; :: = every IPv6 and IPv4 interface)', '0.0.0.0')
    .option('--port <port>', 'TCP port (0 = any free port)', int(0, 65535), defaults.port)
    .option('--http-port <port>', 'HTTP port of the status page (0 = any free port; default: no status page)', int(0, 65535))
    .addOption(new Option('--log-level <level>', 'log level of the JSON logs on stderr').choices(LOG_LEVELS).default('info'))
    .option('--max-connections <n>', 'most TCP connections at once (a quarter kept for addresses holding fewer than 4)', int(1, 1_000_000), DEFAULT_LINE_CAPS.max)
    .option('--max-connections-per-address <n>', 'most TCP connections from one IPv4 address or IPv6 /64', int(1, 1_000_000), DEFAULT_LINE_CAPS.perSource)
    .option('--connects-per-minute <n>', 'new TCP connections one IPv4 address or IPv6 /64 may open per minute (a minute\'s worth may come at once)', int(1, 1_000_000), 30)
    .option('--line-timeout-seconds <s>', 'close a TCP connection that leaves a line unfinished for this long', seconds(0.1, 3600), 10)
    .option('--max-unread-kib <n>', 'close a TCP connection once this many KiB of replies wait unread', int(16, 1_048_576), 256)
    .option('--http-max-connections <n>', `most status-page connections at once (a quarter kept for addresses holding fewer than ${HTTP_SMALL_SOURCE})`, int(1, 1_000_000), DEFAULT_HTTP_CAPS.max)
    .option('--http-max-connections-per-address <n>', 'most status-page connections from one IPv4 address or IPv6 /64', int(1, 1_000_000), DEFAULT_HTTP_CAPS.perSource)
    .showHelpAfterError(HELP_POINTER);
}

/** The option that moves each of a server's ports (the same names for every kind). */
export const PORT_OPTIONS: Readonly<Record<PortRole, string>> = { TCP: '--port', UDP: '--udp-port', HTTP: '--http-port' };

/** `action` of subcommand `kind`, where a port taken at start fails with one line naming the option that changes it. */
export function namingBusyPorts<A extends unknown[]>(kind: string, action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (err) {
      throw explainPortInUse(kind, err, PORT_OPTIONS);
    }
  };
}

/** The one line a person reads: what runs, under which name, on which ports (`tcp N[, udp N][, http N]`). */
export function announce(kind: string, name: string, ports: Record<string, number | undefined>): void {
  const udp = ports.udp === undefined ? '' : `, udp ${ports.udp}`;
  const http = ports.http === undefined ? '' : `, http ${ports.http}`;
  process.stdout.write(`${kind} "${name}" listening on tcp ${ports.tcp}${udp}${http}\n`);
}

/** Runs `stop` once on SIGINT/SIGTERM, logs one line, exits 0 (1 if stopping fails or hangs). */
export function stopOnSignals(log: Logger, kind: string, stop: (reason: string) => Promise<void>): void {
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
