/**
 * Clients distrust their peers: in a slotserver game (game packets go peer to
 * peer, no server checks them) a cheating client sends ship states that break
 * the simulation's limits straight to an honest player. A little over the top
 * speed is clamped; a jump far beyond it is not shown at all; the honest
 * player's `players` listing counts both. The honest player is the Node
 * session adapter on a memory LAN and a virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { AFTERBURNER_MAX_SPEED as MAX_SPEED } from '../../../src/shared/game/kinds/ship';
import { encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, type ShipState } from '../../../src/shared/wire/types';
import { MemoryNet } from '../../support/memoryNet';
import { nodeSession } from '../../support/nodeSession';
import { VirtualClock } from '../../support/virtualClock';

const state = (z: number, speed: number): ShipState => ({ pos: { x: 0, y: 0, z }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: -speed }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 });

describe('a client distrusts its peers', () => {
  it('clamps a ship a little too fast, hides one far too fast, and says so in players', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 2);
    const end = net.add();
    const cheater = net.add();
    const printed: string[] = [];
    const { session, game, commands, stop } = nodeSession(clock, end, 'honest', (line) => printed.push(line));
    const peer = session.member;
    peer.adopt(0);
    peer.add(1, cheater.encodeNode(cheater.localNode()), 'cheat');
    const players = () => {
      const out: string[] = [];
      commands.get('players')?.run([], { print: (t: string) => out.push(t) } as never);
      return out;
    };

    let id = 1;
    const states = () => game.of('state').filter((d) => d.slot === 1);
    const send = (s: ShipState) => {
      cheater.send(end.localNode(), encodePacket({ header: { type: PacketType.GameState, senderSlot: 1, messageId: id++, gameTime: 0, joined: true, state: s }, events: [] }));
      clock.advance(50);
    };

    send(state(0, 10));
    expect(states()).toHaveLength(1);
    send(state(-1, 2 * MAX_SPEED)); // twice the top speed: mild, clamped
    expect(states()).toHaveLength(2);
    // Fifty times the top speed cannot even be sent (a compact state's velocity stops at ±2,047 units/s):
    // a ship that covers 50 × MAX_SPEED × 1 s in 50 ms is blatant by its travel, not shown.
    send(state(-1 - 50 * MAX_SPEED, MAX_SPEED));
    expect(states()).toHaveLength(2);
    expect(players()).toContain('implausible ship states from other players: 1 clamped, 1 not shown');
    const speeds = states().map((d) => Math.hypot(d.state.vel.x, d.state.vel.y, d.state.vel.z));
    expect(speeds[1]).toBeLessThanOrEqual(MAX_SPEED * 1.02);
    stop();
    expect(clock.pending).toBe(0);
  });
});
