import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/waitFor';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';

afterEach(stopServers);

interface Listed {
  name: string;
  players: number;
  maxPlayers: number;
  type: string | null;
  host: string;
  port: number | null;
}
const list = async (http: number | undefined) => ((await (await fetch(`http://127.0.0.1:${http}/servers.json`)).json()) as { servers: Listed[] }).servers;
const until = (check: () => Promise<boolean>, ms: number, what: string) => waitFor(what, check, ms, 50);

beforeAll(() => {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" (or "npm test", which builds) first`);
});

describe('server command line', () => {
  const help = (...args: string[]) => spawnSync(process.execPath, [serverEntry, ...args, '--help'], { encoding: 'utf8' });

  it('--help lists the masterserver, slotserver and gameserver commands', () => {
    const r = help();
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/masterserver/);
    expect(r.stdout).toMatch(/slotserver/);
    expect(r.stdout).toMatch(/gameserver/);
  });

  it.each([
    ['masterserver', ['--name', '--host', '--port', '--http-port', '--log-level', '--max-servers', '--max-servers-per-address']],
    ['slotserver', ['--name', '--host', '--port', '--http-port', '--log-level', '--max-players', '--welcome', '--ban-file', '--master', '--url', '--max-per-address', '--silence-seconds']],
  ])('%s --help exits 0 and lists its options', (command, options) => {
    const r = help(command);
    expect(r.status).toBe(0);
    for (const o of options) expect(r.stdout).toContain(o);
  });

  it('refuses a server name with spaces before starting anything', () => {
    const r = spawnSync(process.execPath, [serverEntry, 'masterserver', '--name', 'Gamma Quadrant', '--port', '0'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/space/);
  });
});

describe('masterserver and slotservers as real processes', () => {
  it('lists a registering slotserver and gameserver with their counts; SIGTERM leaves at once, and so does SIGKILL (its connection closes)', { timeout: 40_000 }, async () => {
    const expireSeconds = 3;
    const master = await startServer(['masterserver', '--name', 'test-master', '--port', '0', '--http-port', '0', '--expire-seconds', String(expireSeconds)]);
    const slot = (name: string) =>
      startServer(['slotserver', '--name', name, '--port', '0', '--udp-port', '0', '--max-players', '8', '--master', `127.0.0.1:${master.tcp}`, '--url', `http://${name}.example/`, '--heartbeat-seconds', '0.5']);
    const game = (name: string) =>
      startServer(['gameserver', '--name', name, '--port', '0', '--udp-port', '0', '--master', `127.0.0.1:${master.tcp}`, '--url', `http://${name}.example/`, '--heartbeat-seconds', '0.5']);
    const [alpha, beta] = await Promise.all([slot('alpha'), game('beta')]);
    await until(async () => (await list(master.http)).length === 2, 5000, 'both servers to be listed');
    const byName = async (name: string) => (await list(master.http)).find((s) => s.name === name);
    expect(await byName('alpha')).toMatchObject({ players: 0, maxPlayers: 8, type: 'slotserver', host: '127.0.0.1', port: alpha.tcp });
    expect(await byName('beta')).toMatchObject({ players: 0, maxPlayers: 64, type: 'gameserver', host: '127.0.0.1', port: beta.tcp });

    // A player taking a slot on alpha shows up in the masterserver's count.
    const player = connect({ host: '127.0.0.1', port: alpha.tcp });
    player.on('error', () => undefined);
    let reply = '';
    player.on('data', (d: Buffer) => (reply += d.toString()));
    player.write('version: 1.0 join me: sid os: linux-x64\n');
    await until(async () => reply.includes('\n'), 3000, 'the slotserver to answer the join');
    expect(reply).toMatch(/^join from sid accepted, slot: 0/);
    await until(async () => (await byName('alpha'))?.players === 1, 3000, 'alpha to report 1/8');
    player.destroy();

    // SIGTERM: remove me, so the entry disappears long before it could expire.
    const termAt = Date.now();
    alpha.child.kill('SIGTERM');
    expect(await alpha.exited).toBe(0);
    await until(async () => !(await byName('alpha')), expireSeconds * 1000, 'alpha to leave the list after SIGTERM');
    expect(Date.now() - termAt).toBeLessThan(expireSeconds * 1000);

    // SIGKILL: no remove me, but the kernel closes the dead process's connection, and the entry goes with it,
    // long before it could expire (a server that is alive but silent still expires: masterserver.test.ts).
    const killAt = Date.now();
    beta.child.kill('SIGKILL');
    await beta.exited;
    await until(async () => !(await byName('beta')), expireSeconds * 1000, 'beta to leave the list once its connection closed');
    expect(Date.now() - killAt).toBeLessThan(expireSeconds * 1000);

    // SIGHUP (which makes slot- and gameservers re-read their ban files) does not stop the masterserver.
    master.child.kill('SIGHUP');
    await until(async () => /nothing to read again/.test(master.output()), 3000, 'the masterserver to log the SIGHUP');
    expect(await list(master.http)).toEqual([]);
    master.child.kill('SIGTERM');
    expect(await master.exited).toBe(0);
    expect(master.output()).not.toMatch(/"level":50/);
  });
});
