import { FixedStepClock } from '../../../shared/loop/fixedStep';
import { LoopMeter, type LoopStatsSnapshot } from '../../../shared/util/stats';

export interface LoopHandlers {
  /** One fixed 25 ms simulation step. */
  step(): void;
  /** Draw, interpolating `alpha` of the way from the previous to the current state. */
  render(alpha: number): void;
  /** After every frame; `stats` is attached every `statsEveryMs` (for the host's `stats` command and the HUD). */
  afterFrame(frame: number, stats: LoopStatsSnapshot | undefined): void;
}

/**
 * Catch-up limits while the page is hidden: browsers wake hidden pages' timers
 * about once a second, so each wake may run up to 1.1 s of steps (44 × 15 µs).
 */
const HIDDEN_LIMITS = { maxFrameMs: 1100, maxStepsPerFrame: 44 };

/**
 * The game loop: fixed 40 Hz steps from an accumulator, rendering at display
 * rate with interpolation. It is the only code in the renderer that reads the
 * clock. While the page is hidden, requestAnimationFrame stops, so a timer
 * keeps the simulation (and the network it will feed) stepping in real time,
 * catching up in larger batches when the browser throttles the timer; a longer
 * stall is clamped by the FixedStepClock rather than replayed.
 */
export class GameLoop {
  private readonly fixed = new FixedStepClock();
  private readonly meter = new LoopMeter(5000);
  private raf = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running = false;
  private frame = 0;
  private lastFrameAt = -1;
  private lastStatsAt = -Infinity;

  constructor(
    private readonly handlers: LoopHandlers,
    private readonly clock: () => number = () => performance.now(),
    private readonly statsEveryMs = 500,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    document.addEventListener('visibilitychange', this.onVisibility);
    this.schedule();
  }

  stop(): void {
    this.running = false;
    cancelAnimationFrame(this.raf);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    document.removeEventListener('visibilitychange', this.onVisibility);
  }

  private readonly onVisibility = () => {
    if (!this.running) return;
    cancelAnimationFrame(this.raf);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.schedule();
  };

  private schedule(): void {
    if (document.hidden) this.timer = setInterval(() => this.tick(false), 25);
    else this.raf = requestAnimationFrame(this.onAnimationFrame);
  }

  private readonly onAnimationFrame = () => {
    if (!this.running) return;
    this.tick(true);
    this.raf = requestAnimationFrame(this.onAnimationFrame);
  };

  private tick(draw: boolean): void {
    const now = this.clock();
    const { steps, alpha } = this.fixed.advance(now, draw ? undefined : HIDDEN_LIMITS);
    for (let i = 0; i < steps; i++) this.handlers.step();
    if (draw) this.handlers.render(alpha);
    const frameMs = this.lastFrameAt < 0 ? 0 : now - this.lastFrameAt;
    this.lastFrameAt = now;
    this.meter.recordFrame(now, frameMs, steps);
    this.frame += 1;
    let stats: LoopStatsSnapshot | undefined;
    if (now - this.lastStatsAt >= this.statsEveryMs) {
      this.lastStatsAt = now;
      stats = this.meter.snapshot(now);
    }
    this.handlers.afterFrame(this.frame, stats);
  }
}
