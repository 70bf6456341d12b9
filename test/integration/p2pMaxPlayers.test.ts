/**
 * `net_maxplayers` is read when p2p starts a connect, not when the protocol
 * is bound: changed while p2p is bound, it sizes the next game.
 */
import { afterEach, describe, it } from 'vitest';
import { startTestHost, until, type TestHost } from '../support/testHost';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const hosts: TestHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

describe('net_maxplayers', () => {
  it('changed while p2p is bound, it sizes the next game: with 2 a third player is told the game is full, with 3 all three play', { timeout: 30_000 }, async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    for (const name of ['alpha', 'bravo', 'charlie']) hosts.push(await startTestHost(name, { protocol: 'p2p', clientPort: port }));
    const [a, b, c] = hosts as [TestHost, TestHost, TestHost];
    const slotOf = (h: TestHost, from: number) => /connected to the peer-to-peer game as slot (\d)/.exec(h.text().slice(from))?.[1];

    // p2p is running (bound with the default of 4); the players agree on 2 and connect.
    for (const h of hosts) await h.run('net_maxplayers 2');
    await a.run('connect');
    await until('alpha alone in its game', () => slotOf(a, 0) === '0');
    await b.run('connect');
    await until('bravo in the second slot', () => slotOf(b, 0) === '1');
    await c.run('connect');
    await until('charlie refused', () => /connect failed: game full \(2 of 2 slots taken\)/.test(c.text()));

    // Still without rebinding: 3 applies from the next connect.
    for (const h of [a, b]) await h.run('disconnect');
    const from = hosts.map((h) => h.text().length);
    for (const h of hosts) await h.run('net_maxplayers 3');
    await a.run('connect');
    await until('alpha starts a new game', () => slotOf(a, from[0] ?? 0) === '0');
    await b.run('connect');
    await until('bravo joins it', () => slotOf(b, from[1] ?? 0) === '1');
    await c.run('connect');
    await until('charlie gets the third slot', () => slotOf(c, from[2] ?? 0) === '2');
  });
});
