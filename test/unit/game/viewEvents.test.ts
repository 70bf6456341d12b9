/**
 * The world events a view carries (WorldView.events, view.ts viewEvents):
 * every extra taken (by any ship: the pickup sparkle) and the blows that took
 * our own ship's shield or hull (the damage-direction marker); nothing else.
 */
import { describe, expect, it } from 'vitest';
import { viewEvents } from '../../../src/shared/game/view';
import type { WorldEvent } from '../../../src/shared/game/events';

describe('viewEvents', () => {
  it("keeps every pickup and the hits on our slot that took shield or hull; drops others' hits, harmless ones and the rest", () => {
    const events: WorldEvent[] = [
      { type: 'pickup', slot: 2, id: 5, owner: 0, extra: 1 },
      { type: 'hit', slot: 0, by: 2, cause: 'laser', shield: 8, hull: 0, id: 3 },
      { type: 'hit', slot: 0, by: 2, cause: 'laser', shield: 0, hull: 0, id: 4 },
      { type: 'hit', slot: 2, by: 0, cause: 'missile', shield: 20, hull: 5, id: 1 },
      { type: 'hit', slot: 0, by: -1, cause: 'asteroid', shield: 0, hull: 6 },
      { type: 'fired', slot: 2, kind: 'laser', id: 9 },
      { type: 'destroyed', slot: 2, killer: 0 },
    ];
    expect(viewEvents(events, 0)).toEqual([events[0], events[1], events[4]]);
    // Copies: the view shares nothing mutable with the game.
    expect(viewEvents(events, 0)[0]).not.toBe(events[0]);
  });
});
