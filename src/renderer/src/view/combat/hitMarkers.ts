/**
 * Hit markers: an X on the window where one of our shots met a ship, shown
 * the moment our screen sees the hit (src/shared/game/shotWatch.ts),
 * following the point. Each marker keeps its shot's key, so what the deciding
 * game says later shows on it: `resolve(key, state)` sets its class and
 * `data-state` — `seen` (our screen's word, the start), `confirmed` (the
 * deciding game counted it) or `withdrawn` (it did not) — which combat.css
 * draws differently. The verdicts come from the host with the world views
 * (WorldView.hits, src/shared/game/hitLedger.ts): offline at once, in a
 * network game when the victim's report comes, or withdrawn when none came
 * within HIT_VERDICT_TIMEOUT_MS. A `seen` marker waits for its verdict (dim
 * after its first flash); a resolved one shows for HIT_MARKER_MS more and
 * fades.
 */
import type { Vec3 } from '../../../../shared/sim/types';
import type { SeenHit } from '../../../../shared/game/shotWatch';
import type { Projector } from './projector';
import { place } from './targetMarks';
import { HIT_VERDICT_TIMEOUT_MS } from '../../../../shared/game/hitLedger';

/** How long a marker shows once resolved (ms); combat.css fades it over the same time. */
export const HIT_MARKER_MS = 600;
/** Longest a marker waits for its verdict (the host withdraws the hit by then). */
const UNRESOLVED_MS = HIT_VERDICT_TIMEOUT_MS + 500;
/** Most markers on screen at once (the oldest go first). */
const MAX_MARKERS = 8;

export type HitState = 'seen' | 'confirmed' | 'withdrawn';

interface Marker {
  key: string;
  el: HTMLElement;
  pos: Vec3;
  bornMs: number;
  /** When its verdict came (null: still seen only). */
  resolvedMs: number | null;
}

export class HitMarkers {
  private readonly layer: HTMLElement;
  private readonly live: Marker[] = [];
  private shownTotal = 0;
  /** Markers resolved since the page started, by verdict. */
  readonly resolvedTotal = { confirmed: 0, withdrawn: 0 };

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
    el.className = `hud-hit ${hit.kind} seen`;
    el.dataset['state'] = 'seen';
    el.dataset['shot'] = hit.key;
    el.style.visibility = 'hidden';
    this.layer.append(el);
    this.live.push({ key: hit.key, el, pos: { ...hit.pos }, bornMs: nowMs, resolvedMs: null });
    this.shownTotal++;
  }

  /** What the deciding game said of the hit of shot `key` at `nowMs`, if its marker still shows: it shows that for HIT_MARKER_MS more. */
  resolve(key: string, state: HitState, nowMs: number): void {
    for (const m of this.live) {
      if (m.key !== key) continue;
      if (state !== 'seen' && m.resolvedMs === null) this.resolvedTotal[state]++;
      m.el.dataset['state'] = state;
      m.el.classList.remove('seen', 'confirmed', 'withdrawn');
      m.el.classList.add(state);
      m.resolvedMs = state === 'seen' ? null : nowMs;
    }
  }

  /** Places the markers for this frame and removes the ones that have had their time. */
  update(proj: Projector, nowMs: number): void {
    for (let i = this.live.length - 1; i >= 0; i--) {
      const m = this.live[i]!;
      const over = m.resolvedMs === null ? nowMs - m.bornMs >= UNRESOLVED_MS : nowMs - m.resolvedMs >= HIT_MARKER_MS;
      if (over) {
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
