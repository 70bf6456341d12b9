/**
 * The damage-direction marker: when a blow takes our shield or hull (the
 * view's `hit` events on our slot, WorldView.events), a red arc on a ring
 * round the crosshair points for DAMAGE_MARKER_MS the way it came from, and
 * fades. A shot (laser, missile) points at the ship that fired it, followed
 * as it and we move; a mine, an asteroid, or a shot whose firer is gone
 * points the way the object was when it struck, fixed in the world (turning
 * our ship turns the marker).
 *
 * On the window a source beside, above or below us points that way from the
 * crosshair (as the incoming-missile chevrons do for what is in front of
 * us); one straight ahead points up, one straight behind points down, and
 * what lies in between leans that way (damageScreenDir).
 *
 * The element is `#hud-damage-dir`, with `data-angle` (degrees on the
 * window: 0 right, 90 down, 180 left, -90 up), `data-side` (right, down,
 * left or up: the quarter it points into) and `data-from` (the firer's slot,
 * -1 for none), for tests and the `hud()` page hook.
 */
import type { Quat, Vec3 } from '../../../../shared/sim/types';
import type { ViewEvent, WorldView } from '../../../../shared/game/view';
import { quatConjugate, rotate } from '../../../../shared/sim/vec';
import { bodyOffset } from './scope';
import { place } from './targetMarks';

/** How long the marker shows after a blow (ms); it fades over the time. */
export const DAMAGE_MARKER_MS = 1500;

/** Where a blow came from: a ship to follow (its slot), else a fixed direction in the world (unit). */
export type BlowSource = { slot: number } | { dir: Vec3 };

/** What the marker shows, for the `hud()` page hook. */
export interface DamageDirState {
  /** Degrees on the window: 0 right, 90 down, 180 left, -90 up. */
  angle: number;
  side: 'right' | 'down' | 'left' | 'up';
  /** The firer's slot, -1 when the marker points at a place (a mine, an asteroid). */
  from: number;
}

/**
 * The window direction (x right, y down; unit) the marker points for a source
 * at `body` in our ship's axes (bodyOffset: right +X, up +Y, nose −Z): beside,
 * above or below us its place round the nose; behind us it leans down, all the
 * way for a source straight behind; straight ahead, up.
 */
export function damageScreenDir(body: Vec3): { x: number; y: number } {
  const len = Math.hypot(body.x, body.y, body.z);
  if (len < 1e-9) return { x: 0, y: -1 };
  const right = body.x / len;
  const up = body.y / len;
  const ahead = -body.z / len;
  const lateral = Math.hypot(right, up);
  let x = right;
  let y = -up;
  // Behind: lean down, the more the nearer to straight behind.
  if (ahead < 0) y += -ahead * (1 - lateral);
  const l = Math.hypot(x, y);
  if (l < 1e-6) return { x: 0, y: ahead < 0 ? 1 : -1 };
  x /= l;
  y /= l;
  return { x, y };
}

/** The quarter of the window a direction at `angleDeg` (0 right, 90 down) points into. */
export function sideOf(angleDeg: number): DamageDirState['side'] {
  const a = ((((angleDeg + 45) % 360) + 360) % 360) - 45;
  return a < 45 ? 'right' : a < 135 ? 'down' : a < 225 ? 'left' : 'up';
}

const unit = (v: Vec3): Vec3 | null => {
  const l = Math.hypot(v.x, v.y, v.z);
  return l > 1e-6 ? { x: v.x / l, y: v.y / l, z: v.z / l } : null;
};

/**
 * Where blow `e` (a `hit` on our ship in `view`) came from, with `prev` the
 * view before it (the object that struck is gone from `view`): a shot's firer
 * while its ship flies; else the object where `prev` had it, the nearest
 * asteroid for a collision, or the firer's ship; null when nothing says.
 */
export function blowSource(e: Extract<ViewEvent, { type: 'hit' }>, view: WorldView, prev: WorldView | null): BlowSource | null {
  const local = view.localSlot;
  const us = view.ships.find((s) => s.slot === local);
  const firer = e.by !== local ? view.ships.find((s) => s.slot === e.by) : undefined;
  if ((e.cause === 'laser' || e.cause === 'missile') && firer) return { slot: firer.slot };
  if (!us) return firer ? { slot: firer.slot } : null;
  if (e.cause === 'asteroid') {
    const rocks = view.asteroids.length > 0 ? view.asteroids : (prev?.asteroids ?? []);
    let best: Vec3 | null = null;
    let bestD = Infinity;
    for (const a of rocks) {
      const d = Math.hypot(a.pos.x - us.pos.x, a.pos.y - us.pos.y, a.pos.z - us.pos.z) - a.radius;
      if (d < bestD) {
        bestD = d;
        best = a.pos;
      }
    }
    const dir = best && unit({ x: best.x - us.pos.x, y: best.y - us.pos.y, z: best.z - us.pos.z });
    return dir ? { dir } : null;
  }
  const o = e.id === undefined ? undefined : prev?.objects.find((x) => x.kind === e.cause && x.owner === e.by && x.id === e.id);
  if (o) {
    // A moving shot came from behind its flight (relative to us); a still one (a mine) from where it lay.
    const rel = { x: us.vel.x - o.vel.x, y: us.vel.y - o.vel.y, z: us.vel.z - o.vel.z };
    const along = Math.hypot(rel.x, rel.y, rel.z) > 30 ? unit(rel) : null;
    if (along) return { dir: along };
    const usBefore = prev?.ships.find((s) => s.slot === local)?.pos ?? us.pos;
    const dir = unit({ x: o.pos.x - usBefore.x, y: o.pos.y - usBefore.y, z: o.pos.z - usBefore.z });
    if (dir) return { dir };
  }
  return firer ? { slot: firer.slot } : null;
}

export class DamageMarker {
  private readonly el: HTMLElement;
  private source: BlowSource | null = null;
  private bornMs = -Infinity;
  private shown: DamageDirState | null = null;

  constructor(layer: HTMLElement) {
    this.el = document.createElement('div');
    this.el.id = 'hud-damage-dir';
    this.el.hidden = true;
    layer.append(this.el);
  }

  /** A blow from `source` at `nowMs`: the marker shows (again) from now. */
  hit(source: BlowSource, nowMs: number): void {
    this.source = source;
    this.bornMs = nowMs;
  }

  /** What it shows now, or null while hidden. */
  get state(): DamageDirState | null {
    return this.shown;
  }

  /**
   * Places it for this frame round the crosshair at (cx, cy) for our ship at
   * `us` (null: none, hidden), the firer's ship found by `shipAt` (its size is
   * combat.css's, by the HUD's scale).
   */
  update(us: { pos: Vec3; rot: Quat } | null, shipAt: (slot: number) => Vec3 | undefined, cx: number, cy: number, nowMs: number): void {
    const age = nowMs - this.bornMs;
    let body: Vec3 | null = null;
    let from = -1;
    if (us && this.source && age >= 0 && age < DAMAGE_MARKER_MS) {
      if ('slot' in this.source) {
        const at = shipAt(this.source.slot);
        if (at) {
          body = bodyOffset(at, us.pos, us.rot);
          from = this.source.slot;
        }
      } else body = rotate(quatConjugate(us.rot), this.source.dir);
    }
    if (!body) {
      if (!this.el.hidden) this.el.hidden = true;
      this.shown = null;
      if (age >= DAMAGE_MARKER_MS) this.source = null;
      return;
    }
    const d = damageScreenDir(body);
    const rad = Math.atan2(d.y, d.x);
    const angle = Math.round((rad * 180) / Math.PI);
    const side = sideOf(angle);
    if (this.el.hidden) this.el.hidden = false;
    place(this.el, cx, cy, rad);
    const t = age / DAMAGE_MARKER_MS;
    this.el.style.opacity = (t < 0.2 ? 1 : 1 - ((t - 0.2) / 0.8) ** 1.5).toFixed(3);
    const a = String(angle);
    if (this.el.dataset['angle'] !== a) this.el.dataset['angle'] = a;
    if (this.el.dataset['side'] !== side) this.el.dataset['side'] = side;
    if (this.el.dataset['from'] !== String(from)) this.el.dataset['from'] = String(from);
    this.shown = { angle, side, from };
  }
}
