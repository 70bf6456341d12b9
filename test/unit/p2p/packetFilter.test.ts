/**
 * Message ids below a p2p peer (its connection layer, session/connections.ts,
 * as a session's pipeline admits each datagram; the peer takes the verdict):
 * stale, reordered and duplicated GameState packets have no effect, ids wrap
 * at 2^32, control packets stay idempotent, and a restarted node (whose
 * counter starts again low) is not locked out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idNewer, P2pPeer, type P2pNotice } from '../../../src/shared/p2p';
import type { UnnumberedPacket } from '../../../src/shared/net/connection';
import { SessionConnections } from '../../../src/shared/session/connections';
import { controlPacket, NEUTRAL_STATE } from '../../../src/shared/p2p/packets';
import { NO_SLOT, PacketType, type Packet, type PacketType as PT, type RemoteEvent, type WireAddr } from '../../../src/shared/wire/types';
import { admitting, formGame, mulberry32, noticesOf, recordGameStates, SimNet, simAddr, type PeerNotice, type SimNode } from '../../support/simnet';

const ME = simAddr(1);
const OTHER = simAddr(9);

function gameState(id: number, slot = 0, joined = true, events: RemoteEvent[] = []): Packet {
  return { header: { type: PacketType.GameState, senderSlot: slot, messageId: id >>> 0, gameTime: 0, joined, state: NEUTRAL_STATE }, events };
}

function control(type: PT, id: number, slot: number, events: RemoteEvent[] = [], joined = false): Packet {
  return controlPacket(type, slot, id, joined, events);
}

/**
 * A peer (10.0.0.1) connected in slot 1 of a game whose slot 0 is 10.0.0.9,
 * which assigned it with a reply of message id `replyId` (the sender's
 * counter is shared by all its packets); returns it, its notices and what it sent.
 */
function connectedPeer(replyId = 1) {
  const notices: PeerNotice[] = [];
  const sent: { to: WireAddr | null; packet: UnnumberedPacket }[] = [];
  const peer = new P2pPeer(ME, 'me', { send: (to, packet) => sent.push({ to, packet }), broadcast: (packet) => sent.push({ to: null, packet }) }, (n) => notices.push(n));
  recordGameStates(peer, (g) => notices.push(g));
  const deliver = admitting(peer);
  peer.connect(0);
  const players = [
    { slot: 0, addr: OTHER, name: 'other', joined: true },
    { slot: 1, addr: ME, name: 'me', joined: false },
  ];
  deliver(OTHER, control(PacketType.ConnectReply, replyId, 0, [{ type: 'playerList', players }, { type: 'connectQueue', addrs: [ME] }]), 10);
  expect(peer.state).toBe('connected');
  notices.length = 0;
  sent.length = 0;
  return { peer, deliver, notices, sent };
}

const idsOf = (notices: PeerNotice[]) => notices.flatMap((n) => (n.kind === 'game-state' ? [n.packet.header.messageId] : []));

describe('message ids', () => {
  it('compare in u32 serial-number order, across the wrap', () => {
    expect(idNewer(6, 5)).toBe(true);
    expect(idNewer(5, 6)).toBe(false);
    expect(idNewer(5, 5)).toBe(false);
    expect(idNewer(0, 0xffff_ffff)).toBe(true);
    expect(idNewer(3, 0xffff_fffe)).toBe(true);
    expect(idNewer(0xffff_ffff, 0)).toBe(false);
    expect(idNewer(0x7fff_ffff, 0)).toBe(true);
    expect(idNewer(0x8000_0000, 0)).toBe(false); // half a circle away: ambiguous, treated as not newer
  });

  it('the connection layer classifies newest and late ids per sender and drops duplicates (null)', () => {
    const c = new SessionConnections(() => 0, true);
    const admit = (key: string, id: number) => c.admit(key, PacketType.GameState, id, 0, false);
    expect(admit('a', 10)).toBe('newest');
    expect(admit('a', 10)).toBeNull();
    expect(admit('a', 12)).toBe('newest');
    expect(admit('a', 11)).toBe('late');
    expect(admit('a', 11)).toBeNull();
    expect(admit('b', 11)).toBe('newest');
    expect(admit('a', 0xffff_ffff)).toBe('late');
  });
});

describe('GameState filtering at a connected peer', () => {
  it('duplicated, reordered and stale packets produce exactly one game-state notice per fresh packet, in increasing id order', () => {
    const { deliver, notices } = connectedPeer();
    for (const id of [5, 5, 3, 6, 4, 8, 7, 9, 9, 1]) deliver(OTHER, gameState(id), 20);
    expect(idsOf(notices)).toEqual([5, 6, 8, 9]);
    expect(notices.every((n) => n.kind !== 'game-state' || n.slot === 0)).toBe(true);
  });

  it('handles the u32 wrap-around of message ids', () => {
    const { deliver, notices } = connectedPeer(0xffff_fff0);
    for (const id of [0xffff_fffd, 0xffff_fffe, 0xffff_fffe, 0xffff_ffff, 0, 0xffff_fffc, 1, 0xffff_ffff, 0, 2]) deliver(OTHER, gameState(id), 20);
    expect(idsOf(notices)).toEqual([0xffff_fffd, 0xffff_fffe, 0xffff_ffff, 0, 1, 2]);
  });

  it('property: for any start id and any order with duplicates, the notices are exactly the new maxima of the arrival order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 80 }), (base, offsets) => {
        const { deliver, notices } = connectedPeer((base - 1) >>> 0);
        const expected: number[] = [];
        let best: number | null = null;
        for (const off of offsets) {
          const id = (base + off) >>> 0;
          deliver(OTHER, gameState(id), 20);
          if (best === null || off > best) {
            best = off;
            expected.push(id);
          }
        }
        expect(idsOf(notices)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a stale GameState overtaken by the sender\'s Disconnect neither brings it back nor reaches the game', () => {
    const { peer, deliver, notices } = connectedPeer();
    deliver(OTHER, gameState(100), 20);
    deliver(OTHER, control(PacketType.Disconnect, 102, 0), 21);
    deliver(OTHER, gameState(101), 22);
    expect(notices.map((n) => n.kind)).toEqual(['game-state', 'player-removed']);
    expect(peer.players().map((p) => p.slot)).toEqual([1]);
  });

  it('on a simulated LAN with heavy duplication and reordering, each sender\'s notices are strictly increasing and never repeat', () => {
    const net = new SimNet({ seed: 21, latencyMs: [1, 30], duplicate: 0.2, reorder: 0.3, reorderDelayMs: 40, stepMs: 5 });
    const nodes = formGame(net, [1, 2, 3]);
    const start = nodes.map((n) => n.notices.length);
    for (let t = 0; t < 2000; t += 20) {
      net.run(20);
      for (const n of nodes) n.peer.sendGameState(net.now, { gameTime: net.now, state: NEUTRAL_STATE }, []);
    }
    net.run(200);
    nodes.forEach((n, i) => {
      const bySlot = new Map<number, number[]>();
      for (const m of n.notices.slice(start[i])) {
        if (m.notice.kind !== 'game-state') continue;
        bySlot.set(m.notice.slot, [...(bySlot.get(m.notice.slot) ?? []), m.notice.packet.header.messageId]);
      }
      expect(bySlot.size).toBe(2);
      for (const ids of bySlot.values()) {
        for (let k = 1; k < ids.length; k++) expect(idNewer(ids[k] as number, ids[k - 1] as number)).toBe(true);
        expect(ids.length).toBeGreaterThan(50); // most of the 100 packets, minus the overtaken ones
      }
    });
    expect(net.stats.duplicated).toBeGreaterThan(50);
  });
});

describe('control packets stay idempotent', () => {
  it('a duplicated or re-sent ConnectReply gives one connected notice and one table', () => {
    const notices: P2pNotice[] = [];
    const peer = new P2pPeer(ME, 'me', { send: () => {}, broadcast: () => {} }, (n) => notices.push(n));
    const deliver = admitting(peer);
    peer.connect(0);
    const players = [
      { slot: 0, addr: OTHER, name: 'other', joined: false },
      { slot: 1, addr: ME, name: 'me', joined: false },
    ];
    const reply = (id: number) => control(PacketType.ConnectReply, id, 0, [{ type: 'playerList', players }, { type: 'connectQueue', addrs: [ME] }]);
    deliver(OTHER, reply(50), 10);
    deliver(OTHER, reply(50), 11);
    deliver(OTHER, reply(51), 12);
    deliver(OTHER, reply(49), 13);
    expect(notices.map((n) => n.kind)).toEqual(['connected']);
    expect(peer.players().map((p) => [p.slot, p.name])).toEqual([
      [0, 'other'],
      [1, 'me'],
    ]);
  });

  it('a temporary master that gets a slave\'s SlotRequest several times (duplicated and repeated) assigns it one slot', () => {
    const sent: { to: WireAddr | null; packet: UnnumberedPacket }[] = [];
    const notices: P2pNotice[] = [];
    const master = new P2pPeer(simAddr(200), 'master', { send: (to, packet) => sent.push({ to, packet }), broadcast: (packet) => sent.push({ to: null, packet }) }, (n) => notices.push(n));
    const deliver = admitting(master);
    master.connect(0);
    const slave = simAddr(100);
    const queued = simAddr(50);
    const request = (id: number, q: WireAddr[]) => control(PacketType.SlotRequest, id, NO_SLOT, [{ type: 'connectQueue', addrs: q }, { type: 'playerName', name: 'slave' }]);
    deliver(slave, request(7, []), 20);
    deliver(slave, request(7, []), 21);
    deliver(slave, request(8, [queued]), 120);
    deliver(slave, request(9, [queued]), 220);
    master.tick(master.config.startupWindowMs);
    expect(master.state).toBe('connected');
    expect(master.players().map((p) => [p.slot, p.addr[4], p.name])).toEqual([
      [0, 200, 'master'],
      [1, 100, 'slave'],
      [2, 50, 'unnamed'],
    ]);
    expect(notices.map((n) => n.kind)).toEqual(['connected']);
    // A late repeat after the assignment is answered with the same table, not a new slot.
    deliver(slave, request(10, [queued]), 700);
    expect(master.players()).toHaveLength(3);
    const last = sent.at(-1)?.packet;
    expect(last?.header.type).toBe(PacketType.ConnectReply);
  });
});

describe('restarted nodes', () => {
  it('a member restarting with a lower message-id counter is answered with its slot and its new packets are accepted', () => {
    const { peer, deliver, notices, sent } = connectedPeer(1_999_999);
    deliver(OTHER, gameState(2_000_000), 20);
    expect(idsOf(notices)).toEqual([2_000_000]);
    // The other program restarted: its new session counts from 5.
    deliver(OTHER, control(PacketType.ConnectRequest, 5, NO_SLOT, [{ type: 'connectQueue', addrs: [] }, { type: 'playerName', name: 'other' }]), 30);
    // We are rank 1 (10.0.0.9 ranks above us): we answer after one reply-wait interval.
    peer.tick(30 + peer.config.replyWaitIntervalMs);
    const answer = sent.find((s) => s.packet.header.type === PacketType.ConnectReply);
    expect(answer?.packet.events.find((e) => e.type === 'playerList')).toMatchObject({ players: [{ slot: 0, name: 'other' }, { slot: 1, name: 'me' }] });
    deliver(OTHER, control(PacketType.NodeAlive, 6, 0, [{ type: 'playerName', name: 'other' }]), 200);
    deliver(OTHER, gameState(7), 220);
    expect(idsOf(notices)).toEqual([2_000_000, 7]);
    expect(notices.filter((n) => n.kind === 'player-removed')).toEqual([]);
  });
});

describe('the simulated network itself', () => {
  it('is deterministic: the same seed gives the same run', () => {
    const run = () => {
      const net = new SimNet({ seed: 5, loss: 0.1, duplicate: 0.1, reorder: 0.2 });
      const nodes = [3, 7, 5].map((i) => net.addNode(i));
      for (const n of nodes) net.connect(n);
      net.run(2000);
      return nodes.map((n: SimNode) => n.notices.map((m) => `${m.at}:${m.notice.kind}`).join(',')).join('|') + JSON.stringify(net.stats);
    };
    expect(run()).toBe(run());
    const r = mulberry32(1);
    expect(r()).toBe(mulberry32(1)());
  });

  it('carries every packet through the wire codec', () => {
    const net = new SimNet({ seed: 6 });
    formGame(net, [1, 2]);
    expect(net.stats.delivered).toBeGreaterThan(0);
    expect(net.stats.undecodable).toBe(0);
    expect(noticesOf(net.nodes[0] as SimNode, 'connected')).toHaveLength(1);
  });
});
