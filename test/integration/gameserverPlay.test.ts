/**
 * The `gameserver` protocol end to end: a real gameserver (TCP join + UDP
 * relay) and three full hosts in this process over loopback.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { until } from '../support/testHost';
import { hostsAndServersPerTest } from '../support/hostsAndServers';
import { startGameserver } from '../../src/node/servers/game/gameserver';

const { node, servers } = hostsAndServersPerTest('gameserver');


describe('gameserver protocol', () => {
  it('three players play through the gameserver: states and chat are relayed to each', async () => {
    const server = await startGameserver({ name: 'Test_GS', log: pino({ level: 'silent' }), port: 0, udpPort: 0, host: '127.0.0.1', maxPlayers: 8, welcome: ['hello pilots'] });
    servers.push(server);
    const target = `127.0.0.1:${server.ports.tcp}`;
    const players = [await node('alpha'), await node('bravo'), await node('charlie')];
    for (const [i, p] of players.entries()) {
      await p.run(`connect ${target}`);
      await until(`${i} joined`, () => new RegExp(`joined gameserver "Test_GS" as slot ${i}`).test(p.text()));
    }
    expect(players[0]?.text()).toContain('Test_GS: hello pilots');
    // Every player flies (each host runs its game); each must receive the two others' ships.
    players.forEach((p, i) => p.host.frame({ frame: 1, tick: 0, input: { thrust: 1, yaw: i * 0.3, pitch: 0, roll: 0, fire: false } }));
    for (const [i, p] of players.entries()) {
      for (const other of [0, 1, 2].filter((s) => s !== i)) await until(`states of ${other} at ${i}`, () => p.states(other) > 3);
    }
    // Each game acknowledges the Relays it takes (wire v14), so the server sends it the others' states partial, and they keep coming.
    await until('partial states to every player', () => server.stats().clients.every((c) => c.statesPartial > 0 && c.relaysAcknowledged > 0));
    const taken = players.map((p, i) => [0, 1, 2].filter((s) => s !== i).map((o) => p.states(o)));
    for (const [i, p] of players.entries()) {
      for (const [k, other] of [0, 1, 2].filter((s) => s !== i).entries()) await until(`more states of ${other} at ${i}`, () => p.states(other) > (taken[i]?.[k] ?? 0) + 10);
    }
    const partial = server.stats().clients.map((c) => `${c.statesPartial}/${c.statesSent}`);
    console.log(`gameserver play: states sent partial per player ${partial.join(', ')}`);
    await players[2]?.run('say relayed hello');
    await until('chat at alpha', () => /charlie: relayed hello/.test(players[0]?.text() ?? ''));
    await until('chat at bravo', () => /charlie: relayed hello/.test(players[1]?.text() ?? ''));
    await players[1]?.run('disconnect');
    await until('alpha sees bravo leave', () => /^bravo left$/m.test(players[0]?.text() ?? ''));
  });
});
