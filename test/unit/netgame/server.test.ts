/**
 * The netgame server's rules for what clients send: a control change for a
 * frame already stepped is dropped, counted and reported to its client; one
 * too far ahead or beyond the rate is refused; a client's changes only ever
 * move its own ship; a lost welcome goes again until the client answers;
 * joins and leaves take effect a few frames later on every node alike. (The
 * sync gate that lets a joining client's ship in: syncGate.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { NetgameServer, SPECTATOR_KEYS } from '../../../src/shared/netgame/server';
import { JOIN_DELAY_FRAMES, MAX_CHANGES_PER_S, MAX_FRAMES_AHEAD } from '../../../src/shared/netgame/config';
import { MoveKind } from '../../../src/shared/netgame/gameMoves';
import { NO_FRAME, NO_SLOT, type FrameInput, type RemoteEvent } from '../../../src/shared/wire/types';
import type { NetgameServer as Server } from '../../../src/shared/netgame/server';

const FORWARD: FrameInput = { thrust: 127, yaw: 0, pitch: 0, roll: 0, buttons: 0, target: 255 };

function server() {
  const sent: { slot: number; ev: RemoteEvent }[] = [];
  const s = new NetgameServer({ seed: 1, send: (slot, events) => events.forEach((ev) => sent.push({ slot, ev })) });
  return { s, sent, of: (slot: number, type: RemoteEvent['type']) => sent.filter((x) => x.slot === slot && x.ev.type === type).map((x) => x.ev) };
}

/**
 * What a client that took the welcome's state does (client.ts): acknowledges
 * that state, then reports a frame one behind the server's; the next tick's
 * sync gate activates it (its ship enters JOIN_DELAY_FRAMES later).
 */
function activate(s: Server, sent: { slot: number; ev: RemoteEvent }[], slot: number, now: number): void {
  const whole = sent.find((x) => x.slot === slot && x.ev.type === 'stateDiff' && x.ev.base === NO_FRAME)?.ev;
  if (whole?.type !== 'stateDiff') throw new Error(`no state sent to ${slot}`);
  s.receive(slot, { type: 'stateAck', frame: whole.frame, corrected: false }, now);
  s.receive(slot, { type: 'movesAck', clientFrame: Math.max(whole.frame, s.frame - 1), next: s.moves.end, stamp: now }, now);
  s.tick(now);
  if (!s.clients.get(slot)?.active) throw new Error(`client ${slot} not activated`);
}

describe('the netgame server', () => {
  it('drops a late control change, counts it and tells its client how late it was', () => {
    const { s, sent, of } = server();
    s.join(1, 0);
    activate(s, sent, 1, 0);
    for (let f = 1; f < 10; f++) s.tick(f * 25);
    s.receive(1, { type: 'controlChange', frame: 7, input: FORWARD }, 260);
    const c = s.clients.get(1);
    expect(c?.late).toBe(1);
    expect(of(1, 'lateControl')).toEqual([{ type: 'lateControl', serverFrame: 10, late: 3, errors: 1 }]);
    expect(s.moves.forFrame(7).filter((m) => m.kind === MoveKind.Input)).toEqual([]);
  });

  it('takes a change for a future frame and applies it there, to the sender\'s ship only', () => {
    const { s, sent } = server();
    s.join(1, 0);
    s.join(2, 0);
    activate(s, sent, 1, 0);
    activate(s, sent, 2, 0);
    for (let f = 0; f < JOIN_DELAY_FRAMES + 1; f++) s.tick(f * 25);
    const at = s.frame + 3;
    s.receive(2, { type: 'controlChange', frame: at, input: FORWARD }, 200);
    while (s.frame <= at) s.tick(s.frame * 25);
    expect(s.state.controls.get(2)).toEqual(FORWARD);
    expect(s.state.controls.get(1)).toEqual({ thrust: 0, yaw: 0, pitch: 0, roll: 0, buttons: 0, target: 255 });
    // A few frames of full thrust later, ship 2 moves and ship 1 does not.
    for (let i = 0; i < 20; i++) s.tick(s.frame * 25);
    const speed = (slot: number) => {
      const v = s.state.world.ships.find((x) => x.slot === slot)?.vel ?? { x: 0, y: 0, z: 0 };
      return Math.hypot(v.x, v.y, v.z);
    };
    expect(speed(2)).toBeGreaterThan(1);
    expect(speed(1)).toBe(0);
  });

  it('refuses changes too far ahead and beyond one per frame on average', () => {
    const { s, sent } = server();
    s.join(1, 0);
    activate(s, sent, 1, 0);
    s.receive(1, { type: 'controlChange', frame: s.frame + MAX_FRAMES_AHEAD + 1, input: FORWARD }, 0);
    expect(s.clients.get(1)?.refused).toBe(1);
    // A burst of changes at one instant: the bucket holds MAX_CHANGES_PER_S.
    for (let i = 0; i < MAX_CHANGES_PER_S + 10; i++) s.receive(1, { type: 'controlChange', frame: s.frame + 5, input: { ...FORWARD, yaw: i % 100 } }, 0);
    expect(s.clients.get(1)?.changes).toBe(MAX_CHANGES_PER_S);
    expect(s.clients.get(1)?.refused).toBe(1 + 10);
  });

  it('sends the welcome and the whole state again until the client acknowledges, then moves from its position', () => {
    const { s, of } = server();
    s.join(1, 0);
    expect(of(1, 'netgameWelcome')).toHaveLength(1);
    for (let f = 0; f < 20; f++) s.tick(f * 25);
    // 250 ms without an answer: welcomed again (with the whole state: a difference from nothing).
    expect(of(1, 'netgameWelcome').length).toBeGreaterThanOrEqual(2);
    expect(of(1, 'stateDiff').every((ev) => ev.type === 'stateDiff' && ev.base === 0xffffffff)).toBe(true);
    const welcomes = of(1, 'netgameWelcome').length;
    s.receive(1, { type: 'movesAck', clientFrame: 5, next: s.moves.end, stamp: 450 }, 500);
    for (let f = 20; f < 40; f++) s.tick(f * 25);
    expect(of(1, 'netgameWelcome')).toHaveLength(welcomes);
    // The round trip it measured sets the client's control lead: server lead 1 + 50 ms (2 frames) + 1 of margin.
    expect(s.clients.get(1)?.rttMs).toBe(50);
    expect(s.clients.get(1)?.lead).toBe(4);
  });

  it('a join and a leave take effect JOIN_DELAY_FRAMES later, as moves every client applies too', () => {
    const { s, sent } = server();
    s.join(3, 0);
    activate(s, sent, 3, 0);
    const activatedAt = s.frame;
    const joinAt = s.moves.forFrame(activatedAt + JOIN_DELAY_FRAMES);
    expect(joinAt).toEqual([{ frame: activatedAt + JOIN_DELAY_FRAMES, kind: MoveKind.Join, slot: 3, input: expect.any(Object) }]);
    while (s.frame <= activatedAt + JOIN_DELAY_FRAMES) s.tick(s.frame * 25);
    expect(s.state.world.ships.map((x) => x.slot)).toEqual([3]);
    s.leave(3);
    const leaveAt = s.frame + JOIN_DELAY_FRAMES;
    while (s.frame <= leaveAt) s.tick(s.frame * 25);
    expect(s.state.world.ships).toEqual([]);
    expect(s.clients.has(3)).toBe(false);
  });

  it('a spectator is welcomed with no slot, gets the state and every move, never enters the game, and is dropped (alone) once too far behind', () => {
    const { s, sent, of } = server();
    const eye = SPECTATOR_KEYS + 0;
    s.watch(eye, 0);
    expect(of(eye, 'netgameWelcome')).toEqual([expect.objectContaining({ slot: NO_SLOT })]);
    const whole = sent.find((x) => x.slot === eye && x.ev.type === 'stateDiff' && x.ev.base === NO_FRAME)?.ev;
    if (whole?.type !== 'stateDiff') throw new Error('no state sent to the spectator');
    s.receive(eye, { type: 'stateAck', frame: whole.frame, corrected: false }, 0);
    s.receive(eye, { type: 'movesAck', clientFrame: s.frame, next: s.moves.end, stamp: 0 }, 0);
    // Its controls steer nothing, however plausible.
    s.receive(eye, { type: 'controlChange', frame: s.frame + 5, input: FORWARD }, 0);
    for (let i = 0; i < JOIN_DELAY_FRAMES * 4; i++) s.tick(s.frame * 25);
    expect(s.clients.get(eye)).toMatchObject({ watcher: true, active: false, refused: 1 });
    expect(s.state.world.ships).toEqual([]);
    expect(of(eye, 'gameMoves').length).toBeGreaterThan(JOIN_DELAY_FRAMES);
    // It stops reporting: past the limit it is dropped, and no move says anyone left.
    const drops: ReturnType<Server['tick']> = [];
    while (drops.length === 0 && s.frame < 1000) drops.push(...s.tick(s.frame * 25));
    expect(drops).toEqual([{ slot: eye, behind: s.maxBehindFrames + 1, limit: s.maxBehindFrames, watcher: true }]);
    expect(s.clients.has(eye)).toBe(false);
    expect(s.moves.from(0, 1000).filter((m) => m.kind === MoveKind.Leave)).toEqual([]);
  });
});
