/**
 * The replay window (src/shared/net/replayWindow.ts): a datagram's
 * sequence number is taken once; replays of any age and numbers older than
 * the window are refused; the u32 wrap is no hole; a restarted sender (its
 * connections, net/connection.ts) starts above its old numbers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Connections } from '../../../src/shared/net/connection';
import { REPLAY_WINDOW, ReplayWindow } from '../../../src/shared/net/replayWindow';

describe('ReplayWindow', () => {
  it('takes each number once, in any order inside the window, and refuses every repeat', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 400 }), (start, offsets) => {
        const w = new ReplayWindow();
        const taken = new Set<number>();
        let newest = -Infinity;
        for (const off of offsets) {
          const verdict = w.accept((start + off) >>> 0);
          if (taken.has(off)) expect(verdict).not.toBe('new');
          else if (off <= newest - REPLAY_WINDOW) expect(verdict).toBe('too-old');
          else expect(verdict).toBe('new');
          if (verdict === 'new') {
            taken.add(off);
            newest = Math.max(newest, off);
          }
        }
      }),
    );
  });

  it('a datagram replayed after a minute of traffic (1,200 numbers later) is refused; so is one replayed at once', () => {
    const w = new ReplayWindow();
    const captured = 5000;
    for (let s = captured; s < captured + 1200; s++) expect(w.accept(s)).toBe('new');
    expect(w.accept(captured)).toBe('too-old');
    expect(w.accept(captured + 1199)).toBe('replayed');
  });

  it('counts across the u32 wrap without a hole', () => {
    const w = new ReplayWindow();
    for (let i = -5; i < 5; i++) expect(w.accept((0xffffffff + i + 1) >>> 0)).toBe('new');
    expect(w.accept(0xfffffffe)).toBe('replayed');
    expect(w.accept(3)).toBe('replayed');
  });
});

describe('outgoing numbers (Connections)', () => {
  it('gives each link its own run from its wall-clock second, and a node restarted a second later starts above the old run', () => {
    let second = 1000;
    const first = new Connections(() => second);
    const a = Array.from({ length: 50_000 }, () => first.open('peer').stamp());
    expect(first.open('other').stamp()).toBe(1000 * 0x10000);
    second = 1001;
    const restarted = new Connections(() => second);
    const w = new ReplayWindow();
    w.accept(a.at(-1)!);
    expect(w.accept(restarted.open('peer').stamp())).toBe('new');
  });
});
