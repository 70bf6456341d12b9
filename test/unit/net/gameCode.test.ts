import { describe, expect, it } from 'vitest';
import { GameCodeInterface, MAX_PENDING_EVENTS, ownerShipOf, playerNameOf } from '../../../src/shared/net/gameCode';
import { decodePacket, encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, objectId, type PacketHeader } from '../../../src/shared/wire/types';

const header = (): PacketHeader => ({
  type: PacketType.GameState,
  senderSlot: 2,
  messageId: 1,
  gameTime: 0,
  joined: true,
  state: { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 },
});
const v = (x: number, y = 0, z = 0) => ({ x, y, z });

describe('game-code interface', () => {
  it('keeps events in the order they happened and scopes object ids by slot', () => {
    const g = new GameCodeInterface();
    g.createLaser(7, v(0), v(0, 0, -600), 40, 0);
    g.sendText('hi', 0);
    g.killOwnShip(1, 0);
    const packet = g.take(header(), 2, 0);
    expect(packet.events.map((e) => e.type)).toEqual(['createLaser', 'sendText', 'killObject']);
    expect(packet.events[0]).toMatchObject({ id: objectId(2, 7) });
    expect(packet.events[2]).toEqual({ type: 'killObject', id: objectId(2, 0), killerSlot: 1 });
    expect(g.pending).toBe(0);
  });

  it('moves a laser to where it is when the packet is built, and shortens its life', () => {
    const g = new GameCodeInterface();
    g.createLaser(1, v(10), v(600), 40, 1000);
    const [laser] = g.take(header(), 0, 1050).events;
    expect(laser).toMatchObject({ type: 'createLaser', pos: { x: 40, y: 0, z: 0 }, ttl: 38 });
  });

  it('events that do not fit wait for the next packet; none is lost', () => {
    const g = new GameCodeInterface();
    for (let i = 0; i < 60; i++) g.sendText(`message number ${i} `.padEnd(100, '.'), 0);
    const seen: string[] = [];
    for (let n = 0; n < 30 && g.pending > 0; n++) {
      const packet = g.take(header(), 0, 0);
      const bytes = encodePacket(packet);
      expect(bytes.length).toBeLessThanOrEqual(512);
      const back = decodePacket(bytes);
      expect(back.ok).toBe(true);
      for (const e of packet.events) if (e.type === 'sendText') seen.push(e.text);
    }
    expect(seen).toHaveLength(60);
    expect(seen[59]).toMatch(/^message number 59 /);
  });

  it('a newer name replaces one still waiting', () => {
    const g = new GameCodeInterface();
    g.playerName('goose', 0);
    g.playerName('maverick', 0);
    expect(g.take(header(), 0, 0).events).toEqual([{ type: 'playerName', name: 'maverick' }]);
  });

  it('a stuck queue is bounded: the oldest events give way and are counted', () => {
    const g = new GameCodeInterface();
    for (let i = 0; i < MAX_PENDING_EVENTS + 10; i++) g.createLaser(i, v(0), v(1), 40, 0);
    expect(g.pending).toBe(MAX_PENDING_EVENTS);
    expect(g.droppedCount).toBe(10);
  });

  it('utilities find the owner ship of an object and a player name by slot', () => {
    expect(ownerShipOf(objectId(3, 1234))).toBe(objectId(3, 0));
    const players = [{ slot: 0, name: 'alpha' }, { slot: 2, name: 'charlie' }];
    expect(playerNameOf(players, 2)).toBe('charlie');
    expect(playerNameOf(players, 1)).toBe('slot 1');
    expect(playerNameOf(players, 255)).toBe('nobody');
  });
});
