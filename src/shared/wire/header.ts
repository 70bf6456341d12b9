/**
 * The packet header: magic, version, packet type, sender slot, flags,
 * message id, game time, the sender's ship state (HEADER_SIZE bytes), then,
 * when flags bit 1 is set, a u32 gameserver session token (TOKEN_SIZE bytes).
 */
import { angularRate, oneOf, percent, position, slotOrNone, struct, u32, unitQuat, velocity } from './fields';
import type { Codec } from './fields';
import { fail, refuse, WireEncodeError } from './stream';
import { PacketType, WIRE_MAGIC, WIRE_VERSION } from './types';
import type { PacketHeader, ShipState } from './types';

/**
 * Bytes of the fixed header including the ship state, not counting a token
 * or the event-list terminator: 2+1+1+1+1+4+4 (prefix) + 12+8+12+6+1+1 (ship state).
 */
export const HEADER_SIZE = 54;
/** Bytes a session token adds after the fixed header (flags bit 1). */
export const TOKEN_SIZE = 4;

/** Flags byte: bit 0 = the sender is joined. */
export const FLAG_JOINED = 0x01;
/** Flags byte: bit 1 = a u32 session token follows the ship state. */
export const FLAG_TOKEN = 0x02;
/** Flags byte: bit 2 = the datagram belongs to a lockstep game (wire v7), so p2p and lockstep games never mix. Bits 3..7 must be 0 (`bad-flags`). */
export const FLAG_LOCKSTEP = 0x04;
/** Where the flags byte sits: after magic u16, version u8, type u8 and sender slot u8. */
const FLAGS_OFFSET = 5;

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

/** Message id and game time, in that order (byte order). */
const counters = struct<Pick<PacketHeader, 'messageId' | 'gameTime'>>({ messageId: u32, gameTime: u32 });

/** Bytes `header` takes on the wire: HEADER_SIZE, plus TOKEN_SIZE when it carries a token. */
export function headerSize(header: PacketHeader): number {
  return header.token === undefined ? HEADER_SIZE : HEADER_SIZE + TOKEN_SIZE;
}

/**
 * The whole header: magic u16 and version u8 first, so foreign datagrams are
 * refused before anything else is read. A decoded header has a `token` key
 * only when flags bit 1 was set; a token cut off by the end of the datagram
 * fails `truncated`.
 */
export const packetHeader: Codec<PacketHeader> = {
  write(s, h) {
    if (typeof h !== 'object' || h === null) refuse(`${String(h)} is not a header`);
    if (typeof h.joined !== 'boolean') refuse(`joined: ${String(h.joined)} is not a boolean`);
    const hasToken = h.token !== undefined;
    s.u16(WIRE_MAGIC);
    s.u8(WIRE_VERSION);
    writeField('type', () => packetType.write(s, h.type));
    writeField('senderSlot', () => slotOrNone.write(s, h.senderSlot));
    s.u8((h.joined ? FLAG_JOINED : 0) | (hasToken ? FLAG_TOKEN : 0) | (h.lockstep === true ? FLAG_LOCKSTEP : 0));
    counters.write(s, h);
    writeField('state', () => shipState.write(s, h.state));
    if (hasToken) writeField('token', () => u32.write(s, h.token as number));
  },
  read(r) {
    if (r.u16() !== WIRE_MAGIC) fail('bad-magic');
    if (r.u8() !== WIRE_VERSION) fail('bad-version');
    const type = packetType.read(r);
    const senderSlot = slotOrNone.read(r);
    const flags = r.u8();
    if ((flags & ~(FLAG_JOINED | FLAG_TOKEN | FLAG_LOCKSTEP)) !== 0) fail('bad-flags');
    const { messageId, gameTime } = counters.read(r);
    const state = shipState.read(r);
    const header: PacketHeader = { type, senderSlot, messageId, gameTime, joined: (flags & FLAG_JOINED) !== 0, state };
    if ((flags & FLAG_TOKEN) !== 0) header.token = r.u32();
    if ((flags & FLAG_LOCKSTEP) !== 0) header.lockstep = true;
    return header;
  },
};

/**
 * The wire-format version a Starlane game datagram says it speaks: its
 * third byte, when the first two are the magic; null for anything else
 * (too short, not Starlane). Lets a receiver say which version a peer it
 * cannot decode runs (decodePacket only says `bad-version`).
 */
export function wireVersionOf(data: Uint8Array): number | null {
  if (data.length < 3 || ((data[0] as number) << 8 | (data[1] as number)) !== WIRE_MAGIC) return null;
  return data[2] as number;
}

/**
 * The session token a game datagram carries, read straight from its bytes
 * without decoding: the u32 after the fixed header when the magic, version
 * and flags bit 1 say one is there; undefined for anything else (too short,
 * not Starlane, another version, no token). Never throws. Lets a receiver
 * tell a joined player's datagrams from forgeries on its address before it
 * spends anything on them; a full decode still checks everything else.
 */
export function peekToken(data: Uint8Array): number | undefined {
  if (data.length < HEADER_SIZE + TOKEN_SIZE || wireVersionOf(data) !== WIRE_VERSION) return undefined;
  if (((data[FLAGS_OFFSET] as number) & FLAG_TOKEN) === 0) return undefined;
  const at = HEADER_SIZE;
  return (((data[at] as number) << 24) | ((data[at + 1] as number) << 16) | ((data[at + 2] as number) << 8) | (data[at + 3] as number)) >>> 0;
}

/** Runs one field's writer, prefixing the field name to an encode error's path. */
function writeField(key: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    throw e instanceof WireEncodeError ? e.within(key) : e;
  }
}
