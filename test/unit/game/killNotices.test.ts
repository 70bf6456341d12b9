/**
 * The kill feed's weapon (issue 25): a destroyed-ship notice names what dealt
 * the last blow when this game decided the kill — our own ship, and offline
 * our computer pilots, whose destruction now has its notice too (the
 * explosion and the kill-feed line of a bot we shot down).
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, RULES, type GameNotice, type WorldEvent } from '../../../src/shared/game';
import { killCause } from '../../../src/shared/game/killCause';
import { NO_INPUT, STEP_MS } from '../../../src/shared/sim';

describe('killCause', () => {
  it('is the cause of the last hit on that ship in the tick, and undefined without one', () => {
    const events: WorldEvent[] = [
      { type: 'hit', slot: 1, by: 0, cause: 'laser', shield: 0, hull: 12 },
      { type: 'hit', slot: 2, by: 0, cause: 'mine', shield: 0, hull: 50 },
      { type: 'hit', slot: 1, by: 2, cause: 'missile', shield: 0, hull: 40 },
      { type: 'destroyed', slot: 1, killer: 2 },
    ];
    expect(killCause(events, 1)).toBe('missile');
    expect(killCause(events, 2)).toBe('mine');
    expect(killCause(events, 3)).toBeUndefined();
  });
});

describe('ClientGame notices: a computer pilot we shoot down offline', () => {
  it('gives a notice with its slot, our slot as the killer, where it blew up and the weapon (laser)', () => {
    const game = new ClientGame();
    const slot = game.addBot()!;
    // The world is plain data: the bot sits 80 units off our nose, no longer invulnerable.
    const bot = game.curr.ships.find((s) => s.slot === slot)!;
    bot.pos = { x: 0, y: 0, z: -80 };
    bot.invulnerable = 0;
    const notices: GameNotice[] = [];
    for (let t = 0; t < 40 * 20 && notices.length === 0; t++) {
      game.step({ ...NO_INPUT, fire: true }, t * STEP_MS);
      notices.push(...game.takeNotices());
    }
    expect(notices).toEqual([{ type: 'destroyed', slot, killerSlot: game.localSlot, pos: expect.objectContaining({ z: expect.closeTo(-80, 0) }), local: false, cause: 'laser' }]);
    expect(game.curr.scores.find((s) => s.slot === game.localSlot)?.kills).toBe(1);
    expect(RULES.laser.damage).toBeGreaterThan(0);
  });
});
