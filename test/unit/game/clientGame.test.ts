/**
 * The client game every node runs (src/shared/game/clientGame.ts): our ship
 * from our inputs, the others from their states, replicated objects from
 * their events; the victim decides hits on its own ship.
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, DESTROYED_DAMAGE, LASER_DAMAGE, LASER_TTL_TICKS, MATCH_OWNER, SHIELD_MAX, MAX_REMOTE_OBJECTS, RESPAWN_TICKS, type GameObject, type GamePlayer, type TickOutcome } from '../../../src/shared/game';
import { NO_INPUT, SPAWN_CLEARANCE, SPAWN_SPACING, spawnPoint, STEP_MS, type ShipInput, type Vec3 } from '../../../src/shared/sim';
import { NO_SLOT, objectId, type RemoteEvent, type ShipState } from '../../../src/shared/wire/types';

const FIRE: ShipInput = { ...NO_INPUT, fire: true };

/** A laser from `slot` that reaches a ship at rest at `at` within a few ticks. */
const incoming = (slot: number, localId: number, at: Vec3 = { x: 0, y: 0, z: 0 }, dz = -30): RemoteEvent => ({
  type: 'createLaser',
  id: objectId(slot, localId),
  pos: { x: at.x, y: at.y, z: at.z + dz },
  vel: { x: 0, y: 0, z: 300 },
  ttl: 40,
});
const state = (pos: Vec3, damage = 0): ShipState => ({ pos, vel: { x: 10, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage });
const player = (slot: number, joined = true, local = false): GamePlayer => ({ slot, joined, local });

/** Steps `game` with host time advancing 25 ms a tick from `t0`. */
function run(game: ClientGame, ticks: number, input: ShipInput, t0 = 0): TickOutcome[] {
  const out: TickOutcome[] = [];
  for (let i = 0; i < ticks; i++) out.push(game.step(input, t0 + i * STEP_MS));
  return out;
}
/** Bolts that take a full shield and hull, and two more for the shield's recharge between them. */
const LETHAL_BOLTS = Math.ceil((SHIELD_MAX + DESTROYED_DAMAGE) / LASER_DAMAGE) + 2;

/** Objects of other players (not ours, not the match's energy fields). */
const remoteObjects = (game: ClientGame): GameObject[] => game.curr.objects.filter((o) => o.owner !== game.localSlot && o.owner !== MATCH_OWNER);

describe('ClientGame: our ship', () => {
  it('reports every laser we fire once, on the tick it is fired, with distinct ids', () => {
    const game = new ClientGame();
    const created = run(game, 100, FIRE).flatMap((o, tick) => o.created.map((c) => ({ tick, c })));
    expect(created.length).toBeGreaterThan(5);
    expect(new Set(created.map(({ c }) => c.id)).size).toBe(created.length);
    for (const { c } of created) expect(c).toMatchObject({ kind: 'laser', owner: 0, ttl: LASER_TTL_TICKS });
    // Reported at its own tick: the laser is in that tick's world, where the report says it is.
    const first = new ClientGame();
    const outcomes = run(first, 1, FIRE);
    expect(first.curr.objects.filter((o) => o.owner === first.localSlot)).toEqual(outcomes[0]!.created);
  });

  it('is shot down by replicated lasers, names the killer slot, and respawns after 3 s at its slot', () => {
    const game = new ClientGame();
    game.applyPlayers([player(0, true, true), player(2)], 0);
    for (let i = 0; i < LETHAL_BOLTS; i++) game.applyEvent(2, incoming(2, 100 + i, spawnPoint(0), -30 - 4 * i), 0, 0);
    let destroyed: TickOutcome['destroyed'] = null;
    for (let t = 0; t < 20 && !game.dead; t++) destroyed = game.step(NO_INPUT, t * STEP_MS).destroyed ?? destroyed;
    expect(game.dead).toBe(true);
    expect(destroyed).toEqual({ killerSlot: 2, cause: 'laser' });
    expect(game.takeNotices()).toEqual([expect.objectContaining({ type: 'destroyed', slot: 0, killerSlot: 2, local: true })]);
    expect(game.localState()).toBeNull();
    expect(game.localShip).toBeUndefined();
    expect(game.respawnSeconds).toBe(3);
    // Entering another slot while dead: the respawn happens at the new slot's spawn point.
    game.applyPlayers([player(3, true, true), player(2)], 3);

    const diedAt = game.curr.tick;
    let respawnedAt = -1;
    for (let t = 0; t < RESPAWN_TICKS + 5; t++) {
      game.step({ ...FIRE, thrust: 1 }, 1000 + t * STEP_MS); // ignored while dead
      if (game.dead) expect(game.curr.objects.filter((o) => o.owner === game.localSlot)).toHaveLength(0);
      else if (respawnedAt < 0) {
        respawnedAt = game.curr.tick;
        expect(game.localShip).toMatchObject({ slot: 3, damage: 0, energy: 100 });
      }
    }
    expect(respawnedAt - diedAt).toBe(RESPAWN_TICKS);
    expect(game.localState()?.damage).toBe(0);
    const ship = game.localShip!;
    const spawn = spawnPoint(3);
    // It has flown a few ticks since (the input is no longer ignored).
    expect(Math.hypot(ship.pos.x - spawn.x, ship.pos.y - spawn.y, ship.pos.z - spawn.z)).toBeLessThan(5);
  });

  it("two players entering one game start on different spots: each at its slot's own spawn point, 40 units apart", () => {
    const [first, second] = [new ClientGame(), new ClientGame()];
    first.applyPlayers([player(0, true, true)], 0);
    // The second sees the first's ship (a state) before it takes its own slot.
    second.applyPlayers([player(0), player(1, false, true)], null);
    second.applyState(0, state(first.localShip!.pos), 0, 0);
    second.step(NO_INPUT, 0);
    second.applyPlayers([player(0), player(1, true, true)], 1);
    expect(first.localShip!.pos).toEqual(spawnPoint(0));
    expect(second.localShip!.pos).toEqual(spawnPoint(1));
    expect(Math.abs(second.localShip!.pos.x - first.localShip!.pos.x)).toBe(SPAWN_SPACING);
  });

  it("a ship sitting on the slot's spawn point sends the player to the next free one, when entering and when respawning", () => {
    const game = new ClientGame();
    // Flying offline first, somewhere else: entering the game puts a fresh ship on the spawn point.
    run(game, 40, { ...NO_INPUT, thrust: 1 });
    const parked = (slot: number, pos: Vec3) => {
      game.applyState(slot, { ...state(pos), vel: { x: 0, y: 0, z: 0 } }, 1000, 0);
    };
    const table = [player(2, true, true), player(5), player(6), player(7)];
    game.applyPlayers(table, null);
    parked(5, spawnPoint(2));
    game.step(NO_INPUT, 1000);
    game.applyPlayers(table, 2);
    expect(game.localShip).toMatchObject({ slot: 2, pos: spawnPoint(3), vel: { x: 0, y: 0, z: 0 }, damage: 0 });
    // Another table with the same slot leaves the ship where it is.
    game.step({ ...NO_INPUT, thrust: 1 }, 1025);
    const flown = game.localShip!.pos;
    game.applyPlayers(table, 2);
    expect(game.localShip!.pos).toEqual(flown);

    for (let i = 0; i < LETHAL_BOLTS; i++) game.applyEvent(5, incoming(5, 100 + i, flown, -30 - 4 * i), 1025, 0);
    for (let t = 0; t < 20 && !game.dead; t++) game.step(NO_INPUT, 1050 + t * STEP_MS);
    expect(game.dead).toBe(true);
    // Now ships sit on spawn points 2 and 3, and one is near 4: the respawn takes 5.
    parked(6, spawnPoint(3));
    parked(7, { ...spawnPoint(4), x: spawnPoint(4).x + SPAWN_CLEARANCE / 2 });
    for (let t = 0; t <= RESPAWN_TICKS && game.dead; t++) game.step(NO_INPUT, 2000 + t * STEP_MS);
    expect(game.dead).toBe(false);
    expect(game.localShip!.pos).toEqual(spawnPoint(5));
  });
});

describe('ClientGame: entering a game', () => {
  it("leaves the practice behind: no shot, mine or missile of ours or the computer pilots' flies on into the network game", () => {
    const game = new ClientGame();
    game.addBot();
    game.addBot();
    // Practice: our lasers, a missile and a mine, with two bots in the arena.
    let t = 0;
    for (let i = 0; i < 80; i++, t += STEP_MS) game.step({ ...NO_INPUT, fire: i % 8 === 0, missile: i === 10, mine: i === 20 }, t);
    const practised = game.curr.objects.filter((o) => o.owner !== MATCH_OWNER).map((o) => o.kind);
    expect(new Set(practised)).toEqual(new Set(['laser', 'missile', 'mine']));
    const fields = game.curr.objects.filter((o) => o.kind === 'field').length;
    game.applyPlayers([player(0), player(3, true, true)], 3);
    expect(game.bots).toEqual([]);
    expect(game.curr.objects.filter((o) => o.owner !== MATCH_OWNER)).toEqual([]);
    // The arena stays: its energy fields.
    expect(game.curr.objects.filter((o) => o.kind === 'field')).toHaveLength(fields);
  });
});

describe('ClientGame: the other players', () => {
  function joined(): ClientGame {
    const game = new ClientGame({ convergeMs: 200 });
    game.applyPlayers([player(1), player(0, true, true), player(2, false)], 0);
    return game;
  }

  it('replicated lasers keep their owner slot and wire id; duplicates, floods, strangers and kills are handled', () => {
    const game = joined();
    game.applyEvent(1, incoming(1, 7, { x: 0, y: 0, z: 0 }, -500), 0, 0);
    game.applyEvent(1, incoming(1, 7, { x: 0, y: 0, z: 0 }, -500), 0, 0); // duplicate before it joined the world
    game.step(NO_INPUT, 0);
    game.applyEvent(1, incoming(1, 7, { x: 0, y: 0, z: 0 }, -500), 0, 0); // duplicate of a live laser
    game.applyEvent(1, incoming(2, 8), 0, 0); // slot 1 claiming slot 2's object
    game.step(NO_INPUT, 25);
    expect(remoteObjects(game)).toEqual([expect.objectContaining({ kind: 'laser', id: 7, owner: 1 })]);
    game.applyEvent(1, { type: 'killObject', id: objectId(1, 7), killerSlot: NO_SLOT }, 50, 0);
    game.step(NO_INPUT, 50);
    expect(remoteObjects(game)).toHaveLength(0);

    for (let i = 1; i < MAX_REMOTE_OBJECTS + 50; i++) game.applyEvent(1, { type: 'createLaser', id: objectId(1, i), pos: { x: 0, y: 900, z: 0 }, vel: { x: 0, y: 0, z: 0 }, ttl: 9999 }, 75, 0);
    game.step(NO_INPUT, 75);
    const flood = remoteObjects(game);
    expect(flood).toHaveLength(MAX_REMOTE_OBJECTS);
    expect(Math.max(...flood.map((o) => (o.kind === 'laser' ? o.ttl : 0)))).toBeLessThan(200);
  });

  it('a replicated laser is moved on by its age in game time, and comes in shorter-lived', () => {
    const game = joined();
    game.applyEvent(1, { type: 'createLaser', id: objectId(1, 3), pos: { x: 0, y: 500, z: 0 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 }, 0, 100);
    game.step(NO_INPUT, 0);
    // 100 ms of age, then the tick it joined on: 0.125 s × 600 units/s.
    expect(remoteObjects(game)[0]).toMatchObject({ pos: { x: 0, y: 500, z: -75 }, ttl: 40 - 4 - 1 });
  });

  it('puts joined remote ships in the world by slot, at their smoothed position, and forgets slots that unjoin', () => {
    const game = joined();
    for (const slot of [0, 1, 2]) game.applyState(slot, state({ x: slot * 100, y: 0, z: 0 }), 0, 0);
    game.step(NO_INPUT, 500);
    expect(game.curr.ships.map((s) => s.slot)).toEqual([0, 1]);
    expect(game.curr.ships[1]!.pos.x).toBeCloseTo(105, 9);
    game.applyPlayers([player(0, true, true), player(1, false)], 0);
    game.step(NO_INPUT, 700);
    expect(game.curr.ships.map((s) => s.slot)).toEqual([0]);
  });

  it('our lasers pass through remote ships: their own games decide their hits', () => {
    const game = joined();
    game.applyState(1, { ...state({ x: 0, y: 0, z: -100 }), vel: { x: 0, y: 0, z: 0 } }, 0, 0);
    run(game, 12, FIRE);
    expect(game.curr.ships.find((s) => s.slot === 1)!.damage).toBe(0);
    expect(game.curr.objects.filter((o) => o.owner === 0).length).toBeGreaterThan(0);
  });

  it('a kill takes the ship out of the world until a live state, which snaps it back', () => {
    const game = joined();
    game.applyState(1, state({ x: 0, y: 0, z: 0 }), 0, 0);
    game.applyEvent(1, { type: 'killObject', id: objectId(1, 0), killerSlot: 0 }, 1000, 0);
    expect(game.takeNotices()).toEqual([{ type: 'destroyed', slot: 1, killerSlot: 0, pos: expect.objectContaining({ x: 10 }), local: false }]);
    game.step(NO_INPUT, 1000);
    expect(game.curr.ships.map((s) => s.slot)).toEqual([0]);
    game.applyState(1, state({ x: 500, y: 0, z: 0 }, 100), 1100, 0);
    game.step(NO_INPUT, 1100);
    expect(game.curr.ships.map((s) => s.slot)).toEqual([0]);
    game.applyState(1, state({ x: 40, y: 0, z: 0 }), 1200, 0);
    game.step(NO_INPUT, 1200);
    expect(game.curr.ships[1]!.pos.x).toBe(40);
  });
});
