/**
 * Switching the packet API in the middle of a game: the protocol stops
 * before the socket under it closes, so the other players hear the player
 * leave at once instead of timing them out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, until, type TestHost } from '../support/testHost';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const hosts: TestHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

describe('packet API switch during a game', () => {
  it('a player who switches to udp6 in a LAN game leaves it cleanly: the other sees "bravo disconnected", not a timeout', async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    for (const name of ['alpha', 'bravo']) hosts.push(await startTestHost(name, { protocol: 'p2p', clientPort: port }));
    const [a, b] = hosts as [TestHost, TestHost];
    await a.run('connect');
    await until('alpha alone in its game', () => /connected to the peer-to-peer game as slot 0/.test(a.text()));
    await b.run('connect');
    await until('bravo in the game', () => /connected to the peer-to-peer game as slot 1/.test(b.text()));

    await b.run('packetapi udp6');
    await until('bravo told it left, then switched', () => /leaving the peer-to-peer game\npacketapi udp -> udp6: listening on port \d+/.test(b.text()));
    await until('alpha sees bravo leave', () => /bravo disconnected/.test(a.text()));
    expect(a.text()).not.toMatch(/timed out/);
    expect(b.host.subsystems.describe()).toEqual({ packetapi: 'udp6', protocol: 'p2p' });
  });
});
