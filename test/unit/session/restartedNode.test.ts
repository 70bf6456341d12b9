/**
 * A p2p player whose program restarts at the same address with its clock set
 * back, so its new numbers are far below the ones it sent before, through
 * real sessions on a memory LAN (the pipeline's connection per node,
 * src/shared/session/connections.ts, with proof of address): its
 * ConnectRequest restarts its numbers at the others' connections, it gets
 * its slot back, and its states reach the game at once — not after the
 * alive timeout has dropped it.
 */
import { describe, expect, it } from 'vitest';
import { P2pPeer } from '../../../src/shared/p2p';
import { SessionPipeline } from '../../../src/shared/session/pipeline';
import { MemoryEnd, MemoryNet } from '../../support/memoryNet';
import { flyingShip, runUntil, ScriptedGame, sessionCookies } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

/** A p2p session on `end`, its connections numbering from wall-clock second `second`, ticking every 10 ms. */
function p2pSession(clock: VirtualClock, end: MemoryEnd, name: string, second: number) {
  const game = new ScriptedGame(name, clock);
  let session: SessionPipeline<P2pPeer> | null = null;
  const onMember = () => {
    session?.deliverPlayers();
    session?.requestJoin();
  };
  session = new SessionPipeline<P2pPeer>({
    packetApi: end,
    self: end.localNode(),
    game,
    clock,
    random: () => 0.5,
    wallSeconds: () => second,
    proveAddresses: sessionCookies(),
    member: (t) =>
      new P2pPeer(end.encodeNode(end.localNode()), name, { send: (to, p) => t.send(to, p), broadcast: (p) => t.broadcast(p, (bytes) => end.broadcast(0, bytes)), keyOf: (a) => t.keyOf(a), proven: (a) => t.proven(a) }, onMember),
    notify: () => undefined,
    status: () => 'test',
  });
  const pipeline = session;
  end.onPacket(({ from, data }) => pipeline.receive(from, data));
  const timer = clock.setInterval(() => pipeline.tick(), 10);
  clock.setInterval(() => (game.ship = flyingShip(0, clock.now())), 25);
  return { game, session: pipeline, stop: () => clock.clearInterval(timer) };
}

describe('a restarted node numbering below its old run', () => {
  it('gets its slot back and its states reach the others at once, well within the alive timeout', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 2);
    const alpha = p2pSession(clock, net.add(), 'alpha', 50_000);
    const bravoEnd = net.add();
    const bravo = p2pSession(clock, bravoEnd, 'bravo', 50_000);
    alpha.session.member.connect(clock.now());
    runUntil(clock, 'alpha connected', () => alpha.session.member.state === 'connected');
    bravo.session.member.connect(clock.now());
    runUntil(clock, 'both joined', () => [alpha, bravo].every((n) => n.session.member.players().length === 2 && n.session.member.players().every((p) => p.joined)), 20_000);
    clock.advance(1_000);
    const slot = bravo.session.member.slot();
    // Bravo's program stops and starts again at once at the same address, its clock 1,000 s behind: every number it sends now is one alpha took as too old.
    bravo.stop();
    bravoEnd.cut = true;
    clock.advance(200);
    const reborn = new MemoryEnd(net, bravoEnd.host);
    net.ends[net.ends.indexOf(bravoEnd)] = reborn;
    const again = p2pSession(clock, reborn, 'bravo', 49_000);
    const statesBefore = alpha.game.of('state').filter((d) => d.slot === slot).length;
    again.session.member.connect(clock.now());
    // Its ship flies straight, so dead reckoning sends a state only every half second or so.
    let dropped = false;
    const took = runUntil(
      clock,
      "alpha takes the restarted bravo's states",
      () => {
        if (alpha.session.member.players().length < 2) dropped = true;
        return alpha.game.of('state').filter((d) => d.slot === slot).length >= statesBefore + 3;
      },
      10_000,
    );
    console.log(`restarted 1,000 s behind its old run: back in slot ${again.session.member.slot()}, its states at alpha after ${took} ms (alpha refused ${alpha.session.replays.tooOld} datagrams as too old)`);
    expect(again.session.member.slot()).toBe(slot);
    // Before, only the alive timeout (3 s) cleared bravo's old numbers: it was dropped and came back after about 4.9 s.
    expect(took).toBeLessThan(3_000);
    expect(dropped).toBe(false);
    expect(alpha.session.member.players().map((p) => p.name)).toEqual(['alpha', 'bravo']);
  });
});
