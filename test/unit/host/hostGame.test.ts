import { describe, expect, it } from 'vitest';
import { HostGame } from '../../../src/node/host/hostGame';
import type { NetDelivery } from '../../../src/shared/net/gameLink';
import { shipState } from '../../support/ships';

function game(): { game: HostGame; delivered: NetDelivery[]; clock: { now: number } } {
  const delivered: NetDelivery[] = [];
  const clock = { now: 0 };
  const g = new HostGame({
    playerName: () => 'alpha',
    sendFrequency: () => 20,
    autoJoin: () => true,
    deliver: (d) => void delivered.push(d),
    now: () => clock.now,
  });
  return { game: g, delivered, clock };
}

describe('HostGame and the pages it serves', () => {
  it('ignores a replayed older frame, but takes a reloaded page whose ticks start again from 0', () => {
    const { game: g } = game();
    g.update({ tick: 4000, ship: shipState({ pos: { x: 40, y: 0, z: 0 } }), events: [] });
    g.update({ tick: 3999, ship: shipState({ pos: { x: 39, y: 0, z: 0 } }), events: [] });
    expect(g.localShip()?.pos.x).toBe(40);
    g.pageAttached();
    g.update({ tick: 1, ship: shipState({ pos: { x: 1, y: 0, z: 0 } }), events: [] });
    expect(g.localShip()?.pos.x).toBe(1);
  });

  it('hands a page that attaches the slot table and remote ships delivered before it came', () => {
    const { game: g, delivered, clock } = game();
    const players: NetDelivery = {
      kind: 'players',
      players: [
        { slot: 0, name: 'alpha', joined: true, local: true, address: '127.0.0.1:6526' },
        { slot: 1, name: 'bravo', joined: true, local: false, address: '127.0.0.1:6527' },
      ],
      localSlot: 0,
      status: 'connected as slot 0, 2 players',
    };
    g.deliver(players);
    clock.now = 100;
    g.deliver({ kind: 'state', slot: 1, gameTime: 5, state: shipState(), ageMs: 10 });
    expect(delivered).toHaveLength(2);
    clock.now = 150;
    expect(g.pageAttached()).toEqual([players, { kind: 'state', slot: 1, gameTime: 5, state: shipState(), ageMs: 60 }]);
  });
});
