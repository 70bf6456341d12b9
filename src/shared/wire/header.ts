/**
 * The fixed packet header: magic, version, packet type, sender slot, flags,
 * message id, game time, then the sender's ship state. Always HEADER_SIZE bytes.
 */
import { angularRate, flagBit, oneOf, percent, position, slotOrNone, struct, u32, unitQuat, velocity } from './fields';
import type { Codec } from './fields';
import { fail } from './stream';
import { PacketType, WIRE_MAGIC, WIRE_VERSION } from './types';
import type { PacketHeader, ShipState } from './types';

/**
 * Bytes of the fixed header including the ship state, not counting the
 * event-list terminator: 2+1+1+1+1+4+4 (prefix) + 12+8+12+6+1+1 (ship state).
 */
export const HEADER_SIZE = 54;

/** Ship state: pos 3×f32, rot 4×i16, vel 3×f32, angVel 3×i16, energy u8, damage u8 (40 bytes). */
export const shipState = struct<ShipState>({
  pos: position,
  rot: unitQuat,
  vel: velocity,
  angVel: angularRate,
  energy: percent,
  damage: percent,
});

const packetType = oneOf(Object.values(PacketType), 'unknown-type', 'a PacketType');

// Key order is byte order: type, sender slot, flags (bit 0 = joined), message id, game time, ship state.
const headerFields = struct<PacketHeader>({
  type: packetType,
  senderSlot: slotOrNone,
  joined: flagBit,
  messageId: u32,
  gameTime: u32,
  state: shipState,
});

/** The whole header: magic u16 and version u8 first, so foreign datagrams are refused before anything else is read. */
export const packetHeader: Codec<PacketHeader> = {
  write(s, h) {
    s.u16(WIRE_MAGIC);
    s.u8(WIRE_VERSION);
    headerFields.write(s, h);
  },
  read(r) {
    if (r.u16() !== WIRE_MAGIC) fail('bad-magic');
    if (r.u8() !== WIRE_VERSION) fail('bad-version');
    return headerFields.read(r);
  },
};
