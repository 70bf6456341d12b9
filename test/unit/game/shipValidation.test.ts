/**
 * The server's plausibility checks on a client's ship: honest ships flown by
 * the real simulation (through the real wire codec, arriving with jitter and
 * bunched up) never trip them; impossible speeds, turn rates, teleports and
 * lasers are corrected when a bug could explain them and flagged blatant
 * when nothing could.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLaser, checkShipState, newShipTrack, SHIP_LIMITS, type ShipTrack } from '../../../src/shared/game/shipValidation';
import { floatStream, NO_INPUT, spawnPoint, STEP_MS } from '../../../src/shared/sim';
import type { ShipInput, Vec3 } from '../../../src/shared/sim';
import { createWorld, FIRE_COOLDOWN_TICKS, fireLasers, LASER_TTL_TICKS, MAX_PITCH_RATE, RULES, stepWorld } from '../../../src/shared/game';
import type { World } from '../../../src/shared/game';
import { decodePacket, encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, type ShipState } from '../../../src/shared/wire/types';
import { shipState } from '../../support/ships';

const length = (v: Vec3) => Math.hypot(v.x, v.y, v.z);
/** The cap a state is held to: the afterburner's, the most any ship flies. */
const MAX_SPEED = SHIP_LIMITS.maxSpeed;
/** A vector as f32 floats carry it on the wire. */
const f32 = (v: Vec3): Vec3 => ({ x: Math.fround(v.x), y: Math.fround(v.y), z: Math.fround(v.z) });
const state = shipState;
const SPAWN = spawnPoint(3);

/** The ship state exactly as a server decodes it from a GameState datagram (f32 floats, i16 rates, whole percents). */
function overTheWire(s: ShipState): ShipState {
  const bytes = encodePacket({ header: { type: PacketType.GameState, senderSlot: 3, messageId: 1, gameTime: 0, joined: true, state: s }, events: [] });
  const r = decodePacket(bytes);
  if (!r.ok) throw new Error(r.reason);
  return r.packet.header.state!;
}

/** A track that has accepted `s` at time `at`. */
function trackAt(s: ShipState, at: number): ShipTrack {
  const t = newShipTrack(at);
  expect(checkShipState(s, t, at, SPAWN).violations).toEqual([]);
  return t;
}

describe('honest ships', () => {
  it('a ship flown by the simulation, sent at 20 Hz and arriving with up to 1 s of jitter, is never corrected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0xffffffff }), fc.integer({ min: 0, max: 1000 }), (seed, maxDelayMs) => {
        const rand = floatStream(seed);
        let world: World = createWorld(seed, { ships: 1, asteroids: 0 });
        let input: ShipInput = { ...NO_INPUT };
        const sent: { at: number; state: ShipState }[] = [];
        for (let tick = 1; tick <= 1200; tick++) {
          // A new random stick position every half second: full thrust, hard turns, reverse.
          if (tick % 20 === 1) input = { thrust: rand() * 2 - 1, yaw: rand() * 2 - 1, pitch: rand() * 2 - 1, roll: rand() * 2 - 1, fire: false, afterburner: rand() < 0.5 };
          world = stepWorld(world, new Map([[0, input]]));
          const s = world.ships[0]!;
          if (tick % 2 === 0) sent.push({ at: tick * STEP_MS, state: overTheWire({ pos: s.pos, rot: s.rot, vel: s.vel, angVel: s.angVel, energy: s.energy, damage: s.damage }) });
        }
        // Each datagram is delayed by up to maxDelayMs; the server keeps only newer ones (as its id window does), in arrival order.
        const arrivals = sent.map((p, i) => ({ ...p, i, arrive: p.at + rand() * maxDelayMs })).sort((a, b) => a.arrive - b.arrive);
        const track = newShipTrack(0);
        let newest = -1;
        for (const a of arrivals) {
          if (a.i < newest) continue;
          newest = a.i;
          const r = checkShipState(a.state, track, a.arrive, { x: 0, y: 0, z: 0 });
          expect(r.violations).toEqual([]);
          expect(r.state).toBe(a.state);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a respawn (back on the spawn point, undamaged) after dying far away is no teleport, even having fired at once', () => {
    const track = trackAt(state({ pos: { x: 5000, y: 0, z: 0 }, damage: 100, vel: { x: 0, y: 0, z: 0 } }), 0);
    const r = checkShipState(state({ pos: { x: SPAWN.x, y: 0, z: -5 }, energy: 90 }), track, 3000, SPAWN);
    expect(r.violations).toEqual([]);
    // The same jump with damage left is no respawn.
    const hurt = trackAt(state({ pos: { x: 5000, y: 0, z: 0 } }), 0);
    expect(checkShipState(state({ pos: { x: SPAWN.x, y: 0, z: -5 }, damage: 30 }), hurt, 50, SPAWN).violations.map((v) => v.kind)).toEqual(['teleport']);
  });

  it('lasers the simulation fires pass, including ones that have flown for a while', () => {
    const track = trackAt(state({ pos: { x: 0, y: 0, z: 0 } }), 0);
    const fired = { pos: { x: 0, y: 0, z: -8 }, vel: { x: 0, y: 0, z: -650 }, ttl: LASER_TTL_TICKS };
    expect(checkLaser(fired, track, 10).violations).toEqual([]);
    const flown = { pos: { x: 0, y: 0, z: -8 - 650 * 0.5 }, vel: { x: 0, y: 0, z: -650 }, ttl: LASER_TTL_TICKS - 20 };
    expect(checkLaser(flown, track, 520).violations).toEqual([]);
  });
});

describe('honest ships at full tilt', () => {
  it('the limits are the rules: the afterburner top speed, muzzle plus ship speed, up to maxLevel bolts a shot', () => {
    expect(SHIP_LIMITS.maxSpeed).toBe(RULES.afterburner.maxSpeed);
    expect(SHIP_LIMITS.maxLaserSpeed).toBe(RULES.laser.speed + RULES.afterburner.maxSpeed);
    expect(SHIP_LIMITS.boltsPerShot).toBe(RULES.laser.maxLevel);
  });

  it('a ship on the afterburner firing laser level 1, 2 and 3 at the cooldown pace, through the wire, is never corrected', () => {
    for (const level of [1, 2, 3]) {
      let world: World = createWorld(7, { ships: 1, asteroids: 0 });
      const track = newShipTrack(0);
      let id = 1;
      for (let tick = 1; tick <= 800; tick++) {
        world = stepWorld(world, new Map([[0, { ...NO_INPUT, thrust: 1, yaw: tick % 200 < 100 ? 0.3 : -0.2, afterburner: true }]]));
        // Energy and laser level kept up (an energy field, an extra): only the gun's pace limits it.
        const s = { ...world.ships[0]!, laserLevel: level, energy: 100 };
        world = { ...world, ships: [s] };
        const at = tick * STEP_MS;
        if (tick % 2 === 0) expect(checkShipState(overTheWire({ pos: s.pos, rot: s.rot, vel: s.vel, angVel: s.angVel, energy: s.energy, damage: s.damage }), track, at, SPAWN).violations).toEqual([]);
        if (tick % FIRE_COOLDOWN_TICKS !== 0) continue;
        const bolts = fireLasers(s, id);
        id += bolts.length;
        expect(bolts).toHaveLength(level);
        for (const b of bolts) expect(checkLaser({ pos: f32(b.pos), vel: f32(b.vel), ttl: b.ttl }, track, at).violations).toEqual([]);
      }
      expect(length(world.ships[0]!.vel)).toBeGreaterThan(RULES.afterburner.maxSpeed * 0.95);
    }
  });

  it('bolts that do not line up as one shot (a copy on the same spot, a fourth bolt) each cost a shot', () => {
    const gun = trackAt(state(), 0);
    // 60 triples within 60 ms, bolts 3 units apart: 20 shots, within the burst.
    const triples = Array.from({ length: 60 }, (_, i) => checkLaser({ pos: { x: (i % 3) * 3, y: 0, z: -8 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 }, gun, Math.floor(i / 3)));
    expect(triples.filter((r) => r.laser === null)).toEqual([]);
    const quads = trackAt(state(), 0);
    const four: ReturnType<typeof checkLaser>[] = Array.from({ length: 4 * 20 }, (_, i) => checkLaser({ pos: { x: (i % 4) * 3, y: 0, z: -8 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 }, quads, Math.floor(i / 4)));
    // Each fourth bolt (x 9: three spacings off) starts a shot of its own, and the next shot's first bolt (x 0) lines up with it.
    expect(four.filter((r) => r.laser === null).length).toBeGreaterThan(0);
  });
});

describe('impossible ships', () => {
  it('a speed a bug could explain is clamped to the cap and counted as mild; ten times the cap is blatant', () => {
    const track = newShipTrack(0);
    const r = checkShipState(state({ vel: { x: 0, y: 300, z: -300 } }), track, 0, SPAWN);
    expect(r.violations.map((v) => [v.kind, v.severity])).toEqual([['speed', 'mild']]);
    expect(length(r.state.vel)).toBeCloseTo(MAX_SPEED, 6);
    // The direction is kept: only the length is wrong.
    expect(r.state.vel.y / r.state.vel.z).toBeCloseTo(-1, 9);
    expect(checkShipState(state({ vel: { x: MAX_SPEED * 11, y: 0, z: 0 } }), newShipTrack(0), 0, SPAWN).violations[0]?.severity).toBe('blatant');
  });

  it('a turn rate beyond an axis maximum is clamped on that axis only', () => {
    const r = checkShipState(state({ angVel: { x: 3 * MAX_PITCH_RATE, y: -0.5, z: 0 } }), newShipTrack(0), 0, SPAWN);
    expect(r.violations.map((v) => v.kind)).toEqual(['spin']);
    expect(r.state.angVel).toEqual({ x: MAX_PITCH_RATE, y: -0.5, z: 0 });
  });

  it('a jump beyond speed × time (plus the jitter reserve) is cut back to the reachable distance; across the map it is blatant', () => {
    const track = trackAt(state({ pos: { x: 0, y: 0, z: 0 } }), 0);
    const r = checkShipState(state({ pos: { x: 1000, y: 0, z: 0 } }), track, 50, SPAWN);
    expect(r.violations.map((v) => [v.kind, v.severity])).toEqual([['teleport', 'mild']]);
    const reach = SHIP_LIMITS.maxSpeed * SHIP_LIMITS.jitterSeconds + SHIP_LIMITS.maxSpeed * SHIP_LIMITS.tolerance * 0.05;
    expect(r.state.pos.x).toBeCloseTo(reach, 6);
    // The reserve is spent: the next jump, even a small one, is caught too (a cheat cannot bank it again at once).
    expect(checkShipState(state({ pos: { x: r.state.pos.x + 100, y: 0, z: 0 } }), track, 100, SPAWN).violations.map((v) => v.kind)).toEqual(['teleport']);
    const far = checkShipState(state({ pos: { x: 0, y: 0, z: 50_000 } }), trackAt(state(), 0), 50, SPAWN);
    expect(far.violations[0]).toMatchObject({ kind: 'teleport', severity: 'blatant' });
  });

  it('a cheat that keeps claiming a far position stays on a leash: every state is corrected', () => {
    const track = trackAt(state(), 0);
    let corrected = 0;
    for (let t = 50; t <= 2000; t += 50) {
      const r = checkShipState(state({ pos: { x: 900, y: 0, z: 0 } }), track, t, SPAWN);
      if (r.violations.length > 0) corrected += 1;
      expect(r.state.pos.x).toBeLessThanOrEqual(SHIP_LIMITS.maxSpeed * (SHIP_LIMITS.jitterSeconds + SHIP_LIMITS.tolerance * (t / 1000)) + 1e-6);
    }
    expect(corrected).toBeGreaterThan(30);
  });

  it('lasers: too fast is clamped, a far-off origin is refused, firing faster than the cooldown is refused', () => {
    const track = trackAt(state(), 0);
    const fast = checkLaser({ pos: { x: 0, y: 0, z: -8 }, vel: { x: 0, y: 0, z: -2000 }, ttl: 40 }, track, 0);
    expect(fast.violations.map((v) => [v.kind, v.severity])).toEqual([['laser-speed', 'mild']]);
    expect(length(fast.laser!.vel)).toBeCloseTo(SHIP_LIMITS.maxLaserSpeed, 6);
    const sniper = checkLaser({ pos: { x: 0, y: 0, z: -30_000 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 }, track, 0);
    expect(sniper.laser).toBeNull();
    expect(sniper.violations[0]).toMatchObject({ kind: 'laser-origin', severity: 'blatant' });
    const gun = trackAt(state(), 0);
    // 60 shots within 60 ms: a burst of queued shots passes, the rest is refused.
    const results = Array.from({ length: 60 }, (_, i) => checkLaser({ pos: { x: 0, y: 0, z: -8 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 }, gun, i));
    const refused = results.filter((r) => r.laser === null);
    expect(refused.length).toBe(60 - SHIP_LIMITS.shotBurst);
    expect(refused[0]!.violations[0]?.kind).toBe('fire-rate');
  });

  it('the corrected state is what the track remembers, so the next check starts from it', () => {
    const track = newShipTrack(0);
    const r = checkShipState(state({ vel: { x: 500, y: 0, z: 0 } }), track, 0, SPAWN);
    expect(track.state).toBe(r.state);
    expect(track.state?.vel.x).toBeCloseTo(MAX_SPEED, 9);
  });
});
