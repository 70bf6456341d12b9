/**
 * A game's life on the simulated LAN: a lone node starts it, later nodes
 * enter, a fifth is refused, nodes crash and disconnect and their slots are
 * reused.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_P2P_CONFIG, P2pPeer } from '../../../src/shared/p2p';
import { PacketType } from '../../../src/shared/wire/types';
import { agreedTable, formGame, noticesOf, SimNet, simAddr, type SimNode } from '../../support/simnet';

const CFG = DEFAULT_P2P_CONFIG;
const STEP = 5;

describe('a lone node and later arrivals', () => {
  it('a lone node starts its own game at the end of the start-up window; later nodes get slots 1, 2, 3; a fifth is refused with "game full (4 of 4 slots taken)"', () => {
    const net = new SimNet({ seed: 1, latencyMs: [1, 30], stepMs: STEP });
    const [a, b, c, d, e] = [5, 9, 3, 7, 8].map((i) => net.addNode(i)) as [SimNode, SimNode, SimNode, SimNode, SimNode];
    net.connect(a);
    net.run(CFG.startupWindowMs - STEP);
    expect(a.peer.state).toBe('connecting');
    net.run(2 * STEP);
    expect(a.peer.state).toBe('connected');
    expect(a.peer.slot()).toBe(0);
    expect(noticesOf(a, 'connected')[0]?.at).toBeLessThanOrEqual(CFG.startupWindowMs + STEP);

    // Each later node enters the running game: rank 0 answers at once, so it is in within two one-way delays.
    for (const [node, slot] of [[b, 1], [c, 2], [d, 3]] as const) {
      net.run(1000);
      net.connect(node);
      const started = net.now;
      expect(net.runUntil(() => node.peer.state === 'connected', 2 * 30 + STEP)).toBe(true);
      expect(node.peer.slot()).toBe(slot);
      expect(noticesOf(node, 'connected')[0]?.at).toBeLessThanOrEqual(started + 2 * 30);
    }
    net.run(200);
    expect(agreedTable([a, b, c, d])).not.toBeNull();
    expect(a.peer.players().map((p) => [p.slot, p.name])).toEqual([
      [0, 'node5'],
      [1, 'node9'],
      [2, 'node3'],
      [3, 'node7'],
    ]);

    net.connect(e);
    net.run(CFG.startupWindowMs + 100);
    expect(e.peer.state).toBe('failed');
    const failed = noticesOf(e, 'failed');
    expect(failed.map((f) => [f.notice.reason, f.notice.message])).toEqual([['game-full', 'game full (4 of 4 slots taken)']]);
    expect(e.peer.slot()).toBeNull();
    expect(a.peer.players()).toHaveLength(4);
    // The refused node does not start a game of its own: nothing more happens.
    net.run(3000);
    expect(e.notices.map((n) => n.notice.kind)).toEqual(['failed']);
    expect(e.peer.state).toBe('failed');
  });

  it('a failed node can connect again once a slot is free', () => {
    const net = new SimNet({ seed: 2, stepMs: STEP });
    const nodes = formGame(net, [1, 2, 3, 4]);
    const fifth = net.addNode(5);
    net.connect(fifth);
    net.run(CFG.startupWindowMs + 100);
    expect(fifth.peer.state).toBe('failed');
    const leaver = nodes[1] as SimNode;
    const freed = leaver.peer.slot();
    leaver.peer.disconnect(net.now);
    net.run(100);
    net.connect(fifth);
    expect(net.runUntil(() => fifth.peer.state === 'connected', 200)).toBe(true);
    expect(fifth.peer.slot()).toBe(freed);
  });
});

describe('crashes', () => {
  it('a node that goes silent is removed by every other node within aliveTimeoutMs + one tick of the last packet they had from it, and a newcomer gets its slot', () => {
    const net = new SimNet({ seed: 3, latencyMs: [1, 30], stepMs: STEP });
    const nodes = formGame(net, [10, 20, 30, 40]);
    net.run(2000);
    const victim = nodes[2] as SimNode;
    const victimSlot = victim.peer.slot();
    // Record when each survivor last heard from the victim.
    const lastHeard = new Map<number, number>();
    for (const n of nodes) {
      if (n === victim) continue;
      const original = n.peer.receive.bind(n.peer);
      n.peer.receive = (from, packet, now, arrival) => {
        if (from[4] === victim.index) lastHeard.set(n.index, now);
        return original(from, packet, now, arrival);
      };
    }
    net.run(700); // at least one NodeAlive from the victim reaches everyone
    const crashedAt = net.now;
    net.crash(victim);
    net.run(CFG.aliveTimeoutMs + 200);
    for (const n of nodes) {
      if (n === victim) continue;
      const removed = noticesOf(n, 'player-removed');
      expect(removed.map((r) => [r.notice.player.slot, r.notice.reason])).toEqual([[victimSlot, 'timeout']]);
      const at = removed[0]?.at ?? Infinity;
      expect(at - (lastHeard.get(n.index) ?? crashedAt)).toBeLessThanOrEqual(CFG.aliveTimeoutMs + STEP);
      // Its last packets were still in flight for up to one delay (30 ms) after it stopped.
      expect(at - crashedAt).toBeLessThanOrEqual(CFG.aliveTimeoutMs + 30 + STEP);
      expect(n.peer.players()).toHaveLength(3);
    }
    const newcomer = net.addNode(50);
    net.connect(newcomer);
    expect(net.runUntil(() => newcomer.peer.state === 'connected', 200)).toBe(true);
    expect(newcomer.peer.slot()).toBe(victimSlot);
    net.run(200);
    const live = nodes.filter((n) => n !== victim).concat(newcomer);
    expect(agreedTable(live)).not.toBeNull();
    expect(newcomer.peer.players()).toHaveLength(4);
  });
});

describe('disconnect', () => {
  it('frees the slot at every other node as soon as the Disconnect arrives', () => {
    const net = new SimNet({ seed: 4, latencyMs: [1, 30], stepMs: STEP });
    const nodes = formGame(net, [1, 2, 3]);
    const leaver = nodes[0] as SimNode;
    const slot = leaver.peer.slot();
    const at = net.now;
    leaver.peer.disconnect(at);
    expect(leaver.peer.state).toBe('idle');
    expect(leaver.peer.slot()).toBeNull();
    expect(leaver.peer.players()).toEqual([]);
    expect(noticesOf(leaver, 'disconnected')).toHaveLength(1);
    net.run(30 + STEP);
    for (const n of nodes.slice(1)) {
      const removed = noticesOf(n, 'player-removed');
      expect(removed.map((r) => [r.notice.player.slot, r.notice.reason])).toEqual([[slot, 'disconnect']]);
      expect((removed[0]?.at ?? Infinity) - at).toBeLessThanOrEqual(30);
    }
    // The slot is free for the next node.
    const next = net.addNode(9);
    net.connect(next);
    expect(net.runUntil(() => next.peer.state === 'connected', 200)).toBe(true);
    expect(next.peer.slot()).toBe(slot);
  });

  it('carries why the player left ("switched to netgame"); a reason that is no valid line is not passed on', () => {
    for (const [given, heard] of [
      ['switched to netgame', 'switched to netgame'],
      ['  switched\x07 to lockstep\n', 'switched  to lockstep'],
      ['\x00\x01', undefined],
      [undefined, undefined],
    ] as const) {
      const net = new SimNet({ seed: 5, latencyMs: [1, 30], stepMs: STEP });
      const nodes = formGame(net, [1, 2]);
      (nodes[1] as SimNode).peer.disconnect(net.now, given);
      net.run(30 + STEP);
      const removed = noticesOf(nodes[0] as SimNode, 'player-removed');
      expect(removed.map((r) => r.notice.why), JSON.stringify(given)).toEqual([heard]);
    }
  });

  it('frees the slot by the alive timeout when the Disconnect packets are lost', () => {
    const net = new SimNet({ seed: 5, latencyMs: [1, 30], stepMs: STEP });
    const nodes = formGame(net, [1, 2, 3]);
    net.dropRule = (from, _to, packet) => from.index === 1 && packet.header.type === PacketType.Disconnect;
    const leaver = nodes[0] as SimNode;
    const slot = leaver.peer.slot();
    const at = net.now;
    leaver.peer.disconnect(at);
    net.run(CFG.aliveTimeoutMs - 100);
    for (const n of nodes.slice(1)) expect(n.peer.players()).toHaveLength(3);
    net.run(200 + STEP);
    for (const n of nodes.slice(1)) {
      const removed = noticesOf(n, 'player-removed');
      expect(removed.map((r) => [r.notice.player.slot, r.notice.reason])).toEqual([[slot, 'timeout']]);
      // Counted from the last packet heard, which left before the disconnect and took up to 30 ms.
      expect((removed[0]?.at ?? Infinity) - at).toBeLessThanOrEqual(CFG.aliveTimeoutMs + 30 + STEP);
    }
    expect(net.stats.dropped).toBe(2);
  });

  it('a node can connect again after disconnecting and gets a slot back', () => {
    const net = new SimNet({ seed: 6, stepMs: STEP });
    const nodes = formGame(net, [1, 2, 3]);
    const node = nodes[1] as SimNode;
    node.peer.disconnect(net.now);
    net.run(100);
    net.connect(node);
    expect(net.runUntil(() => node.peer.state === 'connected', 300)).toBe(true);
    net.run(200);
    expect(agreedTable(nodes)).not.toBeNull();
    expect(node.peer.players()).toHaveLength(3);
  });

  it('a node that crashed and restarted before its entry timed out gets its old slot back at once', () => {
    const net = new SimNet({ seed: 7, stepMs: STEP });
    const nodes = formGame(net, [1, 2, 3]);
    net.run(1000);
    const old = nodes[0] as SimNode;
    const slot = old.peer.slot();
    net.crash(old);
    net.run(500);
    // Same address, new program (a new P2pPeer).
    const reborn = net.addNode(1);
    net.connect(reborn);
    expect(net.runUntil(() => reborn.peer.state === 'connected', 2 * 30 + STEP)).toBe(true);
    expect(reborn.peer.slot()).toBe(slot);
    net.run(CFG.aliveTimeoutMs + 500);
    const live = nodes.slice(1).concat(reborn);
    expect(agreedTable(live)).not.toBeNull();
    expect(reborn.peer.players()).toHaveLength(3);
    for (const n of nodes.slice(1)) expect(noticesOf(n, 'player-removed')).toEqual([]);
  });
});

describe('P2pPeer basics', () => {
  it('ignores join, unjoin and game states unless connected, and connect unless idle or failed', () => {
    const sent: unknown[] = [];
    const peer = new P2pPeer(simAddr(1), 'solo', { send: (...a) => sent.push(a), broadcast: (p) => sent.push(p) }, () => {});
    peer.join(0);
    peer.sendGameState(0, { gameTime: 0, state: { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 0, damage: 0 } }, []);
    expect(sent).toEqual([]);
    expect(peer.state).toBe('idle');
    peer.connect(0);
    peer.connect(1);
    expect(sent).toHaveLength(1);
    expect(peer.state).toBe('connecting');
  });

  it('rejects invalid configurations with a RangeError naming the field', () => {
    const t = { send: () => {}, broadcast: () => {} };
    expect(() => new P2pPeer(simAddr(1), 'x', t, () => {}, { maxPlayers: 9 })).toThrow(/maxPlayers/);
    expect(() => new P2pPeer(simAddr(1), 'x', t, () => {}, { maxPlayers: 1 })).toThrow(RangeError);
    expect(() => new P2pPeer(simAddr(1), 'x', t, () => {}, { startupWindowMs: 100 })).toThrow(/startupWindowMs/);
    expect(() => new P2pPeer(simAddr(1), 'x', t, () => {}, { aliveTimeoutMs: 100 })).toThrow(/aliveTimeoutMs/);
  });

  it('takes a new configuration when it connects, checked first: an invalid one throws and changes nothing; ignored while connecting', () => {
    const t = { send: () => {}, broadcast: () => {} };
    const peer = new P2pPeer(simAddr(1), 'x', t, () => {});
    expect(() => peer.connect(0, { maxPlayers: 9 })).toThrow(/maxPlayers/);
    expect(peer.state).toBe('idle');
    expect(peer.config.maxPlayers).toBe(4);
    peer.connect(0, { maxPlayers: 6 });
    expect(peer.state).toBe('connecting');
    expect(peer.config.maxPlayers).toBe(6);
    peer.connect(1, { maxPlayers: 2 });
    expect(peer.config.maxPlayers).toBe(6);
  });

  it('derives the start-up window from repeats and interval when only those are given', () => {
    const t = { send: () => {}, broadcast: () => {} };
    expect(new P2pPeer(simAddr(1), 'x', t, () => {}, { connectRequestRepeats: 5, connectRequestIntervalMs: 100 }).config.startupWindowMs).toBe(600);
    expect(new P2pPeer(simAddr(1), 'x', t, () => {}).config).toEqual(DEFAULT_P2P_CONFIG);
  });

  it('makes names wire-valid', () => {
    const t = { send: () => {}, broadcast: () => {} };
    const seen: string[] = [];
    const net = new SimNet({ seed: 8 });
    const nodes = formGame(net, [1, 2]);
    (nodes[0] as SimNode).peer.setName('  Ünïcode\tname that is far too long ', net.now);
    expect((nodes[0] as SimNode).peer.players().find((p) => p.slot === (nodes[0] as SimNode).peer.slot())?.name).toBe('?n?code?name tha');
    net.run(1000);
    expect((nodes[1] as SimNode).peer.players().map((p) => p.name)).toContain('?n?code?name tha');
    const blank = new P2pPeer(simAddr(3), '   ', t, (n) => seen.push(n.kind));
    blank.connect(0);
    blank.tick(CFG.startupWindowMs);
    expect(blank.players().map((p) => p.name)).toEqual(['player']);
  });
});
