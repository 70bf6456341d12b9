/**
 * The players whose newest state a gameserver client is still to be sent
 * (game/slotSet.ts): in the order their states came, each once, what a
 * flush leaves (out of budget) kept in order for the next one, and any
 * sequence of adds and deletes agreeing with an insertion-ordered Set.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlotSet } from '../../../src/node/servers/game/slotSet';

const seats = Array.from({ length: 255 }, (_, slot) => ({ slot }));
const order = (d: SlotSet<{ slot: number }>) => {
  const out: number[] = [];
  d.visit((s) => {
    out.push(s.slot);
    return true;
  });
  return out;
};

describe('a set of seats by slot', () => {
  it('keeps arrival order, each player once; a flush stopped by its budget leaves the rest in order', () => {
    const d = new SlotSet<{ slot: number }>();
    for (const s of [5, 2, 9, 2, 7]) d.add(seats[s]!);
    expect(order(d)).toEqual([5, 2, 9, 7]);
    let sent = 0;
    d.visit((s) => {
      if (sent === 2) return false;
      d.delete(s);
      sent += 1;
      return true;
    });
    expect(order(d)).toEqual([9, 7]);
    d.add(seats[5]!);
    expect([d.size, d.has(seats[5]!), d.has(seats[2]!)]).toEqual([3, true, false]);
    expect(order(d)).toEqual([9, 7, 5]);
  });

  it('agrees with an insertion-ordered Set over any adds and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 254 })), { maxLength: 2000 }), (ops) => {
        const d = new SlotSet<{ slot: number }>();
        const model = new Set<number>();
        for (const [add, slot] of ops) {
          if (add) {
            d.add(seats[slot]!);
            model.add(slot);
          } else {
            d.delete(seats[slot]!);
            model.delete(slot);
          }
        }
        expect(d.size).toBe(model.size);
        expect(order(d)).toEqual([...model]);
      }),
    );
  });

  it('forgets a player that left even when another seat takes its slot', () => {
    const d = new SlotSet<{ slot: number }>();
    const gone = { slot: 4 };
    const next = { slot: 4 };
    d.add(gone);
    d.delete(next);
    expect(d.has(gone)).toBe(true);
    d.delete(gone);
    d.add(next);
    expect([d.has(gone), d.has(next), d.size]).toEqual([false, true, 1]);
  });
});
