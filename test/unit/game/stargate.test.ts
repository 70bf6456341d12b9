/**
 * Stargates (stargate.ts) and entering a solar system (systemEntry.ts): a
 * ship goes through a gate when its path between two states passes within
 * the gate's radius, however fast; it arrives beyond the gate back, facing
 * out of it into the system, at the speed it flew in; its client's world
 * takes the new system's arena and keeps what the ship carries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARRIVAL_DISTANCE, GATE_RADIUS, arrivalAt, facing, gateAxis, gateCrossed } from '../../../src/shared/game/stargate';
import { enterSystem, type SolarSystemMessage } from '../../../src/shared/game/systemEntry';
import { ClientGame, WORLD_SEED } from '../../../src/shared/game/clientGame';
import { createWorld } from '../../../src/shared/game/world';
import { forwardOf } from '../../../src/shared/sim/vec';
import { NO_SLOT } from '../../../src/shared/wire/types';

const gates = [
  { to: 'Vega', pos: { x: 0, y: 0, z: -300 } },
  { to: 'Rigel', pos: { x: 500, y: 0, z: 0 } },
];

describe('going through a stargate', () => {
  it('a path through the ring goes through it, one passing outside its radius does not, and a fast ship does not skip it', () => {
    expect(gateCrossed(gates, { x: 0, y: 0, z: -200 }, { x: 0, y: 0, z: -400 })?.to).toBe('Vega');
    expect(gateCrossed(gates, { x: GATE_RADIUS + 1, y: 0, z: -200 }, { x: GATE_RADIUS + 1, y: 0, z: -400 })).toBeNull();
    // 2,000 units between two states: the segment still passes through.
    expect(gateCrossed(gates, { x: 0, y: 0, z: 1000 }, { x: 0, y: 0, z: -1000 })?.to).toBe('Vega');
    // A first state (no earlier one) inside the ring counts where it is.
    expect(gateCrossed(gates, null, { x: 495, y: 10, z: 0 })?.to).toBe('Rigel');
    expect(gateCrossed(gates, null, { x: 0, y: 0, z: 0 })).toBeNull();
  });

  it('a ship arrives beyond the gate back to where it came from, nose out of it into the system, at the speed it flew in', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -5000, max: 5000 }), fc.double({ min: 0, max: 400, noNaN: true }), (x, y, z, speed) => {
        const back = { x, y, z };
        const a = arrivalAt({ gates: [{ to: 'Sol', pos: back }] }, 'sol', speed);
        const axis = gateAxis(back);
        const d = Math.hypot(a.pos.x - back.x, a.pos.y - back.y, a.pos.z - back.z);
        expect(d).toBeCloseTo(ARRIVAL_DISTANCE, 6);
        const nose = forwardOf(a.rot);
        expect(nose.x * axis.x + nose.y * axis.y + nose.z * axis.z).toBeGreaterThan(0.9999);
        expect(Math.hypot(a.vel.x, a.vel.y, a.vel.z)).toBeCloseTo(speed, 6);
        // Beyond the ring: the arriving ship is not in the gate it came out of.
        expect(gateCrossed([{ to: 'Sol', pos: back }], null, a.pos)).toBeNull();
      }),
    );
    // The nose the other way round (a gate on the +Z axis faces -Z... and one on -Z faces +Z): half a turn.
    expect(forwardOf(facing({ x: 0, y: 0, z: 1 })).z).toBeCloseTo(1, 9);
  });
});

const vega: SolarSystemMessage = { type: 'solarSystem', name: 'Vega', seed: 7, asteroids: 5, radius: 400, fields: 1, gates: [{ to: 'Sol', pos: { x: 0, y: 0, z: 800 } }], placed: true, pos: { x: 0, y: 0, z: 680 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: -50 } };

describe('entering a solar system', () => {
  it("takes the system's arena and places the ship where the server says, keeping what it carries", () => {
    const w = createWorld(WORLD_SEED, { ships: 1 });
    const ship = { ...w.ships[0]!, missiles: 1, mines: 0, energy: 40, damage: 30, laserLevel: 2 };
    const before = { ...w, ships: [ship], nextId: 900 };
    const { world, changed } = enterSystem(before, vega, null, 0, {});
    expect(changed).toBe(true);
    expect(world.asteroids).toEqual(createWorld(7, { ships: 0, asteroids: 5, radius: 400, fields: 1 }).asteroids);
    expect(world.objects.filter((o) => o.kind === 'field')).toHaveLength(1);
    expect(world.nextId).toBe(900);
    const arrived = world.ships[0]!;
    expect(arrived.pos).toEqual(vega.pos);
    expect(arrived.vel).toEqual(vega.vel);
    expect([arrived.missiles, arrived.mines, arrived.energy, arrived.damage, arrived.laserLevel]).toEqual([1, 0, 40, 30, 2]);
    // Told the same system again (not placed): nothing changes.
    expect(enterSystem(world, { ...vega, placed: false }, vega, 0, {})).toEqual({ world, changed: false });
  });

  it('a client game takes the system only from the server (no player slot), and names it', () => {
    const game = new ClientGame();
    game.applyPlayers([{ slot: 0, name: 'me', joined: true, local: true }], 0);
    game.applyEvent(1, vega, 0, 0);
    expect(game.solarSystem).toBeNull();
    game.applyEvent(NO_SLOT, vega, 0, 0);
    expect(game.solarSystem).toEqual({ name: 'Vega', gates: vega.gates });
    expect(game.curr.asteroids).toHaveLength(5);
    // Out of the gameserver: the default arena again.
    game.applyPlayers([], null);
    expect(game.solarSystem).toBeNull();
    expect(game.curr.asteroids).toEqual(createWorld(WORLD_SEED).asteroids);
  });
});
