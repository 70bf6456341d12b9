/**
 * A lockstep game and a p2p game on one LAN never mix: four hosts on
 * loopback, two of each kind, find only their own kind (the header's
 * lockstep flag), and each pair plays its own game.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostService } from '../../src/node/host/hostService';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { startTestHost, until, type TestHost } from '../support/testHost';

const started: HostService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.dispose()));
});

describe('lockstep and p2p games on one LAN', () => {
  it('each host finds only a game of its own kind', { timeout: 30_000 }, async () => {
    const port = await freeUdpPorts(P2P_PORT_SPAN);
    const hosts: TestHost[] = [];
    for (const [name, protocol] of [['lock1', 'lockstep'], ['peer1', 'p2p'], ['lock2', 'lockstep'], ['peer2', 'p2p']] as const) {
      const t = await startTestHost(name, { protocol, clientPort: port });
      started.push(t.host);
      hosts.push(t);
      await t.host.command('connect');
      // Each connects once the previous one is in a game, so the start-ups do not race.
      await until(`${name} in a game`, () => /connected to the peer-to-peer game as slot/.test(t.text()));
    }
    const names = (t: TestHost) => (t.deliveries('players').at(-1)?.players ?? []).map((p) => p.name).sort();
    await until('two games of two', () => hosts.every((t) => names(t).length === 2));
    const [lock1, peer1, lock2, peer2] = hosts as [TestHost, TestHost, TestHost, TestHost];
    expect(names(lock1)).toEqual(['lock1', 'lock2']);
    expect(names(lock2)).toEqual(['lock1', 'lock2']);
    expect(names(peer1)).toEqual(['peer1', 'peer2']);
    expect(names(peer2)).toEqual(['peer1', 'peer2']);
    await until('lock2 joined the lockstep game', () => /joined the lockstep game at frame/.test(lock2.text()));
    expect(peer1.text()).not.toMatch(/lock1|lock2/);
    // peer1 heard lock2's broadcasts (lock2 connected after it) and dropped them, and says so.
    await peer1.host.command('players');
    await until('the players listing', () => /slot\s+name/.test(peer1.text()));
    expect(peer1.text()).toMatch(/datagrams of the other kind of game dropped \(p2p and lockstep games never mix\): [1-9]/);
  });
});
