/**
 * The `slotserver` protocol end to end: a real slotserver (TCP) and two full
 * hosts in this process; slots from the server, game packets peer to peer
 * over real UDP on loopback.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { until } from '../support/testHost';
import { hostsAndServersPerTest } from '../support/hostsAndServers';
import { startSlotserver } from '../../src/node/servers/slot/slotserver';
import { parseTarget } from '../../src/node/protocol/serverPick';

const { node, servers } = hostsAndServersPerTest('slotserver');


describe('slotserver protocol', () => {
  it('parses connect targets', () => {
    expect(parseTarget('example.org')).toEqual({ host: 'example.org', port: 6582 });
    expect(parseTarget('10.0.0.5:7000')).toEqual({ host: '10.0.0.5', port: 7000 });
    expect(parseTarget('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    expect(parseTarget('::1')).toEqual({ host: '::1', port: 6582 });
    expect(parseTarget('host:99999')).toBeNull();
  });

  it('two players get slots from the server, hear the welcome, and play peer to peer', async () => {
    const server = await startSlotserver({ name: 'Test Slots', log: pino({ level: 'silent' }), port: 0, host: '127.0.0.1', maxPlayers: 4, welcome: ['welcome aboard', 'no camping at the gate'] });
    servers.push(server);
    const target = `127.0.0.1:${server.ports.tcp}`;
    const a = await node('alpha');
    const b = await node('bravo');
    await a.run(`connect ${target}`);
    await until('alpha joined', () => /joined slotserver "Test Slots" as slot 0/.test(a.text()));
    expect(a.text()).toContain('Test Slots: welcome aboard');
    expect(a.deliveries('chat')).toContainEqual(expect.objectContaining({ from: 'Test Slots', text: 'welcome aboard' }));
    await b.run(`connect ${target}`);
    await until('bravo joined', () => /as slot 1/.test(b.text()));
    await until('each knows the other', () => /bravo connected \(slot 1\)/.test(a.text()) && /alpha connected \(slot 0\)/.test(b.text()));

    a.host.frame({ frame: 1, tick: 0, input: { thrust: 1, yaw: 0.2, pitch: 0, roll: 0, fire: false } });
    await until('alpha state at bravo', () => b.deliveries('state').some((d) => d.kind === 'state' && d.slot === 0));
    await b.run('say hi from bravo');
    await until('chat at alpha', () => /bravo: hi from bravo/.test(a.text()));

    await a.run('name goose');
    await until('rename reaches bravo', () => b.deliveries('players').some((d) => d.kind === 'players' && d.players.some((p) => p.name === 'goose')));
    expect((server as unknown as { players(): { name: string }[] }).players().map((p) => p.name).sort()).toEqual(['bravo', 'goose']);

    await b.run('disconnect');
    await until('alpha hears bravo left', () => /^bravo left$/m.test(a.text()));
    await until('bravo is out', () => /disconnected from the slotserver/.test(b.text()));
  });

  it('joined players keep their seats past the silence timeout by the time-sync requests their clients send', async () => {
    // A 1 s silence timeout: a client that stopped asking the time would lose its seat within a second or two.
    const server = await startSlotserver({ name: 'Alive', log: pino({ level: 'silent' }), port: 0, host: '127.0.0.1', maxPlayers: 4, welcome: [], silenceTimeoutMs: 1000 });
    servers.push(server);
    const a = await node('alpha');
    const b = await node('bravo');
    await a.run(`connect 127.0.0.1:${server.ports.tcp}`);
    await b.run(`connect 127.0.0.1:${server.ports.tcp}`);
    await until('both joined', () => server.playerCount() === 2);
    // Checked at every poll for four silence timeouts; the clients ask the time in bursts, then once a second.
    const start = server.udpStats().timeSyncAnswered;
    const t0 = performance.now();
    await until('four silence timeouts with both seated', () => {
      expect(server.playerCount(), 'both still seated').toBe(2);
      return performance.now() - t0 >= 4000;
    });
    const answered = server.udpStats().timeSyncAnswered - start;
    console.log(`slotserver with a 1 s silence timeout: 2 real clients seated for 4 s, ${answered} time-sync requests answered meanwhile`);
    expect(answered).toBeGreaterThanOrEqual(6);
    expect(a.text()).not.toMatch(/removed/);
    expect(b.text()).not.toMatch(/removed/);
  });

  it('re-binding the protocol while joined reconnects to the same server', async () => {
    const server = await startSlotserver({ name: 'Again', log: pino({ level: 'silent' }), port: 0, host: '127.0.0.1', maxPlayers: 4, welcome: [] });
    servers.push(server);
    const a = await node('alpha');
    await a.run(`connect 127.0.0.1:${server.ports.tcp}`);
    await until('joined', () => /joined slotserver "Again" as slot 0/.test(a.text()));
    await a.run('protocol slotserver');
    await until('left and joined again', () => /leaving slotserver "Again"[\s\S]*protocol slotserver -> slotserver[\s\S]*joined slotserver "Again" as slot 0/.test(a.text()));
  });

  it('a full server and a vanished server each give one clear line', async () => {
    const server = await startSlotserver({ name: 'Tiny', log: pino({ level: 'silent' }), port: 0, host: '127.0.0.1', maxPlayers: 1, welcome: [] });
    servers.push(server);
    const target = `127.0.0.1:${server.ports.tcp}`;
    const a = await node('alpha');
    const b = await node('bravo');
    await a.run(`connect ${target}`);
    await until('alpha joined', () => /as slot 0/.test(a.text()));
    await b.run(`connect ${target}`);
    await until('bravo refused', () => /connect failed: server full/.test(b.text()));
    await servers.pop()?.close();
    await until('alpha told the server closed', () => /^the slotserver "Tiny" closed: server shutting down\. You are not in a game — servers lists the others, or connect host\[:port\] joins one$/m.test(a.text()));
    const c = await node('charlie');
    await c.run(`connect ${target}`);
    await until('nothing there', () => /connect failed: nothing is listening/.test(c.text()));
  });
});
