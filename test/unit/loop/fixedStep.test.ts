import { describe, it, expect } from 'vitest';
import { DEFAULT_FIXED_STEP, FixedStepClock } from '../../../src/shared/loop/fixedStep';

/** A clock whose origin is already set at t = 1000 ms. */
function started(options = {}): FixedStepClock {
  const clock = new FixedStepClock(options);
  expect(clock.advance(1000)).toEqual({ steps: 0, alpha: 0, droppedMs: 0 });
  return clock;
}

describe('FixedStepClock', () => {
  it('defaults to 25 ms steps, 250 ms frame clamp, 8 steps per frame', () => {
    expect(DEFAULT_FIXED_STEP).toEqual({ stepMs: 25, maxFrameMs: 250, maxStepsPerFrame: 8 });
    expect(new FixedStepClock().options).toEqual(DEFAULT_FIXED_STEP);
  });

  it('the first call only sets the origin', () => {
    const clock = new FixedStepClock();
    expect(clock.advance(123456).steps).toBe(0);
  });

  it('25 ms of time is one step', () => {
    const clock = started();
    expect(clock.advance(1025)).toEqual({ steps: 1, alpha: 0, droppedMs: 0 });
  });

  it('100 ms at once is four steps', () => {
    const clock = started();
    expect(clock.advance(1100)).toEqual({ steps: 4, alpha: 0, droppedMs: 0 });
  });

  it('alpha is the leftover fraction of a step, carried to the next frame', () => {
    const clock = started();
    const a = clock.advance(1010);
    expect(a.steps).toBe(0);
    expect(a.alpha).toBeCloseTo(0.4, 12);
    const b = clock.advance(1040); // 40 ms total: 1 step, 15 ms left
    expect(b.steps).toBe(1);
    expect(b.alpha).toBeCloseTo(0.6, 12);
    expect(b.alpha).toBeGreaterThanOrEqual(0);
    expect(b.alpha).toBeLessThan(1);
  });

  it('a 10 s stall is clamped: at most maxStepsPerFrame steps, the rest reported dropped, no spiral', () => {
    const clock = started();
    const r = clock.advance(11_000);
    expect(r.steps).toBe(8);
    // 10 000 ms - 250 ms clamp = 9750, then 10 due steps capped at 8 = 50 more.
    expect(r.droppedMs).toBeCloseTo(9800, 9);
    expect(r.alpha).toBeGreaterThanOrEqual(0);
    expect(r.alpha).toBeLessThan(1);
    // Back to normal straight away: the next 25 ms frame is one step.
    expect(clock.advance(11_025).steps).toBe(1);
    expect(clock.totalDroppedMs).toBeCloseTo(9800, 9);
  });

  it('backwards, NaN and infinite time give 0 steps and never NaN', () => {
    const clock = started();
    clock.advance(1010);
    for (const t of [900, NaN, Infinity, -Infinity]) {
      const r = clock.advance(t);
      expect(r.steps).toBe(0);
      expect(r.droppedMs).toBe(0);
      expect(Number.isNaN(r.alpha)).toBe(false);
    }
    // Time going backwards re-bases the origin; time then flows from there.
    expect(clock.advance(925).steps).toBe(1);
  });

  it('reset forgets the origin and the accumulated time', () => {
    const clock = started();
    clock.advance(1020);
    clock.reset();
    expect(clock.advance(5000)).toEqual({ steps: 0, alpha: 0, droppedMs: 0 });
    expect(clock.advance(5025).steps).toBe(1);
  });

  it('16.7 ms frames for 10 simulated seconds yield 400 ± 1 steps', () => {
    const clock = new FixedStepClock();
    let steps = 0;
    for (let t = 0; t <= 10_000; t += 16.7) {
      const r = clock.advance(t);
      expect(r.steps).toBeLessThanOrEqual(1);
      steps += r.steps;
    }
    expect(Math.abs(steps - 400)).toBeLessThanOrEqual(1);
  });

  it('rejects invalid options', () => {
    expect(() => new FixedStepClock({ stepMs: 0 })).toThrow(RangeError);
    expect(() => new FixedStepClock({ maxFrameMs: NaN })).toThrow(RangeError);
    expect(() => new FixedStepClock({ maxStepsPerFrame: 1.5 })).toThrow(RangeError);
  });

  it('per-call limits let a throttled hidden page catch up a whole second without dropping time', () => {
    const clock = new FixedStepClock();
    clock.advance(0);
    let steps = 0;
    let dropped = 0;
    for (let t = 1000; t <= 10_000; t += 1000) {
      const r = clock.advance(t, { maxFrameMs: 1100, maxStepsPerFrame: 44 });
      steps += r.steps;
      dropped += r.droppedMs;
    }
    expect(steps).toBe(400);
    expect(dropped).toBe(0);
    // The default limits still apply to the next call.
    expect(clock.advance(12_000).steps).toBe(8);
  });
});
