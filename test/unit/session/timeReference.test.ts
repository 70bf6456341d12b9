/**
 * Who follows whose clock in a peer-to-peer game: every player reaches the
 * reference (the joined player with the lowest slot) without ever two
 * players asking each other, and a newcomer in a freed lower slot follows
 * the joined players instead of imposing its own clock.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timeReference } from '../../../src/shared/session/sessionClock';
import type { PlayerEntry } from '../../../src/shared/wire/types';

const entry = (slot: number, joined: boolean): PlayerEntry => ({ slot, joined, name: `p${slot}`, addr: Uint8Array.from([4, 10, 0, 0, slot + 1, 0x19, 0x7e]) });
const slotOf = (players: PlayerEntry[], addr: Uint8Array | null) => (addr === null ? null : (players.find((p) => p.addr[4] === addr[4])?.slot ?? -1));

describe('time reference in a peer-to-peer game', () => {
  it('every player reaches one reference without cycles, whatever the slots and join states', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ slot: fc.integer({ min: 0, max: 7 }), joined: fc.boolean() }), { minLength: 1, maxLength: 8, selector: (p) => p.slot }), (raw) => {
        const players = raw.map((p) => entry(p.slot, p.joined));
        const roots = new Set<number>();
        for (const p of players) {
          const seen = new Set<number>();
          let at: number | null = p.slot;
          while (at !== null) {
            expect(seen.has(at), 'a cycle').toBe(false);
            seen.add(at);
            const next = slotOf(players, timeReference(players, at));
            if (next === null) roots.add(at);
            at = next;
          }
        }
        expect(roots.size).toBe(1);
        const joined = players.filter((p) => p.joined).map((p) => p.slot);
        const root = [...roots][0];
        expect(root).toBe(joined.length > 0 ? Math.min(...joined) : Math.min(...players.map((p) => p.slot)));
      }),
    );
  });

  it('a newcomer in a freed slot 0 follows the joined slot 1, then becomes the reference once it has joined', () => {
    const before = [entry(0, false), entry(1, true), entry(2, true)];
    expect(slotOf(before, timeReference(before, 0))).toBe(1);
    expect(timeReference(before, 1)).toBeNull();
    expect(slotOf(before, timeReference(before, 2))).toBe(1);
    const after = [entry(0, true), entry(1, true), entry(2, true)];
    expect(timeReference(after, 0)).toBeNull();
    expect(slotOf(after, timeReference(after, 1))).toBe(0);
  });
});
