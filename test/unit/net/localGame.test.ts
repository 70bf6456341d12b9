import { describe, expect, it } from 'vitest';
import {
  LocalGame,
  MAX_REMOTE_LASERS,
  REMOTE_LASER_ID_BASE,
  REMOTE_OWNER_BASE,
  RESPAWN_TICKS,
  killerSlotOf,
} from '../../../src/renderer/src/game/localGame';
import { RemotePlayers, type RemoteSinks } from '../../../src/renderer/src/net/remotePlayers';
import type { LocalGameEvent, NetPlayer } from '../../../src/shared/net/gameLink';
import { parseLocalGameUpdate } from '../../../src/shared/net/gameLinkParse';
import { LASER_TTL_TICKS, NO_INPUT, SPAWN_CLEARANCE, SPAWN_SPACING, spawnPoint, type ShipInput, type Vec3 } from '../../../src/shared/sim';
import { NO_SLOT, objectId, type ShipState } from '../../../src/shared/wire/types';

const FIRE: ShipInput = { ...NO_INPUT, fire: true };
const SEED = 0x5741524c;

/** A laser from `slot` that reaches the local ship (at rest at the origin) within a few ticks. */
const incoming = (localId: number, z = -30) => ({ id: objectId(2, localId), pos: { x: 0, y: 0, z }, vel: { x: 0, y: 0, z: 300 }, ttl: 40 });

describe('LocalGame', () => {
  it('reports every local laser once, with a wire-valid update, even across several steps per frame', () => {
    const game = new LocalGame(SEED);
    const events: LocalGameEvent[] = [];
    for (let frame = 0; frame < 20; frame++) {
      for (let s = 0; s < 5; s++) game.step(FIRE);
      const update = game.takeUpdate();
      expect(parseLocalGameUpdate(JSON.parse(JSON.stringify(update))).ok).toBe(true);
      expect(update.tick).toBe(game.curr.tick);
      events.push(...update.events);
    }
    const lasers = events.filter((e) => e.type === 'laser');
    expect(lasers.length).toBeGreaterThan(5);
    expect(new Set(lasers.map((l) => l.localId)).size).toBe(lasers.length);
    for (const l of lasers) expect(l).toMatchObject({ ttl: LASER_TTL_TICKS });
  });

  it('is shot down by replicated lasers, names the killer slot, and respawns after 3 s', () => {
    const game = new LocalGame(SEED);
    const deaths: { pos: Vec3; killer: number }[] = [];
    game.onDestroyed = (pos, killer) => deaths.push({ pos, killer });
    for (let i = 0; i < 10; i++) game.addRemoteLaser(2, incoming(100 + i, -30 - 4 * i));
    const events: LocalGameEvent[] = [];
    for (let t = 0; t < 20 && !game.dead; t++) {
      game.step(NO_INPUT);
      events.push(...game.takeUpdate().events);
    }
    expect(game.dead).toBe(true);
    expect(events).toContainEqual({ type: 'destroyed', killerSlot: 2 });
    expect(deaths).toHaveLength(1);
    expect(deaths[0]!.killer).toBe(2);
    expect(game.takeUpdate().ship).toBeNull();
    expect(game.respawnSeconds).toBe(3);
    // Entering a game while dead: the respawn happens at the new slot's spawn point.
    game.setSpawnSlot(3);

    const diedAt = game.curr.tick;
    let respawnedAt = -1;
    for (let t = 0; t < RESPAWN_TICKS + 5; t++) {
      game.step({ ...FIRE, thrust: 1 }); // ignored while dead
      if (game.dead) expect(game.curr.lasers.filter((l) => l.owner === game.shipId)).toHaveLength(0);
      else if (respawnedAt < 0) {
        respawnedAt = game.curr.tick;
        expect(game.curr.ships[0]).toMatchObject({ damage: 0, energy: 100, lastHitBy: 0 });
      }
    }
    expect(respawnedAt - diedAt).toBe(RESPAWN_TICKS);
    const ship = game.curr.ships[0]!;
    expect(ship.id).toBe(game.shipId);
    expect(ship.damage).toBe(0);
    const state = game.takeUpdate().ship as ShipState;
    expect(state.damage).toBe(0);
    // It has flown a few ticks since (the input is no longer ignored).
    const spawn = spawnPoint(3);
    expect(Math.hypot(ship.pos.x - spawn.x, ship.pos.y - spawn.y, ship.pos.z - spawn.z)).toBeLessThan(5);
  });

  it('two players entering one game start on different spots: each at its slot\'s own spawn point, 40 units apart', () => {
    const [first, second] = [new LocalGame(SEED), new LocalGame(SEED)];
    first.setSpawnSlot(0);
    second.otherShips = () => [first.curr.ships[0]!.pos];
    second.setSpawnSlot(1);
    expect(first.curr.ships[0]!.pos).toEqual(spawnPoint(0));
    expect(second.curr.ships[0]!.pos).toEqual(spawnPoint(1));
    const d = second.curr.ships[0]!.pos.x - first.curr.ships[0]!.pos.x;
    expect(Math.abs(d)).toBe(SPAWN_SPACING);
  });

  it('a ship sitting on the slot\'s spawn point sends the player to the next free one, when entering and when respawning', () => {
    const game = new LocalGame(SEED);
    // Flying offline first, somewhere else: entering the game puts a fresh ship on the spawn point.
    for (let t = 0; t < 40; t++) game.step({ ...NO_INPUT, thrust: 1 });
    let parked: Vec3[] = [spawnPoint(2)];
    game.otherShips = () => parked;
    game.setSpawnSlot(2);
    expect(game.curr.ships[0]).toMatchObject({ pos: spawnPoint(3), vel: { x: 0, y: 0, z: 0 }, damage: 0 });
    // Another update of the same slot leaves the ship where it is.
    game.step({ ...NO_INPUT, thrust: 1 });
    const flown = game.curr.ships[0]!.pos;
    game.setSpawnSlot(2);
    expect(game.curr.ships[0]!.pos).toEqual(flown);

    for (let i = 0; i < 10; i++) game.addRemoteLaser(1, { id: objectId(1, 100 + i), pos: { x: flown.x, y: flown.y, z: flown.z - 30 - 4 * i }, vel: { x: 0, y: 0, z: 300 }, ttl: 40 });
    for (let t = 0; t < 20 && !game.dead; t++) game.step(NO_INPUT);
    expect(game.dead).toBe(true);
    // Now ships sit on spawn points 2 and 3, and one is near 4: the respawn takes 5.
    parked = [spawnPoint(2), spawnPoint(3), { ...spawnPoint(4), x: spawnPoint(4).x + SPAWN_CLEARANCE / 2 }];
    for (let t = 0; t <= RESPAWN_TICKS && game.dead; t++) game.step(NO_INPUT);
    expect(game.dead).toBe(false);
    expect(game.curr.ships[0]!.pos).toEqual(spawnPoint(5));
  });

  it('replicated lasers: ids and owners encode the wire id and slot; duplicates, floods and kills are handled', () => {
    const game = new LocalGame(SEED);
    game.addRemoteLaser(2, incoming(7, -500));
    game.addRemoteLaser(2, incoming(7, -500)); // duplicate before it joined the world
    game.step(NO_INPUT);
    game.addRemoteLaser(2, incoming(7, -500)); // duplicate of a live laser
    game.step(NO_INPUT);
    const remote = game.curr.lasers.filter((l) => l.id >= REMOTE_LASER_ID_BASE);
    expect(remote).toHaveLength(1);
    expect(remote[0]).toMatchObject({ id: REMOTE_LASER_ID_BASE + objectId(2, 7), owner: REMOTE_OWNER_BASE + 2 });
    game.removeRemoteObject(objectId(2, 7));
    game.step(NO_INPUT);
    expect(game.curr.lasers.filter((l) => l.id >= REMOTE_LASER_ID_BASE)).toHaveLength(0);

    for (let i = 0; i < MAX_REMOTE_LASERS + 50; i++) game.addRemoteLaser(1, { id: objectId(1, i), pos: { x: 0, y: 900, z: 0 }, vel: { x: 0, y: 0, z: 0 }, ttl: 9999 });
    game.addRemoteLaser(9, incoming(1)); // no such slot
    game.step(NO_INPUT);
    const flood = game.curr.lasers.filter((l) => l.id >= REMOTE_LASER_ID_BASE);
    expect(flood).toHaveLength(MAX_REMOTE_LASERS);
    expect(Math.max(...flood.map((l) => l.ttl))).toBeLessThan(200);
  });

  it('killerSlotOf maps replicated-laser owners back to slots and everything else to NO_SLOT', () => {
    expect(killerSlotOf(REMOTE_OWNER_BASE + 5)).toBe(5);
    expect(killerSlotOf(0)).toBe(NO_SLOT);
    expect(killerSlotOf(1)).toBe(NO_SLOT);
    expect(killerSlotOf(REMOTE_OWNER_BASE + 15)).toBe(15); // gameservers use slots up to 15
    expect(killerSlotOf(REMOTE_OWNER_BASE + 16)).toBe(NO_SLOT);
  });
});

describe('RemotePlayers', () => {
  const state = (pos: Vec3, damage = 0): ShipState => ({ pos, vel: { x: 10, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage });
  const player = (slot: number, name: string, joined = true, local = false): NetPlayer => ({ slot, name, joined, local, address: `n${slot}` });

  function setup() {
    const log: string[] = [];
    const sinks: RemoteSinks = {
      laser: (slot, l) => log.push(`laser ${slot} ${l.id}`),
      removeObject: (id) => log.push(`remove ${id}`),
      shipDestroyed: (v, k, pos) => log.push(`destroyed ${v} by ${k} at ${pos ? pos.x.toFixed(0) : 'none'}`),
      chat: (from, text) => log.push(`chat ${from}: ${text}`),
      playersChanged: () => log.push('players'),
    };
    const remotes = new RemotePlayers(sinks, 200);
    remotes.handle({ kind: 'players', localSlot: 0, status: 'ok', players: [player(1, 'bob'), player(0, 'me', true, true), player(2, 'eve', false)] }, 0);
    return { remotes, log };
  }

  it('draws joined remote ships only, at their smoothed position, and forgets slots that unjoin', () => {
    const { remotes, log } = setup();
    expect(log).toEqual(['players']);
    expect(remotes.players.map((p) => p.slot)).toEqual([0, 1, 2]);
    for (const slot of [0, 1, 2]) remotes.handle({ kind: 'state', slot, gameTime: 0, state: state({ x: slot * 100, y: 0, z: 0 }) }, 0);
    const drawn = remotes.sample(500);
    expect(drawn.map((r) => [r.slot, r.name])).toEqual([[1, 'bob']]);
    expect(drawn[0]!.pos.x).toBeCloseTo(105, 9);
    remotes.handle({ kind: 'players', localSlot: 0, status: 'ok', players: [player(0, 'me', true, true), player(1, 'bob', false)] }, 600);
    expect(remotes.sample(700)).toHaveLength(0);
  });

  it('a kill hides the ship until a live state, which snaps it back; foreign ids and chat are routed', () => {
    const { remotes, log } = setup();
    remotes.handle({ kind: 'state', slot: 1, gameTime: 0, state: state({ x: 0, y: 0, z: 0 }) }, 0);
    remotes.handle({ kind: 'event', slot: 1, event: { type: 'killObject', id: objectId(1, 0), killerSlot: 0 } }, 1000);
    expect(log.at(-1)).toBe('destroyed 1 by 0 at 10');
    expect(remotes.sample(1000)).toHaveLength(0);
    remotes.handle({ kind: 'state', slot: 1, gameTime: 0, state: state({ x: 500, y: 0, z: 0 }, 100) }, 1100);
    expect(remotes.sample(1100)).toHaveLength(0);
    remotes.handle({ kind: 'state', slot: 1, gameTime: 0, state: state({ x: 40, y: 0, z: 0 }) }, 1200);
    expect(remotes.sample(1200)[0]!.pos.x).toBe(40);

    remotes.handle({ kind: 'event', slot: 1, event: { type: 'createLaser', id: objectId(1, 5), pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 1 }, ttl: 40 } }, 0);
    remotes.handle({ kind: 'event', slot: 1, event: { type: 'createLaser', id: objectId(2, 5), pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 1 }, ttl: 40 } }, 0);
    remotes.handle({ kind: 'event', slot: 1, event: { type: 'killObject', id: objectId(1, 5), killerSlot: NO_SLOT } }, 0);
    remotes.handle({ kind: 'event', slot: 1, event: { type: 'createMissile', id: objectId(1, 6), pos: { x: 0, y: 0, z: 0 }, vel: { x: 0, y: 0, z: 1 }, targetSlot: 0, ttl: 40 } }, 0);
    remotes.handle({ kind: 'chat', slot: 1, from: 'bob', text: 'hi' }, 0);
    expect(log.slice(-3)).toEqual([`laser 1 ${objectId(1, 5)}`, `remove ${objectId(1, 5)}`, 'chat bob: hi']);
  });
});
