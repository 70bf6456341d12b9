/**
 * Extras through the gameserver: the server owns the arena — it spawns the
 * extras itself (reliable createExtra from no player's slot, to everyone and
 * to each newcomer) and decides every claim of one (a reliable killObject of
 * the server's extra naming the claimer): the first claim from beside it
 * wins and everyone hears who got it; a claim from afar is dropped and struck
 * as `far-pickup`. A player's own extra is refused unless its ship was just
 * destroyed there (a drop). A report that another player's mine went off
 * under the sender's ship is held to the same reach rule.
 */
import { describe, expect, it } from 'vitest';
import { NO_SLOT, objectId, type LinkedMessage, type RemoteEvent } from '../../src/shared/wire/types';
import type { GameClient } from '../support/gameClient';
import { until } from '../support/testHost';
import { useGameservers } from '../support/gameserverFixture';

const { server, players } = useGameservers();

const NEAR = { x: 500, y: 0, z: 0 };
const FAR = { x: -500, y: 0, z: 0 };
const reliable = (n: number, event: RemoteEvent): LinkedMessage => ({ id: n, event: event as never });
const claim = (owner: number, id: number, by: number, n: number): LinkedMessage => reliable(n, { type: 'killObject', id: objectId(owner, id), killerSlot: by });
/** The claims (killObjects of another player's object) relayed to `c`, as reliable messages in the relayed packets' link sections. */
const claimsAt = (c: GameClient) =>
  c.relayed().flatMap((r) => (r.packet.link?.messages ?? []).flatMap((e) => (e.event.type === 'killObject' && e.event.id >>> 16 !== r.slot ? [e.event] : [])));
/** What the server itself said to `c`: reliable messages in the link section of its Relay packets. */
const serverSaid = (c: GameClient) => c.relays().flatMap((r) => (r.packet.link?.messages ?? []).map((e) => e.event));
/** The events relayed to `c` from other players' reliable messages. */
const relayedReliable = (c: GameClient) => c.relayed().flatMap((r) => (r.packet.link?.messages ?? []).map((e) => e.event));

describe('extras through the gameserver', () => {
  it('the server spawns them and decides claims: the first from beside one wins, a claim from afar is struck, a player spawns none but its drops', async () => {
    const s = await server();
    const [alpha, bravo] = (await players(s, ['alpha', 'bravo'])) as [GameClient, GameClient];
    expect([alpha.slot, bravo.slot]).toEqual([0, 1]);
    for (const c of [alpha, bravo]) c.hello();
    // The server's extras reach both players (spawned every 4 s; a newcomer hears those already out).
    const spawned = () => serverSaid(bravo).flatMap((e) => (e.type === 'createExtra' ? [e] : []));
    await until('a server extra reaches bravo', () => spawned().length > 0 && serverSaid(alpha).some((e) => e.type === 'createExtra'));
    const x = spawned()[0]!;
    expect(x.id >>> 16).toBe(NO_SLOT);
    const beside = { x: x.pos.x + 5, y: x.pos.y, z: x.pos.z };

    // Alpha claims it from 1,000 units away: dropped, struck. Bravo, beside it, gets it; alpha's later claim hears bravo won.
    alpha.sendState({ x: x.pos.x + 1000, y: x.pos.y, z: x.pos.z }, [], { messages: [reliable(1, { type: 'killObject', id: x.id, killerSlot: 0 })] });
    await until('the far claim struck', () => (s.stats().strikes['far-pickup'] ?? 0) === 1);
    bravo.sendState(beside, [], { messages: [reliable(1, { type: 'killObject', id: x.id, killerSlot: 1 })] });
    const answers = (c: GameClient) => serverSaid(c).filter((e) => e.type === 'killObject' && e.id === x.id);
    await until('everyone hears bravo got it', () => answers(alpha).length > 0 && answers(bravo).length > 0);
    expect(answers(alpha)).toEqual([{ type: 'killObject', id: x.id, killerSlot: 1 }]);
    alpha.sendState(beside, [], { messages: [reliable(2, { type: 'killObject', id: x.id, killerSlot: 0 })] });
    await until('alpha hears it came too late', () => answers(alpha).length === 2);
    expect(answers(alpha)[1]).toEqual({ type: 'killObject', id: x.id, killerSlot: 1 });
    // No claim of the server's extras is relayed to a player.
    expect(claimsAt(alpha).concat(claimsAt(bravo)).filter((e) => e.id === x.id)).toEqual([]);

    // A player's own extra: refused (an unreliable one, or a reliable one without a death); a drop where its ship was destroyed is passed on.
    bravo.sendState(NEAR, [{ type: 'createExtra', id: objectId(1, 6), kind: 2, pos: NEAR }], { messages: [reliable(2, { type: 'createExtra', id: objectId(1, 7), kind: 2, pos: NEAR })] });
    await until('both of bravo\'s extras refused', () => (s.stats().eventDrops.foreign ?? 0) >= 2);
    bravo.sendState(NEAR, [], { messages: [reliable(3, { type: 'killObject', id: objectId(1, 0), killerSlot: NO_SLOT }), reliable(4, { type: 'createExtra', id: objectId(1, 8), kind: 2, pos: NEAR })] });
    await until('the drop reaches alpha', () => relayedReliable(alpha).some((e) => e.type === 'createExtra'));
    expect(relayedReliable(alpha).filter((e) => e.type === 'createExtra')).toEqual([{ type: 'createExtra', id: objectId(1, 8), kind: 2, pos: NEAR }]);
    const stats = s.stats();
    console.log(`gameserver pickups: strikes ${JSON.stringify(stats.strikes)}, event drops ${JSON.stringify(stats.eventDrops)}`);
    expect(stats.eventDrops.farPickup).toBe(1);
    expect(stats.strikes['far-pickup']).toBe(1);
  });

  it('a mine another player set off is reported from beside it and passed on; a report from afar is dropped and struck', async () => {
    const s = await server();
    const [layer, victim] = (await players(s, ['layer', 'victim'])) as [GameClient, GameClient];
    const mine = (id: number, pos: typeof NEAR): RemoteEvent => ({ type: 'createObject', id: objectId(0, id), kind: 1, pos, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } });
    layer.sendState({ x: 0, y: 0, z: 0 }, [mine(3, NEAR), mine(4, FAR)]);
    await until('the mines reach the victim', () => victim.relayed().some((r) => r.packet.events.filter((e) => e.type === 'createObject').length === 2));
    victim.sendState({ x: 505, y: 0, z: 0 }, [], { messages: [claim(0, 4, 1, 1), claim(0, 3, 1, 2)] });
    await until('the close report at the layer', () => claimsAt(layer).length > 0);
    const stats = s.stats();
    console.log(`gameserver mine reports: strikes ${JSON.stringify(stats.strikes)}, event drops ${JSON.stringify(stats.eventDrops)}`);
    expect(claimsAt(layer)).toEqual([{ type: 'killObject', id: objectId(0, 3), killerSlot: 1 }]);
    expect(stats.strikes).toEqual({ 'far-pickup': 1 });
  });
});
