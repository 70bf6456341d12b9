/**
 * The rules module: what damage, drains and extras do to a ship, and who is
 * credited with a kill. Pure functions of ships and the RULES table; the step
 * (step.ts) and the kinds call them, and which node's world calls them for
 * which ship is the protocol's choice (`StepOptions`, docs/ARCHITECTURE.md).
 *
 * - Damage takes the shield first, the hull the rest; an invulnerable ship
 *   takes none. A hit by a player's object remembers that player
 *   (`lastHitBy`); an asteroid impact keeps the previous attacker, so ramming
 *   a ship into a rock still credits whoever shot it up.
 * - A ship whose hull damage reaches RULES.hull.destroyedAt is destroyed: the
 *   kill goes to `lastHitBy` when that is another player, to nobody when it
 *   is the ship itself or nobody (an asteroid, its own carelessness); the death is
 *   counted either way. Exactly one player or none is credited.
 */
import { RULES } from './rules';
import { NO_ATTACKER, type Score, type Ship } from './types';

/** Extra types, by the index an Extra's `type` and the createExtra event carry. */
export const EXTRA_KINDS = ['energy', 'repair', 'missiles', 'mines', 'laser', 'invulnerability'] as const;
export type ExtraKind = (typeof EXTRA_KINDS)[number];

/** What one hit did: the ship after it, and how much the shield and the hull took. */
export interface DamageResult {
  ship: Ship;
  shield: number;
  hull: number;
}

/**
 * `ship` hit for `amount` by `attacker` (a slot, or NO_ATTACKER for an
 * asteroid): shield first, then hull; nothing while invulnerable or destroyed.
 */
export function applyDamage(ship: Ship, amount: number, attacker: number): DamageResult {
  if (ship.invulnerable > 0 || ship.respawnIn > 0 || !(amount > 0)) return { ship, shield: 0, hull: 0 };
  const shield = Math.min(ship.shield, amount);
  const hull = amount - shield;
  const lastHitBy = attacker === NO_ATTACKER ? ship.lastHitBy : attacker;
  return { ship: { ...ship, shield: ship.shield - shield, damage: ship.damage + hull, lastHitBy }, shield, hull };
}

/** `ship` reached by an EMP: shield gone, `RULES.emp.energyDrain` energy drained (not below 0); nothing while invulnerable. */
export function drainShip(ship: Ship): Ship {
  if (ship.invulnerable > 0 || ship.respawnIn > 0) return ship;
  return { ...ship, shield: 0, energy: Math.max(0, ship.energy - RULES.emp.energyDrain) };
}

/** `ship` after picking up an extra of `type` (an index of EXTRA_KINDS; anything else changes nothing). */
export function applyExtra(ship: Ship, type: number): Ship {
  const x = RULES.extras;
  switch (EXTRA_KINDS[type]) {
    case 'energy':
      return { ...ship, energy: Math.min(RULES.energy.max, ship.energy + x.energyBoost) };
    case 'repair':
      return { ...ship, damage: Math.max(0, ship.damage - x.repair) };
    case 'missiles':
      return { ...ship, missiles: Math.min(RULES.missile.maxAmmo, ship.missiles + x.missilePack) };
    case 'mines':
      return { ...ship, mines: Math.min(RULES.mine.maxAmmo, ship.mines + x.minePack) };
    case 'laser':
      return { ...ship, laserLevel: Math.min(RULES.laser.maxLevel, ship.laserLevel + 1) };
    case 'invulnerability':
      return { ...ship, invulnerable: Math.max(ship.invulnerable, x.invulnerableTicks) };
    default:
      return ship;
  }
}

/**
 * `ship` with the pickup of an extra of `type` taken back (the match
 * authority gave the extra to someone else): the inverse of applyExtra, as
 * near as the caps allow.
 */
export function undoExtra(ship: Ship, type: number): Ship {
  const x = RULES.extras;
  switch (EXTRA_KINDS[type]) {
    case 'energy':
      return { ...ship, energy: Math.max(0, ship.energy - x.energyBoost) };
    case 'repair':
      return { ...ship, damage: ship.damage + x.repair };
    case 'missiles':
      return { ...ship, missiles: Math.max(0, ship.missiles - x.missilePack) };
    case 'mines':
      return { ...ship, mines: Math.max(0, ship.mines - x.minePack) };
    case 'laser':
      return { ...ship, laserLevel: Math.max(1, ship.laserLevel - 1) };
    case 'invulnerability':
      return { ...ship, invulnerable: 0 };
    default:
      return ship;
  }
}

/** Whether `ship` is flying and its hull is past its limit. */
export function isWrecked(ship: Ship): boolean {
  return ship.respawnIn === 0 && ship.damage >= RULES.hull.destroyedAt;
}

/** Who is credited with destroying `ship`: another player's slot, or NO_ATTACKER (an asteroid, its own weapon, nobody). */
export function killCredit(ship: Ship): number {
  return ship.lastHitBy === NO_ATTACKER || ship.lastHitBy === ship.slot ? NO_ATTACKER : ship.lastHitBy;
}

/**
 * The extras a destroyed ship drops (types, EXTRA_KINDS indexes): a missile
 * pack if it carried at least one missile pack's worth, a mine pack likewise,
 * a laser upgrade if its laser was upgraded.
 */
export function dropsOf(ship: Ship): number[] {
  const drops: number[] = [];
  if (ship.missiles >= RULES.extras.missilePack) drops.push(EXTRA_KINDS.indexOf('missiles'));
  if (ship.mines >= RULES.extras.minePack) drops.push(EXTRA_KINDS.indexOf('mines'));
  if (ship.laserLevel > 1) drops.push(EXTRA_KINDS.indexOf('laser'));
  return drops;
}

/** `scores` with `delta` added to `slot`'s entry (created if missing; slot order kept). Pure. */
export function addScore(scores: readonly Score[], slot: number, delta: { kills?: number; deaths?: number }): Score[] {
  const out = scores.slice();
  let i = out.findIndex((s) => s.slot === slot);
  if (i < 0) {
    out.push({ slot, kills: 0, deaths: 0 });
    out.sort((a, b) => a.slot - b.slot);
    i = out.findIndex((s) => s.slot === slot);
  }
  const s = out[i]!;
  out[i] = { slot, kills: s.kills + (delta.kills ?? 0), deaths: s.deaths + (delta.deaths ?? 0) };
  return out;
}
