import { describe, expect, it } from 'vitest';
import { HostGame, INPUT_STALE_MS } from '../../../src/node/host/hostGame';
import type { HostEvent } from '../../../src/shared/host/contract';
import type { NetDelivery, PlayerPing } from '../../../src/shared/net/gameLink';
import { NO_INPUT, STEP_MS } from '../../../src/shared/sim';
import type { WorldView } from '../../../src/shared/game';
import { shipState } from '../../support/ships';
import { VirtualClock } from '../../support/virtualClock';

function game(pings?: () => PlayerPing[]) {
  const events: HostEvent[] = [];
  const clock = new VirtualClock();
  const g = new HostGame({
    playerName: () => 'alpha',
    sendFrequency: () => 20,
    autoJoin: () => true,
    convergeMs: () => 200,
    emit: (e) => void events.push(e),
    clock,
    ...(pings ? { pings } : {}),
  });
  const views = (): WorldView[] => events.flatMap((e) => (e.kind === 'world' ? [e.view] : []));
  return { game: g, events, clock, views };
}

const speedOf = (v: WorldView): number => {
  const s = v.ships.find((x) => x.slot === v.localSlot)!;
  return Math.hypot(s.vel.x, s.vel.y, s.vel.z);
};

describe('HostGame and the pages it serves', () => {
  it('runs the game on its own clock and sends every tick to the pages, with or without a page drawing', () => {
    const { game: g, clock, views } = game();
    g.start();
    clock.advance(40 * STEP_MS);
    expect(views().map((v) => v.tick)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(views().at(-1)!.asteroids.length).toBeGreaterThan(0);
    g.stop();
  });

  it("flies on the page's input, and stops steering when the page stops sending (closed, frozen, hidden)", () => {
    const { game: g, clock, views } = game();
    g.start();
    g.setInput({ ...NO_INPUT, thrust: 1 });
    clock.advance(INPUT_STALE_MS);
    const thrusting = speedOf(views().at(-1)!);
    expect(thrusting).toBeGreaterThan(10);
    clock.advance(2000);
    // No input for 2 s: drag slows the ship instead of the last input flying it on.
    expect(speedOf(views().at(-1)!)).toBeLessThan(thrusting);
    g.stop();
  });

  it('hands a page that attaches the slot table delivered before it came; ship states go into the world, not to the page', () => {
    const { game: g, events } = game();
    const players: NetDelivery = {
      kind: 'players',
      players: [
        { slot: 0, name: 'alpha', joined: true, local: true, address: '127.0.0.1:6526' },
        { slot: 1, name: 'bravo', joined: true, local: false, address: '127.0.0.1:6527' },
      ],
      localSlot: 0,
      status: 'connected as slot 0, 2 players',
    };
    g.driver.deliver(players);
    g.driver.deliver({ kind: 'state', slot: 1, gameTime: 5, state: shipState(), ageMs: 10 });
    g.driver.deliver({ kind: 'chat', slot: 1, from: 'bravo', text: 'hi' });
    expect(events.map((e) => (e.kind === 'net' ? e.delivery.kind : e.kind))).toEqual(['players', 'chat']);
    expect(g.pageAttached()).toEqual([players]);
  });

  it("puts the protocol's current round trips into every world view, and none when reading them fails", () => {
    let pings: PlayerPing[] = [{ slot: 2, ms: 31 }, { slot: 1, ms: 4 }];
    const { game: g, clock, views } = game(() => {
      if (pings.length === 0) throw new Error('protocol bug');
      return pings;
    });
    g.start();
    clock.advance(STEP_MS);
    expect(views().at(-1)!.pings).toEqual([{ slot: 1, ms: 4 }, { slot: 2, ms: 31 }]);
    pings = [{ slot: 1, ms: 9 }];
    clock.advance(STEP_MS);
    expect(views().at(-1)!.pings).toEqual([{ slot: 1, ms: 9 }]);
    pings = [];
    clock.advance(2 * STEP_MS);
    expect(views().map((v) => v.tick)).toEqual([1, 2, 3, 4]);
    expect(views().at(-1)!.pings).toEqual([]);
    g.stop();
  });
});
