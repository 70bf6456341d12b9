/**
 * One gameserver seat's weapons, checked against the rules (RULES in
 * src/shared/game/rules.ts) before anything is forwarded. The server cannot
 * see a client's simulation, only the events it sends (docs/PROTOCOL.md,
 * wire format v5): `createMissile` (targetSlot = the homing lock),
 * `createObject` kind MINE_CODE (a mine), `particleObject` kind EMP_CODE (an
 * EMP pulse). What it checks:
 *
 * - missiles: at most RULES.missile.startAmmo per life plus what pickups gave
 *   ({@link WeaponGuard.grantAmmo}, for the extras work to call), no faster
 *   than RULES.missile.cooldownTicks allows (a token bucket with a small
 *   burst for datagrams queued and bundled, as the laser check has), speed at
 *   launch (full ttl) at most launchSpeed + the fastest ship, at most
 *   RULES.missile.maxSpeed once flying, ttl at most RULES.missile.ttlTicks,
 *   born near the ship (its flight so far allowed), homing on a joined
 *   player other than itself or on nobody;
 * - mines: RULES.mine.startAmmo per life plus pickups, RULES.mine.cooldownTicks
 *   apart (with a burst), born near the ship;
 * - EMPs: RULES.emp.cooldownTicks apart (burst 2), born at the ship, and only
 *   from a ship that had RULES.emp.energyCost energy: the best energy its
 *   states showed in the last second, plus what regeneration and an energy
 *   field give since (the packet's own state shows the energy already spent).
 *
 * A life starts at the first state after joining and at each respawn: the
 * seat's own killObject(objectId(slot, 0)) ends a life, and the next state
 * back on a spawn point with no damage (as shipValidation recognises a
 * respawn) starts the next with full ammunition. Until then nothing more is
 * refilled.
 *
 * Every violation drops the event (it is not forwarded) and is one strike;
 * `blatant` (a pulse or mine across the map, ten times a speed) drops the
 * client at once, as in shipValidation. Not seen by the server, so not
 * checked: an energy extra picked up just before an EMP (the energy window
 * is a second wide), the laser level. Pure: time comes from the caller (ms
 * of common game time, the packet's stateTime).
 */
import { MINE_CODE, MINE_DROP_OFFSET } from '../../../shared/game/kinds/mine';
import { EMP_CODE } from '../../../shared/game/kinds/emp';
import { NOSE_OFFSET } from '../../../shared/game/kinds/laser';
import { RULES } from '../../../shared/game/rules';
import { SHIP_LIMITS, type Severity, type ShipLimits } from '../../../shared/game/shipValidation';
import { STEP_MS, STEP_S, type Vec3 } from '../../../shared/sim/types';
import { NO_SLOT, type RemoteEvent, type ShipState } from '../../../shared/wire/types';

export type WeaponViolationKind =
  | 'missile-ammo'
  | 'missile-rate'
  | 'missile-speed'
  | 'missile-ttl'
  | 'missile-origin'
  | 'missile-target'
  | 'mine-ammo'
  | 'mine-rate'
  | 'mine-origin'
  | 'emp-rate'
  | 'emp-origin'
  | 'emp-energy';

export interface WeaponViolation {
  kind: WeaponViolationKind;
  severity: Severity;
  detail: string;
}

/** Launches each bucket lets through at once (datagrams queued on a stalled link, bundled). */
export const WEAPON_BURST = { missile: 3, mine: 3, emp: 2 } as const;
/** How long the best recent energy counts for an EMP, ms. */
const ENERGY_WINDOW_MS = 1000;
/** Energy a ship may gain per tick at best: its regeneration plus an energy field's. */
const ENERGY_GAIN_PER_TICK = RULES.energy.regenPerTick + RULES.fields.energyPerTick;

const len = (v: Vec3) => Math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
const dist = (a: Vec3, b: Vec3) => Math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2);
const finite = (v: Vec3) => Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);
const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toPrecision(3));

/** A token bucket: `perSecond` refill, `burst` at most. */
class Bucket {
  private tokens: number;
  private at: number;
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = Math.max(this.at, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** What {@link WeaponGuard.check} decided: the events to forward (the input array when all pass) and the violations. */
export interface WeaponVerdict {
  events: RemoteEvent[];
  violations: WeaponViolation[];
}

/** One seat's weapons. */
export class WeaponGuard {
  /** Missiles and mines fired this life, and what pickups granted this life. */
  private used = { missiles: 0, mines: 0 };
  private granted = { missiles: 0, mines: 0 };
  /** Between the seat's own death and its respawn. */
  private dead = false;
  private readonly missiles: Bucket;
  private readonly mines: Bucket;
  private readonly emps: Bucket;
  /** Recent states' energy (time, energy), oldest first, at most ENERGY_WINDOW_MS old. */
  private energies: { at: number; energy: number }[] = [];
  private ship: ShipState | null = null;

  constructor(
    readonly slot: number,
    /** Where a respawn may put the ship. */
    private readonly spawns: readonly Vec3[],
    now: number,
    private readonly limits: ShipLimits = SHIP_LIMITS,
  ) {
    const perS = (ticks: number) => 1000 / (ticks * STEP_MS);
    this.missiles = new Bucket(perS(RULES.missile.cooldownTicks), WEAPON_BURST.missile, now);
    this.mines = new Bucket(perS(RULES.mine.cooldownTicks), WEAPON_BURST.mine, now);
    this.emps = new Bucket(perS(RULES.emp.cooldownTicks), WEAPON_BURST.emp, now);
  }

  /** A pickup gave the ship `missiles` and `mines` more this life (the extras work calls this; nothing does yet). */
  grantAmmo(missiles: number, mines: number): void {
    if (missiles > 0 && Number.isFinite(missiles)) this.granted.missiles += missiles;
    if (mines > 0 && Number.isFinite(mines)) this.granted.mines += mines;
  }

  /** What this life may still fire: the start ammunition and what pickups granted, less what it fired. */
  ammoLeft(): { missiles: number; mines: number } {
    return { missiles: Math.max(0, RULES.missile.startAmmo + this.granted.missiles - this.used.missiles), mines: Math.max(0, RULES.mine.startAmmo + this.granted.mines - this.used.mines) };
  }

  /** The ship arrived through a stargate from another server with this much (jumpTicket.ts): this life may fire that, and what it picks up. */
  carriedIn(missiles: number, mines: number): void {
    this.used = { missiles: 0, mines: 0 };
    this.granted = { missiles: missiles - RULES.missile.startAmmo, mines: mines - RULES.mine.startAmmo };
  }

  /** The seat announced its own ship's destruction: this life is over. */
  ownDeath(): void {
    this.dead = true;
  }

  /**
   * The ship state of a packet whose events were just checked (call after
   * {@link check}, with the newest state only): a respawn starts a new life.
   */
  state(state: ShipState, at: number): void {
    if (this.dead && state.damage === 0 && this.nearSpawn(state.pos)) {
      this.dead = false;
      this.used = { missiles: 0, mines: 0 };
      this.granted = { missiles: 0, mines: 0 };
    }
    this.ship = state;
    this.energies = this.energies.filter((e) => at - e.at <= ENERGY_WINDOW_MS);
    this.energies.push({ at, energy: state.energy });
  }

  /**
   * Checks the weapon events of one packet sent at `at` (its stateTime),
   * `isPlayer(slot)` telling joined slots. Other events pass untouched.
   */
  check(events: RemoteEvent[], at: number, isPlayer: (slot: number) => boolean): WeaponVerdict {
    const violations: WeaponViolation[] = [];
    let out: RemoteEvent[] | null = null;
    events.forEach((e, i) => {
      const v = this.judge(e, at, isPlayer);
      if (v === null) {
        out?.push(e);
        return;
      }
      violations.push(v);
      out ??= events.slice(0, i);
    });
    return { events: out ?? events, violations };
  }

  private judge(e: RemoteEvent, at: number, isPlayer: (slot: number) => boolean): WeaponViolation | null {
    if (e.type === 'createMissile') return this.missile(e, at, isPlayer);
    if (e.type === 'createObject' && e.kind === MINE_CODE) return this.mine(e, at);
    if (e.type === 'particleObject' && e.kind === EMP_CODE) return this.emp(e, at);
    return null;
  }

  private missile(e: Extract<RemoteEvent, { type: 'createMissile' }>, at: number, isPlayer: (slot: number) => boolean): WeaponViolation | null {
    const M = RULES.missile;
    const L = this.limits;
    if (!finite(e.pos) || !finite(e.vel) || !Number.isFinite(e.ttl)) return { kind: 'missile-speed', severity: 'blatant', detail: 'a non-finite number in a missile' };
    if (!this.missiles.take(at)) return { kind: 'missile-rate', severity: 'mild', detail: `more than one missile per ${M.cooldownTicks} ticks` };
    if (this.used.missiles >= M.startAmmo + this.granted.missiles) return { kind: 'missile-ammo', severity: 'mild', detail: `missile ${this.used.missiles + 1} of a life with ${M.startAmmo + this.granted.missiles}` };
    if (e.ttl > M.ttlTicks) return { kind: 'missile-ttl', severity: e.ttl > M.ttlTicks * L.blatantFactor ? 'blatant' : 'mild', detail: `missile ttl ${e.ttl} > ${M.ttlTicks} ticks` };
    // At launch (a tick of slack) the ship's speed adds to the launch speed; once flying, the missile's own cap holds.
    const fresh = e.ttl >= M.ttlTicks - 1;
    const cap = fresh ? Math.max(M.maxSpeed, M.launchSpeed + L.maxSpeed) : M.maxSpeed;
    const speed = len(e.vel);
    if (speed > cap * L.tolerance) return { kind: 'missile-speed', severity: speed > cap * L.blatantFactor ? 'blatant' : 'mild', detail: `missile speed ${fmt(speed)} > ${fmt(cap)} units/s` };
    if (e.targetSlot !== NO_SLOT && (e.targetSlot === this.slot || !isPlayer(e.targetSlot))) return { kind: 'missile-target', severity: 'mild', detail: `missile locked on slot ${e.targetSlot}, no other player` };
    const flown = Math.max(0, M.ttlTicks - Math.max(0, e.ttl)) * STEP_S * Math.max(M.maxSpeed, M.launchSpeed + L.maxSpeed);
    const origin = this.origin(e.pos, NOSE_OFFSET + flown, 'missile-origin');
    if (origin) return origin;
    this.used.missiles += 1;
    return null;
  }

  private mine(e: Extract<RemoteEvent, { type: 'createObject' }>, at: number): WeaponViolation | null {
    const R = RULES.mine;
    if (!finite(e.pos) || !finite(e.vel)) return { kind: 'mine-origin', severity: 'blatant', detail: 'a non-finite number in a mine' };
    if (!this.mines.take(at)) return { kind: 'mine-rate', severity: 'mild', detail: `more than one mine per ${R.cooldownTicks} ticks` };
    if (this.used.mines >= R.startAmmo + this.granted.mines) return { kind: 'mine-ammo', severity: 'mild', detail: `mine ${this.used.mines + 1} of a life with ${R.startAmmo + this.granted.mines}` };
    // Dropped behind the ship, drifting at a quarter of its speed (at most half a second's worth of that drift in all).
    const origin = this.origin(e.pos, MINE_DROP_OFFSET + this.limits.maxSpeed * R.dropVelocityFactor, 'mine-origin');
    if (origin) return origin;
    this.used.mines += 1;
    return null;
  }

  private emp(e: Extract<RemoteEvent, { type: 'particleObject' }>, at: number): WeaponViolation | null {
    const E = RULES.emp;
    if (!finite(e.pos)) return { kind: 'emp-origin', severity: 'blatant', detail: 'a non-finite number in an EMP' };
    if (!this.emps.take(at)) return { kind: 'emp-rate', severity: 'mild', detail: `more than one EMP per ${E.cooldownTicks} ticks` };
    const origin = this.origin(e.pos, 0, 'emp-origin');
    if (origin) return origin;
    // The best energy of the last second plus what it could have gained since (whole percents on the wire: one of slack).
    let best = -Infinity;
    for (const s of this.energies) best = Math.max(best, s.energy + (Math.max(0, at - s.at) / STEP_MS) * ENERGY_GAIN_PER_TICK);
    if (this.energies.length > 0 && best + 1 < E.energyCost) return { kind: 'emp-energy', severity: 'mild', detail: `EMP with ${fmt(best)} energy (needs ${E.energyCost})` };
    return null;
  }

  /** An event born farther from the ship than `reach` plus the ship's jitter reserve, or null. */
  private origin(pos: Vec3, reach: number, kind: 'missile-origin' | 'mine-origin' | 'emp-origin'): WeaponViolation | null {
    const ship = this.ship;
    if (!ship) return null;
    const L = this.limits;
    const r = (reach + L.maxSpeed * L.jitterSeconds) * L.tolerance;
    const d = dist(pos, ship.pos);
    if (d <= r) return null;
    return { kind, severity: d > r * L.blatantFactor ? 'blatant' : 'mild', detail: `${kind.split('-')[0]} ${fmt(d)} units from its ship (at most ${fmt(r)})` };
  }

  private nearSpawn(pos: Vec3): boolean {
    const reach = this.limits.maxSpeed * this.limits.jitterSeconds;
    return this.spawns.some((p) => dist(pos, p) <= reach);
  }
}
