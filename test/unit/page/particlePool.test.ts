/**
 * The effects' particle pool: bursts emit what they ask for, particles live
 * their life and are gone, a full pool reuses its oldest particles (never
 * grows), and drag slows them.
 */
import { describe, expect, it } from 'vitest';
import { ParticlePool } from '../../../src/renderer/src/view/particlePool';

/** A seeded stand-in for Math.random, so counts and positions repeat. */
function seeded(seed = 1): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const burst = { x: 10, y: 0, z: 0, count: 50, speed: [10, 10] as [number, number], life: [1, 1] as [number, number], colour: 0xff8000, size: [1, 1] as [number, number] };

describe('particle pool', () => {
  it('a burst of 50 is 50 particles alive, moving out at their speed, and gone after their life', () => {
    const pool = new ParticlePool(200, seeded());
    pool.emit(burst);
    expect(pool.alive()).toBe(50);
    pool.step(0.5);
    expect(pool.alive()).toBe(50);
    for (let i = 0; i < 50; i++) {
      const d = Math.hypot(pool.pos[i * 3]! - 10, pool.pos[i * 3 + 1]!, pool.pos[i * 3 + 2]!);
      expect(d).toBeCloseTo(5, 3);
    }
    expect(pool.fade(0)).toBeCloseTo(0.5, 5);
    pool.step(0.6);
    expect(pool.alive()).toBe(0);
    expect(pool.fade(0)).toBe(0);
  });

  it('a full pool reuses its oldest particles and never holds more than its capacity', () => {
    const pool = new ParticlePool(120, seeded(7));
    for (let i = 0; i < 5; i++) pool.emit(burst);
    expect(pool.alive()).toBe(120);
    expect(pool.pos.length).toBe(360);
  });

  it('drag slows a particle, and a drift carries the whole burst', () => {
    const pool = new ParticlePool(10, seeded(3));
    pool.emit({ ...burst, count: 1, speed: [0, 0], drift: { x: 0, y: 0, z: -20 }, drag: 1 });
    pool.step(0.5);
    expect(pool.vel[2]).toBeCloseTo(-10, 5);
    expect(pool.pos[2]).toBeCloseTo(-5, 5);
  });
});
