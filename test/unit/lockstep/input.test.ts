/**
 * Lockstep inputs travel quantised: what the local simulation steps is what
 * every peer steps, to 1/127 of full deflection, and the wire carries it in
 * six bytes a hostile sender cannot stretch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AXIS_STEPS, frameInputToShip, NEUTRAL_FRAME_INPUT, quantiseInput } from '../../../src/shared/lockstep/input';
import { decodePacket, encodePacket } from '../../../src/shared/wire/codec';
import { NO_SLOT, PacketType, type Packet } from '../../../src/shared/wire/types';
import { NO_TARGET } from '../../../src/shared/sim/types';

const ZERO = { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 0, damage: 0 };

describe('quantised lockstep inputs', () => {
  it('each axis comes back within half a step (1/254) of the pilot\'s value, buttons and target exactly', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: -1, max: 15 }),
        (thrust, yaw, fire, mine, target) => {
          const q = quantiseInput({ thrust, yaw, pitch: 0, roll: 0, fire, mine, target });
          const back = frameInputToShip(q);
          expect(Math.abs(back.thrust - thrust)).toBeLessThanOrEqual(0.5 / AXIS_STEPS + 1e-12);
          expect(Math.abs(back.yaw - yaw)).toBeLessThanOrEqual(0.5 / AXIS_STEPS + 1e-12);
          expect(back.fire).toBe(fire);
          expect(back.mine).toBe(mine);
          expect(back.missile).toBe(false);
          expect(back.target).toBe(target);
          // Stepping what came back gives the same input again: the local game and the peers step one value.
          expect(quantiseInput(back)).toEqual(q);
          // And what a peer decodes is bit for bit what we step (no −0 that the wire would turn into 0).
          const sent: Packet = { header: { type: PacketType.GameState, senderSlot: 0, messageId: 1, gameTime: 0, joined: true, state: ZERO, lockstep: true }, events: [{ type: 'lockstepFrame', frame: 0, epoch: 1, lead: 2, waitingOn: 0, needState: false, checkFrame: 0, checkHash: '0000000000000000', first: 0, inputs: [q] }] };
          const decoded = decodePacket(encodePacket(sent));
          expect(decoded.ok && decoded.packet.events[0]).toEqual(sent.events[0]);
        },
      ),
    );
  });

  it('is symmetric around zero and saturates at full deflection', () => {
    expect(quantiseInput({ thrust: 0.5, yaw: -0.5, pitch: 2, roll: -7, fire: false }).thrust).toBe(64);
    expect(quantiseInput({ thrust: 0.5, yaw: -0.5, pitch: 2, roll: -7, fire: false }).yaw).toBe(-64);
    expect(quantiseInput({ thrust: 0, yaw: 0, pitch: 2, roll: -7, fire: false })).toMatchObject({ pitch: 127, roll: -127 });
    expect(quantiseInput({ thrust: Number.NaN, yaw: 0, pitch: 0, roll: 0, fire: false }).thrust).toBe(0);
    expect(frameInputToShip(NEUTRAL_FRAME_INPUT)).toMatchObject({ thrust: 0, fire: false, target: NO_TARGET });
  });

  it('a frame packet is 27 bytes plus 6 per input, and a hostile −128 axis or a sixth button is refused', () => {
    const packet: Packet = {
      header: { type: PacketType.GameState, senderSlot: 1, messageId: 7, gameTime: 0, joined: true, state: ZERO, lockstep: true },
      events: [{ type: 'lockstepFrame', frame: 81, epoch: 2, lead: 3, waitingOn: 0b101, needState: false, checkFrame: 80, checkHash: '0123456789abcdef', first: 82, inputs: [quantiseInput({ thrust: 1, yaw: -1, pitch: 0, roll: 0, fire: true, target: 2 })] }],
    };
    const bytes = encodePacket(packet);
    // Header 54, event type and length 3, payload 27 + 6, terminator 1.
    expect(bytes.length).toBe(54 + 3 + 27 + 6 + 1);
    expect(bytes[5]).toBe(0x05); // joined + lockstep
    const payload = bytes.subarray(57, 57 + 33);
    expect([...payload.subarray(27)]).toEqual([127, 0x81, 0, 0, 1, 2]);
    expect(decodePacket(bytes)).toEqual({ ok: true, packet });
    const minus128 = bytes.slice();
    minus128[57 + 27] = 0x80;
    expect(decodePacket(minus128)).toEqual({ ok: false, reason: 'out-of-range' });
    const sixthButton = bytes.slice();
    sixthButton[57 + 31] = 0x21;
    expect(decodePacket(sixthButton)).toEqual({ ok: false, reason: 'out-of-range' });
    const noTarget = { ...packet, events: [{ ...packet.events[0], inputs: [{ ...NEUTRAL_FRAME_INPUT }] }] } as Packet;
    expect(encodePacket(noTarget)[57 + 32]).toBe(NO_SLOT);
  });
});
