/**
 * `timedemo`: a demo played as fast as it goes, tick after tick, each one
 * timed — the replayed game's step and whatever the caller does with the
 * tick (the host builds and sends the world view the renderer draws). The
 * figures: ticks played ("frames"), ticks per second, and the tick times'
 * percentiles. The clock is the caller's (performance.now in Node).
 */
import { percentile } from '../util/stats';
import type { GamePlayback, PlayedStretch } from './gamePlayback';

export interface TimedemoResult {
  frames: number;
  seconds: number;
  fps: number;
  /** Tick times in ms. */
  p50: number;
  p99: number;
  max: number;
  /** The demo's own length (s): how much faster than real time it played. */
  demoSeconds: number;
}

/** Plays `p` to its end from where it is, calling `each` after every tick. */
export function timedemo(p: GamePlayback, now: () => number, each?: (tick: PlayedStretch) => void): TimedemoResult {
  const times: number[] = [];
  const start = now();
  while (!p.ended) {
    const t0 = now();
    const tick = p.nextTick();
    if (tick.ticks === 0) break;
    each?.(tick);
    times.push(now() - t0);
  }
  const seconds = (now() - start) / 1000;
  return { frames: times.length, seconds, fps: seconds > 0 ? times.length / seconds : 0, p50: percentile(times, 50), p99: percentile(times, 99), max: times.reduce((a, b) => Math.max(a, b), 0), demoSeconds: p.durationMs / 1000 };
}

/** timedemo's console line. */
export function timedemoLine(name: string, r: TimedemoResult): string {
  const ms = (v: number) => v.toFixed(v < 1 ? 3 : 2);
  const speed = r.seconds > 0 ? ` (${(r.demoSeconds / r.seconds).toFixed(0)}× real time)` : '';
  return `timedemo ${name}: ${r.frames} frames in ${r.seconds.toFixed(2)} s = ${r.fps.toFixed(0)} fps${speed}; frame time p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, max ${ms(r.max)} ms`;
}
