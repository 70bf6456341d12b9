/**
 * The packet header (wire v13): magic, version, packet type, sender slot,
 * flags and message id (BASE_HEADER_SIZE bytes); then, as the flags say, the
 * game time (bit 3), the sender's ship state (bit 4: the compact state of
 * shipStateCodec.ts, full or partial), a u32 session token
 * or address cookie (bit 1), a lockstep peer's frame inputs (bit 5) and the
 * link section (bit 6: acknowledgements and reliable messages,
 * linkSection.ts), in that order. A game state of a ship carries the time
 * and the state; a lockstep frame the inputs alone (frameInputs.ts).
 */
import { measure, oneOf, slotOrNone, u32 } from './fields';
import { frameInputsSection } from './frameInputs';
import { ALL_PORTIONS, FULL_STATE_SIZE, PORTION_BASE, readState, stateSectionSize, writeState, type StateBase, type StateBases } from './shipStateCodec';
import { fail, refuse, WireEncodeError } from './stream';
import type { Reader, Sink } from './stream';
import { NO_SLOT, PacketType, WIRE_MAGIC, WIRE_VERSION } from './types';
import type { FrameInputs, PacketHeader, ShipState } from './types';

export type { StateBase, StateBases } from './shipStateCodec';

/** Bytes every header takes: magic u16, version u8, type u8, sender slot u8, flags u8, message id u32. */
export const BASE_HEADER_SIZE = 10;
/** Bytes the game time adds (flags bit 3). */
export const TIME_SIZE = 4;
/** Bytes a full ship state adds (flags bit 4; shipStateCodec.ts): portions 1, position 9, orientation 6, velocity 6, spin 6, energy 1, damage 1. A partial one is smaller. */
export const STATE_SIZE = FULL_STATE_SIZE;
/**
 * Bytes of the largest header but for a token: base, game time and a full
 * ship state (a game state of a ship), not counting the event-list terminator.
 */
export const HEADER_SIZE = BASE_HEADER_SIZE + TIME_SIZE + STATE_SIZE;
/** Bytes a session token adds after the fixed header (flags bit 1). */
export const TOKEN_SIZE = 4;

/** Flags byte: bit 0 = the sender is joined. */
export const FLAG_JOINED = 0x01;
/** Flags byte: bit 1 = a u32 session token (or address cookie) ends the header. */
export const FLAG_TOKEN = 0x02;
/** Flags byte: bit 2 = the datagram belongs to a lockstep game (wire v7), so p2p and lockstep games never mix. */
export const FLAG_LOCKSTEP = 0x04;
/** Flags byte: bit 3 = the game time follows the message id (wire v10). */
export const FLAG_TIME = 0x08;
/** Flags byte: bit 4 = the sender's ship state follows (wire v10). */
export const FLAG_STATE = 0x10;
/** Flags byte: bit 5 = a lockstep frame section follows the token (wire v10; only with bit 2, never with bit 4). */
export const FLAG_INPUTS = 0x20;
/** Flags byte: bit 6 = the link section (acknowledgements, reliable messages) ends the header (wire v11). Bit 7 must be 0 (`bad-flags`). */
export const FLAG_LINK = 0x40;
const KNOWN_FLAGS = FLAG_JOINED | FLAG_TOKEN | FLAG_LOCKSTEP | FLAG_TIME | FLAG_STATE | FLAG_INPUTS | FLAG_LINK;
/** Where the flags byte sits: after magic u16, version u8, type u8 and sender slot u8. */
const FLAGS_OFFSET = 5;

const packetType = oneOf(Object.values(PacketType), 'unknown-type', 'a PacketType');

/** Bytes `header` takes on the wire with a full ship state: the base, plus the game time, the ship state, the token and the frame inputs it carries (the link section is the packet's: linkSection.ts). */
export function headerSize(header: PacketHeader): number {
  const fixed = BASE_HEADER_SIZE + (header.gameTime === undefined ? 0 : TIME_SIZE) + (header.state === undefined ? 0 : STATE_SIZE) + (header.token === undefined ? 0 : TOKEN_SIZE);
  return header.inputs === undefined ? fixed : fixed + measure(frameInputsSection, header.inputs);
}

/**
 * Bytes of datagram `data`'s header before its token: the base, the game
 * time and the ship state section (whose size its portions byte says); -1
 * when `data` is too short to say or the portions byte is not one a
 * decoder takes.
 */
function tokenOffset(data: Uint8Array): number {
  const flags = data[FLAGS_OFFSET] as number;
  const at = BASE_HEADER_SIZE + ((flags & FLAG_TIME) !== 0 ? TIME_SIZE : 0);
  if ((flags & FLAG_STATE) === 0) return at;
  if (data.length <= at) return -1;
  const portions = data[at] as number;
  const readable = portions === ALL_PORTIONS || ((portions & ~(ALL_PORTIONS | PORTION_BASE)) === 0 && (portions & PORTION_BASE) !== 0);
  return readable ? at + stateSectionSize(portions) : -1;
}

/**
 * Bytes of the fixed part of datagram `data`'s header: base, game time, ship
 * state and token (the frame and link sections, of their own lengths,
 * follow); -1 when its state section cannot be read (see tokenOffset).
 */
export function fixedHeaderSize(data: Uint8Array): number {
  const at = tokenOffset(data);
  return at < 0 ? -1 : at + (((data[FLAGS_OFFSET] as number) & FLAG_TOKEN) !== 0 ? TOKEN_SIZE : 0);
}

/**
 * The whole header but for the link section's bytes: magic u16 and version
 * u8 first, so foreign datagrams are refused before anything else is read.
 * A decoded header has a `gameTime`, `state`, `token`, `inputs` or
 * `lockstep` key only when its flag was set; a field cut off by the end of
 * the datagram fails `truncated`. `write` sets flags bit 6 when `link` says
 * a link section follows (linkSection.ts writes it).
 */
export const packetHeader = {
  write(s: Sink, h: PacketHeader, link = false, base?: StateBase): void {
    if (typeof h !== 'object' || h === null) refuse(`${String(h)} is not a header`);
    if (typeof h.joined !== 'boolean') refuse(`joined: ${String(h.joined)} is not a boolean`);
    const hasToken = h.token !== undefined;
    const hasTime = h.gameTime !== undefined;
    const hasState = h.state !== undefined;
    const hasInputs = h.inputs !== undefined;
    if (hasInputs && (h.lockstep !== true || hasState)) refuse('frame inputs travel only in a lockstep datagram without a ship state');
    s.u16(WIRE_MAGIC);
    s.u8(WIRE_VERSION);
    writeField('type', () => packetType.write(s, h.type));
    writeField('senderSlot', () => slotOrNone.write(s, h.senderSlot));
    s.u8((h.joined ? FLAG_JOINED : 0) | (hasToken ? FLAG_TOKEN : 0) | (h.lockstep === true ? FLAG_LOCKSTEP : 0) | (hasTime ? FLAG_TIME : 0) | (hasState ? FLAG_STATE : 0) | (hasInputs ? FLAG_INPUTS : 0) | (link ? FLAG_LINK : 0));
    writeField('messageId', () => u32.write(s, h.messageId));
    if (hasTime) writeField('gameTime', () => u32.write(s, h.gameTime as number));
    if (hasState) writeField('state', () => writeState(s, h.state as ShipState, base));
    if (hasToken) writeField('token', () => u32.write(s, h.token as number));
    if (h.inputs !== undefined) writeField('inputs', () => frameInputsSection.write(s, h.inputs as FrameInputs));
  },
};

/** Where the message id (u32) sits: after magic u16, version u8, type u8, sender slot u8 and flags u8. */
const MESSAGE_ID_OFFSET = 6;

/** The message id of datagram `data` (a caller checked it holds at least BASE_HEADER_SIZE bytes). */
export function messageIdOf(data: Uint8Array): number {
  return ((data[MESSAGE_ID_OFFSET] as number) * 0x1000000 + (((data[MESSAGE_ID_OFFSET + 1] as number) << 16) | ((data[MESSAGE_ID_OFFSET + 2] as number) << 8) | (data[MESSAGE_ID_OFFSET + 3] as number))) >>> 0;
}

/** Bytes of a server's own header on a datagram to one client: the base, the game time and the client's token. */
export const SERVER_HEADER_SIZE = BASE_HEADER_SIZE + TIME_SIZE + TOKEN_SIZE;

/**
 * Writes the header of a server's own datagram to one client (no sender
 * slot, not joined, a game time and the client's token, no ship state, no
 * link section) into `buf` at `at`, field by field: the bytes packetHeader
 * writes for the same header, without a closure per field (a gameserver
 * writes one per Relay datagram). Returns SERVER_HEADER_SIZE.
 */
export function writeServerHeader(buf: Uint8Array, type: PacketType, messageId: number, gameTime: number, token: number, at = 0): number {
  if (!Number.isInteger(messageId) || !Number.isInteger(gameTime) || !Number.isInteger(token)) refuse('a server header needs whole numbers');
  buf[at] = WIRE_MAGIC >>> 8;
  buf[at + 1] = WIRE_MAGIC & 0xff;
  buf[at + 2] = WIRE_VERSION;
  buf[at + 3] = type;
  buf[at + 4] = NO_SLOT;
  buf[at + 5] = FLAG_TIME | FLAG_TOKEN;
  putU32(buf, at + 6, messageId);
  putU32(buf, at + 10, gameTime);
  putU32(buf, at + 14, token);
  return SERVER_HEADER_SIZE;
}

function putU32(buf: Uint8Array, at: number, v: number): void {
  buf[at] = v >>> 24;
  buf[at + 1] = (v >>> 16) & 0xff;
  buf[at + 2] = (v >>> 8) & 0xff;
  buf[at + 3] = v & 0xff;
}

/** Reads a header (see packetHeader), completing a partial ship state from `bases`; `link`: flags bit 6 says a link section follows it. */
export function readHeader(r: Reader, bases?: StateBases): { header: PacketHeader; link: boolean } {
  if (r.u16() !== WIRE_MAGIC) fail('bad-magic');
  if (r.u8() !== WIRE_VERSION) fail('bad-version');
  const type = packetType.read(r);
  const senderSlot = slotOrNone.read(r);
  const flags = r.u8();
  if ((flags & ~KNOWN_FLAGS) !== 0) fail('bad-flags');
  const header: PacketHeader = { type, senderSlot, messageId: r.u32(), joined: (flags & FLAG_JOINED) !== 0 };
  if ((flags & FLAG_TIME) !== 0) header.gameTime = r.u32();
  if ((flags & FLAG_STATE) !== 0) header.state = readState(r, header.messageId, bases);
  if ((flags & FLAG_TOKEN) !== 0) header.token = r.u32();
  // A ship state is as of a game time; a ping or pong is its stamp; frame inputs are a lockstep peer's, instead of a ship.
  if ((flags & FLAG_TIME) === 0 && ((flags & FLAG_STATE) !== 0 || type === PacketType.Ping || type === PacketType.Pong)) fail('bad-flags');
  if ((flags & FLAG_INPUTS) !== 0) {
    if ((flags & FLAG_LOCKSTEP) === 0 || (flags & FLAG_STATE) !== 0) fail('bad-flags');
    header.inputs = frameInputsSection.read(r);
  }
  if ((flags & FLAG_LOCKSTEP) !== 0) header.lockstep = true;
  return { header, link: (flags & FLAG_LINK) !== 0 };
}

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
  if (data.length < BASE_HEADER_SIZE + TOKEN_SIZE || wireVersionOf(data) !== WIRE_VERSION) return undefined;
  const flags = data[FLAGS_OFFSET] as number;
  if ((flags & FLAG_TOKEN) === 0) return undefined;
  const at = tokenOffset(data);
  if (at < 0 || data.length < at + TOKEN_SIZE) return undefined;
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
