/**
 * The netgame's sync gate (Purple Martians' server_sync), in the pure server
 * and client on a virtual clock: a joining player's ship enters the game only
 * once its client holds the server's state and runs at the server's frame —
 * before that it sends no control change, and one sent anyway is refused; a
 * player whose game falls more than 100 frames behind the server (the
 * seed's figure; the server's option) is dropped, and a stopped one falls a
 * frame further behind with every server frame, so it goes after 2.5 s, not
 * the 10 s silence timeout.
 */
import { describe, expect, it } from 'vitest';
import { JOIN_DELAY_FRAMES } from '../../../src/shared/netgame/config';
import { MoveKind } from '../../../src/shared/netgame/gameMoves';
import { NetgameServer } from '../../../src/shared/netgame/server';
import { activationLimit, behindReason, DEFAULT_MAX_BEHIND_FRAMES } from '../../../src/shared/netgame/syncGate';
import { NO_FRAME, type FrameInput, type RemoteEvent } from '../../../src/shared/wire/types';
import { NetgameSim } from '../../support/netgameSim';

const FORWARD: FrameInput = { thrust: 127, yaw: 0, pitch: 0, roll: 0, buttons: 0, target: 255 };

function server(maxBehindFrames?: number) {
  const sent: { slot: number; ev: RemoteEvent }[] = [];
  const s = new NetgameServer({ seed: 1, send: (slot, events) => events.forEach((ev) => sent.push({ slot, ev })), ...(maxBehindFrames === undefined ? {} : { maxBehindFrames }) });
  const wholeState = (slot: number) => {
    const ev = sent.find((x) => x.slot === slot && x.ev.type === 'stateDiff' && x.ev.base === NO_FRAME)?.ev;
    return ev?.type === 'stateDiff' ? ev.frame : null;
  };
  const joinMoves = (slot: number) => s.moves.from(s.moves.start, 1000).filter((m) => m.kind === MoveKind.Join && m.slot === slot);
  return { s, wholeState, joinMoves };
}

/** The client in `slot` says it runs at `clientFrame` (its movesAck, sent for every gameMoves it gets). */
const report = (s: NetgameServer, slot: number, clientFrame: number, now: number) => s.receive(slot, { type: 'movesAck', clientFrame, next: s.moves.end, stamp: now }, now);

/** Runs the server `frames` frames from `now`, each tick at its own time; returns the drops and the time after. */
function run(s: NetgameServer, frames: number, now: number, each?: (now: number) => void): { drops: ReturnType<NetgameServer['tick']>; now: number } {
  const drops = [];
  for (let i = 0; i < frames; i++) {
    now += 25;
    each?.(now);
    drops.push(...s.tick(now));
  }
  return { drops, now };
}

describe('the netgame sync gate: activation', () => {
  it('a joining client is activated only once it holds the server\'s state and reports the server\'s frame; until then its ship is not in the game and its control changes are refused', () => {
    const { s, wholeState, joinMoves } = server();
    let now = 0;
    ({ now } = run(s, 20, now));
    s.join(1, now);
    ({ now } = run(s, 5, now));
    // It reports the server's very frame, but has acknowledged no state: it holds nothing to play with.
    report(s, 1, s.frame - 1, now);
    ({ now } = run(s, 3, now));
    expect(s.clients.get(1)?.active).toBe(false);
    expect(joinMoves(1)).toEqual([]);
    s.receive(1, { type: 'controlChange', frame: s.frame + 3, input: FORWARD }, now);
    expect(s.clients.get(1)?.refused).toBe(1);

    // It holds the state now, but still runs 30 frames behind: not yet (and, not active, never dropped for it either).
    const stateFrame = wholeState(1) as number;
    s.receive(1, { type: 'stateAck', frame: stateFrame, corrected: false }, now);
    report(s, 1, s.frame - 30, now);
    ({ now } = run(s, 3, now));
    expect(s.clients.get(1)?.active).toBe(false);
    const limit = activationLimit(s.serverLead, s.clients.get(1)?.rttMs ?? null, s.clients.get(1)?.rttDevMs ?? 0);

    // At the server's frame: activated, and its ship enters JOIN_DELAY_FRAMES later, as a move every node applies.
    report(s, 1, s.frame - 1, now);
    const activation = run(s, 1, now);
    const drops = activation.drops;
    now = activation.now;
    const activatedAt = s.frame;
    expect(drops).toEqual([]);
    expect(s.clients.get(1)?.active).toBe(true);
    expect(joinMoves(1).map((m) => m.frame)).toEqual([activatedAt + JOIN_DELAY_FRAMES]);
    ({ now } = run(s, JOIN_DELAY_FRAMES, now));
    expect(s.state.world.ships.map((x) => x.slot)).toEqual([]);
    ({ now } = run(s, 1, now));
    expect(s.state.world.ships.map((x) => x.slot)).toEqual([1]);
    s.receive(1, { type: 'controlChange', frame: s.frame + 3, input: FORWARD }, now);
    expect(s.clients.get(1)?.changes).toBe(1);
    console.log(`activation: the state of frame ${stateFrame} sent at the join; a change before holding it refused, 30 frames behind not activated (limit ${limit} frames on a LAN round trip); activated at frame ${activatedAt}, its ship in from frame ${activatedAt + JOIN_DELAY_FRAMES}`);
    expect(limit).toBe(3);
  });

  it('the activation window grows with the round trip (the seed\'s 3 frames on a LAN)', () => {
    expect(activationLimit(1, null, 0)).toBe(3);
    expect(activationLimit(1, 1, 0.2)).toBe(3);
    expect(activationLimit(1, 100, 10)).toBe(7);
    expect(activationLimit(1, 200, 20)).toBe(12);
  });

  it('on a simulated network a client sends no control change before its ship is in the game, and says when it is', () => {
    const sim = new NetgameSim({ clients: 3, seed: 11, latencyMs: 50, jitterMs: 10, lossPct: 5 });
    const firstChange = new Map<number, number>();
    sim.onClientSend = (slot, ev, at) => {
      if (ev.type === 'controlChange' && !firstChange.has(slot)) firstChange.set(slot, at);
    };
    sim.runUntil(6_000);
    const activated = new Map(sim.notices.filter((n) => n.notice.kind === 'activated').map((n) => [n.slot, n.at]));
    const tookState = new Map(sim.notices.filter((n) => n.notice.kind === 'joined').map((n) => [n.slot, n.at]));
    console.log(`100 ± 20 ms round trip, 5 % loss: ${[1, 2, 3].map((slot) => `client ${slot} took the state at ${Math.round(tookState.get(slot) ?? 0)} ms, activated at ${Math.round(activated.get(slot) ?? 0)} ms, first control change at ${Math.round(firstChange.get(slot) ?? 0)} ms`).join('; ')}`);
    for (const slot of [1, 2, 3]) {
      expect(activated.get(slot)).toBeGreaterThan(tookState.get(slot) as number);
      expect(firstChange.get(slot)).toBeGreaterThan(activated.get(slot) as number);
      expect(sim.server.clients.get(slot)?.refused).toBe(0);
      expect(sim.clients[slot - 1]?.active).toBe(true);
    }
    expect(sim.mismatches).toEqual([]);
    expect(sim.drops).toEqual([]);
  });
});

describe('the netgame sync gate: dropping', () => {
  it('a stopped client falls behind frame by frame and is dropped once more than 100 frames behind: 2.5 s, well under the 10 s silence timeout', () => {
    const sim = new NetgameSim({ clients: 2, seed: 7, latencyMs: 10, jitterMs: 2, lossPct: 0 });
    sim.runUntil(3_000);
    const before = sim.server.behind(sim.server.clients.get(2) as never) as number;
    const stoppedAt = sim.now;
    sim.stop(2);
    sim.runUntil(stoppedAt + 3_750);
    const drop = sim.drops[0];
    console.log(`client 2 stopped at server frame ${Math.round(stoppedAt / 25)} (${before} frames behind): dropped after ${drop ? drop.at - stoppedAt : '-'} ms, "${drop ? behindReason(drop.behind, drop.limit) : '-'}"; silence timeout 10,000 ms`);
    expect(sim.drops.map((d) => ({ slot: d.slot, behind: d.behind, limit: d.limit }))).toEqual([{ slot: 2, behind: DEFAULT_MAX_BEHIND_FRAMES + 1, limit: DEFAULT_MAX_BEHIND_FRAMES }]);
    // It stopped reporting with `before` frames behind, then fell one further per server frame.
    expect((drop?.at ?? 0) - stoppedAt).toBeGreaterThanOrEqual((DEFAULT_MAX_BEHIND_FRAMES + 1 - before - 1) * 25);
    expect((drop?.at ?? 0) - stoppedAt).toBeLessThanOrEqual((DEFAULT_MAX_BEHIND_FRAMES + 1 - before + 1) * 25);
    expect(sim.server.clients.has(2)).toBe(false);
    // Its ship leaves the game JOIN_DELAY_FRAMES later; the other plays on.
    expect(sim.server.state.world.ships.map((s) => s.slot)).toEqual([1]);
    sim.resume(2);
    sim.runUntil(stoppedAt + 5_000);
    expect(sim.drops).toHaveLength(1);
    expect(sim.server.clients.get(1)?.active).toBe(true);
  });

  it('a client that keeps reporting but runs further and further behind is dropped at the server\'s limit, not before', () => {
    const { s, wholeState } = server(40);
    let now = 0;
    s.join(1, now);
    s.join(2, now);
    ({ now } = run(s, 2, now));
    for (const slot of [1, 2]) {
      s.receive(slot, { type: 'stateAck', frame: wholeState(slot) as number, corrected: false }, now);
      report(s, slot, s.frame - 1, now);
    }
    ({ now } = run(s, 1, now));
    expect([s.clients.get(1)?.active, s.clients.get(2)?.active]).toEqual([true, true]);
    const start = s.frame;
    // Client 1 keeps pace; client 2 steps at half speed, reporting every frame.
    const { drops } = run(s, 120, now, (at) => {
      report(s, 1, s.frame - 1, at);
      if (s.clients.has(2)) report(s, 2, start + Math.floor((s.frame - start) / 2), at);
    });
    expect(drops).toEqual([{ slot: 2, behind: 41, limit: 40 }]);
    expect(s.maxBehindFrames).toBe(40);
    expect(s.clients.has(1)).toBe(true);
    console.log(`limit 40: the half-speed client dropped as "${behindReason(41, 40)}"; the other (1 frame behind) plays on`);
  });
});
