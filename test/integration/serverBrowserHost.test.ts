/**
 * The server browser as the host keeps it, against real server processes on
 * loopback: `servers refresh` takes every page through asking, pinging n of
 * m and done, with a ping for each listed server; a favourite whose server
 * has gone stays in the table with no reply; `servers join <kind> <address>`
 * joins by kind and address (switching protocol), and each game joined is
 * recorded as the newest recent server; favourites and recent servers
 * survive a restart; an unreachable masterserver is a reason in words; the
 * `favourite` command refuses what it cannot keep, saying why.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import { queryMaster } from '../../src/node/net/masterQuery';
import type { HostEvent } from '../../src/shared/host/contract';
import type { BrowserState } from '../../src/shared/servers/browserState';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { tempDir } from '../support/testRun';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { waitFor } from '../support/waitFor';

const hosts: HostService[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  stopServers();
});

interface Watched {
  host: HostService;
  events: HostEvent[];
  lines(): string[];
  browsers(): BrowserState[];
  /** Runs a console line and waits until what it printed and changed has reached the pages (events go out once per turn). */
  run(line: string): Promise<void>;
}

async function browserHost(userDataDir = tempDir('browser')): Promise<Watched> {
  const host = await createHost({
    shell: 'browser',
    appVersion: 'test',
    userDataDir,
    clientPort: await freeUdpPorts(P2P_PORT_SPAN),
    lanInterfaces: [],
    broadcastAddress: '127.255.255.255',
    log: pino({ level: 'silent' }),
    onQuit: () => undefined,
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  host.onEvents((b) => events.push(...b));
  return {
    host,
    events,
    lines: () => events.flatMap((e) => (e.kind === 'console' ? [e.text] : [])),
    browsers: () => events.flatMap((e) => (e.kind === 'servers' ? [e.browser] : [])),
    run: async (line) => {
      await host.command(line);
      await new Promise((r) => setImmediate(r));
    },
  };
}

/** A masterserver and `servers` registered with it (each `[kind, name]`), once all are listed. */
async function listedServers(servers: [string, string][]): Promise<{ master: ServerProcess; started: ServerProcess[] }> {
  const master = await startServer(['masterserver', '--name', 'browser-master', '--port', '0']);
  const started = await Promise.all(servers.map(([kind, name]) => startServer([kind, '--name', name, '--port', '0', '--udp-port', '0', '--master', `127.0.0.1:${master.tcp}`, '--url', `http://${name}.example/`])));
  // A gameserver's solar systems (its system: lines) follow its join: listed once they are there too.
  const gameservers = servers.filter(([kind]) => kind === 'gameserver').length;
  await waitFor('every server listed', async () => {
    const listed = await queryMaster('127.0.0.1', master.tcp);
    return listed.length === servers.length && listed.filter((l) => l.systems.length > 0).length === gameservers;
  });
  return { master, started };
}

const row = (state: BrowserState, name: string) => state.rows.find((r) => r.name === name);

describe('the server browser on the host', () => {
  it('servers refresh: asking, pinging n of m, done, a ping for every listed server; a favourite that has gone stays listed with no reply', { timeout: 40_000 }, async () => {
    const { master, started } = await listedServers([
      ['gameserver', 'Browser_Game'],
      ['slotserver', 'Browser_Slots'],
      ['netgame', 'Browser_Net'],
    ]);
    const w = await browserHost();
    await w.run(`net_master 127.0.0.1:${master.tcp}`);
    const from = w.browsers().length;
    await w.run('servers refresh');
    const seen = w.browsers().slice(from);
    const statuses = seen.map((b) => b.status).filter((s, i, all) => s !== all[i - 1]);
    expect(statuses).toEqual(['asking', 'pinging', 'done']);
    const done = w.host.browser;
    expect(done.progress).toEqual({ done: 3, total: 3 });
    expect(done.masterError).toBe('');
    expect(done.rows.map((r) => [r.name, r.kind, r.ping, typeof r.pingMs])).toEqual([
      ['Browser_Game', 'gameserver', 'measured', 'number'],
      ['Browser_Net', 'netgame', 'measured', 'number'],
      ['Browser_Slots', 'slotserver', 'measured', 'number'],
    ]);
    console.log(`browser pings on loopback: ${done.rows.map((r) => `${r.name} ${r.pingMs} ms`).join(', ')}`);
    // Pinging went by the count, never past it.
    for (const b of seen.filter((s) => s.status === 'pinging')) expect(b.progress.done).toBeLessThanOrEqual(3);
    // The console gets one line, not the table.
    expect(w.lines().at(-1)).toBe('servers: 3 servers listed (servers prints the table)');
    expect(w.lines().some((l) => /Browser_Game\s+gameserver/.test(l))).toBe(false);

    // The netgame server becomes a favourite (kind, name and ping port from the table), then stops.
    const net = row(done, 'Browser_Net')!;
    await w.run(`favourite add ${net.address}`);
    expect(w.lines().at(-1)).toBe(`favourite: "Browser_Net" (netgame, ${net.address}) added; 1 favourite`);
    expect(row(w.host.browser, 'Browser_Net')?.favourite).toBe(true);
    started[2]!.child.kill('SIGTERM');
    await started[2]!.exited;
    await w.run('servers refresh');
    const after = row(w.host.browser, 'Browser_Net');
    expect(after).toMatchObject({ favourite: true, fromMaster: false, fromLan: false, ping: 'unreachable', pingMs: null, address: net.address, kind: 'netgame' });
    expect(w.host.browser.progress).toEqual({ done: 3, total: 3 });
    // And `servers` prints the same table, the favourite with no reply.
    await w.run('servers');
    // The gameserver hosts one solar system, Sol: the table has that column, a dash for the others.
    expect(w.lines().filter((l) => /^ +\d+ +Browser_Net/.test(l)).at(-1)).toMatch(/Browser_Net\s+netgame\s+\?\s+no reply\s+127\.0\.0\.1:\d+\s+favourite\s+—$/);
    expect(w.lines().filter((l) => /^ +\d+ +Browser_Game/.test(l)).at(-1)).toMatch(/Browser_Game\s+gameserver\s+0\/64\s+[\d.]+ ms\s+127\.0\.0\.1:\d+\s+master\s+Sol$/);
  });

  it('servers join <kind> <address> joins by kind and address, switching protocol; each game joined becomes the newest recent server; both lists survive a restart', { timeout: 40_000 }, async () => {
    const { master, started } = await listedServers([
      ['gameserver', 'Join_Game'],
      ['slotserver', 'Join_Slots'],
    ]);
    const [game, slots] = started as [ServerProcess, ServerProcess];
    const dir = tempDir('browser-restart');
    const w = await browserHost(dir);
    await w.run(`net_master 127.0.0.1:${master.tcp}`);
    await w.run('servers refresh');
    await w.run(`servers join gameserver 127.0.0.1:${game.tcp}`);
    expect(w.host.browser.joining).toEqual({ kind: 'gameserver', address: `127.0.0.1:${game.tcp}` });
    await waitFor('joined the gameserver', () => w.lines().some((l) => l.startsWith('joined gameserver "Join_Game"')));
    await waitFor('recorded as recent', () => w.host.settings.peek().servers?.recent.length === 1);
    expect(w.host.settings.peek().servers?.recent).toEqual([{ address: `127.0.0.1:${game.tcp}`, kind: 'gameserver', name: 'Join_Game', udp: game.udp }]);
    expect(row(w.host.browser, 'Join_Game')?.recent).toBe(true);
    expect(w.host.browser.joining).toBeNull();

    await w.run(`servers join slotserver 127.0.0.1:${slots.tcp}`);
    await waitFor('joined the slotserver', () => w.lines().some((l) => l.startsWith('joined slotserver "Join_Slots"')));
    expect(w.lines()).toContain('protocol gameserver -> slotserver');
    await waitFor('recorded as recent', () => w.host.settings.peek().servers?.recent.length === 2);
    expect(w.host.settings.peek().servers?.recent.map((s) => s.name)).toEqual(['Join_Slots', 'Join_Game']);
    await w.run(`servers join slotserver 127.0.0.1:${slots.tcp}`);
    expect(w.lines().at(-1)).toBe(`servers join: you are already playing on the slotserver at 127.0.0.1:${slots.tcp} (menu off goes back to the game)`);
    await w.run(`favourite add 127.0.0.1:${game.tcp}`);

    await w.host.dispose();
    hosts.splice(hosts.indexOf(w.host), 1);
    const again = await browserHost(dir);
    // Before any refresh, the kept servers are in the table (players not known, not pinged yet).
    expect(again.host.browser.rows.map((r) => [r.name, r.kind, r.favourite === true, r.recent === true, r.maxPlayers])).toEqual([
      ['Join_Game', 'gameserver', true, true, 0],
      ['Join_Slots', 'slotserver', false, true, 0],
    ]);
    await again.run('favourite');
    expect(again.lines().slice(-2)).toEqual(['favourite servers (1 of at most 50):', `  1  127.0.0.1:${game.tcp} gameserver  Join_Game`]);
  });

  it('an unreachable masterserver is a reason in words, the LAN still asked; servers join and favourite refuse what they cannot use', async () => {
    const w = await browserHost();
    await w.run('net_master 127.0.0.1:1');
    await w.run('servers refresh');
    expect(w.host.browser).toMatchObject({ status: 'done', masterError: 'the masterserver at 127.0.0.1:1 cannot be reached (nothing is listening at 127.0.0.1:1)', lanError: '', rows: [] });
    expect(w.lines().at(-1)).toBe('servers: 0 servers listed; the masterserver at 127.0.0.1:1 cannot be reached (nothing is listening at 127.0.0.1:1) (servers prints the table)');

    const answer = async (line: string) => {
      await w.run(line);
      return w.lines().at(-1);
    };
    expect(await answer('servers join webserver 127.0.0.1:1')).toBe('servers join: say the kind and the address (servers join slotserver|gameserver|netgame <host:port>)');
    expect(await answer('servers join gameserver not/an/address')).toBe('servers join: "not/an/address" is not host[:port]');
    expect(await answer('servers watch webserver 127.0.0.1:1')).toBe('servers watch: say the kind and the address (servers watch slotserver|gameserver|netgame <host:port>)');
    expect(await answer('servers watch gameserver not/an/address')).toBe('servers watch: "not/an/address" is not host[:port]');
    expect(await answer('servers dance')).toBe('servers: unknown argument "dance" (type servers, servers lan, servers refresh, servers join <kind> <host:port> or servers watch <kind> <host:port>)');
    expect(await answer('favourite')).toBe('no favourite servers yet: favourite add <host:port> [kind], or the star in the server browser');
    expect(await answer('favourite add 192.0.2.1:6581')).toBe('favourite: which kind of server is 192.0.2.1:6581? type favourite add 192.0.2.1:6581 slotserver|gameserver|netgame');
    expect(await answer('favourite add 192.0.2.1:6581 webserver')).toBe('favourite: "webserver" is not a kind of server (slotserver, gameserver or netgame)');
    expect(await answer('favourite add not/an/address gameserver')).toBe('favourite: "not/an/address" is not host:port');
    expect(await answer('favourite add 192.0.2.1 netgame')).toBe('favourite: the netgame at 192.0.2.1:6583 added; 1 favourite');
    expect(await answer('favourite remove 192.0.2.9:1')).toBe('favourite: 192.0.2.9:1 is not a favourite (favourite list shows them)');
    expect(await answer('favourite remove 192.0.2.1:6583')).toBe('favourite: 192.0.2.1:6583 removed; 0 left');
    expect(await answer('favourite swap')).toBe('favourite: usage: favourite [list | add <host:port> [slotserver|gameserver|netgame] | remove <host:port>]');
    expect(w.host.browser.rows).toEqual([]);
  });
});
