/**
 * The marks on the targeted ship: brackets round it with its name, distance,
 * shield and hull; the lead indicator where to aim so a laser bolt meets it;
 * and, while it is off screen (or at the window's very edge, where the
 * brackets' label would not fit), an arrow near the window's edge pointing
 * the way to turn, with the name and distance. Placed every frame from the
 * projector (the frame just drawn); texts change only when they differ.
 * Names go in through textContent.
 */
import type { Vec3 } from '../../../../shared/sim/types';
import { RULES } from '../../../../shared/game/rules';
import { TICK_HZ } from '../../../../shared/sim/types';
import { NOSE_OFFSET } from '../../../../shared/game/kinds/laser';
import { SHIP_RADIUS } from '../../../../shared/game/kinds/ship';
import { setText } from '../dom';
import { leadPoint, rimPoint } from './aim';
import { distanceText } from './combatText';
import type { Projector } from './projector';

/** How long a bolt lives (s): a lead point farther than this is out of range. */
const BOLT_LIFE_S = RULES.laser.ttlTicks / TICK_HZ;

/** Our ship as the frame draws it. */
export interface Shooter {
  pos: Vec3;
  vel: Vec3;
}

/** The targeted ship as the frame draws it. */
export interface TargetShip {
  name: string;
  pos: Vec3;
  vel: Vec3;
  shield: number;
  damage: number;
}

function el(tag: string, className: string, parent: HTMLElement): HTMLElement {
  const e = document.createElement(tag);
  e.className = className;
  parent.append(e);
  return e;
}

/** Puts `e` (positioned at the layer's top left corner by CSS) with its centre at (x, y) CSS px, then turns it by `turn` radians. */
export function place(e: HTMLElement, x: number, y: number, turn?: number): void {
  e.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -50%)${turn === undefined ? '' : ` rotate(${turn.toFixed(3)}rad)`}`;
}

function show(e: HTMLElement, on: boolean): void {
  if (e.hidden === on) e.hidden = !on;
}

export class TargetMarks {
  private readonly bracket: HTMLElement;
  private readonly name: HTMLElement;
  private readonly dist: HTMLElement;
  private readonly shieldFill: HTMLElement;
  private readonly hullFill: HTMLElement;
  private readonly lead: HTMLElement;
  private readonly arrow: HTMLElement;
  private readonly arrowHead: HTMLElement;
  private readonly arrowName: HTMLElement;
  private readonly arrowDist: HTMLElement;
  /** The distance along our nose to project the crosshair at: the lead point's, else null. */
  aimDistance: number | null = null;

  constructor(layer: HTMLElement) {
    this.bracket = el('div', 'hud-bracket', layer);
    this.bracket.id = 'hud-bracket';
    for (const corner of ['tl', 'tr', 'bl', 'br']) el('span', `corner ${corner}`, this.bracket);
    const label = el('div', 'hud-bracket-label', this.bracket);
    this.name = el('div', 'name', label);
    this.dist = el('div', 'dist', label);
    const bars = el('div', 'bars', label);
    this.shieldFill = el('i', '', el('span', 'bar shield', bars));
    this.hullFill = el('i', '', el('span', 'bar hull', bars));
    this.lead = el('div', 'hud-lead', layer);
    this.lead.id = 'hud-lead';
    this.arrow = el('div', 'hud-offscreen', layer);
    this.arrow.id = 'hud-offscreen';
    this.arrowHead = el('div', 'head', this.arrow);
    const text = el('div', 'text', this.arrow);
    this.arrowName = el('span', 'name', text);
    this.arrowDist = el('span', 'dist', text);
    this.hide();
  }

  /** Shows what there is to show of `target` from `us` this frame (null: no target, or no ship of ours). `k` is the HUD's scale. */
  update(proj: Projector, us: Shooter | null, target: TargetShip | null, k: number): void {
    this.aimDistance = null;
    if (!us || !target) return this.hide();
    const t = proj.project(target.pos);
    const tx = t.x;
    const ty = t.y;
    const dx = target.pos.x - us.pos.x;
    const dy = target.pos.y - us.pos.y;
    const dz = target.pos.z - us.pos.z;
    const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
    // Brackets and their label need room: a ship at the window's very edge gets the arrow instead.
    const m = 40 * k;
    const inside = t.onScreen && tx >= m && tx <= proj.w - m && ty >= m && ty <= proj.h - 2 * m;
    if (!inside) {
      show(this.bracket, false);
      show(this.lead, false);
      show(this.arrow, true);
      const margin = 64 * k;
      const e = rimPoint(proj.w / 2, proj.h / 2, Math.max(margin, proj.w / 2 - margin), Math.max(margin, proj.h / 2 - margin), t.dirX, t.dirY);
      place(this.arrow, e.x, e.y);
      this.arrowHead.style.transform = `rotate(${e.angle.toFixed(3)}rad)`;
      setText(this.arrowName, target.name);
      setText(this.arrowDist, distanceText(distance));
      return;
    }
    show(this.arrow, false);
    show(this.bracket, true);
    // Brackets a little wider than the ship as drawn, never so small they close on it.
    const size = Math.min(220 * k, Math.max(30 * k, SHIP_RADIUS * 3 * proj.pixelsPerUnit(t.depth)));
    const px = `${size.toFixed(0)}px`;
    if (this.bracket.style.width !== px) {
      this.bracket.style.width = px;
      this.bracket.style.height = px;
    }
    place(this.bracket, tx, ty);
    setText(this.name, target.name);
    setText(this.dist, distanceText(distance));
    fill(this.shieldFill, target.shield / RULES.shield.max);
    fill(this.hullFill, 1 - target.damage / RULES.hull.destroyedAt);
    const lead = leadPoint(us.pos, us.vel, target.pos, target.vel, RULES.laser.speed, NOSE_OFFSET, BOLT_LIFE_S);
    if (!lead) return show(this.lead, false);
    const lx = lead.point.x - us.pos.x;
    const ly = lead.point.y - us.pos.y;
    const lz = lead.point.z - us.pos.z;
    this.aimDistance = Math.sqrt(lx * lx + ly * ly + lz * lz);
    const l = proj.project(lead.point);
    show(this.lead, l.onScreen);
    if (!l.onScreen) return;
    place(this.lead, l.x, l.y);
    this.lead.classList.toggle('far', !lead.inRange);
  }

  hide(): void {
    show(this.bracket, false);
    show(this.lead, false);
    show(this.arrow, false);
  }

  /** What a player sees of the marks: the brackets, the lead indicator, the edge arrow, the name and distance in the brackets. */
  get state(): { bracket: boolean; lead: boolean; offscreenArrow: boolean; target: string | null; targetDistance: string | null } {
    const bracket = !this.bracket.hidden;
    const arrow = !this.arrow.hidden;
    return {
      bracket,
      lead: !this.lead.hidden,
      offscreenArrow: arrow,
      target: bracket ? this.name.textContent : arrow ? this.arrowName.textContent : null,
      targetDistance: bracket ? this.dist.textContent : arrow ? this.arrowDist.textContent : null,
    };
  }
}

/** Fills a bar to `share` (0..1). */
function fill(e: HTMLElement, share: number): void {
  const pct = `${Math.round(Math.max(0, Math.min(1, share)) * 100)}%`;
  if (e.style.width !== pct) e.style.width = pct;
}
