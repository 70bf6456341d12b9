import type { NetGraphSample } from '../../../shared/host/contract';
import { wrapLine } from './wordWrap';

/** Samples kept: 10 s at the host's 10 samples/s. */
export const NETGRAPH_CAPACITY = 100;
/** Overlay width in CSS pixels (styles.css gives #netgraph the same width; its height follows the text). */
const WIDTH = 320;
const PAD = 6;
const LINE = 13;
const FONT = '11px ui-monospace, "DejaVu Sans Mono", monospace';
/** Rows of text always kept above the graphs (figures, in, out, fake link, sync); more when long lines wrap. */
const TEXT_ROWS = 5;
/** Latency panel (ping and jitter lines, loss bars) and traffic panel (bytes/s and packets/s) heights, in CSS px. */
const LAT_H = 58;
const TRAFFIC_H = 44;

/** Where things go for `rows` rows of text: 320 x 189 for the usual five. */
function layout(rows: number): { latTop: number; trafficTop: number; height: number } {
  const latTop = PAD + Math.max(TEXT_ROWS, rows) * LINE + 4;
  const trafficTop = latTop + LAT_H + 6;
  return { latTop, trafficTop, height: trafficTop + TRAFFIC_H + 6 };
}
/** Loss at which a loss bar fills the latency panel, %. Small losses matter, so the scale is short. */
const LOSS_FULL_PCT = 25;

const COLOURS = {
  text: '#cfe3ff',
  dim: '#6f8fb8',
  grid: 'rgba(111, 143, 184, 0.25)',
  ping: '#6fe08a',
  jitter: '#ffd75e',
  loss: 'rgba(255, 90, 80, 0.7)',
  in: '#5ec8ff',
  out: '#ff7ad9',
  fake: '#ffb070',
};
const DASH: number[] = [3, 3];
const SOLID: number[] = [];

/** A finite non-negative number, else NaN (plotted as a gap, shown as "—"). */
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : Number.NaN);

/** The smallest 1-2-5 step at or above `v` (scale tops that read well). */
function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(v, 1e-9)));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const ms = (v: number): string => (Number.isNaN(v) ? '—' : `${Math.round(v)} ms`);
const rateText = (bytes: number): string => (bytes < 1000 ? `${Math.round(bytes)} B/s` : `${(bytes / 1000).toFixed(1)} kB/s`);

/**
 * The net graph overlay (`netgraph 1`): a semi-transparent 2-D canvas in the
 * bottom-right corner plotting the last 10 s of samples from the host — ping
 * and jitter lines and loss bars above, bytes/s (solid) and packets/s
 * (dashed) in and out below — under the current figures as text.
 *
 * Cheap by construction: samples go into fixed ring buffers, the scales and
 * text are worked out when a sample arrives (10 times a second), and `draw`,
 * called every frame, repaints only after a new sample and allocates nothing.
 * Hidden, it is `display: none` and `draw` returns at once. Text wider than
 * the panel (a long fake-link or lockstep line) is word-wrapped to it, and
 * the panel grows to hold the rows. The latest figures are also on the
 * element as `data-values` (JSON) and the rows drawn as `data-rows`, for tests.
 */
export class NetGraph {
  readonly element: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private readonly series = {
    ping: new Float64Array(NETGRAPH_CAPACITY),
    jitter: new Float64Array(NETGRAPH_CAPACITY),
    loss: new Float64Array(NETGRAPH_CAPACITY),
    inBytes: new Float64Array(NETGRAPH_CAPACITY),
    outBytes: new Float64Array(NETGRAPH_CAPACITY),
    inPackets: new Float64Array(NETGRAPH_CAPACITY),
    outPackets: new Float64Array(NETGRAPH_CAPACITY),
  };
  /** Next write position and number of samples held. */
  private head = 0;
  private count = 0;
  private visible = false;
  private dirty = false;
  private scale = { ms: 50, bytes: 1000, packets: 10 };
  private text = { link: '', in: '', out: '', fake: '', sync: '', msScale: '', trafficScale: '' };
  /** The text as drawn: rows of at most the panel's inner width, each with its colour. */
  private rows: { text: string; colour: string }[] = [];
  private place = layout(TEXT_ROWS);
  private pixelRatio = 0;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.id = 'netgraph';
    this.element.hidden = true;
    this.element.setAttribute('aria-label', 'net graph');
    this.canvas = document.createElement('canvas');
    this.element.append(this.canvas);
    parent.append(this.element);
    this.ctx = this.canvas.getContext('2d');
    window.addEventListener('resize', () => this.resize());
  }

  /** Shows or hides the overlay; showing starts from an empty graph (no stale minutes-old line). */
  setVisible(on: boolean): void {
    if (on === this.visible) return;
    this.visible = on;
    this.element.hidden = !on;
    document.body.classList.toggle('netgraph-on', on);
    if (on) {
      this.head = 0;
      this.count = 0;
      this.text = { link: 'waiting for samples…', in: '', out: '', fake: '', sync: '', msScale: '', trafficScale: '' };
      delete this.element.dataset.values;
      this.layOut();
      this.resize();
      this.dirty = true;
    }
  }

  get shown(): boolean {
    return this.visible;
  }

  /** Adds one sample from the host (ignored while hidden). */
  push(sample: NetGraphSample): void {
    if (!this.visible) return;
    const i = this.head;
    const s = this.series;
    s.ping[i] = num(sample.pingMs);
    s.jitter[i] = num(sample.jitterMs);
    s.loss[i] = num(sample.lossPct);
    s.inBytes[i] = num(sample.inBytesPerS);
    s.outBytes[i] = num(sample.outBytesPerS);
    s.inPackets[i] = num(sample.inPacketsPerS);
    s.outPackets[i] = num(sample.outPacketsPerS);
    this.head = (i + 1) % NETGRAPH_CAPACITY;
    this.count = Math.min(this.count + 1, NETGRAPH_CAPACITY);

    this.scale = {
      ms: niceCeil(Math.max(50, this.max(s.ping), this.max(s.jitter))),
      bytes: niceCeil(Math.max(1000, this.max(s.inBytes), this.max(s.outBytes))),
      packets: niceCeil(Math.max(10, this.max(s.inPackets), this.max(s.outPackets))),
    };
    const loss = s.loss[i] ?? Number.NaN;
    const fake = typeof sample.fake === 'string' ? sample.fake.slice(0, 80) : '';
    const sync = typeof sample.sync === 'string' ? sample.sync.slice(0, 120) : '';
    this.text = {
      link: `ping ${ms(s.ping[i] ?? Number.NaN)}  jitter ${ms(s.jitter[i] ?? Number.NaN)}  loss ${Number.isNaN(loss) ? '—' : `${loss.toFixed(1)}%`}`,
      in: `in  ${rateText(s.inBytes[i] ?? 0)}  ${(s.inPackets[i] ?? 0).toFixed(0)} pkt/s`,
      out: `out ${rateText(s.outBytes[i] ?? 0)}  ${(s.outPackets[i] ?? 0).toFixed(0)} pkt/s`,
      fake: fake ? `fake link: ${fake}` : '',
      sync,
      msScale: `${this.scale.ms} ms`,
      trafficScale: `${rateText(this.scale.bytes)} · ${this.scale.packets} pkt/s`,
    };
    this.element.dataset.values = JSON.stringify({
      pingMs: nullable(s.ping[i]),
      jitterMs: nullable(s.jitter[i]),
      lossPct: nullable(s.loss[i]),
      inBytesPerS: s.inBytes[i],
      outBytesPerS: s.outBytes[i],
      inPacketsPerS: s.inPackets[i],
      outPacketsPerS: s.outPackets[i],
      fake,
      sync,
      text: [this.text.link, this.text.in, this.text.out, this.text.fake, this.text.sync].filter((t) => t !== '').join('\n'),
    });
    this.layOut();
    this.dirty = true;
  }

  /** Called every frame; repaints only when visible and something changed. */
  draw(): void {
    const g = this.ctx;
    if (!this.visible || !this.dirty || !g) return;
    this.dirty = false;
    const { latTop, trafficTop, height } = this.place;
    g.clearRect(0, 0, WIDTH, height);
    g.font = FONT;
    g.textBaseline = 'top';
    this.rows.forEach((row, i) => {
      g.fillStyle = row.colour;
      g.fillText(row.text, PAD, PAD + i * LINE);
    });

    this.frame(latTop, LAT_H, this.text.msScale);
    this.frame(trafficTop, TRAFFIC_H, this.text.trafficScale);
    this.lossBars(latTop);
    this.line(this.series.jitter, latTop, LAT_H, this.scale.ms, COLOURS.jitter, SOLID);
    this.line(this.series.ping, latTop, LAT_H, this.scale.ms, COLOURS.ping, SOLID);
    this.line(this.series.inPackets, trafficTop, TRAFFIC_H, this.scale.packets, COLOURS.in, DASH);
    this.line(this.series.outPackets, trafficTop, TRAFFIC_H, this.scale.packets, COLOURS.out, DASH);
    this.line(this.series.inBytes, trafficTop, TRAFFIC_H, this.scale.bytes, COLOURS.in, SOLID);
    this.line(this.series.outBytes, trafficTop, TRAFFIC_H, this.scale.bytes, COLOURS.out, SOLID);
  }

  /**
   * Wraps the text to the panel's inner width (measured in the graph's font)
   * and, when the number of rows changes the panel's height, resizes the
   * overlay and tells the page (`--netgraph-height`, which keeps the player
   * list above it).
   */
  private layOut(): void {
    const g = this.ctx;
    const inner = WIDTH - 2 * PAD;
    if (g) g.font = FONT;
    const measure = (t: string): number => (g ? g.measureText(t).width : t.length * 7);
    const rows: { text: string; colour: string }[] = [];
    const add = (text: string, colour: string) => {
      for (const row of wrapLine(text, inner, measure)) rows.push({ text: row, colour });
    };
    add(this.text.link, COLOURS.text);
    add(this.text.in, COLOURS.in);
    add(this.text.out, COLOURS.out);
    // The fake link and the sync line keep their rows (4th and 5th) even when the one before is empty.
    while (rows.length < 3) rows.push({ text: '', colour: COLOURS.text });
    if (this.text.fake) add(this.text.fake, COLOURS.fake);
    else rows.push({ text: '', colour: COLOURS.text });
    if (this.text.sync) add(this.text.sync, COLOURS.text);
    this.rows = rows;
    this.element.dataset.rows = JSON.stringify(rows.map((r) => r.text).filter((t) => t !== ''));
    const place = layout(rows.length);
    if (place.height === this.place.height) return;
    this.place = place;
    this.element.style.height = `${place.height}px`;
    document.body.style.setProperty('--netgraph-height', `${place.height}px`);
    this.pixelRatio = 0;
    this.resize();
  }

  /** Matches the canvas's backing store to its CSS size and the device pixel ratio (once per resize). */
  private resize(): void {
    const ratio = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
    if (ratio === this.pixelRatio) return;
    this.pixelRatio = ratio;
    this.canvas.width = Math.round(WIDTH * ratio);
    this.canvas.height = Math.round(this.place.height * ratio);
    this.ctx?.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.dirty = true;
  }

  private max(values: Float64Array): number {
    let m = 0;
    for (let k = 0; k < this.count; k++) {
      const v = values[k] ?? Number.NaN;
      if (v > m) m = v;
    }
    return m;
  }

  /** x of the k-th held sample (0 = oldest); the newest is at the right edge. */
  private x(k: number): number {
    const step = (WIDTH - 2 * PAD) / (NETGRAPH_CAPACITY - 1);
    return WIDTH - PAD - (this.count - 1 - k) * step;
  }

  private at(values: Float64Array, k: number): number {
    return values[(this.head - this.count + k + NETGRAPH_CAPACITY) % NETGRAPH_CAPACITY] ?? Number.NaN;
  }

  private frame(top: number, height: number, label: string): void {
    const g = this.ctx as CanvasRenderingContext2D;
    g.strokeStyle = COLOURS.grid;
    g.lineWidth = 1;
    g.setLineDash(SOLID);
    g.strokeRect(PAD + 0.5, top + 0.5, WIDTH - 2 * PAD - 1, height - 1);
    g.fillStyle = COLOURS.dim;
    g.fillText(label, PAD + 3, top + 2);
  }

  private lossBars(latTop: number): void {
    const g = this.ctx as CanvasRenderingContext2D;
    const width = Math.max(1, (WIDTH - 2 * PAD) / (NETGRAPH_CAPACITY - 1) - 0.5);
    g.fillStyle = COLOURS.loss;
    for (let k = 0; k < this.count; k++) {
      const loss = this.at(this.series.loss, k);
      if (!(loss > 0)) continue;
      const h = Math.min(1, loss / LOSS_FULL_PCT) * LAT_H;
      g.fillRect(this.x(k) - width, latTop + LAT_H - h, width, h);
    }
  }

  /** One series as a polyline scaled to `top..top+height`; NaN (not measured) leaves a gap. */
  private line(values: Float64Array, top: number, height: number, scaleMax: number, colour: string, dash: number[]): void {
    const g = this.ctx as CanvasRenderingContext2D;
    g.strokeStyle = colour;
    g.lineWidth = dash === SOLID ? 1.5 : 1;
    g.setLineDash(dash);
    g.beginPath();
    let drawing = false;
    for (let k = 0; k < this.count; k++) {
      const v = this.at(values, k);
      if (Number.isNaN(v)) {
        drawing = false;
        continue;
      }
      const y = top + height - 1 - Math.min(1, v / scaleMax) * (height - 2);
      if (drawing) g.lineTo(this.x(k), y);
      else g.moveTo(this.x(k), y);
      drawing = true;
    }
    g.stroke();
  }
}

function nullable(v: number | undefined): number | null {
  return v === undefined || Number.isNaN(v) ? null : v;
}
