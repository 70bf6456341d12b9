/**
 * What the gameserver can tell about hits from what it forwards: every
 * laser, missile, mine and EMP it relays and every ship state. It does not
 * simulate the game (the victim's game decides hits, Parsec's model); it
 * confirms the hits it can see and uses them for two checks:
 *
 * - **Kill claims.** A client announces its own ship's destruction with
 *   killObject(objectId(slot, 0), killerSlot), and the match authority
 *   credits killerSlot. A claim naming another player is believed when that
 *   player had a weapon near the victim at some point since the victim's
 *   previous death (or its join): the game credits the last player who hit
 *   the ship however long ago, so there is no shorter window. "Near" is
 *   generous: a laser's or missile's path within NEAR_LASER / NEAR_MISSILE
 *   of a position the victim reported while it flew (in time, or anywhere
 *   along the path), a missile locked on the victim, a mine within its
 *   trigger radius + NEAR_MARGIN, an EMP within its full radius + NEAR_MARGIN.
 *   A claim naming nobody or the victim itself (an asteroid, its own mine)
 *   is always fine. Anything else — a kill credited to a friend who never
 *   fired — is a false kill claim.
 * - **Hits a ship ignores.** A laser's straight path (pos + vel·t for its
 *   ttl) passing within SHIP_RADIUS of the ship (its reported positions,
 *   interpolated linearly between states at most MAX_GAP_MS apart), a
 *   missile's (straight, speeding up along its heading; dumb or locked on
 *   this ship) within hitRadius + SHIP_RADIUS, an armed mine within
 *   triggerRadius + SHIP_RADIUS: each is a confirmed hit of RULES.*.damage,
 *   and the projectile is spent. EMPs do no hull damage and are not counted.
 *
 * Conservative assumptions (an honest ship must never be struck):
 * - hits count only while the ship flies: not between its own death and the
 *   next state with no damage (its respawn), nor for RULES.respawnTicks +
 *   RULES.spawnInvulnerableTicks + 1 s after that (or after its first state), nor while it reports damage ≥ RULES.hull.destroyedAt;
 * - the server cannot see asteroids that stop a laser, nor the invulnerability
 *   extra: the heaviest RULES.extras.invulnerableTicks window of hits of each
 *   life is forgiven, as if the ship had been invulnerable then;
 * - the shield recharges in full all the time (RULES.shield.rechargePerTick
 *   per tick of life, energy assumed plentiful), and repairs are covered by
 *   IGNORE_MARGIN;
 * so a life may take RULES.shield.max + RULES.hull.destroyedAt + IGNORE_MARGIN
 * + the recharge since it began, beyond the forgiven window, before a ship that
 * still reports itself alive (damage < destroyedAt, no own killObject) is
 * struck ('ignores-hits'); each further lethal batch (shield.max +
 * destroyedAt) of confirmed damage is one more strike, so the strike policy
 * drops it eventually.
 *
 * Pure: time comes from the caller (ms of common game time, stateTime of
 * each packet). Memory is bounded (MAX_PROJECTILES, MAX_HITS per ship).
 */
import { MINE_CODE } from '../../../shared/game/kinds/mine';
import { EMP_CODE } from '../../../shared/game/kinds/emp';
import { SHIP_RADIUS } from '../../../shared/game/kinds/ship';
import { RULES } from '../../../shared/game/rules';
import { STEP_MS, type Vec3 } from '../../../shared/sim/types';
import { NO_SLOT, type RemoteEvent, type ShipState } from '../../../shared/wire/types';
import { ProjectileGrid } from './projectileGrid';
import { approaches, finite, len, NEAR_LASER, NEAR_MARGIN, NEAR_MISSILE, nearSegment, PA, pathBound, positionAt, reachOf, sub, within, type Flight, type Projectile } from './projectileFlight';

export { NEAR_LASER, NEAR_MARGIN, NEAR_MISSILE, pathBound, positionAt, reachOf, type Kind, type Projectile } from './projectileFlight';

/** Extra damage a life may take beyond shield, hull and recharge before it is judged (repairs, misjudged paths). */
export const IGNORE_MARGIN = 150;
/** Longest gap between two states the server interpolates across to confirm a hit. */
export const MAX_GAP_MS = 500;
/** Most projectiles and hits remembered: a game of 255 players (the shots of liveShots.ts, their hits). */
const MAX_PROJECTILES = 16_384;
const MAX_HITS = 16_384;
/**
 * A life's first hits that never count, from the first state without damage
 * after its death: the respawn countdown (a client may report no damage
 * while it waits), the spawn invulnerability and a second of slack.
 */
const SPAWN_GRACE_MS = (RULES.respawnTicks + RULES.spawnInvulnerableTicks) * STEP_MS + 1000;
const FORGIVEN_WINDOW_MS = RULES.extras.invulnerableTicks * STEP_MS;
const LETHAL = RULES.shield.max + RULES.hull.destroyedAt;

interface Ship {
  at: number;
  pos: Vec3;
  /** Between its own death and its respawn. */
  dead: boolean;
  lifeStart: number;
  /** Since its previous death: the last time each other slot had a weapon near it. */
  near: Map<number, number>;
  hits: { at: number; damage: number }[];
  /** Damage of hits folded out of `hits` (too many), counted but outside any window. */
  folded: number;
  struck: number;
}

/**
 * The laser grid (projectileGrid.ts) holds every laser that ended at most this long before its last rebuild (ms):
 * a state whose ship's previous state is older than that looks at every projectile instead.
 */
const GRID_WINDOW_MS = 1000;

/** Where shipState's scratch points when it judges nothing. */
const ORIGIN: Vec3 = Object.freeze({ x: 0, y: 0, z: 0 });

/** The heaviest sum of hit damage within any window of `ms` (hits in time order). */
function heaviestWindow(hits: readonly { at: number; damage: number }[], ms: number): number {
  let best = 0;
  let sum = 0;
  let j = 0;
  for (let i = 0; i < hits.length; i++) {
    sum += hits[i]!.damage;
    while (hits[i]!.at - hits[j]!.at > ms) sum -= hits[j++]!.damage;
    best = Math.max(best, sum);
  }
  return best;
}

/** What one ship state showed: new 'ignores-hits' strikes due, with a detail for the log. */
export interface HitVerdict {
  strikes: number;
  detail: string;
}

/** The server's view of projectiles and ships, for every seat. */
export class HitConfirm {
  private projectiles: Projectile[] = [];
  /** The lasers by place, holding every laser that ended at or after `gridFrom`; the other projectiles, every one. */
  private readonly lasers = new ProjectileGrid<Projectile>();
  private gridFrom = -Infinity;
  private others: Projectile[] = [];
  /** The state shipState judges (read by judge; one server thread, never kept past a call). */
  private readonly q = { slot: 0, ship: null as Ship | null, t0: 0, at: 0, p0: ORIGIN, pos: ORIGIN, counting: false, sx: 0, sy: 0, sz: 0, sHalf: 0 };
  private readonly judgeOne = (p: Projectile): void => this.judge(p);
  private prunedAt = -Infinity;
  private readonly ships = new Map<number, Ship>();
  /** Hits confirmed since start, for status and tests. */
  confirmed = 0;

  /** `indexed: false` judges every projectile for every state (the reference the laser grid is tested against). */
  constructor(private readonly options: { indexed?: boolean } = {}) {}

  /** A weapon event from `owner` forwarded, sent at `at` (its packet's stateTime). Other events are ignored. */
  projectile(owner: number, e: RemoteEvent, at: number): void {
    let p: Flight | null = null;
    if (e.type === 'createLaser' && finite(e.pos) && finite(e.vel)) p = { kind: 'laser', owner, t0: at, end: at + Math.max(0, e.ttl) * STEP_MS, pos: e.pos, vel: e.vel, target: NO_SLOT, spent: false };
    else if (e.type === 'createMissile' && finite(e.pos) && finite(e.vel)) p = { kind: 'missile', owner, t0: at, end: at + Math.max(0, e.ttl) * STEP_MS, pos: e.pos, vel: e.vel, target: e.targetSlot, spent: false };
    else if (e.type === 'createObject' && e.kind === MINE_CODE && finite(e.pos) && finite(e.vel)) p = { kind: 'mine', owner, t0: at, end: at + RULES.mine.ttlTicks * STEP_MS, pos: e.pos, vel: e.vel, target: NO_SLOT, spent: false };
    else if (e.type === 'particleObject' && e.kind === EMP_CODE && finite(e.pos)) {
      const E = RULES.emp;
      p = { kind: 'emp', owner, t0: at, end: at + Math.ceil(E.maxRadius / E.growPerTick) * STEP_MS, pos: e.pos, vel: { x: 0, y: 0, z: 0 }, target: NO_SLOT, spent: false };
    }
    if (!p || !(p.end > p.t0)) return;
    // The oldest, forgotten, is spent: the grid and the other list may hold it until the next prune.
    if (this.projectiles.length >= MAX_PROJECTILES) this.projectiles.shift()!.spent = true;
    const kept: Projectile = { ...p, ...pathBound(p), reach: reachOf(p.kind), seen: 0 };
    this.projectiles.push(kept);
    if (kept.kind === 'laser') this.lasers.add(kept, kept.pos, positionAt(kept, kept.end));
    else this.others.push(kept);
  }

  /** `slot` announced its own ship's destruction at `at`: its life is over (hits and "near" weapons start afresh). */
  ownDeath(slot: number, at: number): void {
    const s = this.ships.get(slot);
    if (!s) return;
    s.dead = true;
    s.near.clear();
    s.hits = [];
    s.folded = 0;
    s.struck = 0;
    s.lifeStart = at;
  }

  /** The seat in `slot` is gone. */
  forget(slot: number): void {
    this.ships.delete(slot);
  }

  /**
   * Whether `killer` may have destroyed `victim` (a kill claim at `at`; `pos`
   * the victim's position in the claim's packet, if any): nobody and the
   * victim itself always may.
   */
  mayHaveKilled(victim: number, killer: number, at: number, pos?: Vec3): boolean {
    if (killer === NO_SLOT || killer === victim) return true;
    const s = this.ships.get(victim);
    if (s?.near.has(killer)) return true;
    // The packet carrying the claim may hold the state that was near: judge its position too.
    const where = pos && finite(pos) ? pos : s?.pos;
    if (!where) return false;
    return this.projectiles.some((p) => p.owner === killer && at >= p.t0 - 1000 && this.isNear(p, victim, where, at));
  }

  /** The newest state of `slot`, sent at `at`: hits confirmed against its motion since its previous state. */
  shipState(slot: number, state: ShipState, at: number): HitVerdict {
    const none = { strikes: 0, detail: '' };
    if (!finite(state.pos)) return none;
    let s = this.ships.get(slot);
    if (!s) {
      s = { at, pos: state.pos, dead: false, lifeStart: at, near: new Map(), hits: [], folded: 0, struck: 0 };
      this.ships.set(slot, s);
      return none;
    }
    const t0 = Math.min(s.at, at);
    const p0 = s.pos;
    if (s.dead && state.damage === 0) {
      s.dead = false;
      s.lifeStart = at;
    }
    const counting = !s.dead && state.damage < RULES.hull.destroyedAt && at - s.lifeStart >= SPAWN_GRACE_MS && at - t0 <= MAX_GAP_MS;
    this.prune(at);
    // The ship's own path since its previous state, as a centre and a half length (the cull in judge).
    const q = this.q;
    q.slot = slot;
    q.ship = s;
    q.t0 = t0;
    q.at = at;
    q.p0 = p0;
    q.pos = state.pos;
    q.counting = counting;
    q.sx = (p0.x + state.pos.x) / 2;
    q.sy = (p0.y + state.pos.y) / 2;
    q.sz = (p0.z + state.pos.z) / 2;
    q.sHalf = len(sub(state.pos, p0)) / 2;
    // The lasers near its path by place, and every other projectile; all of them when the grid cannot tell.
    if (this.options.indexed !== false && t0 >= this.gridFrom && this.lasers.visit(q.sx, q.sy, q.sz, q.sHalf, this.judgeOne)) {
      for (const p of this.others) this.judge(p);
    } else {
      for (const p of this.projectiles) this.judge(p);
    }
    q.ship = null;
    q.p0 = q.pos = ORIGIN;
    s.at = Math.max(s.at, at);
    s.pos = state.pos;
    if (!counting || s.hits.length === 0 || state.damage >= RULES.hull.destroyedAt) return none;
    const total = s.folded + s.hits.reduce((n, h) => n + h.damage, 0);
    const forgiven = heaviestWindow(s.hits, FORGIVEN_WINDOW_MS);
    const recharge = RULES.shield.rechargePerTick * ((at - s.lifeStart) / STEP_MS);
    const excess = total - forgiven - (LETHAL + IGNORE_MARGIN + recharge);
    if (excess <= 0) return none;
    const due = 1 + Math.floor(excess / LETHAL);
    if (due <= s.struck) return none;
    const strikes = due - s.struck;
    s.struck = due;
    return { strikes, detail: `${Math.round(total)} damage confirmed this life (${Math.round(forgiven)} forgiven, ${Math.round(LETHAL + IGNORE_MARGIN + recharge)} survivable) while reporting damage ${state.damage}` };
  }

  /** One projectile against the state in `q`: near its ship, or a confirmed hit. */
  private judge(p: Projectile): void {
    const q = this.q;
    const s = q.ship as Ship;
    const { slot, t0, at } = q;
    if (p.owner === slot || p.spent || p.t0 > at || p.end < t0) return;
    // Far from the whole flight (a lower bound of the distance between the two paths): neither near nor a hit. A missile locked on us is near wherever it is.
    const dx = p.mid.x - q.sx;
    const dy = p.mid.y - q.sy;
    const dz = p.mid.z - q.sz;
    const apart = p.reach + p.half + q.sHalf;
    if (dx * dx + dy * dy + dz * dz > apart * apart && !(p.kind === 'missile' && p.target === slot)) return;
    if (this.isNear(p, slot, q.pos, at)) s.near.set(p.owner, at);
    if (!q.counting || p.kind === 'emp') return;
    const a = Math.max(t0, p.kind === 'mine' ? p.t0 + RULES.mine.armTicks * STEP_MS : p.t0);
    const b = Math.min(at, p.end);
    if (a > b) return;
    if (p.kind === 'missile' && p.target !== NO_SLOT && p.target !== slot) return;
    const reach = p.kind === 'laser' ? SHIP_RADIUS : p.kind === 'missile' ? RULES.missile.hitRadius + SHIP_RADIUS : RULES.mine.triggerRadius + SHIP_RADIUS;
    if (!approaches(p, q.p0, t0, q.pos, at, a, b, reach)) return;
    p.spent = true;
    s.near.set(p.owner, at);
    this.confirmed += 1;
    const damage = p.kind === 'laser' ? RULES.laser.damage : p.kind === 'missile' ? RULES.missile.damage : RULES.mine.damage;
    if (s.hits.length >= MAX_HITS) s.folded += s.hits.shift()!.damage;
    s.hits.push({ at, damage });
  }

  /** Whether `p` is near enough to `victim` at `pos` (time `at`) to have hit it, generously. */
  private isNear(p: Projectile, victim: number, pos: Vec3, at: number): boolean {
    const late = at - p.end;
    switch (p.kind) {
      case 'laser':
        return late <= 1000 && nearSegment(pos, p.pos, positionAt(p, p.end, PA), NEAR_LASER);
      case 'missile':
        return late <= 2000 && (p.target === victim || nearSegment(pos, p.pos, positionAt(p, p.end, PA), NEAR_MISSILE));
      case 'mine':
        return late <= 1000 && within(pos, positionAt(p, at, PA), RULES.mine.triggerRadius + SHIP_RADIUS + NEAR_MARGIN);
      case 'emp':
        return late <= 2000 && within(pos, p.pos, RULES.emp.maxRadius + SHIP_RADIUS + NEAR_MARGIN);
    }
  }

  /** Forgets projectiles long burnt out (and spent ones). */
  private prune(at: number): void {
    if (at - this.prunedAt < 250 && this.projectiles.length < MAX_PROJECTILES / 2) return;
    this.prunedAt = at;
    this.projectiles = this.projectiles.filter((p) => !p.spent && p.end + 3000 >= at);
    this.others = this.projectiles.filter((p) => p.kind !== 'laser');
    this.lasers.clear();
    this.gridFrom = at - GRID_WINDOW_MS;
    for (const p of this.projectiles) if (p.kind === 'laser' && p.end >= this.gridFrom) this.lasers.add(p, p.pos, positionAt(p, p.end, PA));
  }
}
