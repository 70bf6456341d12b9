/**
 * The host side of the net graph (`netgraph 1`): about ten times a second,
 * one {@link NetGraphSample} from the bound protocol's link statistics and
 * the link conditioner's traffic counters. It runs only while the graph is
 * on, so a player who never opens it pays nothing.
 */
import type { NetGraphSample } from '../../shared/host/contract';
import type { Traffic } from '../../shared/net/conditionedPacketApi';
import type { LinkStats } from '../../shared/protocol/protocol';

/** Sampling period, ms. */
export const NETGRAPH_SAMPLE_MS = 100;
/** Traffic rates are averaged over this many periods (1 s), so 20 packets/s does not read 0, 10, 20, 30. */
const RATE_WINDOW = 10;

export interface NetGraphSource {
  /** Cumulative traffic of the packet API wrapper. */
  traffic(): Traffic;
  /** The bound protocol's link figures, or null when it has none. */
  linkStats(): LinkStats | null;
  /** The link conditioner's settings in words ('' = clean link). */
  fake(): string;
  /** Host clock, ms. */
  now(): number;
}

/** A measured value the renderer can plot: a finite, non-negative number, else null ("not measured"). */
function measured(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * Samples while started. Ownership: the sampler owns one interval timer,
 * made by `start` and cleared by `stop` (the host calls `stop` on dispose).
 */
export class NetGraphSampler {
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Cumulative traffic and the time it was read, oldest first, at most RATE_WINDOW + 1 entries. */
  private history: { at: number; traffic: Traffic }[] = [];

  constructor(
    private readonly source: NetGraphSource,
    private readonly emit: (sample: NetGraphSample) => void,
  ) {}

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.history = [{ at: this.source.now(), traffic: this.source.traffic() }];
    this.timer = setInterval(() => this.emit(this.sample()), NETGRAPH_SAMPLE_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.history = [];
  }

  /** Takes one sample now (the timer's job; public for tests). */
  sample(): NetGraphSample {
    const at = this.source.now();
    const traffic = this.source.traffic();
    this.history.push({ at, traffic });
    if (this.history.length > RATE_WINDOW + 1) this.history.shift();
    const first = this.history[0] ?? { at, traffic };
    const seconds = (at - first.at) / 1000;
    const rate = (key: keyof Traffic): number => (seconds > 0 ? Math.max(0, traffic[key] - first.traffic[key]) / seconds : 0);
    let link: LinkStats | null = null;
    try {
      link = this.source.linkStats();
    } catch {
      // A protocol bug must not stop the graph; its figures just read "not measured".
    }
    return {
      at,
      pingMs: measured(link?.pingMs),
      jitterMs: measured(link?.jitterMs),
      lossPct: measured(link?.lossPct),
      inBytesPerS: rate('bytesIn'),
      outBytesPerS: rate('bytesOut'),
      inPacketsPerS: rate('packetsIn'),
      outPacketsPerS: rate('packetsOut'),
      fake: this.source.fake(),
      sync: typeof link?.sync === 'string' ? link.sync : '',
    };
  }
}
