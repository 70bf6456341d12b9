/**
 * Extras between client games: the match authority (slot 0 here) spawns
 * them and sends them; a player who flies through one takes it at once and
 * claims it; the first claim wins, a later or far-away claim is refused, and
 * a refused claimer gives back what it took.
 */
import { describe, expect, it } from 'vitest';
import { ClientGame, createShip, ExtraClaims, EXTRA_KINDS, kindOf, MATCH_OWNER, RULES, type Extra, type GamePlayer, type GameObject, type World } from '../../../src/shared/game';
import { GameCodeInterface } from '../../../src/shared/net/gameCode';
import { NO_INPUT, STEP_MS } from '../../../src/shared/sim';
import { NO_SLOT, objectId, type RemoteEvent } from '../../../src/shared/wire/types';

const MISSILES = EXTRA_KINDS.indexOf('missiles');

/** A world with ships in slots 1 and 2 (slot 2 far away) and one extra of the match, local id 7. */
function arena(): World {
  const g = new ClientGame();
  const extra: Extra = { kind: 'extra', id: 7, owner: MATCH_OWNER, type: MISSILES, pos: { x: 100, y: 0, z: 0 }, ttl: 999 };
  return { ...g.curr, ships: [createShip(1, { x: 100, y: 5, z: 0 }), createShip(2, { x: -900, y: 0, z: 0 })], objects: [extra] };
}

describe('extra claims at the match authority', () => {
  it('the first claim wins and is answered to everyone; a second claim hears who got it; a claim from afar is refused', () => {
    const claims = new ExtraClaims();
    let world = arena();
    world = claims.onClaim(world, 2, 7); // slot 2 is 1,000 units away
    expect(world.objects).toHaveLength(1);
    world = claims.onClaim(world, 1, 7);
    expect(world.objects).toHaveLength(0);
    claims.onClaim(world, 2, 7);
    expect(claims.takeAnswers()).toEqual([
      { id: 7, winner: NO_SLOT },
      { id: 7, winner: 1 },
      { id: 7, winner: 1 },
    ]);
  });

  it('a refused claimer gives back what it took; a confirmed one keeps it', () => {
    const claims = new ExtraClaims();
    const ship = { ...createShip(1), missiles: 3 + RULES.extras.missilePack };
    const world: World = { ...arena(), ships: [ship] };
    claims.claimed(0, 7, MISSILES);
    claims.claimed(0, 8, MISSILES);
    const refused = claims.onAnswer(world, 0, 7, 2, 1);
    expect(refused.ships[0]!.missiles).toBe(3);
    const kept = claims.onAnswer(refused, 0, 8, 1, 1);
    expect(kept.ships[0]!.missiles).toBe(3);
    // An answer to nothing we claimed changes nothing.
    expect(claims.onAnswer(kept, 0, 9, 2, 1)).toBe(kept);
  });
});

describe('extras between two client games', () => {
  const players: GamePlayer[] = [
    { slot: 0, joined: true, local: false, name: 'alpha' },
    { slot: 1, joined: true, local: false, name: 'bravo' },
  ];
  const as = (slot: number): GamePlayer[] => players.map((p) => ({ ...p, local: p.slot === slot }));

  /** The events `slot`'s game queues for what its tick created, as the network would deliver them. */
  function sent(objects: readonly GameObject[], slot: number, at: number): RemoteEvent[] {
    const q = new GameCodeInterface();
    for (const o of objects) kindOf(o).send(o, q, at);
    return q.takeEvents(slot, at, 10_000, () => 1);
  }

  it('the authority spawns and sends extras; a player takes one, claims it, and the authority confirms it to everyone', () => {
    const alpha = new ClientGame();
    const bravo = new ClientGame();
    alpha.applyPlayers(as(0), 0);
    bravo.applyPlayers(as(1), 1);
    // Alpha's world spawns an extra within a few seconds (one every RULES.extras.spawnEveryTicks).
    let extraEvent: RemoteEvent | undefined;
    for (let t = 0; t < 2 * RULES.extras.spawnEveryTicks && !extraEvent; t++) {
      extraEvent = sent(alpha.step(NO_INPUT, t * STEP_MS).created, 0, t * STEP_MS).find((e) => e.type === 'createExtra');
      bravo.step(NO_INPUT, t * STEP_MS);
    }
    if (extraEvent?.type !== 'createExtra') throw new Error('the authority spawned no extra');
    expect(bravo.step(NO_INPUT, 0).created.some((o) => o.kind === 'extra')).toBe(false); // bravo spawns none
    bravo.applyEvent(0, extraEvent, 0, 0);
    bravo.step(NO_INPUT, 0);
    const mirrored = bravo.curr.objects.find((o) => o.kind === 'extra')!;
    expect(mirrored).toMatchObject({ owner: 0, pos: extraEvent.pos });
    // Bravo's ship flies through it (put there, as its pilot would fly it), and alpha sees bravo there.
    const at = mirrored.pos;
    const ship = bravo.localShip!;
    (bravo.curr.ships as typeof bravo.curr.ships)[bravo.curr.ships.indexOf(ship)] = { ...ship, pos: { x: at.x, y: at.y, z: at.z + 11 }, vel: { x: 0, y: 0, z: -100 } };
    const out = bravo.step({ ...NO_INPUT, thrust: 1 }, 25);
    expect(out.claims).toEqual([{ owner: 0, id: extraEvent.id & 0xffff }]);
    expect(bravo.curr.objects.some((o) => o.kind === 'extra')).toBe(false);
    alpha.applyState(1, { pos: at, rot: ship.rot, vel: { x: 0, y: 0, z: -100 }, angVel: ship.angVel, energy: 100, damage: 0 }, 25, 0);
    alpha.step(NO_INPUT, 50);
    alpha.applyEvent(1, { type: 'killObject', id: objectId(0, extraEvent.id & 0xffff), killerSlot: 1 }, 50, 0);
    expect(alpha.curr.objects.some((o) => o.kind === 'extra' && o.id === (extraEvent.id & 0xffff))).toBe(false);
    expect(alpha.step(NO_INPUT, 75).answers).toEqual([{ id: extraEvent.id & 0xffff, winner: 1 }]);
  });
});

describe('a mine that goes off online', () => {
  it('the victim\'s game reports it, and it vanishes from a third player\'s screen', () => {
    const players3: GamePlayer[] = [0, 1, 2].map((slot) => ({ slot, joined: true, local: false }));
    const as3 = (slot: number): GamePlayer[] => players3.map((p) => ({ ...p, local: p.slot === slot }));
    const bravo = new ClientGame();
    const charlie = new ClientGame();
    bravo.applyPlayers(as3(1), 1);
    charlie.applyPlayers(as3(2), 2);
    // Alpha (slot 0) laid mine 5 where bravo's ship sits, long enough ago that it is armed.
    const at = bravo.localShip!.pos;
    const laid: RemoteEvent = { type: 'createObject', id: objectId(0, 5), kind: 1, pos: at, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } };
    for (const g of [bravo, charlie]) g.applyEvent(0, laid, 0, 2000);
    charlie.step(NO_INPUT, 0);
    expect(charlie.curr.objects.some((o) => o.kind === 'mine' && o.owner === 0)).toBe(true);
    const out = bravo.step(NO_INPUT, 0);
    expect(bravo.curr.objects.some((o) => o.kind === 'mine')).toBe(false);
    expect(out.claims).toEqual([{ owner: 0, id: 5 }]);
    // Bravo's report reaches charlie: the mine is gone there too at its next tick.
    charlie.applyEvent(1, { type: 'killObject', id: objectId(0, 5), killerSlot: 1 }, 25, 0);
    charlie.step(NO_INPUT, 25);
    expect(charlie.curr.objects.some((o) => o.kind === 'mine')).toBe(false);
  });
});
