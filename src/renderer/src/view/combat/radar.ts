/**
 * The radar: a 3-D scope in the top right corner (scope.ts has its maths)
 * showing the ships, missiles, mines and extras round our ship, turned with
 * it — ahead is up, right is right, a stalk rises to a contact above our
 * plane and drops to one below. Enemies are orange, the target yellow and
 * ringed, missiles red (larger, and blinking, when they home on us), mines
 * violet, extras green, stargates cyan rings; a contact beyond the range
 * sits hollow on the rim.
 * A 2-D canvas redrawn each frame (a few dozen marks); its bitmap follows
 * the panel's size on screen (the window, ui_scale, the display's pixels).
 */
import type { Vec3 } from '../../../../shared/sim/types';
import { scopePoint, SCOPE_TILT } from './scope';

/** Contacts farther than this (units) sit on the rim. */
export const RADAR_RANGE = 1000;
/**
 * The scope's height for its width (combat.css has the same): the disc is half as high as wide
 * (SCOPE_TILT), and the stalks of the contacts near our plane — nearly all of them — fit above
 * and below it; a mark that would leave the canvas (a contact far above or below) is drawn at
 * its edge.
 */
export const RADAR_ASPECT = 0.66;

export type ContactKind = 'enemy' | 'target' | 'missile' | 'incoming' | 'mine' | 'extra' | 'gate';

/** One contact: what it is and where, in our ship's body axes (scope.ts bodyOffset). */
export interface Contact {
  kind: ContactKind;
  body: Vec3;
}

/** How many contacts of each sort the last frame drew. */
export interface RadarCounts {
  ships: number;
  missiles: number;
  mines: number;
  extras: number;
  gates: number;
}

const COLOUR: { readonly [K in ContactKind]: string } = {
  enemy: '#ffa050',
  target: '#ffe040',
  missile: '#ff5040',
  incoming: '#ff2020',
  mine: '#c080ff',
  extra: '#60ff90',
  gate: '#60e0ff',
};

/** Marks drawn later are drawn over earlier ones: the target and incoming missiles on top. */
const ORDER: { readonly [K in ContactKind]: number } = { gate: 0, extra: 1, mine: 2, missile: 3, enemy: 4, incoming: 5, target: 6 };

export class Radar {
  readonly panel: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly g: CanvasRenderingContext2D | null;
  private counted: RadarCounts = { ships: 0, missiles: 0, mines: 0, extras: 0, gates: 0 };
  private blink = false;

  constructor(parent: HTMLElement) {
    this.panel = document.createElement('div');
    this.panel.id = 'hud-radar';
    this.canvas = document.createElement('canvas');
    this.canvas.width = 170;
    this.canvas.height = Math.round(170 * RADAR_ASPECT);
    this.panel.append(this.canvas);
    parent.append(this.panel);
    this.g = this.canvas.getContext('2d');
  }

  /** Sizes the bitmap to the canvas as shown (call when the window, ui_scale or the pixel ratio may have changed). */
  fit(): void {
    const px = Math.max(32, Math.round(this.canvas.clientWidth * (window.devicePixelRatio || 1)));
    if (this.canvas.width !== px) {
      this.canvas.width = px;
      this.canvas.height = Math.round(px * RADAR_ASPECT);
    }
  }

  /** The contacts of the last frame, by sort. */
  get counts(): RadarCounts {
    return this.counted;
  }

  /** Draws `contacts` (none at all while we have no ship: `alive` false dims the scope). */
  draw(contacts: readonly Contact[], alive: boolean, nowMs: number): void {
    const counts = { ships: 0, missiles: 0, mines: 0, extras: 0, gates: 0 };
    const g = this.g;
    this.blink = Math.floor(nowMs / 250) % 2 === 0;
    if (!g) return;
    const s = this.canvas.width;
    const r = s * 0.46;
    const cx = s / 2;
    const cy = this.canvas.height / 2;
    g.clearRect(0, 0, s, this.canvas.height);
    this.drawScope(g, cx, cy, r, alive);
    if (alive) {
      const sorted = [...contacts].sort((a, b) => ORDER[a.kind] - ORDER[b.kind]);
      for (const c of sorted) {
        this.drawContact(g, c, cx, cy, r, s);
        if (c.kind === 'enemy' || c.kind === 'target') counts.ships++;
        else if (c.kind === 'missile' || c.kind === 'incoming') counts.missiles++;
        else if (c.kind === 'mine') counts.mines++;
        else if (c.kind === 'gate') counts.gates++;
        else counts.extras++;
      }
    }
    this.counted = counts;
  }

  private drawScope(g: CanvasRenderingContext2D, cx: number, cy: number, r: number, alive: boolean): void {
    g.globalAlpha = alive ? 1 : 0.4;
    g.fillStyle = 'rgba(20, 40, 80, 0.35)';
    g.strokeStyle = 'rgba(111, 143, 184, 0.8)';
    g.lineWidth = Math.max(1, r / 80);
    g.beginPath();
    g.ellipse(cx, cy, r, r * SCOPE_TILT, 0, 0, Math.PI * 2);
    g.fill();
    g.stroke();
    g.strokeStyle = 'rgba(111, 143, 184, 0.4)';
    g.beginPath();
    g.ellipse(cx, cy, r / 2, (r / 2) * SCOPE_TILT, 0, 0, Math.PI * 2);
    g.moveTo(cx - r, cy);
    g.lineTo(cx + r, cy);
    g.moveTo(cx, cy - r * SCOPE_TILT);
    g.lineTo(cx, cy + r * SCOPE_TILT);
    g.stroke();
    // Our ship: a small wedge at the centre, nose up.
    const u = r / 18;
    g.fillStyle = '#9fc4ff';
    g.beginPath();
    g.moveTo(cx, cy - u * 1.6);
    g.lineTo(cx + u, cy + u);
    g.lineTo(cx - u, cy + u);
    g.closePath();
    g.fill();
    g.globalAlpha = 1;
  }

  private drawContact(g: CanvasRenderingContext2D, c: Contact, cx: number, cy: number, r: number, s: number): void {
    const p = scopePoint(c.body, RADAR_RANGE);
    const u = s / 60;
    const x = cx + p.x * r;
    const foot = cy + p.y * r;
    const top = Math.max(u * 2, Math.min(this.canvas.height - u * 2, cy + p.top * r));
    const colour = COLOUR[c.kind];
    g.strokeStyle = colour;
    g.fillStyle = colour;
    g.lineWidth = Math.max(1, u / 3);
    // The stalk, and a tick where it stands on our plane.
    g.globalAlpha = 0.7;
    g.beginPath();
    g.moveTo(x, foot);
    g.lineTo(x, top);
    g.moveTo(x - u * 0.6, foot);
    g.lineTo(x + u * 0.6, foot);
    g.stroke();
    g.globalAlpha = 1;
    const size = c.kind === 'target' || c.kind === 'enemy' ? u * 1.4 : c.kind === 'incoming' ? u * 1.5 : u;
    if (c.kind === 'incoming' && !this.blink) return;
    g.beginPath();
    if (c.kind === 'gate') {
      // A stargate: a ring, like the gate itself.
      g.arc(x, top, size * 1.3, 0, Math.PI * 2);
      g.stroke();
      return;
    }
    if (c.kind === 'mine') {
      g.moveTo(x - size, top - size);
      g.lineTo(x + size, top + size);
      g.moveTo(x + size, top - size);
      g.lineTo(x - size, top + size);
      g.stroke();
      return;
    }
    if (c.kind === 'missile' || c.kind === 'incoming') {
      g.moveTo(x, top - size);
      g.lineTo(x + size, top + size);
      g.lineTo(x - size, top + size);
      g.closePath();
    } else if (c.kind === 'extra') {
      g.moveTo(x, top - size);
      g.lineTo(x + size, top);
      g.lineTo(x, top + size);
      g.lineTo(x - size, top);
      g.closePath();
    } else {
      g.rect(x - size, top - size, size * 2, size * 2);
    }
    if (p.clamped) g.stroke();
    else g.fill();
    if (c.kind === 'target') {
      g.beginPath();
      g.arc(x, top, size * 2.2, 0, Math.PI * 2);
      g.stroke();
    }
  }
}
