/**
 * In a slotserver game the peers drop a silent peer themselves, as p2p peers
 * do: the slotserver only runs the table over TCP and cannot see a frozen
 * client (its connection stays open). Three server-run sessions on a memory
 * LAN and a virtual clock; one is frozen (cut off both ways): the other two
 * drop it after the alive timeout, and take it back in its slot when it is
 * heard again.
 */
import { describe, expect, it } from 'vitest';
import { MANAGED_ALIVE_TIMEOUT_MS, type ManagedPeer } from '../../../src/shared/session/managedPeer';
import { MemoryNet } from '../../support/memoryNet';
import { flyingShip, managedNode, runUntil, seatAll, type TestNode } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const slots = (n: TestNode<ManagedPeer>) => n.session.member.players().map((p) => p.slot);

describe('a slotserver game drops a silent peer', () => {
  it('after the alive timeout, at every other peer; the peer is back when heard again', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 3);
    const nodes = ['alpha', 'bravo', 'frozen'].map((name) => managedNode(net, clock, name));
    const [alpha, bravo, frozen] = nodes as [TestNode<ManagedPeer>, TestNode<ManagedPeer>, TestNode<ManagedPeer>];
    clock.setInterval(() => nodes.forEach((n, i) => (n.game.ship = flyingShip(40 * i, clock.now()))), 25);
    // What the slotserver's accept and add lines do at each client.
    seatAll(nodes);
    for (const n of nodes) n.session.requestJoin();
    runUntil(clock, 'everyone joined everywhere', () => nodes.every((n) => n.session.member.players().every((p) => p.joined)), 10_000);

    // The nodes' ends in the order they were added: the frozen one is the third.
    const end = net.ends[2];
    if (!end || !end.nodeEquals(end.localNode(), frozen.api.localNode())) throw new Error('no end for the frozen node');
    end.cut = true;
    const frozenAt = clock.now();
    const droppedAt: number[] = [];
    runUntil(clock, 'alpha and bravo dropped the frozen peer', () => {
      for (const [i, n] of [alpha, bravo].entries()) if (droppedAt[i] === undefined && !slots(n).includes(2)) droppedAt[i] = clock.now() - frozenAt;
      return droppedAt.filter((t) => t !== undefined).length === 2;
    }, 20_000);
    console.log(`slotserver game, a peer frozen: dropped by alpha after ${droppedAt[0]} ms, by bravo after ${droppedAt[1]} ms (alive timeout ${MANAGED_ALIVE_TIMEOUT_MS} ms)`);
    for (const t of droppedAt) {
      expect(t).toBeGreaterThanOrEqual(MANAGED_ALIVE_TIMEOUT_MS);
      // Its last datagram left at most 0.5 s before the freeze; the check runs every 10 ms tick.
      expect(t).toBeLessThanOrEqual(MANAGED_ALIVE_TIMEOUT_MS + 100);
    }
    for (const n of [alpha, bravo]) {
      expect(slots(n)).toEqual([0, 1]);
      expect(n.memberNotices.some((m) => m.kind === 'player-timed-out' && m.player.slot === 2)).toBe(true);
    }
    // The two still play each other.
    const seen = alpha.game.of('state').filter((d) => d.slot === 1).length;
    clock.advance(1_000);
    expect(alpha.game.of('state').filter((d) => d.slot === 1).length).toBeGreaterThan(seen);

    // The freeze ends (10 s in all): it is heard again and is back in slot 2, joined.
    clock.advance(10_000 - (clock.now() - frozenAt));
    end.cut = false;
    runUntil(clock, 'the peer back at alpha and bravo', () => [alpha, bravo].every((n) => n.session.member.players().some((p) => p.slot === 2 && p.joined)), 5_000);
    expect(alpha.memberNotices.some((m) => m.kind === 'player-back' && m.player.slot === 2)).toBe(true);
  });
});
