/**
 * `npm run web` / `node out/main/web.js`: runs Starlane's host in Node and
 * serves the game to a browser on 127.0.0.1. Prints the URL (with its
 * per-run token) on stdout; logs go to stderr.
 */
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { createHost } from '../host/createHost';
import { defaultUserDataDir } from '../settings/userDataDir';
import { createLogger } from '../log';
import { APP_VERSION } from '../version';
import { startBrowserShell } from './browserShell';
import { DEFAULT_CLIENT_PORT } from '../../shared/net/packetApi';

function portOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number 0..65535');
  return n;
}

function lanInterfaceList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return [];
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

const program = new Command('starlane-web')
  .description('Starlane browser shell: the game host in Node, the game view in your browser')
  .version(APP_VERSION)
  .option('-p, --port <port>', 'HTTP/WebSocket port on 127.0.0.1 (0 = any free port)', portOption, 0)
  .option('--client-port <port>', 'UDP port for game traffic (next free one if taken)', portOption, DEFAULT_CLIENT_PORT)
  .option('--broadcast <address>', 'IPv4 broadcast address for LAN discovery', '255.255.255.255')
  .option('--lan-interfaces <names>', 'comma-separated interfaces for IPv6 LAN discovery ("none" for none; default all)')
  .option('--user-data <dir>', 'folder for settings and history', defaultUserDataDir())
  .option('--renderer <dir>', 'folder of the built renderer', fileURLToPath(new URL('../renderer', import.meta.url)))
  // A mistake gets one line and a pointer, not the whole help.
  .showHelpAfterError('(add --help for usage)');

async function main(): Promise<void> {
  program.parse();
  const opts = program.opts<{
    port: number;
    clientPort: number;
    userData: string;
    renderer: string;
    broadcast: string;
    lanInterfaces?: string;
  }>();
  const log = createLogger('starlane-web');
  let stopping = false;
  const stop = async (why: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.info({ why }, 'shutting down');
    await shell?.close().catch((err: unknown) => log.warn({ err }, 'closing browser shell'));
    await host.dispose().catch((err: unknown) => log.warn({ err }, 'disposing host'));
    process.stdout.write('Starlane browser shell stopped.\n');
    process.exit(code);
  };
  const host = await createHost({
    shell: 'browser',
    appVersion: APP_VERSION,
    userDataDir: opts.userData,
    clientPort: opts.clientPort,
    broadcastAddress: opts.broadcast,
    lanInterfaces: lanInterfaceList(opts.lanInterfaces),
    log,
    // Let the quit event reach the page before the sockets close.
    onQuit: () => setTimeout(() => void stop('quit command'), 200),
  });
  // eslint-disable-next-line prefer-const -- stop() (the quit command's) reads it while the shell starts: shell?.close() skips it, a const would be in its dead zone
  let shell: Awaited<ReturnType<typeof startBrowserShell>> | undefined;
  shell = await startBrowserShell({ host, rendererDir: opts.renderer, port: opts.port });
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.stdout.write(`settings: ${host.settings.path}\n`);
  process.stdout.write(`Starlane browser shell: open ${shell.url}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`starlane-web: ${(err as Error).message}\n`);
  process.exit(1);
});
