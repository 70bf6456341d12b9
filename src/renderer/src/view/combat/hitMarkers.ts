/**
 * Hit markers: an X on the window where one of our shots met a ship, shown
 * the moment our screen sees the hit (shotWatch.ts), following the point
 * while it fades (HIT_MARKER_MS). Each marker keeps its shot's key, so what
 * the deciding game says later can be shown on it: `resolve(key, state)`
 * sets its `data-state` — `seen` (our screen's word, the start), `confirmed`
 * (the victim's game counted it) or `withdrawn` (it did not) — which
 * combat.css draws differently. Nothing resolves markers yet: that needs the
 * deciding game's word to reach the shooter (issue 25, "shots that agree").
 */
import type { Vec3 } from '../../../../shared/sim/types';
import type { SeenHit } from '../../../../shared/game/shotWatch';
import type { Projector } from './projector';
import { place } from './targetMarks';

/** How long a marker shows (ms); combat.css fades it over the same time. */
export const HIT_MARKER_MS = 600;
/** Most markers on screen at once (the oldest go first). */
const MAX_MARKERS = 8;

export type HitState = 'seen' | 'confirmed' | 'withdrawn';

interface Marker {
  key: string;
  el: HTMLElement;
  pos: Vec3;
  bornMs: number;
}

export class HitMarkers {
  private readonly layer: HTMLElement;
  private readonly live: Marker[] = [];
  private shownTotal = 0;

  constructor(parent: HTMLElement) {
    this.layer = document.createElement('div');
    this.layer.id = 'hud-hits';
    parent.append(this.layer);
  }

  /** Markers shown since the page started. */
  get total(): number {
    return this.shownTotal;
  }

  /** Markers on screen now. */
  get showing(): number {
    return this.live.length;
  }

  /** A marker for `hit`, from `nowMs` (the loop's clock). */
  add(hit: SeenHit, nowMs: number): void {
    if (this.live.length >= MAX_MARKERS) this.remove(0);
    const el = document.createElement('div');
    el.className = `hud-hit ${hit.kind}`;
    el.dataset['state'] = 'seen';
    el.dataset['shot'] = hit.key;
    el.style.visibility = 'hidden';
    this.layer.append(el);
    this.live.push({ key: hit.key, el, pos: { ...hit.pos }, bornMs: nowMs });
    this.shownTotal++;
  }

  /** What the deciding game said of the hit of shot `key`, if its marker still shows. */
  resolve(key: string, state: HitState): void {
    for (const m of this.live) if (m.key === key) m.el.dataset['state'] = state;
  }

  /** Places the markers for this frame and removes the ones that have had their time. */
  update(proj: Projector, nowMs: number): void {
    for (let i = this.live.length - 1; i >= 0; i--) {
      const m = this.live[i]!;
      if (nowMs - m.bornMs >= HIT_MARKER_MS) {
        this.remove(i);
        continue;
      }
      const p = proj.project(m.pos);
      m.el.style.visibility = p.onScreen ? 'visible' : 'hidden';
      if (p.onScreen) place(m.el, p.x, p.y);
    }
  }

  private remove(i: number): void {
    const [m] = this.live.splice(i, 1);
    m?.el.remove();
  }
}
