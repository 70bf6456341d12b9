/**
 * Client demos replay the recorded game exactly (docs/DEMO.md): a game
 * recorded mid-way — offline with bots, online with another player's states
 * and shots, in a shared world — plays back from its snapshot and journal
 * with every digest the recording wrote matching, and the world at the end
 * equal to the live one. A demo of another simulation or another version is
 * refused naming both; a damaged chunk stops playback with the reason.
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, hashWorld, kindOf, stepWorld, type GamePlayer, type TickOutcome, type World } from '../../../src/shared/game';
import { NO_INPUT, STEP_MS, type ShipInput } from '../../../src/shared/sim/types';
import { GameCodeInterface } from '../../../src/shared/net/gameCode';
import { GameRecorder } from '../../../src/shared/demo/gameRecorder';
import { GamePlayback } from '../../../src/shared/demo/gamePlayback';
import { gameDigest } from '../../../src/shared/demo/worldDigest';
import { DemoKind } from '../../../src/shared/demo/demoFormat';
import { createGoldenWorld, inputScript } from '../../../src/shared/game/goldenRun';
import { frameInputToShip, quantiseInput } from '../../../src/shared/lockstep/input';
import { withSpawnedShip } from '../../../src/shared/game/spawnPoint';
import type { SteppedFrame } from '../../../src/shared/game/frameSync';
import { NO_SLOT, type FrameInput, type RemoteEvent } from '../../../src/shared/wire/types';
import { remoteEvent } from '../../../src/shared/wire/events';
import { measure } from '../../../src/shared/wire/fields';
import { ByteWriter, Reader } from '../../../src/shared/wire/stream';
import { MemoryDemo } from '../../support/demoBytes';
import { demoHeader } from '../../support/demoHeader';

const VERSION = '0.1.0';
const header = demoHeader({ starlane: VERSION });

/** Flies in circles and fires now and then: enough to make lasers, missiles and kills. */
function pilot(t: number, phase: number): ShipInput {
  return { thrust: 0.8, yaw: ((t + phase) % 200) / 400 - 0.25, pitch: ((t * 3 + phase) % 90) / 300 - 0.15, roll: 0, fire: (t + phase) % 7 === 0, missile: (t + phase) % 160 === 0, mine: (t + phase) % 230 === 0 };
}

function overTheWire(ev: RemoteEvent): RemoteEvent {
  const w = new ByteWriter(measure(remoteEvent, ev));
  remoteEvent.write(w, ev);
  return remoteEvent.read(new Reader(w.buf));
}

function playAll(demo: MemoryDemo): GamePlayback {
  const opened = GamePlayback.open(demo.read(header), VERSION);
  if (!opened.ok) throw new Error(opened.reason);
  const p = opened.playback;
  p.playTo(Number.MAX_SAFE_INTEGER);
  return p;
}

describe('a client demo', () => {
  it('of an offline game with two bots, recorded 300 ticks in, replays with every digest matching', () => {
    const game = new ClientGame();
    game.addBot();
    game.addBot();
    const demo = new MemoryDemo();
    let t = 0;
    const tick = () => {
      demo.timeMs = t * STEP_MS;
      game.step(pilot(t, 0), 1000 + t * STEP_MS, new Map([...game.bots].map((s) => [s, pilot(t, s * 37)])));
      t++;
    };
    for (; t < 300; ) tick();
    const started = GameRecorder.start(game, demo);
    expect(started.ok).toBe(true);
    game.convergeMs = 150;
    for (let k = 0; k < 1200; k++) {
      if (k === 400) game.removeBot();
      if (k === 600) game.addBot();
      if (k === 700) game.setMatchLimits({ killLimit: 3 });
      tick();
    }
    if (started.ok) started.recorder.stop();
    const p = playAll(demo);
    expect(p.failure).toBeNull();
    console.log(`offline: ${demo.chunks.length} chunks, ${p.digests.checked} digests checked`);
    expect(p.digests.checked).toBe(30);
    expect(p.digests.differed).toEqual([]);
    expect(hashWorld(p.game.curr)).toBe(hashWorld(game.curr));
    expect(p.game.bots).toEqual(game.bots);
  });

  it("of an online game, with the other player's states, shots and kills, replays with every digest matching", () => {
    const players = (local: number): GamePlayer[] => [0, 1].map((slot) => ({ slot, joined: true, local: slot === local, name: slot === 0 ? 'alice' : 'bob' }));
    const alice = new ClientGame();
    const bob = new ClientGame();
    alice.applyPlayers(players(0), 0);
    bob.applyPlayers(players(1), 1);
    const outbox = { alice: new GameCodeInterface('joined'), bob: new GameCodeInterface('joined') };
    const demo = new MemoryDemo();
    let recorder: GameRecorder | null = null;
    const send = (from: ClientGame, box: GameCodeInterface, out: TickOutcome, now: number): RemoteEvent[] => {
      for (const o of out.created) kindOf(o).send(o, box, now);
      if (out.destroyed) box.killOwnShip(out.destroyed.killerSlot, now);
      for (const c of out.claims ?? []) box.killObject(c.owner * 65536 + c.id, from.localSlot, now);
      if (out.match) box.matchState(out.match, now);
      // As the network hands them over: through the wire's bytes.
      return box.takeEvents(from.localSlot, now, 100_000, () => 1).map(overTheWire);
    };
    for (let t = 0; t < 1500; t++) {
      const now = 5000 + t * STEP_MS;
      demo.timeMs = t * STEP_MS;
      if (t === 250) {
        const started = GameRecorder.start(alice, demo);
        if (!started.ok) throw new Error(started.reason);
        recorder = started.recorder;
      }
      const a = send(alice, outbox.alice, alice.step(pilot(t, 0), now), now);
      const b = send(bob, outbox.bob, bob.step(pilot(t, 91), now), now);
      // Bob's state and events reach alice 12 ms old, alice's reach bob.
      const bs = bob.localState();
      if (bs && t % 2 === 0) alice.applyState(1, bs, now + 1, 12);
      for (const ev of b) alice.applyEvent(1, ev, now + 1, 12);
      const as = alice.localState();
      if (as && t % 2 === 0) bob.applyState(0, as, now + 1, 12);
      for (const ev of a) bob.applyEvent(0, ev, now + 1, 12);
    }
    recorder?.stop();
    const kinds = new Set(demo.chunks.filter((c) => c.kind === DemoKind.Delivery).map((c) => c.body[0]));
    expect([...kinds].sort()).toEqual([2, 3]);
    const p = playAll(demo);
    expect(p.failure).toBeNull();
    console.log(`online: ${demo.chunks.length} chunks, ${p.digests.checked} digests checked`);
    expect(p.digests.checked).toBe(31);
    expect(p.digests.differed).toEqual([]);
    expect(gameDigest(p.game)).toBe(gameDigest(alice));
    expect(hashWorld(p.game.curr)).toBe(hashWorld(alice.curr));
  });

  it('of a shared world replays each frame from its inputs to the frame hashes the players saw, through a join and a correction', () => {
    const game = new ClientGame();
    const demo = new MemoryDemo();
    const started = GameRecorder.start(game, demo);
    if (!started.ok) throw new Error(started.reason);
    let world: World = createGoldenWorld(2049, 4);
    const script = inputScript(2049, 4);
    const hashes: string[] = [];
    for (let t = 0; t < 400; t++) {
      demo.timeMs = t * STEP_MS;
      const given = new Map<number, FrameInput>(world.ships.map((s, i) => [s.slot, quantiseInput(script(world)[i] ?? NO_INPUT)]));
      let from = world;
      // A fifth pilot joins at frame 150 (a netgame's join move changes the world before the step).
      if (t === 150) from = withSpawnedShip(world, 4);
      const inputs = new Map([...given].map(([s, q]) => [s, frameInputToShip(q)]));
      const events: SteppedFrame['events'] = [];
      let next = stepWorld(from, inputs, { events });
      let frame: SteppedFrame = { before: world, world: next, events, replay: { from, inputs: given } };
      // At frame 300 the server corrects us: a world no inputs replay.
      if (t === 300) {
        next = { ...next, ships: next.ships.map((s) => ({ ...s, energy: Math.max(0, s.energy - 5) })) };
        frame = { before: world, world: next, events };
      }
      world = next;
      game.showSynced([frame], 0);
      if (world.tick % 40 === 0) hashes.push(hashWorld(world));
    }
    started.recorder.stop();
    const p = playAll(demo);
    expect(p.failure).toBeNull();
    expect(p.digests.differed).toEqual([]);
    expect(p.digests.checked).toBe(hashes.length);
    expect(hashWorld(p.game.curr)).toBe(hashWorld(world));
    // Only the first world, the join's and the correction's are in the file: the rest is inputs.
    const worlds = demo.chunks.filter((c) => c.kind === DemoKind.Frame && c.body[0] !== 3 && c.body[0] !== 5);
    expect(new Set(worlds.map((c) => c.body[0]))).toEqual(new Set([1, 2, 4]));
  });

  it('of another simulation, or recorded by another Starlane version, is refused naming both', () => {
    const demo = new MemoryDemo();
    GameRecorder.start(new ClientGame(), demo);
    const other = GamePlayback.open(demo.read(demoHeader({ starlane: VERSION, sim: '0123456789abcdef' })), VERSION);
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.reason).toMatch(/golden hash 0123456789abcdef; this Starlane's is bd2957211ca905b0/);
    const older = GamePlayback.open(demo.read(demoHeader({ starlane: '0.0.9' })), VERSION);
    expect(older.ok).toBe(false);
    if (!older.ok) expect(older.reason).toMatch(/recorded by Starlane 0\.0\.9 and this is Starlane 0\.1\.0/);
  });

  it('with a damaged chunk plays up to it and stops with the reason; seeking back starts again from the snapshot', () => {
    const game = new ClientGame();
    const demo = new MemoryDemo();
    GameRecorder.start(game, demo);
    for (let t = 0; t < 200; t++) {
      demo.timeMs = t * STEP_MS;
      game.step(pilot(t, 0), t * STEP_MS);
    }
    // Chunk 101 claims a state from a slot with energy 400.
    const body = demo.chunks[100]!.body;
    demo.chunks[100] = { kind: DemoKind.Delivery, timeMs: demo.chunks[100]!.timeMs, body: Uint8Array.of(2, 1, ...new Uint8Array(16 + 15 * 8).fill(0x41)) };
    expect(body[0]).toBe(1);
    const opened = GamePlayback.open(demo.read(header), VERSION);
    if (!opened.ok) throw new Error(opened.reason);
    const p = opened.playback;
    p.playTo(Number.MAX_SAFE_INTEGER);
    expect(p.failure).toMatch(/^chunk 101 \(\d+ ms\): state: energy or damage outside 0\.\.100$/);
    const shown = p.game.curr.tick;
    expect(shown).toBeGreaterThan(90);
    expect(p.restart()).toBeNull();
    expect(p.game.curr.tick).toBe(0);
    // The ticks recorded from 0 ms to 1,000 ms: 41 of them.
    p.playTo(40 * STEP_MS);
    expect(p.game.curr.tick).toBe(41);
  });
});

describe('a spectator game (a server recording, a watcher)', () => {
  it('shows every joined player with no ship of its own, follows the server\'s match, decides nothing, and replays exactly', () => {
    const table: GamePlayer[] = [0, 1].map((slot) => ({ slot, joined: true, local: false, name: `p${slot}` }));
    const players = [new ClientGame(), new ClientGame()];
    players.forEach((g, i) => g.applyPlayers(table.map((p) => ({ ...p, local: p.slot === i })), i));
    const watcher = new ClientGame();
    watcher.applyPlayers(table, NO_SLOT);
    const demo = new MemoryDemo();
    const started = GameRecorder.start(watcher, demo);
    if (!started.ok) throw new Error(started.reason);
    const said: TickOutcome[] = [];
    for (let t = 0; t < 400; t++) {
      const now = 1000 + t * STEP_MS;
      demo.timeMs = t * STEP_MS;
      players.forEach((g, i) => {
        g.step(pilot(t, i * 50), now);
        const st = g.localState();
        if (st && t % 2 === 0) watcher.applyState(i, st, now + 1, 8);
      });
      if (t === 100) watcher.applyEvent(NO_SLOT, { type: 'matchState', round: 0, phase: 0, killLimit: 5, timeLimitS: 600, msLeft: 597_500, msPlayed: 2500, page: 0, scores: [{ slot: 0, kills: 2, deaths: 0 }, { slot: 1, kills: 0, deaths: 2 }] }, now, 0);
      said.push(watcher.step(NO_INPUT, now));
    }
    started.recorder.stop();
    expect(watcher.localSlot).toBe(NO_SLOT);
    expect(watcher.curr.ships.map((s) => s.slot).sort()).toEqual([0, 1]);
    expect(watcher.decidesMatch).toBe(false);
    expect(said.every((o) => o.created.length === 0 && !o.match && !o.breaks && !o.destroyed)).toBe(true);
    const p = playAll(demo);
    expect(p.failure).toBeNull();
    expect(p.digests.checked).toBe(10);
    expect(p.digests.differed).toEqual([]);
    expect(hashWorld(p.game.curr)).toBe(hashWorld(watcher.curr));
  });
});
