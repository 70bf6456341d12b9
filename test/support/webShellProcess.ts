import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { webEntry } from './paths';
import { spawnTracked, tempDir } from './testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from './freePort';

export { repoRoot, webEntry } from './paths';

export interface WebShellProcess {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  userData: string;
  /** Everything the process printed so far (stdout + stderr). */
  output(): string;
  /** SIGTERM, then waits for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the built browser shell as a real process (`node out/main/web.js`)
 * with its own settings folder, and waits for the URL line.
 */
export async function startWebShell(args: string[] = [], userData = tempDir('user')): Promise<WebShellProcess> {
  if (!existsSync(webEntry)) throw new Error(`${webEntry} is missing: run "npm run build" first (npm test does)`);
  const child = spawnTracked(process.execPath, [
      webEntry,
      '--port', '0',
      '--client-port', String(await freeUdpPorts(P2P_PORT_SPAN)),
      // Keep test traffic on loopback: no broadcast or multicast on real interfaces.
      '--broadcast', '127.255.255.255',
      '--lan-interfaces', 'none',
      ...args,
    ], {
    env: { ...process.env, STARLANE_USER_DATA: userData, STARLANE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser shell printed no URL in 15 s:\n${out}`)), 15_000);
    const check = () => {
      const m = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`browser shell exited (${code}) before printing its URL:\n${out}`));
    });
  });
  const parsed = new URL(url);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    url,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token') ?? '',
    userData,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
