/**
 * Replay protection in a session (the pipeline's connection per node,
 * src/shared/session/connections.ts, over net/replayWindow.ts), on a memory LAN and a virtual clock: an attacker who got
 * hold of a player's datagrams and sends them again from that player's
 * address — a second later or a minute later — changes nothing: chat is not
 * delivered twice, keep-alives and pings do not keep a gone player in the
 * game, and every such datagram is dropped and counted.
 */
import { describe, expect, it } from 'vitest';
import { PacketType } from '../../../src/shared/wire/types';
import { MemoryNet, type MemoryEnd } from '../../support/memoryNet';
import { flyingShip, p2pNode, runUntil, type TestNode } from '../../support/sessionRig';
import type { P2pPeer } from '../../../src/shared/p2p';
import { VirtualClock } from '../../support/virtualClock';

/** Two joined p2p players; everything alpha sends is recorded as an eavesdropper would. */
function pair() {
  const clock = new VirtualClock();
  const net = new MemoryNet(clock, 1);
  const a = p2pNode(net, clock, 'alpha');
  const b = p2pNode(net, clock, 'bravo');
  const sent: Uint8Array[] = [];
  const send = a.api.send.bind(a.api);
  a.api.send = (to, data) => {
    sent.push(data.slice());
    send(to, data);
  };
  clock.setInterval(() => [a, b].forEach((n, i) => (n.game.ship = flyingShip(30 * i, clock.now()))), 25);
  a.session.member.connect(a.game.now());
  runUntil(clock, 'alpha connected', () => a.session.member.state === 'connected');
  b.session.member.connect(b.game.now());
  const joined = (n: TestNode<P2pPeer>) => n.session.member.players().length === 2 && n.session.member.players().every((p) => p.joined);
  runUntil(clock, 'both joined', () => joined(a) && joined(b), 20_000);
  return { clock, a, b, sent, alphaHost: (a.api as MemoryEnd).host, bravoEnd: b.api as MemoryEnd };
}

/** A captured datagram's packet type (its fourth byte; a partial ship state needs its base to decode, the type does not). */
const typeOf = (d: Uint8Array) => (d.length > 3 ? (d[3] as number) : null);

describe('replayed datagrams', () => {
  it('a chat datagram replayed from the player\'s own address one second and sixty seconds later is dropped, not delivered again', () => {
    const { clock, a, b, sent, alphaHost, bravoEnd } = pair();
    const from = sent.length;
    expect(a.session.say('meet at the gate')).toBeNull();
    runUntil(clock, 'the line at bravo', () => b.game.of('chat').some((c) => c.text === 'meet at the gate'));
    const captured = sent.slice(from).filter((d) => typeOf(d) === PacketType.GameState || typeOf(d) === PacketType.Reliable);
    expect(captured.length).toBeGreaterThan(0);
    for (const wait of [1_000, 60_000]) {
      clock.advance(wait);
      const before = { ...b.session.replays };
      for (const d of captured) bravoEnd.arrive(alphaHost, d);
      clock.advance(50);
      const dropped = b.session.replays.replayed + b.session.replays.tooOld - before.replayed - before.tooOld;
      console.log(`replay ${wait / 1000} s later: ${captured.length} datagrams sent again, ${dropped} dropped by the replay window`);
      expect(dropped).toBe(captured.length);
    }
    expect(b.game.of('chat').filter((c) => c.text === 'meet at the gate')).toHaveLength(1);
  });

  it('replayed keep-alives and pings do not keep a player who has gone in the game', () => {
    const { clock, a, b, sent, alphaHost, bravoEnd } = pair();
    const from = sent.length;
    clock.advance(2_000);
    const keepAlives = sent.slice(from).filter((d) => [PacketType.GameState, PacketType.NodeAlive, PacketType.Ping, PacketType.Pong].includes(typeOf(d) as never));
    expect(keepAlives.length).toBeGreaterThan(10);
    // Alpha's machine goes dark; the attacker keeps sending its recorded datagrams from its address.
    a.stop();
    (a.api as MemoryEnd).cut = true;
    let i = 0;
    const replayer = clock.setInterval(() => bravoEnd.arrive(alphaHost, keepAlives[i++ % keepAlives.length]!), 20);
    const took = runUntil(clock, 'bravo drops alpha', () => b.session.member.players().length === 1, 10_000);
    clock.clearInterval(replayer);
    console.log(`alpha gone: dropped by bravo after ${took} ms despite ${i} replayed keep-alives (${b.session.replays.replayed + b.session.replays.tooOld} refused)`);
    expect(took).toBeLessThanOrEqual(3_000 + 600);
  });
});
