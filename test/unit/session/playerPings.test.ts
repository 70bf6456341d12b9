/**
 * Which round trip each player's scoreboard row gets (SessionPipeline.playerPings,
 * the rule of Protocol.playerPings), in the three kinds of network game, on a
 * memory LAN (2 ms each way) and a virtual clock. The stand-in servers answer
 * 20 ms late, so a figure to the server (≈ 24 ms) cannot pass for one to a
 * peer (≈ 4 ms).
 */
import { describe, expect, it } from 'vitest';
import type { ManagedPeer } from '../../../src/shared/session/managedPeer';
import type { P2pPeer } from '../../../src/shared/p2p';
import { NEUTRAL_STATE } from '../../../src/shared/p2p/packets';
import { answerTimeRequest, isTimeDatagram } from '../../../src/shared/time';
import { decodePacket, encodePacket } from '../../../src/shared/wire/codec';
import { NO_SLOT, PacketType } from '../../../src/shared/wire/types';
import { MemoryNet } from '../../support/memoryNet';
import { managedNode, p2pNode, runUntil, seatAll, type TestNode } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const LATENCY_MS = 2;
const SERVER_DELAY_MS = 20;
const TOKEN = 0xbeef;

/** A stand-in server end: answers time sync (and, as a gameserver does, Pings) SERVER_DELAY_MS late. */
function standInServer(net: MemoryNet, clock: VirtualClock, answersPings: boolean) {
  const end = net.add();
  let id = 1;
  end.onPacket(({ from, data }) => {
    if (isTimeDatagram(data)) {
      const reply = answerTimeRequest(data, clock.now());
      if (reply) clock.setTimeout(() => end.send(from, reply), SERVER_DELAY_MS);
      return;
    }
    const decoded = decodePacket(data);
    if (!answersPings || !decoded.ok || decoded.packet.header.type !== PacketType.Ping) return;
    const header = { type: PacketType.Pong, senderSlot: NO_SLOT, messageId: id++, gameTime: decoded.packet.header.gameTime, joined: false, state: NEUTRAL_STATE, token: TOKEN };
    clock.setTimeout(() => end.send(from, encodePacket({ header, events: [] })), SERVER_DELAY_MS);
  });
  return end.encodeNode(end.localNode());
}

const slotsOf = (pings: { slot: number }[]) => pings.map((p) => p.slot);
const near = (ms: number | undefined, expected: number) => ms !== undefined && Math.abs(ms - expected) <= 3;

describe('per-player round trips for the scoreboard', () => {
  it('peer to peer: our round trip to each other player, none for ourselves', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, LATENCY_MS);
    const nodes = ['alpha', 'bravo', 'charlie'].map((name) => p2pNode(net, clock, name));
    const [a, b] = nodes as [TestNode<P2pPeer>, TestNode<P2pPeer>];
    expect(a.session.playerPings(null)).toEqual([]);
    a.session.member.connect(a.game.now());
    runUntil(clock, 'alpha connected', () => a.session.member.state === 'connected');
    for (const n of nodes.slice(1)) n.session.member.connect(n.game.now());
    runUntil(clock, 'three players everywhere', () => nodes.every((n) => n.session.member.players().length === 3));
    runUntil(clock, 'bravo measured both others', () => b.session.playerPings(null).length === 2);
    const pings = b.session.playerPings(null);
    expect(slotsOf(pings).sort()).toEqual([0, 2]);
    for (const p of pings) expect(near(p.ms, 2 * LATENCY_MS), `slot ${p.slot}: ${p.ms} ms`).toBe(true);
    expect(Number.isInteger(pings[0]?.ms)).toBe(true);
  });

  it("at a slotserver: ours is the round trip to the server's time port, the others' our round trips to them", () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, LATENCY_MS);
    const timePort = standInServer(net, clock, false);
    const nodes = ['alpha', 'bravo'].map((name) => managedNode(net, clock, name));
    const [a] = nodes as [TestNode<ManagedPeer>];
    seatAll(nodes);
    for (const n of nodes) n.session.clock.source = () => timePort;
    runUntil(clock, 'alpha has both figures', () => a.session.playerPings(timePort).length === 2);
    const bySlot = new Map(a.session.playerPings(timePort).map((p) => [p.slot, p.ms]));
    expect(near(bySlot.get(0), 2 * LATENCY_MS + SERVER_DELAY_MS), `own: ${bySlot.get(0)} ms`).toBe(true);
    expect(near(bySlot.get(1), 2 * LATENCY_MS), `bravo: ${bySlot.get(1)} ms`).toBe(true);
    // A slotserver without a time port: no server to measure, so no figure for our own row.
    expect(slotsOf(a.session.playerPings(null))).toEqual([1]);
  });

  it('through a gameserver: ours is the round trip to the server, the others have none (only the server knows theirs)', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, LATENCY_MS);
    const server = standInServer(net, clock, true);
    const other = net.add();
    const a = managedNode(net, clock, 'alpha', { proveAddresses: false });
    // What serverClient does with a gameserver's accept and add lines.
    a.session.member.adopt(0, { server, token: TOKEN });
    a.session.member.add(1, other.encodeNode(other.localNode()), 'bravo');
    a.session.clock.source = () => server;
    runUntil(clock, 'alpha measured the server', () => a.session.playerPings(server).length > 0);
    clock.advance(3_000);
    const pings = a.session.playerPings(server);
    expect(slotsOf(pings)).toEqual([0]);
    expect(near(pings[0]?.ms, 2 * LATENCY_MS + SERVER_DELAY_MS), `own: ${pings[0]?.ms} ms`).toBe(true);
  });
});
