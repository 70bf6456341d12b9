/**
 * Connect requests reaching a running game: who answers (rank × wait,
 * snooping), what happens when answers or copies are lost, when two nodes
 * arrive at once, and how a slot conflict is settled.
 */
import { describe, expect, it } from 'vitest';
import { addrKey } from '../../../src/shared/wire/addr';
import { PacketType, type Packet } from '../../../src/shared/wire/types';
import { DEFAULT_P2P_CONFIG } from '../../../src/shared/p2p';
import { agreedTable, formGame, mulberry32, noticesOf, SimNet, simAddr, tableKey, type SimNode } from '../../support/simnet';

const CFG = DEFAULT_P2P_CONFIG;
const STEP = 5;

/** Indexes of the nodes that sent a ConnectReply answering `who` (listed in its connectQueue), from the send log. */
function answerers(net: SimNet, who: SimNode): number[] {
  const key = who.key;
  const out = new Set<number>();
  for (const s of net.sent) {
    if (s.packet.header.type !== PacketType.ConnectReply) continue;
    const q = s.packet.events.find((e) => e.type === 'connectQueue');
    if (q?.type === 'connectQueue' && q.addrs.some((a) => addrKey(a) === key)) out.add(s.from);
  }
  return [...out].sort((a, b) => a - b);
}

describe('answering a connect request in a running game', () => {
  it('is done by exactly one peer, the rank-0 (highest-address) one, when nobody has crashed (50 seeds)', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const net = new SimNet({ seed, latencyMs: [1, 30], stepMs: STEP, log: true });
      const game = formGame(net, [10, 20, 30]);
      net.run(600);
      const newcomer = net.addNode(25);
      net.connect(newcomer);
      const t0 = net.now;
      expect(net.runUntil(() => newcomer.peer.state === 'connected', 2 * 30 + STEP)).toBe(true);
      expect(net.now - t0).toBeLessThanOrEqual(2 * 30 + STEP);
      net.run(300);
      expect(answerers(net, newcomer)).toEqual([30]);
      expect(newcomer.peer.slot()).toBe(3);
      expect(agreedTable([...game, newcomer])).not.toBeNull();
      expect(newcomer.peer.players()).toHaveLength(4);
    }
  });

  it('falls to rank 1 after its wait when the rank-0 peer has crashed silently (still in the tables), and to rank 2 when ranks 0 and 1 have', () => {
    for (const crashed of [[40], [40, 30]]) {
      const net = new SimNet({ seed: 11, latencyMs: [1, 30], stepMs: STEP, log: true });
      const config = { maxPlayers: 5 };
      const game = formGame(net, [10, 20, 30, 40], { config });
      net.run(600);
      for (const n of game) if (crashed.includes(n.index)) net.crash(n);
      const newcomer = net.addNode(25, { config });
      net.connect(newcomer);
      const t0 = net.now;
      expect(net.runUntil(() => newcomer.peer.state === 'connected', 500)).toBe(true);
      const took = net.now - t0;
      const rank = crashed.length;
      // Request in ≤ 30 ms, rank × 60 ms wait (checked on a tick), answer back in ≤ 30 ms.
      expect(took).toBeGreaterThanOrEqual(rank * CFG.replyWaitIntervalMs);
      expect(took).toBeLessThanOrEqual(2 * 30 + rank * CFG.replyWaitIntervalMs + STEP);
      net.run(200);
      const live = game.filter((n) => !crashed.includes(n.index));
      expect(answerers(net, newcomer)).toEqual([40 - 10 * rank]);
      // The crashed peers still hold their slots until they time out, so the newcomer gets the next free one.
      expect(newcomer.peer.slot()).toBe(4);
      expect(agreedTable([...live, newcomer])).not.toBeNull();
      net.run(CFG.aliveTimeoutMs + 100);
      expect(newcomer.peer.players()).toHaveLength(live.length + 1);
      expect(agreedTable([...live, newcomer])).not.toBeNull();
    }
  });

  it('gives two nodes arriving at the same moment different slots, or refuses the one that does not fit', () => {
    for (const [members, expectFull] of [
      [[10, 20], 0],
      [[10, 20, 30], 1],
    ] as const) {
      for (let seed = 1; seed <= 30; seed++) {
        const net = new SimNet({ seed, latencyMs: [1, 30], stepMs: STEP });
        const game = formGame(net, [...members]);
        net.run(600);
        const a = net.addNode(40);
        const b = net.addNode(50);
        net.connect(a);
        net.connect(b);
        net.run(CFG.startupWindowMs + 200);
        const all = [...game, a, b];
        const connected = all.filter((n) => n.peer.state === 'connected');
        expect(connected).toHaveLength(Math.min(all.length, CFG.maxPlayers));
        expect(all.filter((n) => n.peer.state === 'failed').map((n) => noticesOf(n, 'failed')[0]?.notice.reason)).toEqual(expectFull ? ['game-full'] : []);
        expect(agreedTable(connected)).not.toBeNull();
        expect(new Set(connected.map((n) => n.peer.slot())).size).toBe(connected.length);
        for (const n of all) expect(noticesOf(n, 'disconnected')).toEqual([]);
      }
    }
  });

  it('repairs a lost answer: the node is told again and ends in the same slot everyone else has for it', () => {
    const net = new SimNet({ seed: 12, latencyMs: [1, 30], stepMs: STEP });
    const game = formGame(net, [10, 20, 30]);
    net.run(600);
    const newcomer = net.addNode(25);
    let dropped = 0;
    net.dropRule = (_from, to, packet) => {
      if (to === newcomer && packet.header.type === PacketType.ConnectReply && dropped < 2) {
        dropped++;
        return true;
      }
      return false;
    };
    net.connect(newcomer);
    expect(net.runUntil(() => newcomer.peer.state === 'connected', CFG.startupWindowMs)).toBe(true);
    expect(dropped).toBe(2);
    net.run(200);
    expect(newcomer.peer.slot()).toBe(3);
    expect(agreedTable([...game, newcomer])).not.toBeNull();
    expect(noticesOf(newcomer, 'connected')).toHaveLength(1);
  });

  it('a node whose every request went unanswered starts alone, then joins the real game when a late answer reaches it', () => {
    const net = new SimNet({ seed: 13, latencyMs: [1, 30], stepMs: STEP });
    const game = formGame(net, [10, 20, 30]);
    net.run(600);
    const newcomer = net.addNode(25);
    // Every answer to the newcomer is lost until it has started a game of its own.
    net.dropRule = (_from, to, packet, at) => to === newcomer && packet.header.type === PacketType.ConnectReply && at < (newcomer.connectAt ?? 0) + CFG.startupWindowMs;
    net.connect(newcomer);
    net.run(CFG.startupWindowMs + 2 * STEP);
    expect(noticesOf(newcomer, 'connected')[0]?.notice.slot).toBe(0);
    net.run(CFG.connectRequestIntervalMs + 100);
    expect(newcomer.peer.slot()).toBe(3);
    expect(noticesOf(newcomer, 'connected').map((c) => c.notice.slot)).toEqual([0, 3]);
    net.run(200);
    expect(agreedTable([...game, newcomer])).not.toBeNull();
  });
});

describe('requests arriving while a temporary master is assigning', () => {
  it('a node whose request reaches the master just before, at or just after the end of its window is never lost (lower and higher newcomer, 5 ms sweep)', () => {
    for (const late of [10, 40]) {
      for (let offset = -60; offset <= 60; offset += 5) {
        const net = new SimNet({ seed: 15, latencyMs: [10, 10], stepMs: STEP });
        const [master, slave] = [30, 20].map((i) => net.addNode(i)) as [SimNode, SimNode];
        const newcomer = net.addNode(late);
        net.connect(master);
        net.connect(slave);
        // Its first broadcast arrives 10 ms after it is sent: at the window end + offset.
        net.schedule(CFG.startupWindowMs + offset - 10, () => net.connect(newcomer));
        net.run(2 * CFG.startupWindowMs + 300);
        const all = [master, slave, newcomer];
        const where = `newcomer ${late}, offset ${offset}`;
        expect(all.map((n) => n.peer.state), where).toEqual(['connected', 'connected', 'connected']);
        expect(agreedTable(all), where).not.toBeNull();
        expect(new Set(all.map((n) => n.peer.slot())).size, where).toBe(3);
        for (const n of all) expect(noticesOf(n, 'disconnected'), where).toEqual([]);
        for (const n of all) expect((n.notices[0]?.at ?? Infinity) - (n.connectAt ?? 0), where).toBeLessThanOrEqual(CFG.startupWindowMs + CFG.slaveTimeoutMs + STEP);
      }
    }
  });
});

describe('slot conflicts after lost packets', () => {
  /**
   * Game 30 (slot 0), 20, 10. Newcomer 5 is answered by rank 0 (30), but
   * everything that would tell 20 and 10 about it is lost for a while (5's
   * request, 30's copies, 5's own packets); newcomer 6's requests are lost
   * to 30, so rank 1 (20) answers it after its wait, not knowing about 5:
   * both get slot 3. The higher address (6) keeps it; 5 learns, asks again.
   */
  function conflict(maxPlayers: number) {
    const net = new SimNet({ seed: 14, latencyMs: [5, 10], stepMs: STEP, log: true });
    const config = { maxPlayers };
    const game = formGame(net, [10, 20, 30], { config });
    net.run(600);
    const five = net.addNode(5, { config });
    const six = net.addNode(6, { config });
    const t0 = net.now;
    const type = (p: Packet) => p.header.type;
    let copiesDropped = 0;
    net.dropRule = (from, to, packet, at) => {
      if (at > t0 + 300) return false;
      const others = to.index === 20 || to.index === 10;
      if (type(packet) === PacketType.ConnectRequest && (from === five || from === six) && (to === five || to === six)) return true;
      if (from === six && to.index === 30 && type(packet) === PacketType.ConnectRequest) return true;
      if (from === five && others) return true;
      if (from.index === 30 && others && type(packet) === PacketType.ConnectReply) {
        copiesDropped++;
        return true;
      }
      return false;
    };
    net.connect(five);
    net.run(20);
    net.connect(six);
    net.run(CFG.startupWindowMs + 1000);
    return { net, game, five, six, copiesDropped };
  }

  it('the higher address keeps the slot, the lower one is told, asks again and is refused when the game is full', () => {
    const { game, five, six, copiesDropped } = conflict(4);
    expect(copiesDropped).toBeGreaterThan(0);
    expect(noticesOf(five, 'connected').map((c) => c.notice.slot)).toEqual([3]);
    expect(noticesOf(six, 'connected').map((c) => c.notice.slot)).toEqual([3]);
    expect(five.peer.state).toBe('failed');
    expect(five.notices.map((n) => n.notice.kind)).toEqual(['connected', 'disconnected', 'failed']);
    expect(six.peer.slot()).toBe(3);
    expect(agreedTable([...game, six])).not.toBeNull();
    expect(tableKey(six).split(' ')).toHaveLength(4);
  });

  it('the loser gets the next free slot when there is one, and every table converges', () => {
    const { game, five, six } = conflict(5);
    expect(six.peer.slot()).toBe(3);
    expect(five.peer.slot()).toBe(4);
    expect(agreedTable([...game, five, six])).not.toBeNull();
    expect(five.peer.players()).toHaveLength(5);
  });
});

describe('game-loop races under loss (staggered arrivals)', () => {
  it('nodes arriving at random times over 1.5 s on a lossy LAN end in one table with min(n, 4) slots; the rest are refused (100 seeds per node count)', { timeout: 30_000 }, () => {
    const problems: string[] = [];
    for (const n of [2, 3, 4, 5, 6]) {
      for (let seed = 1; seed <= 100; seed++) {
        const rand = mulberry32(seed * 104729 + n);
        const net = new SimNet({ seed, latencyMs: [1, 30], loss: 0.05, duplicate: 0.02, reorder: 0.05, reorderDelayMs: 30, stepMs: STEP });
        const idx = new Set<number>();
        while (idx.size < n) idx.add(1 + Math.floor(rand() * 250));
        const nodes = [...idx].map((i) => net.addNode(i));
        for (const node of nodes) net.schedule(Math.floor(rand() * 1500), () => net.connect(node));
        const slotted = Math.min(n, CFG.maxPlayers);
        const ok = net.runUntil(
          () =>
            nodes.every((x) => x.connectAt !== null && (x.peer.state === 'connected' || x.peer.state === 'failed')) &&
            nodes.filter((x) => x.peer.state === 'connected').length === slotted &&
            agreedTable(nodes) !== null,
          1500 + CFG.startupWindowMs + CFG.slaveTimeoutMs + 1000,
        );
        net.run(1000);
        const bad = nodes.flatMap((x) => noticesOf(x, 'failed').filter((f) => f.notice.reason !== 'game-full'));
        if (!ok || agreedTable(nodes) === null || bad.length > 0 || nodes.filter((x) => x.peer.state === 'connected').length !== slotted) {
          problems.push(`seed ${seed}, ${n} nodes: ${nodes.map((x) => `${x.index}:${x.peer.state}[${tableKey(x)}]`).join(' ')}`);
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });
});

describe('addresses', () => {
  it('simulated nodes are ordered by their last octet', () => {
    expect(addrKey(simAddr(3)) < addrKey(simAddr(200))).toBe(true);
  });
});
