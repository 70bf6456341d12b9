/**
 * The combat part of the HUD: shield, energy and hull bars of our ship, its
 * missiles, mines and laser level, invulnerability seconds; the lock warning
 * (homing missiles on us); the current target; the match clock and kill
 * limit (only with someone to play against). Written a few times a second like the rest of the HUD, each element
 * only when its text changes; names go in through textContent.
 */
import type { MatchView, ShipView } from '../../../shared/game/view';
import { RULES } from '../../../shared/game/rules';
import { NO_TARGET, TICK_HZ } from '../../../shared/sim/types';
import { matchText } from './hudText';
import { byId, setText } from './dom';

export class StatusHud {
  private readonly panel = byId('hud-ship');
  private readonly shieldBar = byId('hud-shield-bar');
  private readonly energyBar = byId('hud-energy-bar');
  private readonly hullBar = byId('hud-hull-bar');
  private readonly shield = byId('hud-shield');
  private readonly energy = byId('hud-energy');
  private readonly damage = byId('hud-damage');
  private readonly missiles = byId('hud-missiles');
  private readonly mines = byId('hud-mines');
  private readonly laser = byId('hud-laser');
  private readonly invulnerable = byId('hud-invulnerable');
  private readonly lock = byId('hud-lock');
  private readonly target = byId('hud-target');
  private readonly match = byId('hud-match');

  /** Our ship's figures; the panel is dimmed while we have no ship. */
  setShip(ship: ShipView | undefined): void {
    this.panel.classList.toggle('no-ship', !ship);
    if (!ship) return;
    bar(this.shieldBar, this.shield, ship.shield, RULES.shield.max);
    bar(this.energyBar, this.energy, ship.energy, RULES.energy.max);
    // Hull damage fills up to the point where the ship is destroyed.
    bar(this.hullBar, this.damage, ship.damage, RULES.hull.destroyedAt);
    setText(this.missiles, String(ship.missiles));
    setText(this.mines, String(ship.mines));
    setText(this.laser, String(ship.laserLevel));
    const s = Math.ceil(ship.invulnerable / TICK_HZ);
    this.invulnerable.hidden = s <= 0;
    if (s > 0) setText(this.invulnerable, `invulnerable ${s} s`);
  }

  /** LOCK WARNING while any homing missile is locked on us, with the shooters' names. */
  setLock(lockedBy: readonly number[], nameOf: (slot: number) => string): void {
    this.lock.hidden = lockedBy.length === 0;
    if (lockedBy.length > 0) setText(this.lock, `LOCK WARNING — ${lockedBy.map(nameOf).join(', ')}`);
  }

  /** The targeted ship's name (hidden with no target). */
  setTarget(slot: number, nameOf: (slot: number) => string): void {
    this.target.hidden = slot === NO_TARGET;
    if (slot !== NO_TARGET) setText(this.target, `target ${nameOf(slot)}`);
  }

  /** The match clock and kill limit; hidden alone (`opponents` false) and once the match is over. */
  setMatch(m: MatchView, opponents: boolean): void {
    const text = matchText(m, opponents);
    this.match.hidden = text === '';
    setText(this.match, text);
  }
}

/** Fills `fill` to value/max and writes the value (within 0..max) into `label`. */
function bar(fill: HTMLElement, label: HTMLElement, value: number, max: number): void {
  const pct = `${Math.round((Math.max(0, Math.min(max, value)) / max) * 100)}%`;
  if (fill.style.width !== pct) fill.style.width = pct;
  setText(label, Math.max(0, Math.min(max, value)).toFixed(0));
}
