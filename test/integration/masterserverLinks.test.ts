/**
 * The masterserver's page links each server's status page at an address
 * others can reach: a server listening on every interface (the default
 * --host 0.0.0.0) is linked at the address the masterserver saw it connect
 * from, not at its own host name; `--public-host` names the host instead.
 * Real processes from the build (out/main/server.js) on loopback; needs
 * `npx electron-vite build` first.
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverEntry, startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { spawnTracked } from '../support/testRun';
import { waitFor } from '../support/waitFor';

const started: ServerProcess['child'][] = [];
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  stopServers();
});

beforeAll(() => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" (or "npm test", which builds) first`);
});

/**
 * Starts `node out/main/server.js <args>` as given (startServer adds
 * `--host 127.0.0.1`; these servers keep the default, every interface) and
 * resolves with its status-page port once it announces itself.
 */
async function startOnEveryInterface(args: string[]): Promise<{ http: number }> {
  const child = spawnTracked(process.execPath, [serverEntry, ...args, '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const m = await waitFor(`${args[0]}'s "listening on" line`, () => (child.exitCode !== null ? Promise.reject(new Error(`exited early:\n${out}`)) : / http (\d+)$/m.exec(out)));
  return { http: Number(m[1]) };
}

interface Listed {
  name: string;
  url: string;
}

describe('the masterserver links a server at an address others can reach', () => {
  it('a slot-, game- and netgame server on every interface are linked at the address they registered from; --public-host names another', { timeout: 30_000 }, async () => {
    const master = await startServer(['masterserver', '--name', 'links', '--port', '0', '--http-port', '0']);
    const register = ['--port', '0', '--udp-port', '0', '--http-port', '0', '--master', `127.0.0.1:${master.tcp}`];
    const [slot, game, netgame, named] = await Promise.all([
      startOnEveryInterface(['slotserver', '--name', 'slots', ...register]),
      startOnEveryInterface(['gameserver', '--name', 'games', ...register]),
      startOnEveryInterface(['netgame', '--name', 'netgames', ...register]),
      startOnEveryInterface(['gameserver', '--name', 'named', ...register, '--public-host', 'games.example.org']),
    ]);
    const servers = await waitFor('all four servers listed', async () => {
      const list = ((await (await fetch(`http://127.0.0.1:${master.http}/servers.json`)).json()) as { servers: Listed[] }).servers;
      return list.length === 4 && list;
    });
    expect(Object.fromEntries(servers.map((s) => [s.name, s.url]))).toEqual({
      slots: `http://127.0.0.1:${slot.http}/`,
      games: `http://127.0.0.1:${game.http}/`,
      netgames: `http://127.0.0.1:${netgame.http}/`,
      named: `http://games.example.org:${named.http}/`,
    });
    const html = await (await fetch(`http://127.0.0.1:${master.http}/`)).text();
    expect(html).toContain(`<a href="http://127.0.0.1:${slot.http}/"`);
    expect(html).toContain(`<a href="http://games.example.org:${named.http}/"`);
    expect(html).not.toContain('0.0.0.0');
    expect(html).not.toContain(`//${hostname()}:`);
  });

  it('refuses --public-host with --url, and without --master, before starting anything', async () => {
    /** The three starts at once: each fails before listening, so they share nothing. */
    const run = (...args: string[]) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawnTracked(process.execPath, [serverEntry, 'slotserver', '--port', '0', '--udp-port', '0', '--http-port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        started.push(child);
        let stderr = '';
        child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
        child.once('close', (status) => resolve({ status, stderr }));
      });
    const [both, alone, bad] = await Promise.all([
      run('--master', '127.0.0.1:1', '--url', 'http://a.example/', '--public-host', 'b.example'),
      run('--public-host', 'b.example'),
      run('--master', '127.0.0.1:1', '--public-host', 'b.example:8082'),
    ]);
    expect(both.status).not.toBe(0);
    expect(both.stderr).toContain("error: option '--public-host <host>' cannot be used with option '--url <url>'");
    expect(alone.status).not.toBe(0);
    expect(alone.stderr).toContain('error: --public-host names the status page the masterserver links to: it needs --master');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('must be a host name or an IP address, without a port');
  });
});
