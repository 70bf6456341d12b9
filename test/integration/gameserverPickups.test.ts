/**
 * Extras through the gameserver: only the match authority (the lowest seated
 * slot) may spawn them; a claim of one (a reliable killObject of the
 * authority's extra naming the claimer) is passed on when the claimer's ship
 * was near it, and a claim from afar is dropped — the authority never hears
 * it — and struck as `far-pickup`. A report that another player's mine went
 * off under the sender's ship is held to the same rule.
 */
import { describe, expect, it } from 'vitest';
import { objectId, type RemoteEvent } from '../../src/shared/wire/types';
import type { GameClient } from '../support/gameClient';
import { until } from '../support/testHost';
import { useGameservers } from '../support/gameserverFixture';

const { server, players } = useGameservers();

const NEAR = { x: 500, y: 0, z: 0 };
const FAR = { x: -500, y: 0, z: 0 };
const extra = (slot: number, id: number, pos = NEAR): RemoteEvent => ({ type: 'createExtra', id: objectId(slot, id), kind: 2, pos });
const claim = (owner: number, id: number, by: number, n: number): RemoteEvent => ({ type: 'reliable', id: n, event: { type: 'killObject', id: objectId(owner, id), killerSlot: by } });
/** The claims (killObjects of another player's object) relayed to `c`, as reliable messages inside the relayed packets. */
const claimsAt = (c: GameClient) =>
  c.relayed().flatMap((r) => r.packet.events.flatMap((e) => (e.type === 'reliable' && e.event.type === 'killObject' && e.event.id >>> 16 !== r.slot ? [e.event] : [])));

describe('extras through the gameserver', () => {
  it('only the authority spawns them; a claim from afar is dropped and struck, one from close by reaches the authority', async () => {
    const s = await server();
    const [authority, player] = (await players(s, ['owner', 'taker'])) as [GameClient, GameClient];
    expect([authority.slot, player.slot]).toEqual([0, 1]);
    for (const c of [authority, player]) c.hello();
    // The authority spawns extras 5 (beside the player) and 7 (1,000 units from it); the player's own createExtra is not its to send.
    authority.sendState({ x: 0, y: 0, z: 0 }, [extra(0, 5), extra(0, 7, FAR)]);
    player.sendState({ x: 505, y: 0, z: 0 }, [extra(1, 6)]);
    await until('the authority\'s extra reaches the player', () => player.relays().some((r) => r.packet.events.some((e) => e.type === 'relayed' && e.packet.events.some((x) => x.type === 'createExtra'))));
    await until('the player\'s extra is refused', () => (s.stats().eventDrops.foreign ?? 0) >= 1);

    // A claim of the extra 1,000 units away: dropped, struck.
    player.sendState({ x: 505, y: 0, z: 0 }, [claim(0, 7, 1, 1)]);
    await until('the far claim struck', () => (s.stats().strikes['far-pickup'] ?? 0) === 1);
    // From beside the extra: passed on to the authority.
    player.sendState({ x: 505, y: 0, z: 0 }, [claim(0, 5, 1, 2)]);
    await until('the close claim at the authority', () => claimsAt(authority).length > 0);
    const stats = s.stats();
    console.log(`gameserver pickups: strikes ${JSON.stringify(stats.strikes)}, event drops ${JSON.stringify(stats.eventDrops)}`);
    expect(stats.strikes).toEqual({ 'foreign-event': 1, 'far-pickup': 1 });
    expect(stats.eventDrops.farPickup).toBe(1);
    expect(claimsAt(authority)).toEqual([{ type: 'killObject', id: objectId(0, 5), killerSlot: 1 }]);
  });

  it('a mine another player set off is reported from beside it and passed on; a report from afar is dropped and struck', async () => {
    const s = await server();
    const [layer, victim] = (await players(s, ['layer', 'victim'])) as [GameClient, GameClient];
    const mine = (id: number, pos: typeof NEAR): RemoteEvent => ({ type: 'createObject', id: objectId(0, id), kind: 1, pos, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } });
    layer.sendState({ x: 0, y: 0, z: 0 }, [mine(3, NEAR), mine(4, FAR)]);
    await until('the mines reach the victim', () => victim.relayed().some((r) => r.packet.events.filter((e) => e.type === 'createObject').length === 2));
    victim.sendState({ x: 505, y: 0, z: 0 }, [claim(0, 4, 1, 1), claim(0, 3, 1, 2)]);
    await until('the close report at the layer', () => claimsAt(layer).length > 0);
    const stats = s.stats();
    console.log(`gameserver mine reports: strikes ${JSON.stringify(stats.strikes)}, event drops ${JSON.stringify(stats.eventDrops)}`);
    expect(claimsAt(layer)).toEqual([{ type: 'killObject', id: objectId(0, 3), killerSlot: 1 }]);
    expect(stats.strikes).toEqual({ 'far-pickup': 1 });
  });
});
