import { describe, it, expect } from 'vitest';
import { LoopMeter, percentile } from '../../../src/shared/util/stats';

describe('percentile', () => {
  it('uses the nearest rank on a sorted copy without mutating the input', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 100)).toBe(5);
    expect(percentile(values, 20)).toBe(1);
    expect(percentile(values, 21)).toBe(2);
    expect(values).toEqual([5, 1, 4, 2, 3]);
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 29)).toBe(29);
  });

  it('is 0 for an empty input, ignores NaN values and clamps p', () => {
    expect(percentile([], 50)).toBe(0);
    expect(percentile([NaN], 50)).toBe(0);
    expect(percentile([2, NaN, 1], 100)).toBe(2);
    expect(percentile([1, 2], 250)).toBe(2);
    expect(percentile([1, 2], -5)).toBe(1);
  });
});

describe('LoopMeter', () => {
  it('reports 40 Hz for a synthetic 40 steps/s stream over 6 s', () => {
    const meter = new LoopMeter(5000);
    // 60 fps frames; the steps follow a 25 ms accumulator as a real loop would.
    let acc = 0;
    let last = 0;
    for (let t = 0; t <= 6000; t += 1000 / 60) {
      acc += t - last;
      last = t;
      const steps = Math.floor(acc / 25);
      acc -= steps * 25;
      meter.recordFrame(t, 16.7, steps);
    }
    const snap = meter.snapshot(6000);
    expect(snap.tickHz).toBeGreaterThan(39.5);
    expect(snap.tickHz).toBeLessThan(40.5);
    expect(snap.fps).toBeCloseTo(60, 0);
    expect(snap.windowS).toBeCloseTo(5, 9);
    expect(snap.frameMsP50).toBe(16.7);
  });

  it('is exact for one step every 25 ms', () => {
    const meter = new LoopMeter(5000);
    for (let t = 0; t <= 6000; t += 25) meter.recordFrame(t, 25, t === 0 ? 0 : 1);
    const snap = meter.snapshot(6000);
    expect(snap.tickHz).toBe(40);
    expect(snap.ticks).toBe(200);
    expect(snap.frames).toBe(200);
  });

  it('covers only the time since the first frame while younger than the window', () => {
    const meter = new LoopMeter(5000);
    for (let t = 0; t <= 2000; t += 25) meter.recordFrame(t, 25, t === 0 ? 0 : 1);
    const snap = meter.snapshot(2000);
    expect(snap.windowS).toBe(2);
    expect(snap.tickHz).toBe(40);
  });

  it('forgets samples older than the window', () => {
    const meter = new LoopMeter(5000);
    meter.recordFrame(0, 0, 0);
    for (let t = 25; t <= 5000; t += 25) meter.recordFrame(t, 100, 4); // a slow stretch: 160 Hz, 100 ms frames
    for (let t = 5025; t <= 10_000; t += 25) meter.recordFrame(t, 10, 1); // then steady 40 Hz, 10 ms frames
    const snap = meter.snapshot(10_000);
    expect(snap.tickHz).toBe(40);
    expect(snap.frameMsP99).toBe(10);
    expect(meter.size).toBe(200);
    // Nothing recorded for 5 more seconds: everything has left the window.
    const idle = meter.snapshot(15_000);
    expect(idle.frames).toBe(0);
    expect(idle.tickHz).toBe(0);
    expect(meter.size).toBe(0);
  });

  it('keeps memory bounded by maxSamples', () => {
    const meter = new LoopMeter(5000, 100);
    for (let i = 0; i <= 10_000; i++) meter.recordFrame(i * 0.1, 0.1, 1);
    expect(meter.size).toBeLessThanOrEqual(100);
    const snap = meter.snapshot(1000);
    expect(snap.tickHz).toBeCloseTo(10_000, 6);
  });

  it('returns zeros before any frame and ignores non-finite times', () => {
    const meter = new LoopMeter();
    expect(meter.snapshot(0).tickHz).toBe(0);
    meter.recordFrame(NaN, 1, 1);
    expect(meter.snapshot(NaN)).toEqual({ tickHz: 0, fps: 0, frameMsP50: 0, frameMsP95: 0, frameMsP99: 0, windowS: 0, ticks: 0, frames: 0 });
  });

  it('a long frame straddling the start of the window does not inflate the tick rate', () => {
    const meter = new LoopMeter(5000);
    let t = 0;
    meter.recordFrame(t, 0, 0);
    // 40 Hz with one 300 ms stall whose 12 catch-up steps land just inside the window.
    while (t < 10_000) {
      const stall = t === 4_900;
      t += stall ? 300 : 25;
      meter.recordFrame(t, stall ? 300 : 25, stall ? 12 : 1);
    }
    const snap = meter.snapshot(t);
    expect(snap.tickHz).toBeCloseTo(40, 6);
    expect(snap.windowS).toBeGreaterThanOrEqual(5);
  });
});

