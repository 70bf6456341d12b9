/**
 * Is a client's ship believable? The server cannot see a client's simulation,
 * only the states and lasers it reports, so it checks them against what the
 * shared simulation (src/shared/sim) can produce at all:
 * - speed at most AFTERBURNER_MAX_SPEED (the afterburner's cap, the most any
 *   ship flies), turn rates at most the per-axis maxima, energy and damage
 *   within 0..100, a unit rotation;
 * - positions that follow from the previous one: a ship may cover at most
 *   that speed × the game time elapsed between the two states, plus a reserve
 *   for rounding and clock error; anything farther is a teleport. Elapsed
 *   time is the sender's own, from the common game time stamped in each
 *   state's header ({@link stateTime}), not the gap between arrivals: a
 *   stall on either end (a frozen server, an uplink held and released)
 *   delivers seconds of honest flight in one burst, and those states are as
 *   far apart in game time as the ship flew;
 * - lasers at muzzle speed plus the ship's, born near the ship, with at most
 *   their full lifetime, and no faster than the gun's cooldown allows. A shot
 *   at laser level n is n bolts of the same tick (same velocity, side by side
 *   RULES.laser.boltSpacing apart, see fireLasers): bolts that line up so
 *   with the shot before them count as that shot, up to RULES.laser.maxLevel
 *   of them (the server cannot see the level an extra gave; a level-1 cheat
 *   firing three bolts a shot is the most this lets through).
 *
 * A violation a bug or rounding could explain (up to `blatantFactor` × the
 * limit) is `mild`: the value is corrected (clamped) and the caller counts a
 * strike. Anything beyond is `blatant`. A state back at the ship's spawn
 * point with no damage is a respawn, never a teleport (its energy may already
 * be spent: a player holding the trigger fires on the first tick back).
 *
 * Pure: time comes from the caller (ms of common game time: the state's
 * {@link stateTime}; any monotonic clock in tests).
 */
import { FIRE_COOLDOWN_TICKS, LASER_SPEED, LASER_TTL_TICKS, NOSE_OFFSET } from './kinds/laser';
import { AFTERBURNER_MAX_SPEED, DESTROYED_DAMAGE, ENERGY_MAX, MAX_PITCH_RATE, MAX_ROLL_RATE, MAX_YAW_RATE } from './kinds/ship';
import { RULES } from './rules';
import { STEP_MS, STEP_S, type Vec3 } from '../sim/types';
import type { ShipState } from '../wire/types';

/** The limits a state is checked against; {@link SHIP_LIMITS} are the simulation's. */
export interface ShipLimits {
  /** Units/s. */
  maxSpeed: number;
  /** Body-frame rad/s: x pitch, y yaw, z roll. */
  maxAngularRate: Vec3;
  maxEnergy: number;
  maxDamage: number;
  /** Relative slack for rounding on the wire (f32 floats, i16 rates): 1.02 lets 2 % through. */
  tolerance: number;
  /** Beyond `blatantFactor` × a limit no bug explains it. */
  blatantFactor: number;
  /** Seconds of full-speed travel a ship may bank, for rounding and clock error between its states' stamps. */
  jitterSeconds: number;
  /** Fastest a laser flies (muzzle speed plus the ship's own), units/s. */
  maxLaserSpeed: number;
  /** Longest a laser lives, in ticks. */
  maxLaserTtl: number;
  /** Shots per second the gun's cooldown allows, and how many may arrive at once (queued, bundled). */
  shotsPerSecond: number;
  shotBurst: number;
  /** Bolts one shot may be (the highest laser level), and their sideways spacing (units). */
  boltsPerShot: number;
  boltSpacing: number;
  /** How far ahead of the receiver's common game time a state's stamp may claim to be (clock-sync error), ms. */
  stampLeadMs: number;
  /** How far behind it a stamp may be (a stall up to the silence timeout), ms; older stamps count as this old. */
  stampLagMs: number;
}

/** The simulation's own limits. */
export const SHIP_LIMITS: Readonly<ShipLimits> = Object.freeze({
  // The afterburner's cap is the fastest any ship flies.
  maxSpeed: AFTERBURNER_MAX_SPEED,
  maxAngularRate: Object.freeze({ x: MAX_PITCH_RATE, y: MAX_YAW_RATE, z: MAX_ROLL_RATE }),
  maxEnergy: ENERGY_MAX,
  maxDamage: DESTROYED_DAMAGE,
  tolerance: 1.02,
  blatantFactor: 10,
  jitterSeconds: 2,
  maxLaserSpeed: LASER_SPEED + AFTERBURNER_MAX_SPEED,
  maxLaserTtl: LASER_TTL_TICKS,
  shotsPerSecond: 1000 / (FIRE_COOLDOWN_TICKS * STEP_MS),
  shotBurst: 24,
  boltsPerShot: RULES.laser.maxLevel,
  boltSpacing: RULES.laser.boltSpacing,
  stampLeadMs: 250,
  stampLagMs: 10_000,
});

/**
 * When a state (or a laser in its packet) happened, on the receiver's
 * common-game-time axis: the header's u32 `stamp` (the sender's common game
 * time, ms, wrapping at 2^32) unwrapped next to `now` (the receiver's common
 * game time) and held within [now − stampLagMs, now + stampLeadMs]. The
 * window is what keeps the sender's word honest: a stamp in the future
 * cannot buy travel the receiver's clock has not seen pass, and a stamp far
 * in the past (a client that never synchronised its clock) counts as
 * arriving `stampLagMs` late, so such a client is judged by arrival gaps.
 * The most a lying stamp gains is `stampLagMs` of travel once, no more than
 * an honest stall of the silence timeout delivers.
 */
export function stateTime(stamp: number, now: number, limits: ShipLimits = SHIP_LIMITS): number {
  const delta = ((stamp >>> 0) - (Math.floor(now) >>> 0)) | 0;
  return Math.min(now + limits.stampLeadMs, Math.max(now - limits.stampLagMs, Math.floor(now) + delta));
}

export type Severity = 'mild' | 'blatant';
export type ViolationKind = 'speed' | 'spin' | 'energy' | 'damage' | 'rotation' | 'teleport' | 'laser-speed' | 'laser-ttl' | 'laser-origin' | 'fire-rate' | 'not-finite';

/** One broken rule, with a short human-readable detail for the log. */
export interface Violation {
  kind: ViolationKind;
  severity: Severity;
  detail: string;
}

/**
 * What the checker remembers about one ship between states: the last
 * accepted (corrected) state, when it came, how much travel it has banked,
 * and its gun's shot allowance.
 */
export interface ShipTrack {
  state: ShipState | null;
  at: number;
  /** Units the ship may still cover beyond speed × time (refills at maxSpeed, capped at maxSpeed × jitterSeconds). */
  reserve: number;
  /** Shots it may still fire now (refills at shotsPerSecond, capped at shotBurst). */
  shots: number;
  shotsAt: number;
  /** The last shot taken: its first bolt and how many bolts it has had (later bolts of the same shot cost nothing). */
  lastShot: { pos: Vec3; vel: Vec3; bolts: number } | null;
}

/** A fresh track: nothing seen yet, full reserves. */
export function newShipTrack(now: number, limits: ShipLimits = SHIP_LIMITS): ShipTrack {
  return { state: null, at: now, reserve: limits.maxSpeed * limits.jitterSeconds, shots: limits.shotBurst, shotsAt: now, lastShot: null };
}

/** The corrected state (the input object itself when nothing changed) and what was wrong. */
export interface ShipCheck {
  state: ShipState;
  violations: Violation[];
}

const len = (v: Vec3) => Math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
const finiteVec = (v: Vec3) => Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);
const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toPrecision(3));

/** How far `value` is over `limit`: null within tolerance, else the violation's severity. */
function over(value: number, limit: number, limits: ShipLimits): Severity | null {
  if (value <= limit * limits.tolerance) return null;
  return value <= limit * limits.blatantFactor ? 'mild' : 'blatant';
}

/**
 * Checks `state`, sent at game time `now` ({@link stateTime}), against the
 * limits and against `track` (updated in place to the corrected state; its
 * time never goes back, so an older stamp after a newer one earns nothing). `spawn` is the spawn point, or
 * the spawn points, where a respawn may put the ship at any time (a player
 * takes a free one, see chooseSpawnPoint).
 */
export function checkShipState(state: ShipState, track: ShipTrack, now: number, spawn: Vec3 | readonly Vec3[], limits: ShipLimits = SHIP_LIMITS): ShipCheck {
  const violations: Violation[] = [];
  const add = (kind: ViolationKind, severity: Severity, detail: string) => violations.push({ kind, severity, detail });
  // The codec already refuses these; a caller without it must not poison the track with NaN.
  if (!finiteVec(state.pos) || !finiteVec(state.vel) || !finiteVec(state.angVel) || !Number.isFinite(state.energy) || !Number.isFinite(state.damage)) {
    add('not-finite', 'blatant', 'a non-finite number in the ship state');
    return { state: track.state ?? state, violations };
  }
  let pos = state.pos;
  let vel = state.vel;
  let angVel = state.angVel;
  let rot = state.rot;
  let { energy, damage } = state;

  const speed = len(vel);
  const speedVerdict = over(speed, limits.maxSpeed, limits);
  if (speedVerdict) {
    add('speed', speedVerdict, `speed ${fmt(speed)} > ${limits.maxSpeed} units/s`);
    const k = limits.maxSpeed / speed;
    vel = { x: vel.x * k, y: vel.y * k, z: vel.z * k };
  }

  const max = limits.maxAngularRate;
  const spin: Severity[] = [];
  const clampAxis = (v: number, m: number) => {
    const verdict = over(Math.abs(v), m, limits);
    if (!verdict) return v;
    spin.push(verdict);
    return v > 0 ? m : -m;
  };
  const clampedSpin = { x: clampAxis(angVel.x, max.x), y: clampAxis(angVel.y, max.y), z: clampAxis(angVel.z, max.z) };
  if (spin.length > 0) {
    add('spin', spin.includes('blatant') ? 'blatant' : 'mild', `turn rate (${fmt(angVel.x)}, ${fmt(angVel.y)}, ${fmt(angVel.z)}) rad/s beyond (${max.x}, ${max.y}, ${max.z})`);
    angVel = clampedSpin;
  }

  for (const [kind, value, top] of [['energy', energy, limits.maxEnergy], ['damage', damage, limits.maxDamage]] as const) {
    if (value >= 0 && value <= top) continue;
    add(kind, 'mild', `${kind} ${fmt(value)} outside 0..${top}`);
    const fixed = Math.min(top, Math.max(0, value));
    if (kind === 'energy') energy = fixed;
    else damage = fixed;
  }

  const qLen = Math.sqrt(rot.x * rot.x + rot.y * rot.y + rot.z * rot.z + rot.w * rot.w);
  if (!(Math.abs(qLen - 1) <= 0.01)) {
    if (!(qLen > 1e-6) || !Number.isFinite(qLen)) {
      add('rotation', 'blatant', 'rotation is not a quaternion');
      rot = track.state?.rot ?? { x: 0, y: 0, z: 0, w: 1 };
    } else {
      add('rotation', 'mild', `rotation length ${fmt(qLen)} is not 1`);
      rot = { x: rot.x / qLen, y: rot.y / qLen, z: rot.z / qLen, w: rot.w / qLen };
    }
  }

  // Travel: speed × time plus the banked reserve; the reserve refills while the ship is slower than the cap.
  const dt = Math.max(0, now - track.at) / 1000;
  const cap = limits.maxSpeed * limits.jitterSeconds;
  const allowance = track.reserve + limits.maxSpeed * limits.tolerance * dt;
  const prev = track.state;
  // A respawn puts the ship back on its spawn point, undamaged; it may have flown on since, like any ship.
  const reach = cap + limits.maxSpeed * limits.tolerance * dt;
  const respawn = damage === 0 && (Array.isArray(spawn) ? (spawn as readonly Vec3[]) : [spawn as Vec3]).some((p) => Math.sqrt(distSq(pos, p)) <= reach);
  let reserve = cap;
  if (prev && !respawn) {
    const d = Math.sqrt(distSq(pos, prev.pos));
    if (d > allowance) {
      const severity: Severity = d - allowance > limits.blatantFactor * cap ? 'blatant' : 'mild';
      add('teleport', severity, `moved ${fmt(d)} units in ${fmt(dt)} s (at most ${fmt(allowance)})`);
      const k = allowance / d;
      pos = { x: prev.pos.x + (pos.x - prev.pos.x) * k, y: prev.pos.y + (pos.y - prev.pos.y) * k, z: prev.pos.z + (pos.z - prev.pos.z) * k };
      reserve = 0;
    } else {
      // What the ship did not use stays banked, up to the cap.
      reserve = Math.min(cap, allowance - d);
    }
  }
  const corrected = violations.length === 0 ? state : { pos, rot, vel, angVel, energy, damage };
  track.state = corrected;
  track.at = prev ? Math.max(track.at, now) : now;
  track.reserve = reserve;
  return { state: corrected, violations };
}

function distSq(a: Vec3, b: Vec3): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

/** A laser as a client reports it (the createLaser event's fields). */
export interface ReportedLaser {
  pos: Vec3;
  vel: Vec3;
  ttl: number;
}

/**
 * Checks one reported laser against the sender's last known ship (`track`)
 * and its gun. Returns the corrected laser (or null: drop it) and the
 * violations. A laser already flying has moved since it left the nose, so
 * the origin check allows its whole flight so far plus the ship's own travel.
 */
export function checkLaser(laser: ReportedLaser, track: ShipTrack, now: number, limits: ShipLimits = SHIP_LIMITS): { laser: ReportedLaser | null; violations: Violation[] } {
  const violations: Violation[] = [];
  if (!finiteVec(laser.pos) || !finiteVec(laser.vel) || !Number.isFinite(laser.ttl)) {
    return { laser: null, violations: [{ kind: 'not-finite', severity: 'blatant', detail: 'a non-finite number in a laser' }] };
  }
  // The gun: a token bucket refilled at the cooldown's pace; another bolt of the last shot costs nothing.
  track.shots = Math.min(limits.shotBurst, track.shots + (Math.max(0, now - track.shotsAt) / 1000) * limits.shotsPerSecond);
  track.shotsAt = Math.max(track.shotsAt, now);
  const shot = track.lastShot;
  if (shot && shot.bolts < limits.boltsPerShot && sameShot(laser, shot, limits)) shot.bolts += 1;
  else {
    if (track.shots < 1) {
      violations.push({ kind: 'fire-rate', severity: 'mild', detail: `more than ${fmt(limits.shotsPerSecond)} shots/s` });
      return { laser: null, violations };
    }
    track.shots -= 1;
    track.lastShot = { pos: laser.pos, vel: laser.vel, bolts: 1 };
  }
  let { vel, ttl } = laser;
  const speed = len(vel);
  const speedVerdict = over(speed, limits.maxLaserSpeed, limits);
  if (speedVerdict) {
    violations.push({ kind: 'laser-speed', severity: speedVerdict, detail: `laser speed ${fmt(speed)} > ${limits.maxLaserSpeed} units/s` });
    const k = limits.maxLaserSpeed / speed;
    vel = { x: vel.x * k, y: vel.y * k, z: vel.z * k };
  }
  if (ttl > limits.maxLaserTtl) {
    violations.push({ kind: 'laser-ttl', severity: ttl > limits.maxLaserTtl * limits.blatantFactor ? 'blatant' : 'mild', detail: `laser ttl ${ttl} > ${limits.maxLaserTtl} ticks` });
    ttl = limits.maxLaserTtl;
  }
  const ship = track.state;
  if (ship) {
    const flown = Math.max(0, limits.maxLaserTtl - ttl) * STEP_S * limits.maxLaserSpeed;
    // The ship itself may have moved since its last state by up to its jitter reserve.
    const reach = NOSE_OFFSET + flown + limits.maxSpeed * limits.jitterSeconds;
    const d = Math.sqrt(distSq(laser.pos, ship.pos));
    if (d > reach * limits.tolerance) {
      violations.push({ kind: 'laser-origin', severity: d > reach * limits.blatantFactor ? 'blatant' : 'mild', detail: `laser ${fmt(d)} units from its ship (at most ${fmt(reach)})` });
      return { laser: null, violations };
    }
  }
  return { laser: violations.length === 0 ? laser : { pos: laser.pos, vel, ttl }, violations };
}

/**
 * Whether `laser` is another bolt of the shot whose first bolt is `shot`:
 * the same velocity (f32 on the wire) and beside it, one to boltsPerShot − 1
 * spacings across the line of flight (and at most a quarter second of flight
 * along it: bolts of one tick may leave in consecutive datagrams, each moved
 * on to its send time).
 */
function sameShot(laser: ReportedLaser, shot: { pos: Vec3; vel: Vec3 }, limits: ShipLimits): boolean {
  const v = shot.vel;
  const speed = len(v);
  if (!(speed > 0) || Math.sqrt(distSq(laser.vel, v)) > 1e-3 * speed + 1e-3) return false;
  const d = { x: laser.pos.x - shot.pos.x, y: laser.pos.y - shot.pos.y, z: laser.pos.z - shot.pos.z };
  const along = (d.x * v.x + d.y * v.y + d.z * v.z) / speed;
  const across = Math.sqrt(Math.max(0, d.x * d.x + d.y * d.y + d.z * d.z - along * along));
  return Math.abs(along) <= speed * 0.25 + 1 && across >= 0.5 * limits.boltSpacing && across <= (limits.boltsPerShot - 1) * limits.boltSpacing * limits.tolerance + 0.1;
}
