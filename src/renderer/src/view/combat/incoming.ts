/**
 * The incoming-missile warning: for each homing missile locked on our ship,
 * a red chevron on a ring round the crosshair pointing the way it comes from
 * (in front, behind or aside: the direction on the window, as the edge arrow
 * reads it), and over the ring "MISSILE" with the nearest one's distance
 * (and how many come). The top line's LOCK WARNING (status.ts) says whose they are.
 */
import type { Vec3 } from '../../../../shared/sim/types';
import { setText } from '../dom';
import { distanceText } from './combatText';
import type { Projector } from './projector';
import { place } from './targetMarks';

/** Chevrons drawn at most (the nearest missiles). */
const MAX_CHEVRONS = 4;

export class IncomingWarning {
  private readonly chevrons: HTMLElement[] = [];
  private readonly text: HTMLElement;
  private shown = 0;

  constructor(layer: HTMLElement) {
    for (let i = 0; i < MAX_CHEVRONS; i++) {
      const c = document.createElement('div');
      c.className = 'hud-incoming';
      c.hidden = true;
      layer.append(c);
      this.chevrons.push(c);
    }
    this.text = document.createElement('div');
    this.text.id = 'hud-incoming-text';
    this.text.hidden = true;
    layer.append(this.text);
  }

  /** Chevrons showing now. */
  get count(): number {
    return this.shown;
  }

  /**
   * Shows the missiles at `missiles` homing on our ship at `us` round the
   * crosshair at (cx, cy); `k` is the HUD's scale. None (or no ship): hidden.
   */
  update(proj: Projector, us: Vec3 | null, missiles: readonly Vec3[], cx: number, cy: number, k: number): void {
    const near = us === null ? [] : missiles.map((m) => ({ m, d: Math.hypot(m.x - us.x, m.y - us.y, m.z - us.z) })).sort((a, b) => a.d - b.d).slice(0, MAX_CHEVRONS);
    const ring = 90 * k;
    this.chevrons.forEach((c, i) => {
      const n = near[i];
      if (c.hidden !== !n) c.hidden = !n;
      if (!n) return;
      const p = proj.project(n.m);
      place(c, cx + p.dirX * ring, cy + p.dirY * ring, Math.atan2(p.dirY, p.dirX));
    });
    this.shown = near.length;
    const first = near[0];
    if (this.text.hidden !== !first) this.text.hidden = !first;
    if (!first) return;
    setText(this.text, `MISSILE ${distanceText(first.d)}${near.length > 1 ? ` (${near.length})` : ''}`);
    // Above the ring: below it sits our own ship.
    place(this.text, cx, cy - ring - 22 * k);
  }
}
