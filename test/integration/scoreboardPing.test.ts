/**
 * The scoreboard's ping column end to end on the host side: two full hosts
 * in a p2p game over real UDP on loopback; each host's world views (what
 * the page draws the scoreboard from) carry its round trip to the other
 * player, none for itself, and follow the link when it gets slower.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WorldView } from '../../src/shared/game/view';
import { twoInOneLanGame, until, type TestHost } from '../support/testHost';

const hosts: TestHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.host.dispose()));
});

/** The newest world view the host sent its pages. */
const latestView = (h: TestHost): WorldView | undefined => {
  for (let i = h.events.length - 1; i >= 0; i--) {
    const e = h.events[i];
    if (e?.kind === 'world') return e.view;
  }
  return undefined;
};
const pingFor = (h: TestHost, slot: number) => latestView(h)?.pings.find((p) => p.slot === slot)?.ms;

describe('scoreboard ping in a p2p game', () => {
  it("each host's world views carry its round trip to the other player, none for itself, and follow a slower link", async () => {
    const [a, b] = await twoInOneLanGame('p2p');
    hosts.push(a, b);

    // Pings go out once a second: the first Pong puts the figure in the next world view.
    const toAlpha = await until("bravo's round trip to alpha in its world view", () => pingFor(b, 0));
    const toBravo = await until("alpha's round trip to bravo in its world view", () => pingFor(a, 1));
    console.log(`scoreboard ping on loopback: bravo -> alpha ${toAlpha} ms, alpha -> bravo ${toBravo} ms`);
    for (const ms of [toAlpha, toBravo]) {
      expect(Number.isInteger(ms)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(0);
      // A breakage guard, not a speed target (the figure is printed above): a second on loopback is a broken measurement.
      expect(ms).toBeLessThan(1000);
    }
    // No link to ourselves peer to peer: our own rows have no figure.
    expect(latestView(b)?.localSlot).toBe(1);
    expect(pingFor(b, 1)).toBeUndefined();
    expect(pingFor(a, 0)).toBeUndefined();

    // 100 ms added to every datagram bravo sends and receives: both figures climb past 100 ms within seconds.
    await b.run('net_fakelag 100');
    await until('bravo sees the slower link to alpha', () => (pingFor(b, 0) ?? 0) > 100, 15_000);
    await until('alpha sees the slower link to bravo', () => (pingFor(a, 1) ?? 0) > 100, 15_000);
  });
});
