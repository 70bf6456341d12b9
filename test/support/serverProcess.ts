import type { ChildProcess } from 'node:child_process';
import { serverEntry } from './paths';
import { spawnTracked } from './testRun';

export { serverEntry } from './paths';

export interface ServerProcess {
  child: ChildProcess;
  tcp: number;
  /** The gameserver's UDP port. */
  udp?: number;
  http?: number;
  output(): string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

/** SIGKILLs every server process started through {@link startServer} that is still running (call in afterEach). */
export function stopServers(): void {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/**
 * The flags `npm run server` gives node (package.json; a unit test keeps the
 * two in step), so tests measure servers as they are run: a 1 MB young
 * generation keeps a server's memory flat under a flood of datagrams.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/**
 * Starts `node out/main/server.js <args>` on 127.0.0.1 and waits for its
 * "listening on" line. `logLevel`: what the server logs (default warn: its
 * warnings and errors; info adds joins, leaves and removals for silence).
 * `env`: variables added to the test's environment for it.
 */
export async function startServer(args: string[], logLevel: 'warn' | 'info' = 'warn', env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawnTracked(process.execPath, [...SERVER_NODE_FLAGS, serverEntry, ...args, '--host', '127.0.0.1', '--log-level', logLevel], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const m = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /^\w+ ".*" listening on tcp (\d+)(?:, udp (\d+))?(?:, http (\d+))?$/m.exec(out);
      if (found) {
        clearInterval(timer);
        resolve(found);
      }
    }, 20);
    setTimeout(() => (clearInterval(timer), reject(new Error(`no "listening on" line in 10 s:\n${out}`))), 10_000);
    void exited.then((code) => (clearInterval(timer), reject(new Error(`${args[0]} exited (${code}) early:\n${out}`))));
  });
  const port = (i: number) => (m[i] ? Number(m[i]) : undefined);
  return { child, tcp: Number(m[1]), udp: port(2), http: port(3), output: () => out, exited };
}
