/**
 * The server browser's merge on a virtual LAN of network namespaces (a server
 * on loopback never hears a broadcast): a masterserver on host 1; a
 * slotserver on host 2 registered with it and answering the LAN; a
 * gameserver on host 3 answering only the LAN; a netgame server on host 4
 * registered with the masterserver but bound to its own address, so no
 * broadcast reaches it. A game host on host 5 types `servers` and gets all
 * three in one table, each with a ping: the LAN's for hosts 2 and 3, a
 * unicast discovery request's for host 4. Every packet stays inside the
 * namespaces.
 */
import { existsSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupStaleLans, createLan, lanAvailable, type Lan, type LanHost } from '../support/netns';
import { startServerIn } from '../support/lanServer';
import { repoRoot } from '../support/webShellProcess';
import { serverEntry } from '../support/serverProcess';
import { tempDir } from '../support/testRun';
import { GAMESERVER_PORT, NETGAME_PORT, SLOTSERVER_PORT } from '../../src/shared/servers/joinProtocol';
import { waitFor } from '../support/waitFor';

const unavailable = await lanAvailable();
if (unavailable) console.warn(`server browser LAN tests skipped: ${unavailable}`);

/** A complete game host (createHost) in a namespace: console commands on stdin, console lines out as JSON. */
const HOST_SCRIPT = (root: string) => `
import { createInterface } from 'node:readline';
import pino from 'pino';
import { createHost } from '${root}/src/node/host/createHost.ts';
const host = await createHost({ shell: 'browser', appVersion: 'test', userDataDir: process.argv[2],
  broadcastAddress: process.argv[1], lanInterfaces: [], log: pino({ level: 'silent' }), onQuit() {} });
host.onEvents((batch) => { for (const e of batch) if (e.kind === 'console') console.log(JSON.stringify({ text: e.text })); });
console.log(JSON.stringify({ ready: true }));
for await (const line of createInterface({ input: process.stdin })) await host.command(line);
await host.dispose();
`;

describe.skipIf(unavailable !== null)('the server browser on a virtual LAN of network namespaces', () => {
  let lan: Lan;
  let h1: LanHost, h2: LanHost, h3: LanHost, h4: LanHost, h5: LanHost;
  const servers: ChildProcess[] = [];

  /** Starts a server process in `host` and waits for its "listening on" line. */
  const startServer = (host: LanHost, args: string[]) => startServerIn(lan, host, args, servers);

  beforeAll(async () => {
    for (const entry of [serverEntry]) if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npx electron-vite build" first (npm test does)`);
    await cleanupStaleLans();
    lan = await createLan({ hosts: 5 });
    [h1, h2, h3, h4, h5] = lan.hosts as [LanHost, LanHost, LanHost, LanHost, LanHost];
    await startServer(h1, ['masterserver', '--name', 'LanMaster']);
    const master = ['--master', `${h1.ipv4}:6502`, '--url', 'http://browser.example/'];
    await Promise.all([
      startServer(h2, ['slotserver', '--name', 'Alpha_Slots', '--max-players', '6', ...master]),
      startServer(h3, ['gameserver', '--name', 'Beta_Game', '--max-players', '12']),
      startServer(h4, ['netgame', '--name', 'Mars_Net', '--host', h4.ipv4, ...master]),
    ]);
  }, 60_000);

  afterAll(async () => {
    const exits = servers.map((c) => (c.exitCode !== null ? Promise.resolve(c.exitCode) : new Promise<number | null>((r) => c.once('exit', (code) => r(code)))));
    for (const c of servers) c.kill('SIGTERM');
    const codes = await Promise.race([Promise.all(exits), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
    await lan?.destroy();
    expect(codes).toEqual(servers.map(() => 0));
  }, 30_000);

  it('servers lists the masterserver’s servers and the LAN’s in one table, the server both know once, each with a ping', { timeout: 60_000 }, async () => {
    const child = lan.spawn(h5, process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOST_SCRIPT(repoRoot), h5.broadcast, tempDir('browser-host')], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l.startsWith('{"text"') ? (JSON.parse(l) as { text: string }).text : l));
    const until = async (what: RegExp, ms = 15_000) => {
      try {
        return await waitFor(`a host line matching ${what}`, () => {
          const hit = lines.findIndex((l) => what.test(l));
          if (hit >= 0) return hit;
          if (child.exitCode !== null) throw new Error(`the host exited (${child.exitCode})`);
          return null;
        }, ms, 50);
      } catch (err) {
        throw new Error(`host: no line matching ${what} within ${ms} ms (${(err as Error).message}):\n${lines.join('\n')}\n${stderr}`, { cause: err });
      }
    };
    const run = (command: string) => child.stdin!.write(`${command}\n`);
    try {
      await until(/"ready":true/, 20_000);
      run(`net_master ${h1.ipv4}:6502`);
      // The registrations may still be on their way: ask until the masterserver lists both.
      for (let tries = 0; ; tries++) {
        const from = lines.length;
        run('servers');
        await until(/^type connect <number> to join one of this list|lists no servers|no masterserver list/);
        const table = lines.slice(from);
        if (table.some((l) => /Alpha_Slots.*master\+LAN$/.test(l)) && table.some((l) => /Mars_Net/.test(l))) break;
        if (tries >= 10) throw new Error(`the masterserver never listed both servers:\n${table.join('\n')}`);
        lines.splice(0, lines.length);
      }
      const header = lines.findIndex((l) => /^ {2}# {2}name/.test(l));
      const rows = lines.slice(header + 1, header + 4);
      console.log(['servers in the game console on a virtual LAN:', ...lines.slice(header, header + 5)].join('\n'));
      expect(lines[header]).toMatch(/^ {2}# {2}name +kind +players {2}ping +address +from$/);
      expect(rows.map((r) => r.trim().split(/ {2,}|(?<=\d) (?=\d+\.\d ms)| (?=master|LAN)/).map((c) => c.trim()))).toEqual([
        ['1', 'Alpha_Slots', 'slotserver', '0/6', expect.stringMatching(/^\d+\.\d ms$/), `${h2.ipv4}:${SLOTSERVER_PORT}`, 'master+LAN'],
        ['2', 'Beta_Game', 'gameserver', '0/12', expect.stringMatching(/^\d+\.\d ms$/), `${h3.ipv4}:${GAMESERVER_PORT}`, 'LAN'],
        ['3', 'Mars_Net', 'netgame', expect.stringMatching(/^\d+\/\d+$/), expect.stringMatching(/^\d+\.\d ms$/), `${h4.ipv4}:${NETGAME_PORT}`, 'master'],
      ]);
      expect(lines.at(header + 4)).toBe("type connect <number> to join one of this list (the masterserver's and the LAN's; servers lan lists only the LAN's)");
    } finally {
      child.stdin!.end();
      const code = await Promise.race([new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', r))), new Promise((r) => setTimeout(() => r('hung'), 5000))]);
      if (code !== 0) child.kill('SIGKILL');
    }
  });
});
