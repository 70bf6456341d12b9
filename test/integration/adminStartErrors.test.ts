/**
 * What an admin reads when a command cannot start: a mistake on the command
 * line is one error line and a pointer to --help (not the whole help), and a
 * port another program holds is one line naming the option that changes it.
 * Real processes from the build (out/main/*.js) and real sockets on loopback;
 * needs `npx electron-vite build` first.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { botEntry, serverEntry, webEntry } from '../support/paths';
import { spawnTracked, tempDir } from '../support/testRun';
import { parseUniverseKey } from '../../src/node/servers/common/universeKey';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <entry> <args>` to its exit. */
function run(entry: string, args: readonly string[]): Promise<Outcome> {
  const child = spawnTracked(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

// Held until the file ends: the tests run at once, so no test's end may close another's port.
const held: (Server | UdpSocket)[] = [];
afterAll(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A TCP port on 127.0.0.1 that this test holds (listening) until it ends. */
async function takenTcpPort(): Promise<number> {
  const server = createServer();
  held.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** A UDP port on 127.0.0.1 that this test holds (bound) until it ends. */
async function takenUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  held.push(socket);
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return socket.address().port;
}

beforeAll(() => {
  for (const entry of [serverEntry, webEntry, botEntry]) {
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npx electron-vite build" (or "npm test", which builds) first`);
  }
});

// Each test is a process start that fails at once: the tests of each group run at once (two cores share the start-ups).
describe.concurrent('a command-line mistake', () => {
  it.for([
    ['server gameserver', serverEntry, ['gameserver', '--bogus'], "error: unknown option '--bogus'"],
    ['server masterserver', serverEntry, ['masterserver', '--port', 'many'], "error: option '--port <port>' argument 'many' is invalid. must be an integer from 0 to 65535"],
    ['server', serverEntry, ['lobbyserver'], "error: unknown command 'lobbyserver'"],
    ['browser shell', webEntry, ['--bogus'], "error: unknown option '--bogus'"],
    ['bot', botEntry, ['--pilot', 'sleepy'], "error: option '--pilot <pilot>' argument 'sleepy' is invalid. Allowed choices are circle, idle, hunt."],
  ] as const)('%s: prints the error and a pointer to --help, not the whole help, and fails', async ([, entry, args, error], { expect }) => {
    const r = await run(entry, args);
    expect(r.code).not.toBe(0);
    expect(lines(r.stderr)).toEqual([error, '(add --help for usage)']);
    expect(r.stdout).toBe('');
  });

  it('a slotserver with --master but no page to link gets one line and the pointer too', async ({ expect }) => {
    const r = await run(serverEntry, ['slotserver', '--port', '0', '--udp-port', '0', '--master', '127.0.0.1:1']);
    expect(r.code).not.toBe(0);
    expect(lines(r.stderr)).toEqual(['error: --master needs --url (or --http-port, whose status page is then the URL)', '(add --help for usage)']);
  });
});

describe.concurrent('a port another program holds', () => {
  const start = (args: string[]) => run(serverEntry, [...args, '--host', '127.0.0.1', '--log-level', 'warn']);

  it.for([
    ['masterserver', 'TCP', '--port'],
    ['masterserver', 'HTTP', '--http-port'],
    ['slotserver', 'TCP', '--port'],
    ['slotserver', 'UDP', '--udp-port'],
    ['slotserver', 'HTTP', '--http-port'],
    ['gameserver', 'TCP', '--port'],
    ['gameserver', 'UDP', '--udp-port'],
    ['gameserver', 'HTTP', '--http-port'],
    ['netgame', 'TCP', '--port'],
    ['netgame', 'UDP', '--udp-port'],
    ['netgame', 'HTTP', '--http-port'],
  ] as const)('%s: a taken %s port fails the start with one line naming %s', async ([kind, role, option], { expect }) => {
    const port = role === 'UDP' ? await takenUdpPort() : await takenTcpPort();
    // Every other port is any free one, so only the taken one can fail.
    const ports: Record<string, string> = { '--port': '0', '--udp-port': '0', '--http-port': '0', [option]: String(port) };
    if (kind === 'masterserver') delete ports['--udp-port'];
    const r = await start([kind, ...Object.entries(ports).flat()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual([`starlane-server: ${kind}: ${role} port ${port} on 127.0.0.1 is in use (change it with ${option})`]);
  });
});

describe.concurrent('a galaxy file the gameserver cannot use', () => {
  it.for([
    ['a bad line', 'starlane galaxy 1\nsystem Sol\n  asteroids lots\n', (f: string) => `starlane-server: galaxy file ${f}, line 3: asteroids needs one whole number from 0 to 1000 (got "lots")`],
    ['a gate to its own system', 'starlane galaxy 1\nsystem Sol\n  gate Sol 0 0 900\n', (f: string) => `starlane-server: galaxy file ${f}, line 3: a gate of Sol cannot lead to Sol itself`],
    ['no file', null, (f: string) => `starlane-server: galaxy file ${f}: cannot be read (ENOENT)`],
  ] as const)('%s: one line naming the file (and the line), and the server does not start', async ([, text, error], { expect }) => {
    const file = join(tempDir('galaxy'), 'universe.galaxy');
    if (text !== null) writeFileSync(file, text);
    const r = await run(serverEntry, ['gameserver', '--port', '0', '--udp-port', '0', '--host', '127.0.0.1', '--galaxy', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual([error(file)]);
  });
});

describe.concurrent('a universe key', () => {
  it('keygen writes a fresh key readable by its owner only, and will not overwrite it', async ({ expect }) => {
    const file = join(tempDir('universe'), 'universe.key');
    const r = await run(serverEntry, ['keygen', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`universe key written to ${file}\n`);
    expect(parseUniverseKey(readFileSync(file, 'latin1')).ok).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await run(serverEntry, ['keygen', file]);
    expect(again.code).toBe(1);
    expect(lines(again.stderr)).toEqual([`starlane-server: universe key file ${file} exists already: not overwritten`]);
  });

  it('a gameserver with --universe-key but no --master gets one line and the pointer', async ({ expect }) => {
    const r = await run(serverEntry, ['gameserver', '--port', '0', '--udp-port', '0', '--host', '127.0.0.1', '--universe-key', '/nonexistent.key']);
    expect(r.code).not.toBe(0);
    expect(lines(r.stderr)).toEqual(['error: --universe-key needs --master (the masterserver routes the jumps)', '(add --help for usage)']);
  });

  it('a key file without a usable key stops the masterserver with one line', async ({ expect }) => {
    const file = join(tempDir('universe'), 'short.key');
    writeFileSync(file, 'abcd\n');
    const r = await run(serverEntry, ['masterserver', '--port', '0', '--host', '127.0.0.1', '--universe-key', file]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([`starlane-server: universe key file ${file}: the key is 2 bytes; a universe needs at least 32 (64 hex digits)`]);
  });
});
