/**
 * What the gameserver makes of the projectiles it forwards (hitConfirm.ts),
 * on a virtual clock: lasers, missiles and armed mines that pass through a
 * ship's reported path are confirmed hits; a ship that reports itself
 * unharmed through far more than it can survive is struck, again and again;
 * an honest ship that dies of its hits, one the shots miss, and one that
 * took its hits during the spawn grace never is. Kill claims hold only for
 * killers that had a weapon near the victim since its previous death.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HitConfirm, pathBound, positionAt, type Kind } from '../../../src/node/servers/game/hitConfirm';
import { RULES } from '../../../src/shared/game';
import type { Vec3 } from '../../../src/shared/sim';
import { NO_SLOT, type RemoteEvent, type ShipState } from '../../../src/shared/wire/types';

const at = (pos: Vec3, damage = 0): ShipState => ({ pos, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage });
const laser = (pos: Vec3, vel: Vec3): RemoteEvent => ({ type: 'createLaser', id: 0x20001, pos, vel, ttl: RULES.laser.ttlTicks });
const ORIGIN = { x: 0, y: 0, z: 0 };

/**
 * Victim slot 1 parked at `where(t)`, reporting `damage(t)`, states every 50 ms for `ms`;
 * slot 2 fires a laser from 400 units away at the victim every 150 ms (the cooldown) from `fromMs` on, `offset` units wide of it.
 */
function barrage(ms: number, o: { where?: (t: number) => Vec3; damage?: (t: number) => number; offset?: number; fromMs?: number } = {}) {
  const h = new HitConfirm();
  const where = o.where ?? (() => ORIGIN);
  let strikes = 0;
  let firstStrikeAt: number | null = null;
  for (let t = 0; t <= ms; t += 25) {
    if (t >= (o.fromMs ?? 0) && t % 150 === 0) {
      const w = where(t + 500);
      h.projectile(2, laser({ x: w.x + (o.offset ?? 0), y: w.y, z: w.z - 400 }, { x: 0, y: 0, z: 800 }), t);
    }
    if (t % 50 === 0) {
      const v = h.shipState(1, at(where(t), o.damage?.(t) ?? 0), t);
      strikes += v.strikes;
      if (v.strikes > 0) firstStrikeAt ??= t;
    }
  }
  return { h, strikes, firstStrikeAt };
}

describe('hits a ship ignores', () => {
  it('a parked ship that keeps reporting no damage under a steady barrage is struck once it is far past dead, and again for each lethal batch', () => {
    const { h, strikes, firstStrikeAt } = barrage(40_000);
    // One bolt every 150 ms at 12 damage: 80 damage/s against a shield recharging 10/s.
    expect(h.confirmed).toBeGreaterThan(200);
    expect(firstStrikeAt).not.toBeNull();
    console.log(`parked under a laser barrage: ${h.confirmed} hits confirmed in 40 s, first ignores-hits strike at ${firstStrikeAt} ms, ${strikes} strikes`);
    // Not before the spawn grace, the forgiven invulnerability window and a whole life's worth on top.
    expect(firstStrikeAt!).toBeGreaterThan(RULES.extras.invulnerableTicks * 25);
    expect(strikes).toBeGreaterThan(5);
  });

  it('a ship flying across the shots is hit only where its interpolated path meets them', () => {
    // Flying along x at 100 units/s: each laser aimed where the ship will be 0.5 s later.
    const hit = barrage(20_000, { where: (t) => ({ x: t / 10, y: 0, z: 0 }) });
    expect(hit.h.confirmed).toBeGreaterThan(80);
    const miss = barrage(20_000, { where: (t) => ({ x: t / 10, y: 0, z: 0 }), offset: 15 });
    expect(miss.h.confirmed).toBe(0);
    expect(miss.strikes).toBe(0);
  });

  it('an honest ship that dies (damage 100, its own death) and respawns is never struck', () => {
    const h = new HitConfirm();
    let strikes = 0;
    for (let life = 0; life < 6; life++) {
      const t0 = life * 20_000;
      let damage = 0;
      for (let t = t0; t < t0 + 20_000; t += 50) {
        if (t % 150 === 0) h.projectile(2, laser({ x: 0, y: 0, z: -400 }, { x: 0, y: 0, z: 800 }), t);
        const v = h.shipState(1, at(ORIGIN, damage), t);
        strikes += v.strikes;
        // It takes its hits: after the spawn grace, 80/s, shield first.
        if (t - t0 > 6000) damage = Math.min(100, damage + 4);
        if (damage >= 100) {
          h.ownDeath(1, t);
          break;
        }
      }
    }
    expect(strikes).toBe(0);
  });

  it('hits within the heaviest invulnerability-sized window are forgiven', () => {
    const short = barrage(RULES.extras.invulnerableTicks * 25 + 6000);
    expect(short.strikes).toBe(0);
  });

  it('an armed mine in the ship\'s way is a hit, an unarmed one is not; a missile locked on another ship is not counted against this one', () => {
    const h = new HitConfirm();
    h.shipState(1, at({ x: 0, y: 0, z: 0 }), 0);
    h.projectile(2, { type: 'createObject', id: 0x20002, kind: 1, pos: { x: 10, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } }, 7000);
    h.shipState(1, at({ x: 0, y: 0, z: 0 }), 7500);
    expect(h.confirmed).toBe(0);
    h.shipState(1, at({ x: 0, y: 0, z: 0 }), 7900);
    h.shipState(1, at({ x: 0, y: 0, z: 0 }), 8100);
    expect(h.confirmed).toBe(1);
    h.projectile(2, { type: 'createMissile', id: 0x20003, pos: { x: 0, y: 0, z: -100 }, vel: { x: 0, y: 0, z: 200 }, targetSlot: 3, ttl: 240 }, 8100);
    for (let t = 8150; t < 9500; t += 50) h.shipState(1, at(ORIGIN), t);
    expect(h.confirmed).toBe(1);
    h.projectile(2, { type: 'createMissile', id: 0x20004, pos: { x: 0, y: 0, z: -100 }, vel: { x: 0, y: 0, z: 200 }, targetSlot: NO_SLOT, ttl: 240 }, 9500);
    for (let t = 9550; t < 11_000; t += 50) h.shipState(1, at(ORIGIN), t);
    expect(h.confirmed).toBe(2);
  });
});

describe('kill claims', () => {
  it('a killer who fired near the victim since its last death may have killed it, however long ago; a friend who never fired may not', () => {
    const h = new HitConfirm();
    h.shipState(1, at(ORIGIN), 0);
    expect(h.mayHaveKilled(1, 3, 100)).toBe(false);
    expect(h.mayHaveKilled(1, NO_SLOT, 100)).toBe(true);
    expect(h.mayHaveKilled(1, 1, 100)).toBe(true);
    // Slot 2 shoots once past the victim (30 units wide), then 60 s pass (an asteroid finishes the ship off).
    h.projectile(2, laser({ x: 30, y: 0, z: -300 }, { x: 0, y: 0, z: 800 }), 1000);
    for (let t = 1050; t <= 61_000; t += 50) h.shipState(1, at(ORIGIN), t);
    expect(h.mayHaveKilled(1, 2, 61_000)).toBe(true);
    expect(h.mayHaveKilled(1, 3, 61_000)).toBe(false);
    // A new life: the old shot no longer counts.
    h.ownDeath(1, 61_000);
    h.shipState(1, at({ x: 500, y: 0, z: 0 }), 64_000);
    expect(h.mayHaveKilled(1, 2, 64_000)).toBe(false);
    // A laser far off the victim's path is not near; an EMP around it is.
    h.projectile(3, laser({ x: 900, y: 0, z: -300 }, { x: 0, y: 0, z: 800 }), 64_100);
    h.projectile(2, { type: 'particleObject', id: 0x20009, kind: 2, pos: { x: 650, y: 0, z: 0 }, radius: 0, ttl: 25 }, 64_100);
    for (let t = 64_150; t <= 65_000; t += 50) h.shipState(1, at({ x: 500, y: 0, z: 0 }), t);
    expect(h.mayHaveKilled(1, 3, 65_000)).toBe(false);
    expect(h.mayHaveKilled(1, 2, 65_000)).toBe(true);
  });

  it('the claim\'s own packet position counts: a laser that reached the victim just now', () => {
    const h = new HitConfirm();
    h.shipState(1, at({ x: 0, y: 0, z: 0 }), 0);
    h.projectile(2, laser({ x: 200, y: 0, z: -200 }, { x: 0, y: 0, z: 800 }), 1000);
    expect(h.mayHaveKilled(1, 2, 1100, { x: 200, y: 0, z: 0 })).toBe(true);
    expect(h.mayHaveKilled(1, 2, 1100, { x: -200, y: 0, z: 0 })).toBe(false);
  });
});

describe('the cull of far projectiles (a state skips a projectile whose whole flight is out of reach)', () => {
  const coord = fc.double({ min: -1e5, max: 1e5, noNaN: true });
  const speed = fc.double({ min: -900, max: 900, noNaN: true });
  it('every place a projectile is ever judged at lies within its flight bound', () => {
    fc.assert(
      fc.property(fc.constantFrom<Kind>('laser', 'missile', 'mine', 'emp'), coord, coord, coord, speed, speed, speed, fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (kind, x, y, z, vx, vy, vz, life, k) => {
        const p = { kind, owner: 1, t0: 1000, end: 1000 + life, pos: { x, y, z }, vel: kind === 'emp' ? { x: 0, y: 0, z: 0 } : { x: vx, y: vy, z: vz }, target: NO_SLOT, spent: false };
        const { mid, half } = pathBound(p);
        // A laser is judged while it flies (near along its path, a hit in flight); anything else up to 2 s after its end.
        const at = positionAt(p, p.t0 + k * (life + (kind === 'laser' ? 0 : 2000)));
        const d = Math.hypot(at.x - mid.x, at.y - mid.y, at.z - mid.z);
        expect(d).toBeLessThanOrEqual(half * (1 + 1e-9) + 1e-5);
      }),
    );
  });

  it('a laser fired from 900 units away still hits the ship it crosses, and a missile locked on a ship 3,000 units away is near it', () => {
    const hc = new HitConfirm();
    const at = (x: number): ShipState => ({ pos: { x, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 });
    hc.shipState(2, at(0), 0);
    // Fired 900 units away at 19.6 s: 180 units short at 20 s, through the ship 0.1 s later.
    hc.projectile(1, { type: 'createLaser', id: (1 << 16) | 1, pos: { x: -900, y: 0, z: 0 }, vel: { x: 1800, y: 0, z: 0 }, ttl: 80 }, 19_600);
    hc.projectile(3, { type: 'createMissile', id: (3 << 16) | 1, pos: { x: 3000, y: 0, z: 0 }, vel: { x: -10, y: 0, z: 0 }, targetSlot: 2, ttl: 200 }, 20_000);
    hc.shipState(2, at(0), 20_000);
    hc.shipState(2, at(0), 20_490);
    expect(hc.confirmed).toBe(1);
    expect(hc.mayHaveKilled(2, 1, 20_490)).toBe(true);
    expect(hc.mayHaveKilled(2, 3, 20_490)).toBe(true);
  });
});

describe('the laser grid (projectileGrid.ts: a state looks only at the lasers near its path)', () => {
  /** A small deterministic generator for one scene (mulberry32). */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };

  it('judges exactly as looking at every projectile: the same hits, strikes and kill claims in any fight', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 2, max: 8 }), fc.constantFrom(60, 300, 1500), fc.boolean(), (seed, ships, spread, lasersOnly) => {
        const rnd = random(seed);
        const indexed = new HitConfirm();
        const reference = new HitConfirm({ indexed: false });
        const both = <T>(f: (h: HitConfirm) => T): [T, T] => [f(indexed), f(reference)];
        const place = () => ({ x: (rnd() - 0.5) * spread, y: (rnd() - 0.5) * spread, z: (rnd() - 0.5) * spread });
        const pos = Array.from({ length: ships }, place);
        const vel = Array.from({ length: ships }, () => ({ x: (rnd() - 0.5) * 60, y: (rnd() - 0.5) * 60, z: (rnd() - 0.5) * 60 }));
        const damage = new Array<number>(ships).fill(0);
        let id = 1;
        // Twenty seconds of a fight: each ship reports every 50 ms (now and then late, or after a jump across the map),
        // fires lasers at the others, and now and then a missile, a mine or an EMP; some die and come back.
        for (let t = 0; t <= 20_000; t += 25) {
          for (let slot = 0; slot < ships; slot++) {
            const p = pos[slot]!;
            const v = vel[slot]!;
            p.x += v.x * 0.025;
            p.y += v.y * 0.025;
            p.z += v.z * 0.025;
            if (rnd() < 0.05) {
              // At where a ship will be when the bolt gets there, give or take a few units.
              const other = Math.floor(rnd() * ships);
              const target = pos[other]!;
              const lead = Math.hypot(target.x - p.x, target.y - p.y, target.z - p.z) / 500;
              const tv = vel[other]!;
              const aim = { x: target.x + tv.x * lead - p.x + (rnd() - 0.5) * 8, y: target.y + tv.y * lead - p.y + (rnd() - 0.5) * 8, z: target.z + tv.z * lead - p.z + (rnd() - 0.5) * 8 };
              const k = 500 / Math.max(1, Math.hypot(aim.x, aim.y, aim.z));
              const shot = laser({ ...p }, { x: aim.x * k, y: aim.y * k, z: aim.z * k });
              both((h) => h.projectile(slot, shot, t));
            }
            const r = lasersOnly ? 1 : rnd();
            const weapon: RemoteEvent | null =
              r < 0.004
                ? { type: 'createMissile', id: (slot << 16) | id++, pos: { ...p }, vel: { x: 0, y: 0, z: 200 }, targetSlot: rnd() < 0.5 ? NO_SLOT : Math.floor(rnd() * ships), ttl: 240 }
                : r < 0.008
                  ? { type: 'createObject', id: (slot << 16) | id++, kind: 1, pos: { ...p }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { ...v } }
                  : r < 0.01
                    ? { type: 'particleObject', id: (slot << 16) | id++, kind: 2, pos: { ...p }, radius: 0, ttl: 25 }
                    : null;
            if (weapon) both((h) => h.projectile(slot, weapon, t));
            if (t % 50 !== 0 || rnd() < 0.1) continue;
            if (rnd() < 0.01) Object.assign(p, place(), { x: p.x + 20_000 });
            if (rnd() < 0.02) damage[slot] = Math.min(100, damage[slot]! + 30);
            const when = t - (rnd() < 0.1 ? Math.floor(rnd() * 300) : 0);
            const state = at({ ...p }, damage[slot]);
            const [a, b] = both((h) => h.shipState(slot, state, when));
            expect(a).toEqual(b);
            if (damage[slot] === 100) {
              both((h) => h.ownDeath(slot, t));
              damage[slot] = 0;
            }
          }
          if (t % 2000 === 0)
            for (let victim = 0; victim < ships; victim++)
              for (let killer = 0; killer < ships; killer++) {
                const [a, b] = both((h) => h.mayHaveKilled(victim, killer, t + 5000));
                expect(a).toBe(b);
              }
        }
        expect(indexed.confirmed).toBe(reference.confirmed);
      }),
      { numRuns: 40 },
    );
  });
});
