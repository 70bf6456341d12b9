/**
 * Lockstep inputs travel quantised: what the local simulation steps is what
 * every peer steps, to 1/127 of full deflection, and the wire carries it in
 * the frame section of the header (wire v10): a mask byte and the fields that
 * changed since the input before, which a hostile sender cannot stretch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AXIS_STEPS, frameInputToShip, NEUTRAL_FRAME_INPUT, quantiseInput } from '../../../src/shared/lockstep/input';
import { decodePacket, encodePacket } from '../../../src/shared/wire/codec';
import { NO_SLOT, PacketType, type Packet } from '../../../src/shared/wire/types';
import { NO_TARGET } from '../../../src/shared/sim/types';

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
          const sent: Packet = { header: { type: PacketType.GameState, senderSlot: 0, messageId: 1, joined: true, lockstep: true, inputs: { frame: 0, firstOffset: 0, noWorld: false, inputs: [q, q] } }, events: [] };
          const decoded = decodePacket(encodePacket(sent));
          expect(decoded.ok && decoded.packet.header.inputs).toEqual(sent.header.inputs);
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

  it('a frame datagram is the 10-byte header, 3 bytes of frame section and a mask byte per input with only the changed fields; a hostile −128 axis, a sixth button or a seventh field is refused', () => {
    const fire = quantiseInput({ thrust: 1, yaw: -1, pitch: 0, roll: 0, fire: true, target: 2 });
    const packet: Packet = {
      header: { type: PacketType.GameState, senderSlot: 1, messageId: 7, joined: true, lockstep: true, inputs: { frame: 81, firstOffset: -1, noWorld: false, inputs: [fire, fire, { ...fire, thrust: 0 }] } },
      events: [],
    };
    const bytes = encodePacket(packet);
    // Header 10 (flags: joined, lockstep, frame section), section: frame 81, offset −1, count 3; inputs: all but
    // pitch and roll against the neutral input (mask 0b110011), then nothing, then the thrust alone; terminator.
    expect([...bytes]).toEqual([0x53, 0x4c, 0x0f, PacketType.GameState, 1, 0x25, 0, 0, 0, 7, 81, 0xff, 3, 0b110011, 127, 0x81, 1, 2, 0, 0b1, 0, 0]);
    expect(decodePacket(bytes)).toEqual({ ok: true, packet });
    const at = 14; // the first input's fields
    const minus128 = bytes.slice();
    minus128[at] = 0x80;
    expect(decodePacket(minus128)).toEqual({ ok: false, reason: 'out-of-range' });
    const sixthButton = bytes.slice();
    sixthButton[at + 2] = 0x21;
    expect(decodePacket(sixthButton)).toEqual({ ok: false, reason: 'out-of-range' });
    const seventhField = bytes.slice();
    seventhField[at - 1] = 0b1110011;
    expect(decodePacket(seventhField)).toEqual({ ok: false, reason: 'bad-flags' });
    const noTarget = encodePacket({ ...packet, header: { ...packet.header, inputs: { frame: 81, firstOffset: 0, noWorld: true, inputs: [{ ...NEUTRAL_FRAME_INPUT }] } } });
    expect([...noTarget.subarray(10)]).toEqual([81, 0, 0x41, 0, 0]);
    expect(NEUTRAL_FRAME_INPUT.target).toBe(NO_SLOT);
  });
});
