/**
 * Hand-written wire bytes for the codec tests, independent of the codec:
 * big-endian helpers, a reference header and its bytes, datagram builders.
 */
import { PacketType, type PacketHeader, type WireAddr } from '../../src/shared/wire';

export const be16 = (n: number): number[] => [(n >>> 8) & 0xff, n & 0xff];
export const be32 = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
export const f32 = (x: number): number[] => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, x);
  return [...b];
};
export const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
/** An event on the wire: type, u16 length of `payload`, payload. */
export const ev = (code: number, payload: number[]): number[] => [code, ...be16(payload.length), ...payload];

export const STATE = {
  pos: { x: 1, y: -2, z: 0.5 },
  rot: { x: 0, y: 0, z: 0, w: 1 },
  vel: { x: 0, y: 0, z: -100 },
  angVel: { x: 0.5, y: -1, z: 0 },
  energy: 100,
  damage: 7,
};
export const HEADER: PacketHeader = {
  type: PacketType.GameState,
  senderSlot: 2,
  messageId: 0x01020304,
  gameTime: 0x0a0b0c0d,
  joined: true,
  state: STATE,
};

/** HEADER as the byte table in docs/PROTOCOL.md says it goes on the wire. */
export const HEADER_BYTES = [
  0x53, 0x4c, // magic 'SL'
  0x0f, // version 15
  0x01, // type GameState
  0x02, // sender slot
  0x19, // flags: joined (bit 0), game time (bit 3), ship state (bit 4)
  0x01, 0x02, 0x03, 0x04, // message id
  0x0a, 0x0b, 0x0c, 0x0d, // game time
  0x1f, // portions: position, orientation, velocity, spin, status (a full state, no base)
  0x00, 0x00, 0x08, 0xff, 0xff, 0xf0, 0x00, 0x00, 0x04, // pos 1, -2, 0.5 as i24 eighths: 8, -16, 4
  0xdf, 0xff, 0xbf, 0xff, 0x7f, 0xfe, // rot (0, 0, 0, 1): largest w (index 3), x y z at step 16383 (0), the 0 bit
  0x00, 0x00, 0x00, 0x00, 0xf9, 0xc0, // vel 0, 0, -100 as i16 sixteenths: 0, 0, -1600
  0x01, 0xf4, 0xfc, 0x18, 0x00, 0x00, // angVel 500, -1000, 0 milli-rad/s
  0x64, // energy 100
  0x07, // damage 7
];
/** Field offsets in the header, from the same table. */
export const AT = { magic: 0, version: 2, type: 3, slot: 4, flags: 5, portions: 14, pos: 15, rot: 24, vel: 30, spin: 36, energy: 42, damage: 43, events: 44 };

/** A datagram: the known header, the given events, the terminator. */
export const datagram = (...events: number[][]): Uint8Array => Uint8Array.from([...HEADER_BYTES, ...events.flat(), 0]);
/** The same as a Relay packet (type 11), whose events may be `relayed`. */
export const relay = (...events: number[][]): Uint8Array => Uint8Array.from([...HEADER_BYTES.slice(0, 3), 11, ...HEADER_BYTES.slice(4), ...events.flat(), 0]);
export const patched = (bytes: Uint8Array, at: number, values: number[]): Uint8Array => {
  const copy = bytes.slice();
  copy.set(values, at);
  return copy;
};
export const v4 = (a: number, b: number, c: number, d: number, port: number): number[] => [4, a, b, c, d, ...be16(port)];
export const v6 = (last: number, port: number): number[] => [6, ...new Array<number>(15).fill(0), last, ...be16(port)];
export const addr = (bytes: number[]): WireAddr => Uint8Array.from(bytes);
