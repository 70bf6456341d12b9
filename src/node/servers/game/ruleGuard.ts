/**
 * The gameserver's guard of the rules of a match, for every seat: each
 * seat's weapons (weaponGuard.ts), kill claims and hits a ship ignores
 * (hitConfirm.ts). gameDatagrams.ts calls it for each GameState and each
 * reliable message a seat sends, drops what it refuses and counts a strike
 * per violation:
 *
 * - weapon events that break the rules (WeaponViolationKind) are removed
 *   from the packet before it is forwarded;
 * - a client may announce only its own ship's destruction
 *   (killObject(objectId(slot, 0))); naming as killer a player who had no
 *   weapon near it since its previous death is a `false-kill-claim`, not
 *   forwarded (killObjects of other ids, such as pickup claims, are not this
 *   guard's business and pass);
 * - a ship that keeps reporting itself alive through more confirmed hits
 *   than it can survive is struck for `ignores-hits`, once per lethal batch.
 *
 * Never throws on client data (numbers are checked for finiteness first).
 */
import { spawnPoints } from '../../../shared/sim/spawn';
import type { Vec3 } from '../../../shared/sim/types';
import type { Severity } from '../../../shared/game/shipValidation';
import { objectId, objectOwner, type Packet, type RemoteEvent } from '../../../shared/wire/types';
import { HitConfirm } from './hitConfirm';
import { WeaponGuard } from './weaponGuard';

const SPAWN_POINTS = spawnPoints();

/** One broken rule of the match (kind, severity, detail), a strike each. */
export interface RuleViolation {
  kind: string;
  severity: Severity;
  detail: string;
}

/** A seat as this guard knows it: its slot, and an identity that differs for a new player in the same slot. */
export interface RuleSeat {
  readonly slot: number;
}

export class RuleGuard {
  readonly hits = new HitConfirm();
  private readonly weapons = new WeakMap<RuleSeat, WeaponGuard>();
  private readonly bySlot = new Map<number, RuleSeat>();
  /** Events dropped by this guard, by kind of violation (status, tests). */
  readonly dropped = new Map<string, number>();

  constructor(private readonly isPlayer: (slot: number) => boolean) {}

  /** The weapon guard of `seat` (a new seat in a slot starts afresh). */
  weaponsOf(seat: RuleSeat, at: number): WeaponGuard {
    let w = this.weapons.get(seat);
    if (!w) {
      w = new WeaponGuard(seat.slot, SPAWN_POINTS, at);
      this.weapons.set(seat, w);
      if (this.bySlot.get(seat.slot) !== seat) this.hits.forget(seat.slot);
      this.bySlot.set(seat.slot, seat);
    }
    return w;
  }

  /** The ammunition the ship in `slot` may still fire (what a jump to another server carries). */
  ammoOf(slot: number): { missiles: number; mines: number } | null {
    const seat = this.bySlot.get(slot);
    return seat ? (this.weapons.get(seat)?.ammoLeft() ?? null) : null;
  }

  /** `seat`'s ship arrived from another server carrying `missiles` and `mines` (at server time `at`). */
  arrivedWith(seat: RuleSeat, missiles: number, mines: number, at: number): void {
    this.weaponsOf(seat, at).carriedIn(missiles, mines);
  }

  /** A pickup gave the ship in `slot` more ammunition (the extras work calls this). */
  grantAmmo(slot: number, missiles: number, mines: number): void {
    const seat = this.bySlot.get(slot);
    if (seat) this.weapons.get(seat)?.grantAmmo(missiles, mines);
  }

  /**
   * A GameState from `seat` sent at `at` (its stateTime; `newest`: its ship
   * state counts): weapons and kill claims checked (the packet's events
   * replaced when some are refused), projectiles and the state recorded.
   */
  gameState(seat: RuleSeat, packet: Packet, newest: boolean, at: number): RuleViolation[] {
    const w = this.weaponsOf(seat, at);
    const r = w.check(packet.events, at, this.isPlayer);
    const violations: RuleViolation[] = [...r.violations];
    let events = r.events;
    if (events.some((e) => e.type === 'killObject')) {
      events = events.filter((e) => {
        const v = this.killClaim(seat, e, at, packet.header.state?.pos);
        if (v) violations.push(v);
        return v === null;
      });
    }
    for (const v of violations) this.dropped.set(v.kind, (this.dropped.get(v.kind) ?? 0) + 1);
    if (events !== packet.events) packet.events = events;
    for (const e of events) if ('id' in e && objectOwner(e.id) === seat.slot) this.hits.projectile(seat.slot, e, at);
    const state = packet.header.state;
    if (newest && state) {
      w.state(state, at);
      const h = this.hits.shipState(seat.slot, state, at);
      for (let i = 0; i < h.strikes; i++) violations.push({ kind: 'ignores-hits', severity: 'mild', detail: h.detail });
    }
    return violations;
  }

  /** A reliable message from `seat` (sent at `at`, `pos` its packet's ship position if any): null to pass it on, else why not. */
  reliable(seat: RuleSeat, event: RemoteEvent, at: number, pos?: Vec3): RuleViolation | null {
    const v = this.killClaim(seat, event, at, pos);
    if (v) this.dropped.set(v.kind, (this.dropped.get(v.kind) ?? 0) + 1);
    return v;
  }

  /** A killObject of the seat's own ship: a death (its life ends) and a claim to check; anything else passes. */
  private killClaim(seat: RuleSeat, e: RemoteEvent, at: number, pos?: Vec3): RuleViolation | null {
    if (e.type !== 'killObject' || e.id !== objectId(seat.slot, 0)) return null;
    const fair = this.hits.mayHaveKilled(seat.slot, e.killerSlot, at, pos);
    this.weaponsOf(seat, at).ownDeath();
    this.hits.ownDeath(seat.slot, at);
    if (fair) return null;
    return { kind: 'false-kill-claim', severity: 'mild', detail: `destroyed "by" slot ${e.killerSlot}, which had no weapon near it` };
  }
}
