/**
 * A late laser's skipped path (shotRewind.ts): the victim's game sweeps the
 * stretch a laser flew while on the way against where its ship was then, so
 * a shot that met the ship on the shooter's screen is not lost to the lag.
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, type GamePlayer } from '../../../src/shared/game';
import { REWIND_MS, ShipTrail, skippedHit } from '../../../src/shared/game/shotRewind';
import { NO_INPUT, spawnPoint, STEP_MS, type Vec3 } from '../../../src/shared/sim';
import { objectId, type RemoteEvent } from '../../../src/shared/wire/types';

const at = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
/** A trail of a ship that sat at `pos` for `ticks` ticks. */
function still(pos: Vec3, ticks: number): ShipTrail {
  const trail = new ShipTrail();
  for (let i = 0; i < ticks; i++) trail.record(pos);
  return trail;
}
const player = (slot: number, local = false): GamePlayer => ({ slot, joined: true, local });

describe('a late laser meets our ship where it was', () => {
  it('a laser that crossed our ship 100 ms before it arrived (150 ms old) hit it; one 20 units aside did not', () => {
    const trail = still(at(0, 0, 0), 12);
    // Fired 150 ms ago 30 units short, at 300 u/s: at the ship 100 ms ago, 15 units past it now.
    expect(skippedHit(at(0, 0, -30), at(0, 0, 300), 150, trail)).toBe(true);
    expect(skippedHit(at(20, 0, -30), at(0, 0, 300), 150, trail)).toBe(false);
  });

  it('only the last REWIND_MS of the path count: a meeting 300 ms back is not a hit, nor one before the trail began', () => {
    expect(REWIND_MS).toBe(250);
    // Fired 400 ms ago 30 units short: at the ship 300 ms ago.
    expect(skippedHit(at(0, 0, -30), at(0, 0, 300), 400, still(at(0, 0, 0), 20))).toBe(false);
    // A ship that has been here two ticks only (it just respawned): nothing before that is looked at.
    expect(skippedHit(at(0, 0, -30), at(0, 0, 300), 150, still(at(0, 0, 0), 2))).toBe(false);
    // A destroyed ship forgets its trail.
    const trail = still(at(0, 0, 0), 12);
    trail.record(null);
    expect(skippedHit(at(0, 0, -30), at(0, 0, 300), 150, trail)).toBe(false);
  });

  it('in a network game, our ship takes the hit of a late laser whose path crossed it, at the next tick, named by the shot', () => {
    const game = new ClientGame();
    game.applyPlayers([player(0, true), player(2)], 0);
    let t = 0;
    for (; t < 12; t++) game.step(NO_INPUT, t * STEP_MS);
    const ship = game.localShip!;
    const home = spawnPoint(0);
    expect(ship.pos).toEqual(home);
    const laser = (localId: number, dx: number): RemoteEvent => ({ type: 'createLaser', id: objectId(2, localId), pos: { x: home.x + dx, y: home.y, z: home.z - 30 }, vel: at(0, 0, 300), ttl: 40 });
    // Aged 150 ms, it is 15 units past our ship now: without the sweep it would fly on.
    game.applyEvent(2, laser(7, 0), t * STEP_MS, 150);
    game.applyEvent(2, laser(8, 20), t * STEP_MS, 150);
    game.step(NO_INPUT, t * STEP_MS);
    const hits = game.events.filter((e) => e.type === 'hit');
    expect(hits).toEqual([expect.objectContaining({ type: 'hit', slot: 0, by: 2, cause: 'laser', id: 7 })]);
    expect(game.localShip!.shield).toBeLessThan(ship.shield);
  });
});
