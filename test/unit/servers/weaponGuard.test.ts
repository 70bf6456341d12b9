/**
 * The gameserver's weapon checks per seat (weaponGuard.ts), on a virtual
 * clock: what the simulation's own launches look like passes; more
 * missiles or mines than a life carries, launches faster than the
 * cooldowns, EMPs without the energy and weapons born far from the ship are
 * refused, each a violation.
 */
import { describe, expect, it } from 'vitest';
import { createShip, dropMine, fireEmp, launchMissile, RULES, wireVec, type Ship } from '../../../src/shared/game';
import { NO_INPUT, spawnPoints, STEP_MS } from '../../../src/shared/sim';
import { NO_SLOT, type RemoteEvent, type ShipState } from '../../../src/shared/wire/types';
import { WeaponGuard } from '../../../src/node/servers/game/weaponGuard';

const SPAWNS = spawnPoints();
const players = (slot: number) => slot >= 0 && slot < 4;

/** A ship of slot 1 far from any spawn point, flying at the afterburner's top speed. */
function flying(over: Partial<Ship> = {}): Ship {
  return { ...createShip(1), pos: { x: 3000, y: 0, z: 0 }, vel: { x: 0, y: 0, z: -RULES.afterburner.maxSpeed }, ...over };
}
const stateOf = (s: Ship): ShipState => ({ pos: s.pos, rot: s.rot, vel: s.vel, angVel: s.angVel, energy: s.energy, damage: s.damage });
/** The events the kinds' `send` would queue for what `ship` fires (wire shapes). */
const missileOf = (s: Ship, target = NO_SLOT): RemoteEvent => {
  const m = launchMissile(s, { ...NO_INPUT }, [s], 1);
  return { type: 'createMissile', id: 1, pos: wireVec(m.pos), vel: m.vel, targetSlot: target, ttl: m.ttl };
};
const mineOf = (s: Ship): RemoteEvent => {
  const m = dropMine(s, 2);
  return { type: 'createObject', id: 2, kind: 1, pos: wireVec(m.pos), rot: { x: 0, y: 0, z: 0, w: 1 }, vel: m.vel };
};
const empOf = (s: Ship): RemoteEvent => ({ type: 'particleObject', id: 3, kind: 2, pos: wireVec(fireEmp(s, 3).pos), radius: 0, ttl: 25 });

function guardWith(ship: Ship, at = 0): WeaponGuard {
  const g = new WeaponGuard(1, SPAWNS, at);
  g.state(stateOf(ship), at);
  return g;
}
const kinds = (g: WeaponGuard, events: RemoteEvent[], at: number) => g.check(events, at, players).violations.map((v) => v.kind);

describe('honest weapons', () => {
  it('a life of launches as the simulation makes them, at the cooldown pace, at top speed, locked on another player, passes', () => {
    const ship = flying();
    const g = guardWith(ship);
    let t = 0;
    for (let i = 0; i < RULES.missile.startAmmo; i++, t += RULES.missile.cooldownTicks * STEP_MS) expect(kinds(g, [missileOf(ship, 2)], t)).toEqual([]);
    for (let i = 0; i < RULES.mine.startAmmo; i++, t += RULES.mine.cooldownTicks * STEP_MS) expect(kinds(g, [mineOf(ship)], t)).toEqual([]);
    expect(kinds(g, [empOf(ship)], t)).toEqual([]);
  });

  it('a respawn (back on a spawn point, undamaged, after its own death) refills the ammunition; pickups add to it', () => {
    const ship = flying();
    const g = guardWith(ship);
    const three = [0, 1, 2].map((i) => kinds(g, [missileOf(ship)], i * 1000));
    expect(three.flat()).toEqual([]);
    expect(kinds(g, [missileOf(ship)], 3000)).toEqual(['missile-ammo']);
    g.grantAmmo(RULES.extras.missilePack, 0);
    expect(kinds(g, [missileOf(ship)], 4000)).toEqual([]);
    g.ownDeath();
    // Dead and not yet back on a spawn point: nothing refilled.
    g.state(stateOf({ ...ship, damage: 100 }), 5000);
    expect(kinds(g, [missileOf(ship)], 5000)).toEqual([]);
    expect(kinds(g, [missileOf(ship)], 6000)).toEqual([]);
    expect(kinds(g, [missileOf(ship)], 7000)).toEqual(['missile-ammo']);
    const reborn = { ...createShip(1), pos: SPAWNS[5]! };
    g.state(stateOf(reborn), 8000);
    for (let i = 0; i < RULES.missile.startAmmo; i++) expect(kinds(g, [missileOf(reborn)], 8000 + i * 1000)).toEqual([]);
  });
});

describe('cheating weapons', () => {
  it('missiles: too fast a pace, too many, too fast, too long a life, locked on nobody real, born far away', () => {
    const ship = flying();
    const g = guardWith(ship);
    const burst = Array.from({ length: 6 }, () => kinds(g, [missileOf(ship)], 0)).flat();
    // Six at once: the burst of three passes (the life's three missiles), the rest is too fast.
    expect(burst).toEqual(['missile-rate', 'missile-rate', 'missile-rate']);
    const h = guardWith(ship);
    const m = missileOf(ship) as Extract<RemoteEvent, { type: 'createMissile' }>;
    expect(h.check([{ ...m, vel: { x: 0, y: 0, z: -2000 } }], 0, players).violations[0]).toMatchObject({ kind: 'missile-speed', severity: 'mild' });
    expect(h.check([{ ...m, vel: { x: 0, y: 0, z: -50_000 } }], 5000, players).violations[0]).toMatchObject({ kind: 'missile-speed', severity: 'blatant' });
    // Once flying, the missile's own top speed holds.
    expect(kinds(h, [{ ...m, ttl: RULES.missile.ttlTicks - 40, vel: { x: 0, y: 0, z: -320 }, pos: ship.pos }], 10_000)).toEqual(['missile-speed']);
    expect(kinds(h, [{ ...m, ttl: RULES.missile.ttlTicks * 3 }], 15_000)).toEqual(['missile-ttl']);
    expect(kinds(h, [missileOf(ship, 1)], 20_000)).toEqual(['missile-target']);
    expect(kinds(h, [missileOf(ship, 9)], 25_000)).toEqual(['missile-target']);
    expect(h.check([{ ...m, pos: { x: -40_000, y: 0, z: 0 } }], 30_000, players).violations[0]).toMatchObject({ kind: 'missile-origin', severity: 'blatant' });
  });

  it('mines at ten times the rate: the ammunition and the pace stop them', () => {
    const ship = flying();
    const g = guardWith(ship);
    const out = Array.from({ length: 20 }, (_, i) => g.check([mineOf(ship)], i * ((RULES.mine.cooldownTicks * STEP_MS) / 10), players));
    expect(out.filter((r) => r.violations.length === 0)).toHaveLength(RULES.mine.startAmmo);
    const ks = out.flatMap((r) => r.violations.map((v) => v.kind));
    expect(ks).toContain('mine-rate');
    expect(ks).toContain('mine-ammo');
    // Refused events leave the packet.
    expect(out[19]!.events).toEqual([]);
  });

  it('EMPs: without the energy, faster than the cooldown, away from the ship', () => {
    const weak = flying({ energy: 20 });
    expect(kinds(guardWith(weak), [empOf(weak)], 10)).toEqual(['emp-energy']);
    const ship = flying();
    const g = guardWith(ship);
    const k = [0, 100, 200].map((t) => kinds(g, [empOf(ship)], t)).flat();
    expect(k).toEqual(['emp-rate']);
    const far = guardWith(ship);
    expect(far.check([{ ...(empOf(ship) as Extract<RemoteEvent, { type: 'particleObject' }>), pos: { x: 0, y: 9000, z: 0 } }], 0, players).violations[0]).toMatchObject({ kind: 'emp-origin', severity: 'blatant' });
  });

  it('a packet keeps its other events in order when a weapon is refused', () => {
    const ship = flying();
    const g = guardWith(ship);
    const laser: RemoteEvent = { type: 'createLaser', id: 9, pos: ship.pos, vel: { x: 0, y: 0, z: -800 }, ttl: 40 };
    const r = g.check([laser, empOf({ ...ship, pos: { x: 0, y: 90_000, z: 0 } }), laser], 0, players);
    expect(r.events).toEqual([laser, laser]);
  });
});
