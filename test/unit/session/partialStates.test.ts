/**
 * Partial ship states between p2p players (wire v13, net/stateDeltas.ts) on
 * a memory LAN and a virtual clock: once a peer acknowledges a state, the
 * next ones carry only what changed; a lossy link loses datagrams, never the
 * picture (a partial state always names a base its receiver took), and the
 * receiver sees the ship where the sender has it.
 */
import { describe, expect, it } from 'vitest';
import type { NodeAddress, PacketApi } from '../../../src/shared/net/packetApi';
import type { P2pPeer } from '../../../src/shared/p2p';
import { ALL_PORTIONS, PORTION_BASE, PORTION_POSITION } from '../../../src/shared/wire/shipStateCodec';
import { FLAG_STATE, FLAG_TIME } from '../../../src/shared/wire/codec';
import { PacketType } from '../../../src/shared/wire/types';
import { MemoryNet } from '../../support/memoryNet';
import { flyingShip, p2pNode, runUntil, type TestNode } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

/** Where a game state's portions byte sits: after the 10-byte base and the 4-byte game time. */
const PORTIONS_AT = 14;

/** A packet API whose game states to other nodes are recorded, and every `lossEvery`-th datagram of which is lost. */
function lossy(lossEvery: number, states: number[]) {
  return (api: PacketApi): PacketApi => {
    let n = 0;
    const send = (to: NodeAddress, data: Uint8Array) => {
      n += 1;
      if (data[3] === PacketType.GameState && ((data[5] as number) & (FLAG_STATE | FLAG_TIME)) === (FLAG_STATE | FLAG_TIME)) states.push(data[PORTIONS_AT] as number);
      if (n % lossEvery === 0) return;
      api.send(to, data);
    };
    return new Proxy(api, {
      get: (target, key) => {
        if (key === 'send') return send;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}

describe('partial ship states between peers', () => {
  it('a cruising ship sends only its position once its state is acknowledged; 10 % loss loses no picture; the receiver sees it where it is', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 20);
    const portions: number[] = [];
    const alpha = p2pNode(net, clock, 'alpha', { wrap: lossy(10, portions) });
    const bravo = p2pNode(net, clock, 'bravo', { clockOffset: 700, wrap: lossy(7, []) });
    const nodes: TestNode<P2pPeer>[] = [alpha, bravo];
    clock.setInterval(() => nodes.forEach((n, i) => (n.game.ship = flyingShip(30 * i, clock.now()))), 25);
    for (const n of nodes) n.session.member.connect(n.game.now());
    runUntil(clock, 'both joined', () => nodes.every((n) => n.session.member.players().length === 2 && n.session.member.players().every((p) => p.joined)));
    const slotOfAlpha = alpha.session.member.players().find((p) => p.name === 'alpha')?.slot;

    portions.length = 0;
    const statesBefore = bravo.game.of('state').filter((d) => d.slot === slotOfAlpha).length;
    const sentBefore = alpha.session.shipStatesSent();
    clock.advance(10_000);

    const sent = alpha.session.shipStatesSent();
    const partial = sent.partial - sentBefore.partial;
    const full = sent.full - sentBefore.full;
    const taken = bravo.game.of('state').filter((d) => d.slot === slotOfAlpha);
    const positionOnly = portions.filter((p) => p === (PORTION_BASE | PORTION_POSITION)).length;
    console.log(`partial states: alpha sent ${partial} partial and ${full} full in 10 s at 10 % loss (${positionOnly} of ${portions.length} carried only the position); bravo took ${taken.length - statesBefore}; drops ${JSON.stringify(bravo.session.drops.snapshot())}`);
    // A cruising ship changes only its position: every partial state carries that and its base, nothing else.
    expect(partial).toBeGreaterThan(full);
    expect(portions.every((p) => p === ALL_PORTIONS || p === (PORTION_BASE | PORTION_POSITION))).toBe(true);
    expect(positionOnly).toBe(partial);
    // No partial state ever named a base bravo did not take.
    expect(bravo.session.drops.snapshot()['unknown-base'] ?? 0).toBe(0);
    // Bravo took every state the link carried (it loses one datagram in ten; the send policy sends a cruising ship's state twice a second).
    expect(partial + full).toBeGreaterThanOrEqual(18);
    expect(taken.length - statesBefore).toBeGreaterThanOrEqual(Math.floor((partial + full) * 0.8));
    // Each puts alpha where alpha was (its positions lie on whole units, which the compact state carries exactly).
    for (const d of taken.slice(statesBefore)) {
      expect(d.state.pos.x).toBe(0);
      expect(Number.isInteger(d.state.pos.z)).toBe(true);
      expect(d.state.vel).toEqual({ x: 0, y: 0, z: -40 });
      expect(d.state.rot).toEqual({ x: 0, y: 0, z: 0, w: 1 });
    }
  });
});
