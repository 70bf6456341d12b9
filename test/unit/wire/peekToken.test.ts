import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePacket, encodePacket } from '../../../src/shared/wire/codec';
import { peekToken } from '../../../src/shared/wire/header';
import { PacketType } from '../../../src/shared/wire/types';
import { arbPacket } from '../../support/wireArbitraries';

describe('peekToken', () => {
  it('reads the token a decoder would read, and undefined when the packet has none', () => {
    fc.assert(
      fc.property(arbPacket, (p) => {
        const bytes = encodePacket(p);
        const decoded = decodePacket(bytes);
        if (!decoded.ok) return;
        expect(peekToken(bytes)).toBe(decoded.packet.header.token);
      }),
      { numRuns: 300 },
    );
  });

  it('is undefined for short, foreign, other-version and token-less bytes', () => {
    expect(peekToken(new Uint8Array(0))).toBeUndefined();
    expect(peekToken(Uint8Array.from([0x53, 0x4c]))).toBeUndefined();
    const withToken = encodePacket({
      header: { type: PacketType.GameState, senderSlot: 0, messageId: 1, gameTime: 0, joined: true, token: 0xdeadbeef, state: { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 } },
      events: [],
    });
    expect(peekToken(withToken)).toBe(0xdeadbeef);
    expect(peekToken(withToken.slice(0, 48))).toBe(0xdeadbeef);
    expect(peekToken(withToken.slice(0, 47))).toBeUndefined();
    const foreign = withToken.slice();
    foreign[0] = 0;
    expect(peekToken(foreign)).toBeUndefined();
    const otherVersion = withToken.slice();
    otherVersion[2] = (otherVersion[2] as number) + 1;
    expect(peekToken(otherVersion)).toBeUndefined();
    const noFlag = withToken.slice();
    noFlag[5] = (noFlag[5] as number) & ~0x02;
    expect(peekToken(noFlag)).toBeUndefined();
  });

  it('finds the token behind a partial ship state, whose portions byte gives the section\'s length (wire v13)', () => {
    const full = encodePacket({
      header: { type: PacketType.GameState, senderSlot: 0, messageId: 9, gameTime: 0, joined: true, token: 0xcafe0001, state: { pos: { x: 1, y: 2, z: 3 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 } },
      events: [],
    });
    // Base 10 + time 4, then [portions 0x21: position and a base][base 1][the position's change, 3 × i16], then the token and the terminator.
    const partial = Uint8Array.from([...full.slice(0, 14), 0x21, 1, 0, 8, 0, 0, 0xff, 0xf8, ...full.slice(44)]);
    expect(peekToken(partial)).toBe(0xcafe0001);
    const unreadable = partial.slice();
    unreadable[14] = 0x0f;
    expect(peekToken(unreadable)).toBeUndefined();
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const t = peekToken(bytes);
        expect(t === undefined || (Number.isInteger(t) && t >= 0 && t <= 0xffffffff)).toBe(true);
      }),
    );
  });
});
