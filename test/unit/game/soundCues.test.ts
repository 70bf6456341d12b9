/**
 * The game's sound cues (src/shared/game/soundCues.ts): what a player hears
 * of each tick, derived from two world views, the tick's events and notices
 * and our input — from a real ClientGame where the game can make the case,
 * from hand-made views where it cannot (a remote player's shot, a lockstep
 * frame that waited).
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, worldView, type WorldEvent } from '../../../src/shared/game';
import { heardFrom, MAX_CUES_PER_TICK, soundCues, type SoundTickInput } from '../../../src/shared/game/soundCues';
import type { ObjectView, ShipView, WorldView } from '../../../src/shared/game/view';
import type { GameNotice } from '../../../src/shared/game/clientTypes';
import { NO_INPUT, STEP_MS, type ShipInput, type Vec3 } from '../../../src/shared/sim';

const FIRE: ShipInput = { ...NO_INPUT, fire: true };
const v = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const ship = (slot: number, pos = v(0, 0, 0)): ShipView => ({ slot, pos, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: v(0, 0, 0), energy: 100, shield: 40, damage: 0, missiles: 3, mines: 2, laserLevel: 1, invulnerable: 0 });
const object = (kind: ObjectView['kind'], owner: number, id: number, pos = v(0, 0, -50)): ObjectView => ({ kind, owner, id, pos, vel: v(0, 0, -600) });
const view = (tick: number, more: Partial<WorldView> = {}): WorldView => ({
  tick, localSlot: 0, respawnSeconds: null, ships: [ship(0), ship(1, v(100, 0, 0))], objects: [], asteroids: [], scores: [],
  match: { phase: 0, secondsLeft: null, killLimit: 10, timeLimitS: 600, round: 0 }, lockedBy: [], bots: [], pings: [], ...more,
});
const tick = (prev: WorldView | null, curr: WorldView, more: Partial<SoundTickInput> = {}): ReturnType<typeof soundCues> =>
  soundCues({ prev, curr, events: [], notices: [], input: NO_INPUT, ...more });

/** Runs `game` for `ticks` ticks with `input`, deriving each tick's batch the way the host's sound kind does; with the shots the game fired. */
function play(game: ClientGame, ticks: number, input: ShipInput, prev: WorldView | null = null) {
  const batches = [];
  let shots = 0;
  for (let i = 0; i < ticks; i++) {
    game.step(input, i * STEP_MS);
    const curr = worldView(game);
    if (game.events.some((e) => e.type === 'fired' && e.kind === 'laser' && e.slot === game.localSlot)) shots++;
    batches.push(soundCues({ prev, curr, events: game.events, notices: game.takeNotices(), input }));
    prev = curr;
  }
  return { batches, shots };
}

describe('sound cues', () => {
  it('our laser: one cue per shot, on our own ship (not positional), as the game fires them', () => {
    const game = new ClientGame();
    const { batches, shots } = play(game, 60, FIRE, worldView(game));
    const lasers = batches.flatMap((b) => b.cues).filter((c) => c.type === 'laser');
    expect(shots).toBeGreaterThan(3);
    expect(lasers.length).toBe(shots);
    for (const c of lasers) expect(c).toEqual({ type: 'laser', at: null, from: 0, strength: 0.6 });
    // The engine idles (no thrust asked), the listener is our ship.
    expect(batches.at(-1)!.engine).toEqual({ thrust: 0, afterburner: false });
    expect(batches.at(-1)!.listener).toEqual({ pos: game.localShip!.pos, rot: game.localShip!.rot });
  });

  it('a bot firing is heard where its bolt is; its parallel bolts make one stronger cue', () => {
    const before = view(10, { objects: [object('laser', 1, 7)] });
    const after = view(11, { objects: [object('laser', 1, 7), object('laser', 1, 8, v(97, 0, -5)), object('laser', 1, 9, v(103, 0, -5)), object('missile', 2, 1, v(0, 50, 0))] });
    expect(tick(before, after).cues).toEqual([
      { type: 'laser', at: v(97, 0, -5), from: 1, strength: 0.8 },
      { type: 'missile', at: v(0, 50, 0), from: 2, strength: 1 },
    ]);
  });

  it('mines and EMPs are cues; extras appearing and energy fields are not', () => {
    const after = view(2, { objects: [object('mine', 0, 1), object('emp', 1, 2, v(5, 5, 5)), object('extra', -1, 3), object('field', -1, 4)] });
    expect(tick(view(1), after).cues.map((c) => [c.type, c.at])).toEqual([['mine', null], ['emp', v(5, 5, 5)]]);
  });

  it('a world that did not move on (a lockstep frame that waited) or went back (a new game) raises no shot and no stale event; nor does a join (another slot)', () => {
    const curr = view(11, { objects: [object('laser', 1, 8)] });
    const hit: WorldEvent[] = [{ type: 'hit', slot: 0, by: 1, cause: 'laser', shield: 12, hull: 0 }];
    expect(tick(view(11), curr, { events: hit }).cues).toEqual([]);
    expect(tick(view(40), curr, { events: hit }).cues).toEqual([]);
    // Joined a network game: another slot, another world.
    expect(tick(view(10, { localSlot: 3 }), curr, { events: hit }).cues).toEqual([]);
    // The first tick after a bind has nothing to compare with.
    expect(tick(null, curr, { events: hit }).cues).toEqual([]);
  });

  it('our shield and hull hits, summed per tick, loud by the damage; hits on others are not ours to hear', () => {
    const events: WorldEvent[] = [
      { type: 'hit', slot: 0, by: 1, cause: 'laser', shield: 12, hull: 0 },
      { type: 'hit', slot: 0, by: 2, cause: 'missile', shield: 8, hull: 32 },
      { type: 'hit', slot: 1, by: 0, cause: 'laser', shield: 12, hull: 0 },
    ];
    expect(tick(view(1), view(2), { events }).cues).toEqual([
      { type: 'shieldHit', at: null, from: 2, strength: 0.5 },
      { type: 'hullHit', at: null, from: 2, strength: 0.8 },
    ]);
  });

  it('an EMP draining us, our pickup, and a bot\'s pickup where the bot is', () => {
    const events: WorldEvent[] = [
      { type: 'drained', slot: 0, by: 1 },
      { type: 'drained', slot: 1, by: 0 },
      { type: 'pickup', slot: 0, id: 3, owner: -1, extra: 2 },
      { type: 'pickup', slot: 1, id: 4, owner: -1, extra: 0 },
    ];
    expect(tick(view(1), view(2), { events }).cues).toEqual([
      { type: 'drained', at: null, from: 1, strength: 1 },
      { type: 'pickup', at: null, from: 0, strength: 1 },
      { type: 'pickup', at: v(100, 0, 0), from: 1, strength: 1 },
    ]);
  });

  it('explosions: ours on our ship, another ship where it was shown, one never shown not at all', () => {
    const notices: GameNotice[] = [
      { type: 'destroyed', slot: 0, killerSlot: 1, pos: v(1, 2, 3), local: true },
      { type: 'destroyed', slot: 1, killerSlot: 0, pos: v(100, 0, 0), local: false },
      { type: 'destroyed', slot: 2, killerSlot: 0, pos: null, local: false },
    ];
    // Notices are the tick's own: heard even when the world did not move on.
    expect(tick(view(5), view(5), { notices }).cues).toEqual([
      { type: 'explosion', at: null, from: 0, strength: 1 },
      { type: 'explosion', at: v(100, 0, 0), from: 1, strength: 1 },
    ]);
  });

  it('an asteroid broken in the match is heard (the nearest one a tick); a new match bringing the field back is not', () => {
    const rock = (id: number, pos: Vec3, radius = 20) => ({ id, pos, rot: { x: 0, y: 0, z: 0, w: 1 }, radius });
    const before = view(1, { asteroids: [rock(1, v(0, 0, -900)), rock(2, v(0, 0, -200), 40), rock(3, v(500, 0, 0))] });
    expect(tick(before, view(2, { asteroids: [rock(3, v(500, 0, 0))] })).cues).toEqual([{ type: 'break', at: v(0, 0, -200), from: -1, strength: 1 }]);
    const nextMatch = view(2, { asteroids: [], match: { ...before.match, round: 1 } });
    expect(tick(before, nextMatch).cues).toEqual([]);
  });

  it('the engine follows our thrust (reverse too) and afterburner; nothing of ours while we are down', () => {
    expect(tick(view(1), view(2), { input: { ...NO_INPUT, thrust: -0.5, afterburner: true } }).engine).toEqual({ thrust: 0.5, afterburner: true });
    const down = tick(view(1), view(2, { respawnSeconds: 3, lockedBy: [1] }), { input: { ...NO_INPUT, thrust: 1 } });
    expect(down).toMatchObject({ engine: null, locked: false, listener: null });
  });

  it('the lock warning sounds while a missile is locked on us', () => {
    expect(tick(view(1), view(2, { lockedBy: [1] })).locked).toBe(true);
    expect(tick(view(1), view(2)).locked).toBe(false);
  });

  it('a flood of new objects (a state transfer) is cut to the most one tick sends', () => {
    const flood = Array.from({ length: 40 }, (_, i) => object(i % 2 === 0 ? 'laser' : 'missile', i, i));
    expect(tick(view(1), view(2, { objects: flood })).cues).toHaveLength(MAX_CUES_PER_TICK);
  });

  it('is deterministic and leaves the views as they were', () => {
    const before = view(10);
    const after = view(11, { objects: [object('laser', 1, 8)], lockedBy: [1] });
    const frozen = JSON.stringify([before, after]);
    const first = tick(before, after, { input: { ...NO_INPUT, thrust: 1 } });
    expect(tick(before, after, { input: { ...NO_INPUT, thrust: 1 } })).toEqual(first);
    first.cues[0]!.at!.x = 999;
    first.listener!.pos.x = 999;
    expect(JSON.stringify([before, after])).toBe(frozen);
  });
});

describe('heardFrom: a cue in the listener\'s axes', () => {
  const ahead = (rot: { x: number; y: number; z: number; w: number }, at: Vec3) => {
    const r = heardFrom({ pos: v(10, 0, 0), rot }, at);
    return [r.x, r.y, r.z].map((n) => Math.round(n * 1000) / 1000 + 0);
  };
  it('straight ahead of an unturned ship is down -Z; a ship turned left hears the world\'s -Z on its right', () => {
    const identity = { x: 0, y: 0, z: 0, w: 1 };
    expect(ahead(identity, v(10, 0, -100))).toEqual([0, 0, -100]);
    expect(ahead(identity, v(10, 30, 0))).toEqual([0, 30, 0]);
    // 90° to the left (about +Y): the nose points down -X.
    const left = { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 };
    expect(ahead(left, v(-90, 0, 0))).toEqual([0, 0, -100]);
    expect(ahead(left, v(10, 0, -100))).toEqual([100, 0, 0]);
  });
});
