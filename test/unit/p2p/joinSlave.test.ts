/**
 * Join/unjoin carried by the header flag of every packet, and the slave
 * timeout of the slot-request loop.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_P2P_CONFIG } from '../../../src/shared/p2p';
import { NEUTRAL_STATE } from '../../../src/shared/p2p/packets';
import { PacketType } from '../../../src/shared/wire/types';
import { formGame, noticesOf, SimNet, type SimNode } from '../../support/simnet';

const CFG = DEFAULT_P2P_CONFIG;

function joinedAt(observer: SimNode, subject: SimNode): boolean | undefined {
  return observer.peer.players().find((p) => p.slot === subject.peer.slot())?.joined;
}

describe('join and unjoin', () => {
  it('a lost packet carrying the join is repaired by the next packet (a GameState)', () => {
    const net = new SimNet({ seed: 31, latencyMs: [1, 30] });
    const [a, b] = formGame(net, [1, 2]) as [SimNode, SimNode];
    net.run(600);
    let dropped = 0;
    net.dropRule = (from, to) => from === a && to === b && dropped++ === 0;
    a.peer.join(net.now);
    expect(joinedAt(a, a)).toBe(true);
    net.run(100);
    expect(dropped).toBeGreaterThan(0);
    expect(joinedAt(b, a)).toBe(false);
    a.peer.sendGameState(net.now, { gameTime: net.now, state: NEUTRAL_STATE }, []);
    net.run(40);
    expect(joinedAt(b, a)).toBe(true);
    const changed = noticesOf(b, 'player-changed').filter((c) => c.notice.player.slot === a.peer.slot());
    expect(changed.map((c) => c.notice.player.joined)).toEqual([true]);
    const states = noticesOf(b, 'game-state');
    expect(states).toHaveLength(1);
    expect(states[0]?.notice.packet.header.joined).toBe(true);
  });

  it('a lost packet carrying the unjoin is repaired by the next NodeAlive', () => {
    const net = new SimNet({ seed: 32, latencyMs: [1, 30] });
    const [a, b] = formGame(net, [1, 2]) as [SimNode, SimNode];
    a.peer.join(net.now);
    net.run(100);
    expect(joinedAt(b, a)).toBe(true);
    let dropped = 0;
    net.dropRule = (from, to, packet) => from === a && to === b && packet.header.type === PacketType.NodeAlive && dropped++ === 0;
    a.peer.unjoin(net.now);
    net.run(100);
    expect(dropped).toBe(1);
    expect(joinedAt(b, a)).toBe(true);
    net.run(CFG.aliveIntervalMs);
    expect(joinedAt(b, a)).toBe(false);
    expect(a.peer.slot()).not.toBeNull(); // the slot stays while unjoined
  });

  it('a joined peer that keeps sending GameStates sends no NodeAlive in between, and stays alive', () => {
    const net = new SimNet({ seed: 33, log: true });
    const [a, b] = formGame(net, [1, 2]) as [SimNode, SimNode];
    a.peer.join(net.now);
    const from = net.sent.length;
    for (let i = 0; i < 100; i++) {
      net.run(40);
      a.peer.sendGameState(net.now, { gameTime: net.now, state: NEUTRAL_STATE }, []);
    }
    const alives = net.sent.slice(from).filter((s) => s.from === a.index && s.packet.header.type === PacketType.NodeAlive);
    // Only the slow name/keepalive refresh (every 4 alive intervals) goes out.
    expect(alives.length).toBeLessThanOrEqual(Math.ceil((100 * 40) / (4 * CFG.aliveIntervalMs)));
    expect(b.peer.players()).toHaveLength(2);
    expect(noticesOf(b, 'player-removed')).toEqual([]);
  });
});

describe('slave timeout', () => {
  it('a slave whose temporary master dies before assigning slots fails once with "slave-timeout" and a clear message', () => {
    const net = new SimNet({ seed: 34, latencyMs: [1, 30] });
    const master = net.addNode(20);
    const slave = net.addNode(10);
    net.connect(master);
    net.connect(slave);
    net.run(100);
    expect(slave.peer.state).toBe('slave');
    net.crash(master);
    net.run(CFG.startupWindowMs + CFG.slaveTimeoutMs);
    const failed = noticesOf(slave, 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.notice.reason).toBe('slave-timeout');
    expect(failed[0]?.notice.message).toBe('no slot assigned: the starting game at 10.0.0.20:6526 stopped answering (gave up after 2000 ms)');
    // Within slaveTimeoutMs of becoming a slave (it did within one delay of connect), plus a tick.
    expect((failed[0]?.at ?? Infinity) - (slave.connectAt ?? 0)).toBeLessThanOrEqual(30 + CFG.slaveTimeoutMs + net.stepMs);
    expect(slave.peer.state).toBe('failed');
    net.run(5000);
    expect(slave.notices.map((n) => n.notice.kind)).toEqual(['failed']);
    // The user types connect again: alone now, it starts its own game.
    net.connect(slave);
    net.run(CFG.startupWindowMs + 10);
    expect(slave.peer.slot()).toBe(0);
  });

  it('a slave forwards the requests it holds, so a node only its slave heard of still gets a slot', () => {
    const net = new SimNet({ seed: 35, latencyMs: [1, 30] });
    const [high, mid, low] = [30, 20, 10].map((i) => net.addNode(i)) as [SimNode, SimNode, SimNode];
    // The lowest node hears nobody but the middle one, and nobody but the middle one hears it.
    net.dropRule = (from, to) => (from === low && to === high) || (from === high && to === low);
    for (const n of [high, mid, low]) net.connect(n);
    // The master's reply cannot reach the lowest node; the middle one, connected, answers its next SlotRequest.
    net.run(CFG.startupWindowMs + 30 + CFG.slotRequestIntervalMs + 2 * 30 + 10);
    expect([high, mid, low].map((n) => n.peer.slot())).toEqual([0, 1, 2]);
    expect(low.peer.players().map((p) => p.addr[4])).toEqual([30, 20, 10]);
  });
});
