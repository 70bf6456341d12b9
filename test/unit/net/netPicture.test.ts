import { describe, expect, it } from 'vitest';
import { NetPicture } from '../../../src/shared/net/netPicture';
import type { NetDelivery, NetPlayer } from '../../../src/shared/net/gameLink';
import { shipState } from '../../support/ships';

const player = (slot: number, name: string, over: Partial<NetPlayer> = {}): NetPlayer => ({ slot, name, joined: true, local: false, address: `127.0.0.1:${6526 + slot}`, ...over });
const table = (players: NetPlayer[], localSlot: number | null): NetDelivery => ({ kind: 'players', players, localSlot, status: `connected as slot ${localSlot}, ${players.length} players` });
const state = (slot: number, x: number, ageMs?: number): NetDelivery => ({ kind: 'state', slot, gameTime: 1000, state: shipState({ pos: { x, y: 0, z: 0 } }), ...(ageMs === undefined ? {} : { ageMs }) });

describe('NetPicture', () => {
  it('has nothing to replay before the network delivered a slot table', () => {
    const picture = new NetPicture();
    picture.record(state(1, 5), 0);
    expect(picture.replay(10)).toEqual([]);
  });

  it('replays the latest table, then the latest state of each remote ship, aged to now', () => {
    const picture = new NetPicture();
    picture.record(table([player(0, 'alpha', { local: true })], 0), 0);
    picture.record(table([player(0, 'alpha', { local: true }), player(1, 'bravo')], 0), 100);
    picture.record(state(1, 5, 30), 200);
    picture.record(state(1, 7, 20), 250);
    picture.record({ kind: 'chat', slot: 1, from: 'bravo', text: 'hi' }, 260);
    const replay = picture.replay(400);
    expect(replay).toHaveLength(2);
    expect(replay[0]).toMatchObject({ kind: 'players', localSlot: 0, players: [{ name: 'alpha' }, { name: 'bravo' }] });
    expect(replay[1]).toMatchObject({ kind: 'state', slot: 1, state: { pos: { x: 7 } }, ageMs: 20 + 150 });
  });

  it('a state that had no age (before time sync) replays with the time since it arrived', () => {
    const picture = new NetPicture();
    picture.record(table([player(0, 'alpha', { local: true }), player(1, 'bravo')], 0), 0);
    picture.record(state(1, 5), 100);
    expect(picture.replay(160)[1]).toMatchObject({ ageMs: 60 });
  });

  it('forgets the ship of a slot that left or unjoined, and shows the empty table after a disconnect', () => {
    const picture = new NetPicture();
    picture.record(table([player(0, 'alpha', { local: true }), player(1, 'bravo'), player(2, 'charlie')], 0), 0);
    picture.record(state(1, 5), 10);
    picture.record(state(2, 6), 10);
    picture.record(table([player(0, 'alpha', { local: true }), player(1, 'bravo', { joined: false })], 0), 20);
    expect(picture.replay(30).map((d) => d.kind)).toEqual(['players']);
    picture.record({ kind: 'players', players: [], localSlot: null, status: 'offline' }, 40);
    expect(picture.replay(50)).toEqual([{ kind: 'players', players: [], localSlot: null, status: 'offline' }]);
  });
});
