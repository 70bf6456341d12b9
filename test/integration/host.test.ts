import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import type { HostEvent } from '../../src/shared/host/contract';
import { tempDir } from '../support/testRun';
import { waitFor } from '../support/waitFor';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { ConsoleSequence } from '../../src/shared/host/consoleSequence';

const udpHandles = () => process.getActiveResourcesInfo().filter((r) => r === 'UDPWrap').length;

interface Harness {
  host: HostService;
  dir: string;
  events: HostEvent[];
  quits: number;
  /** Runs a line and returns the console text it printed. */
  run(line: string): Promise<string>;
}

const hosts: HostService[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

async function harness(dir = tempDir('host')): Promise<Harness> {
  let quits = 0;
  const host = await createHost({
    shell: 'browser',
    appVersion: '0.0.0-test',
    userDataDir: dir,
    clientPort: await freeUdpPorts(P2P_PORT_SPAN),
    broadcastAddress: '127.255.255.255',
    lanInterfaces: [],
    log: pino({ level: 'silent' }),
    onQuit: () => void (quits += 1),
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  host.onEvents((batch) => events.push(...batch));
  const h: Harness = {
    host,
    dir,
    events,
    get quits() {
      return quits;
    },
    run: async (line) => {
      await new Promise((r) => setImmediate(r));
      const from = events.length;
      await host.command(line);
      await new Promise((r) => setImmediate(r));
      return events
        .slice(from)
        .flatMap((e) => (e.kind === 'console' ? [e.text] : []))
        .join('\n');
    },
  };
  return h;
}

describe('host console commands', () => {
  it('starts with udp and offline bound and lists them under subsystems', async () => {
    const { run } = await harness();
    const out = await run('subsystems');
    expect(out).toMatch(/packetapi\s+udp\s+choices: udp, udp6/);
    expect(out).toMatch(/protocol\s+offline/);
  });

  it('packetapi switches live to udp6 and back, and the choice is remembered', async () => {
    const { run, dir } = await harness();
    expect(await run('packetapi udp6')).toMatch(/^packetapi udp -> udp6: listening on port \d+$/);
    expect(await run('subsystems')).toMatch(/packetapi\s+udp6/);
    await waitFor('the choice saved', () => {
      try {
        return (JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as { packetApi?: string }).packetApi === 'udp6';
      } catch {
        return false; // not written yet
      }
    });
    expect(await run('packetapi udp')).toMatch(/^packetapi udp6 -> udp: /);
  });

  it('packetapi with an unknown name says so in one line and keeps the binding', async () => {
    const { run } = await harness();
    const out = await run('packetapi ipx');
    expect(out.split('\n')).toHaveLength(1);
    expect(out).toContain("unknown packetapi 'ipx'");
    expect(await run('packetapi')).toMatch(/^packetapi is udp: listening on port \d+$/);
  });

  it('protocol shows the offline protocol, whose connect and disconnect explain themselves', async () => {
    const { run } = await harness();
    expect(await run('protocol')).toBe('protocol is offline: single player, no packets are sent');
    expect(await run('connect 10.0.0.1')).toContain('you are playing offline');
    // Every network model is named, so a player can pick one.
    for (const model of ['p2p', 'lockstep', 'slotserver', 'gameserver', 'netgame']) expect(await run('connect')).toContain(model);
    expect(await run('disconnect')).toBe('disconnect: not connected (protocol offline)');
    expect(await run('protocol ipx')).toContain("unknown protocol 'ipx'");
  });

  it('players, join and unjoin exist offline and say how to get into a game', async () => {
    const { run } = await harness();
    expect(await run('players')).toMatch(/^players: not in a network game — you are playing offline, alone; to play with others: protocol p2p \(then connect\)/);
    expect(await run('join')).toMatch(/^join: you are playing offline, where your ship is always in the game; join enters a network game after connect — protocol p2p/);
    expect(await run('unjoin')).toBe('unjoin: not in a network game (protocol offline)');
    expect(await run('help players')).toMatch(/^usage: players\n {2}list the players/);
  });

  it('every command, offline and peer-to-peer, names itself once in help', async () => {
    const { run, host } = await harness();
    for (const protocol of ['offline', 'p2p']) {
      if (protocol !== 'offline') await run(`protocol ${protocol}`);
      for (const cmd of host.console.commands()) {
        const usage = (await run(`help ${cmd.name}`)).split('\n')[0] ?? '';
        expect(usage, `${protocol}: help ${cmd.name}`).toMatch(new RegExp(`^usage: ${cmd.name}(?: |$)`));
        expect(usage, `${protocol}: help ${cmd.name}`).not.toMatch(new RegExp(`^usage: ${cmd.name} ${cmd.name}\\b`, 'i'));
      }
    }
    await run('protocol offline');
  });

  it('a protocol brings its commands on init and takes them away on kill', async () => {
    const { run, host } = await harness();
    expect(await run('protocol offline')).toBe('protocol offline -> offline: single player, no packets are sent');
    expect(await run('packetapi udp6')).toMatch(/-> udp6/); // restarts the protocol too
    expect(host.console.commands().filter((c) => c.name === 'connect')).toHaveLength(1);
    await host.subsystems.killAll();
    expect(host.console.command('connect')).toBeUndefined();
  });

  it('name refuses bad names with a reason and accepts good ones', async () => {
    const h = await harness();
    expect(await h.run('name ' + 'x'.repeat(20))).toContain('at most 16 characters');
    expect(await h.run('name Red Baron')).toBe('you are now known as Red Baron');
    expect(h.events).toContainEqual(expect.objectContaining({ kind: 'settings', settings: expect.objectContaining({ playerName: 'Red Baron' }) }));
    expect(await h.run('name')).toBe('your name is "Red Baron"');
  });

  it('unknown commands and wrong argument counts get one clear line each', async () => {
    const { run } = await harness();
    expect(await run('stast')).toMatch(/^unknown command "stast" — did you mean "stats"/);
    expect(await run('clear now')).toMatch(/^usage: clear/);
  });

  it('stats reports the renderer loop figures once they arrive', async () => {
    const { run, host } = await harness();
    expect(await run('stats')).toContain('no frame statistics yet');
    host.frame({ frame: 300, tick: 200, stats: { tickHz: 40, fps: 60, frameMsP50: 16.6, frameMsP95: 17, frameMsP99: 20, windowS: 5, ticks: 200, frames: 300 } });
    const out = await run('stats');
    expect(out).toContain('tick rate 40.0 Hz  fps 60.0  over 5.0 s');
    expect(out).toMatch(/packets in 0 \(0 B\)/);
  });

  it('the archived sensitivity cvar checks its range and survives a restart', async () => {
    const first = await harness();
    expect(await first.run('sensitivity 50')).toContain('0.1');
    await first.run('sensitivity 2.5');
    await first.host.dispose();
    const second = await harness(first.dir);
    expect(second.host.console.cvar('sensitivity')?.text).toBe('2.5');
  });

  it('history is kept across restarts, newest last', async () => {
    const first = await harness();
    await first.run('name a');
    await first.run('subsystems');
    await first.host.dispose();
    const second = await harness(first.dir);
    expect(second.host.hello().settings.history).toEqual(['name a', 'subsystems']);
  });

  it('a page that connects late still gets the start-up lines, up to a bounded backlog', async () => {
    const { host, run } = await harness();
    expect(host.hello().consoleBacklog[0]?.text).toMatch(/^Starlane 0\.0\.0-test — press `/);
    await run('clear');
    for (let i = 0; i < 600; i++) host.print(`line ${i}`);
    const backlog = host.hello().consoleBacklog;
    expect(backlog).toHaveLength(500);
    expect(backlog.at(-1)?.text).toBe('line 599');
  });

  it('a page attaching while lines are still queued shows each line once', async () => {
    const { host } = await harness();
    await new Promise((r) => setImmediate(r)); // start-up lines delivered
    const page: string[] = [];
    host.print('queued before hello');
    host.clearConsole();
    host.print('queued after the clear');
    // The page asks for the snapshot in the same turn: the events above are in it and still on their way.
    const snapshot = host.hello();
    for (const line of snapshot.consoleBacklog) page.push(line.text);
    const seq = new ConsoleSequence(snapshot);
    const batches: HostEvent[][] = [];
    host.onEvents((batch) => batches.push(batch));
    host.print('printed after hello');
    await new Promise((r) => setImmediate(r));
    for (const ev of batches.flat()) {
      if (ev.kind === 'console' && seq.fresh(ev)) page.push(ev.text);
      if (ev.kind === 'console-clear' && seq.fresh(ev)) page.length = 0;
    }
    expect(page).toEqual(['queued after the clear', 'printed after hello']);
  });

  it('quit tells the renderer and the shell', async () => {
    const h = await harness();
    await h.run('quit');
    expect(h.events).toContainEqual({ kind: 'quit' });
    expect(h.quits).toBe(1);
  });

  it('a started and disposed host leaves no UDP socket behind', async () => {
    const before = udpHandles();
    const { host, run } = await harness();
    await run('packetapi udp6');
    expect(udpHandles()).toBe(before + 1);
    await host.dispose();
    expect(udpHandles()).toBe(before);
  });
});
