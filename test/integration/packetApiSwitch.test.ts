/**
 * Switching the packet API in the middle of a game: the protocol stops
 * before the socket under it closes, so the other players hear the player
 * leave at once instead of timing them out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { twoInOneLanGame, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

describe('packet API switch during a game', () => {
  it('a player who switches to udp6 in a LAN game leaves it cleanly: the other sees "bravo left", not a timeout', async () => {
    const [a, b] = await twoInOneLanGame('p2p');
    hosts.push(a, b);

    await b.run('packetapi udp6');
    await until('bravo told it left, then switched', () => /leaving the peer-to-peer game\npacketapi udp -> udp6: listening on port \d+/.test(b.text()));
    await until('alpha sees bravo leave', () => /^bravo left$/m.test(a.text()));
    expect(a.text()).not.toMatch(/timed out/);
    expect(b.host.subsystems.describe()).toEqual({ packetapi: 'udp6', protocol: 'p2p', sound: 'webaudio' });
  });
});
