/**
 * p2p membership that one datagram cannot forge, on a memory LAN and a
 * virtual clock: datagrams arrive with forged source addresses (a member's,
 * or a higher one that would win a slot conflict), and an attacker who did
 * prove its own address names strangers in its connect queue. None of it
 * changes a table, takes a slot or plants a cookie; the real players play on
 * and a real newcomer still gets a slot.
 */
import { describe, expect, it } from 'vitest';
import type { ManagedPeer } from '../../../src/shared/session/managedPeer';
import type { P2pPeer } from '../../../src/shared/p2p';
import { decodeChallenge, encodeChallenge, isChallengeDatagram } from '../../../src/shared/session/challengeWire';
import { encodePacket } from '../../../src/shared/wire/codec';
import { NO_SLOT, PacketType, type Packet, type PacketType as Type, type RemoteEvent } from '../../../src/shared/wire/types';
import { MemoryNet } from '../../support/memoryNet';
import { flyingShip, managedNode, p2pNode, runUntil, seatAll, type TestNode } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const STATE = flyingShip(0, 0);
const packet = (type: Type, senderSlot: number, events: RemoteEvent[], token?: number): Packet => ({
  header: { type, senderSlot, messageId: 0x7fff_ff00, gameTime: 0, joined: true, state: STATE, ...(token === undefined ? {} : { token }) },
  events,
});
const memAddr = (host: number) => Uint8Array.from([4, 10, 0, 0, host, 6526 >> 8, 6526 & 0xff]);
const table = (n: TestNode<P2pPeer>) => n.session.member.players().map((p) => `${p.slot}:${p.name}`).join(' ');

/** A p2p game of `count` players (alpha, bravo, …; 10.0.0.1…) on one memory LAN, everyone joined. */
function game(count: number, maxPlayers = 4) {
  const clock = new VirtualClock();
  const net = new MemoryNet(clock, 2);
  const names = ['alpha', 'bravo', 'charlie', 'delta'];
  const nodes = names.slice(0, count).map((name) => p2pNode(net, clock, name, { config: { maxPlayers } }));
  clock.setInterval(() => nodes.forEach((n, i) => (n.game.ship = flyingShip(30 * i, clock.now()))), 25);
  for (const n of nodes) {
    n.session.member.connect(n.game.now());
    runUntil(clock, `${n.game.name} connected`, () => n.session.member.state === 'connected' && n.session.member.players().length === nodes.indexOf(n) + 1);
  }
  runUntil(clock, 'everyone joined', () => nodes.every((n) => n.session.member.players().length === count && n.session.member.players().every((p) => p.joined)));
  return { clock, net, nodes };
}

describe('p2p membership cannot be forged with one datagram', () => {
  it('a forged NodeAlive from a higher address, or from a member claiming another slot, evicts nobody', () => {
    const { clock, net, nodes } = game(3);
    const [alpha] = nodes as [TestNode<P2pPeer>];
    const before = nodes.map(table);
    const statesBefore = alpha.game.of('state').length;
    // From 10.0.0.200 (higher than every player) claiming each slot, and from bravo's and charlie's own addresses
    // claiming alpha's slot 0 (a higher address wins a conflict): each would have cost a player its slot.
    let forged = 0;
    for (const end of net.ends) {
      for (const slot of [0, 1, 2]) {
        end.arrive(200, encodePacket(packet(PacketType.NodeAlive, slot, [{ type: 'playerName', name: 'mallory' }])));
        forged += 1;
        for (const host of [2, 3].filter((h) => h !== end.host)) {
          end.arrive(host, encodePacket(packet(host === 2 ? PacketType.NodeAlive : PacketType.GameState, 0, [{ type: 'playerName', name: 'mallory' }], host === 2 ? undefined : 0x5eed_0001)));
          forged += 1;
        }
      }
    }
    runUntil(clock, 'a second of play after the forgeries', () => alpha.game.of('state').length >= statesBefore + 40);
    expect(nodes.map(table)).toEqual(before);
    for (const n of nodes) expect(n.memberNotices.filter((m) => m.kind === 'player-removed' || m.kind === 'disconnected')).toEqual([]);
    const unproven = nodes.reduce((sum, n) => sum + (n.session.proof?.counts.unproven ?? 0), 0);
    expect(unproven).toBeGreaterThanOrEqual(forged);
    console.log(`${forged} forged claims: ${unproven} datagrams dropped unproven, tables unchanged (${before[0]})`);
  });

  it('a forged ConnectRequest naming sixteen addresses takes no slot, even from an attacker who proved its own address; the next real player gets one', () => {
    const { clock, net, nodes } = game(2);
    const [alpha, bravo] = nodes as [TestNode<P2pPeer>, TestNode<P2pPeer>];
    // Everything any node hands the net for the sixteen named addresses (10.0.0.100…115).
    const toStrangers: string[] = [];
    const carry = net.carry.bind(net);
    net.carry = (from, toHost, data) => {
      if (toHost >= 100) toStrangers.push(`${toHost}:${isChallengeDatagram(data) ? 'challenge' : 'packet'}:${data.length}`);
      carry(from, toHost, data);
    };
    // Mallory at 10.0.0.3 answers challenges at its own address like a real node (so its own datagrams are taken)…
    const mallory = net.add();
    let cookieFromAlpha: number | null = null;
    mallory.onPacket(({ from, data }) => {
      if (!isChallengeDatagram(data)) return;
      const c = decodeChallenge(data);
      if (!c.ok) return;
      cookieFromAlpha = c.challenge.cookie;
      mallory.send(from, encodeChallenge({ echo: c.challenge.cookie, cookie: 0x00c0_ffee }));
    });
    const queue = Array.from({ length: 16 }, (_, i) => memAddr(100 + i));
    const request = (token?: number) => encodePacket(packet(PacketType.ConnectRequest, NO_SLOT, [{ type: 'connectQueue', addrs: queue }, { type: 'playerName', name: 'mallory' }], token));
    mallory.send(alpha.api.localNode(), request());
    runUntil(clock, "mallory has alpha's cookie", () => cookieFromAlpha !== null && alpha.session.proof?.proven('mem/3/6526') === true);
    // …and now sends requests alpha takes, naming sixteen addresses that never spoke; plus forged ones "from" those addresses.
    for (let i = 0; i < 5; i++) mallory.send(alpha.api.localNode(), request(cookieFromAlpha as unknown as number));
    for (let i = 0; i < 16; i++) net.ends[0]?.arrive(100 + i, request());
    const until = clock.now() + 1000;
    runUntil(clock, 'a second of virtual time', () => clock.now() >= until);
    // Mallory asked for itself and proved itself: it may play (slot 2). The sixteen strangers got nothing.
    const names = alpha.session.member.players().map((p) => p.name);
    expect(names.filter((n) => n === 'alpha' || n === 'bravo')).toHaveLength(2);
    expect(alpha.session.member.players().every((p) => p.addr[4]! < 100)).toBe(true);
    expect(bravo.session.member.players().every((p) => p.addr[4]! < 100)).toBe(true);
    // Each of them got one 12-byte challenge, in answer to the one forged request "from" it; nothing for being named in a queue.
    expect(toStrangers.sort()).toEqual(queue.map((_, i) => `${100 + i}:challenge:12`).sort());
    // A real player joins: there is room (4 slots), not "game full".
    const charlie = p2pNode(net, clock, 'charlie', { config: { maxPlayers: 4 } });
    charlie.session.member.connect(charlie.game.now());
    runUntil(clock, 'charlie connected', () => charlie.session.member.state === 'connected' || charlie.session.member.state === 'failed');
    expect(charlie.session.member.state).toBe('connected');
    expect(charlie.memberNotices.some((m) => m.kind === 'failed')).toBe(false);
    console.log(`after 16 forged and 5 proven requests naming 16 strangers: alpha's table ${table(alpha)}; charlie got slot ${charlie.session.member.slot()}`);
  });

  it('a forged challenge cannot plant a cookie: the member it names keeps receiving and being received', () => {
    const { clock, net, nodes } = game(2);
    const [alpha, bravo] = nodes as [TestNode<P2pPeer>, TestNode<P2pPeer>];
    const tokenBefore = alpha.session.proof?.tokenFor('mem/2/6526');
    expect(tokenBefore).toBeDefined();
    // "From bravo" to alpha: challenges with no echo, a guessed echo, and a cookie of the attacker's choosing.
    for (let i = 0; i < 50; i++) net.ends[0]?.arrive(2, encodeChallenge({ echo: i === 0 ? 0 : 0x1000 + i, cookie: 0xbad0_0000 + i }));
    expect(alpha.session.proof?.tokenFor('mem/2/6526')).toBe(tokenBefore);
    const fromAlpha = bravo.game.of('state').filter((s) => s.slot === 0).length;
    const fromBravo = alpha.game.of('state').filter((s) => s.slot === 1).length;
    runUntil(clock, 'states keep flowing both ways', () => bravo.game.of('state').filter((s) => s.slot === 0).length >= fromAlpha + 20 && alpha.game.of('state').filter((s) => s.slot === 1).length >= fromBravo + 20);
    expect(alpha.session.proof?.tokenFor('mem/2/6526')).toBe(tokenBefore);
  });

  it('in a slotserver game, forged game states "from" a peer neither move its ship nor cut it off', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 2);
    const [a, b] = ['alpha', 'bravo'].map((name) => managedNode(net, clock, name)) as [TestNode<ManagedPeer>, TestNode<ManagedPeer>];
    clock.setInterval(() => [a, b].forEach((n, i) => (n.game.ship = flyingShip(30 * i, clock.now()))), 25);
    seatAll([a, b]);
    a.session.requestJoin();
    b.session.requestJoin();
    const fromBravo = () => a.game.of('state').filter((d) => d.slot === 1);
    runUntil(clock, "alpha sees bravo's ship", () => fromBravo().length >= 5);
    const seen = fromBravo().length;
    // "From bravo": states far away, numbered far ahead (they would push the replay window past bravo's own numbers).
    const far = { ...flyingShip(0, 0), pos: { x: 5_000, y: 0, z: 0 } };
    for (let i = 0; i < 20; i++) net.ends[0]?.arrive(2, encodePacket({ header: { type: PacketType.GameState, senderSlot: 1, messageId: 0xf000_0000 + i, gameTime: 0, joined: true, state: far }, events: [] }));
    runUntil(clock, 'twenty more states from bravo', () => fromBravo().length >= seen + 20);
    expect(fromBravo().every((d) => d.state.pos.x < 1_000)).toBe(true);
    expect(a.session.proof?.counts.unproven).toBeGreaterThanOrEqual(20);
  });
});
