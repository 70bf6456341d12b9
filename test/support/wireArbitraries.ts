/**
 * fast-check arbitraries for the wire format (v2): every value they produce is valid
 * local data that encodePacket accepts, with the lossy fields already on the
 * wire grid where that keeps comparisons exact (integer energy/damage, f32
 * floats). Also the comparison helper used by round-trip tests.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Quat, Vec3 } from '../../src/shared/sim/types';
import { fillPacket, headerSize, linkSize, MAX_ANGULAR_RATE, MAX_COORD, TERMINATOR_SIZE } from '../../src/shared/wire/codec';
import { MAX_ACK_IDS, MAX_BREAKS, MAX_DATAGRAM_BYTES, MAX_FRAME_INPUTS, MAX_MOVES, MAX_NAME_LENGTH, MAX_QUEUE, MAX_SLOTS, MAX_STATE_CHUNKS, MAX_TEXT_BYTES, MAX_WIRE_GATES, MAX_WIRE_SLOTS, MATCH_PAGES, MATCH_SCORES_PER_PAGE, NO_SLOT, PacketType, SMALL_GAME_SLOTS, STATE_CHUNK_BYTES } from '../../src/shared/wire/types';
import { MAX_WIRE_SPEED, POSITION_STEPS, VELOCITY_STEPS } from '../../src/shared/wire/shipStateCodec';
import type { LinkedMessage, LinkSection, Packet, PacketHeader, PlayerEntry, RemoteEvent, RemoteEventType, ShipState, WireAddr } from '../../src/shared/wire/types';

/** An f32 within ±limit (fc.float yields only f32-representable values). */
export const arbF32 = (limit: number): fc.Arbitrary<number> => fc.float({ min: -limit, max: limit, noNaN: true });

export const arbCoordVec: fc.Arbitrary<Vec3> = fc.record({ x: arbF32(MAX_COORD), y: arbF32(MAX_COORD), z: arbF32(MAX_COORD) });

const unitRange = fc.double({ min: -1, max: 1, noNaN: true });
/** A unit quaternion, spread over the whole sphere (including negative w). */
export const arbQuat: fc.Arbitrary<Quat> = fc
  .tuple(unitRange, unitRange, unitRange, unitRange)
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => {
    const len = Math.hypot(x, y, z, w);
    return { x: x / len, y: y / len, z: z / len, w: w / len };
  });

/** Angular velocity inside the i16 range (rad/s). */
export const arbAngVel: fc.Arbitrary<Vec3> = fc.record({
  x: fc.double({ min: -MAX_ANGULAR_RATE, max: MAX_ANGULAR_RATE, noNaN: true }),
  y: fc.double({ min: -MAX_ANGULAR_RATE, max: MAX_ANGULAR_RATE, noNaN: true }),
  z: fc.double({ min: -MAX_ANGULAR_RATE, max: MAX_ANGULAR_RATE, noNaN: true }),
});

export const arbU8 = fc.integer({ min: 0, max: 0xff });
export const arbU16 = fc.integer({ min: 0, max: 0xffff });
export const arbU32 = fc.integer({ min: 0, max: 0xffffffff });
export const arbSlot = fc.integer({ min: 0, max: MAX_SLOTS - 1 });
export const arbSlotOrNone = fc.oneof(arbSlot, fc.constant(NO_SLOT));
export const arbPercent = fc.integer({ min: 0, max: 100 });

/** A ship's velocity inside the compact state's range (±MAX_WIRE_SPEED units/s). */
export const arbShipVel: fc.Arbitrary<Vec3> = fc.record({ x: arbF32(MAX_WIRE_SPEED), y: arbF32(MAX_WIRE_SPEED), z: arbF32(MAX_WIRE_SPEED) });

export const arbShipState: fc.Arbitrary<ShipState> = fc.record({
  pos: arbCoordVec,
  rot: arbQuat,
  vel: arbShipVel,
  angVel: arbAngVel,
  energy: arbPercent,
  damage: arbPercent,
});

export const arbPacketType = fc.constantFrom(...Object.values(PacketType));

/** A quantised pilot input (lockstep frame sections, netgame control changes). */
const arbAxis = fc.integer({ min: -127, max: 127 });
export const arbFrameInput = fc.record({ thrust: arbAxis, yaw: arbAxis, pitch: arbAxis, roll: arbAxis, buttons: fc.integer({ min: 0, max: 31 }), target: arbSlotOrNone });

export const arbHeader: fc.Arbitrary<PacketHeader> = fc
  .record({
    type: arbPacketType,
    senderSlot: arbSlotOrNone,
    messageId: arbU32,
    gameTime: arbU32,
    joined: fc.boolean(),
    state: arbShipState,
    lockstep: fc.boolean(),
    withTime: fc.boolean(),
    withState: fc.boolean(),
    inputs: fc.option(
      fc.record({ frame: arbU8, firstOffset: fc.integer({ min: -128, max: 127 }), noWorld: fc.boolean(), inputs: fc.array(arbFrameInput, { maxLength: MAX_FRAME_INPUTS }) }),
      { nil: undefined },
    ),
  })
  // A lockstep game's datagrams carry the flag (wire v7); the others have no such key. The game time and the
  // ship state are optional (wire v10), but a state comes with its time and a ping or pong always has its stamp.
  // A lockstep datagram without a ship may carry its sender's frame inputs instead (wire v10).
  .map(({ lockstep, withTime, withState, gameTime, state, inputs, ...h }) => {
    const timed = withTime || withState || h.type === PacketType.Ping || h.type === PacketType.Pong;
    const framed = lockstep && !withState && inputs !== undefined;
    return { ...h, ...(timed ? { gameTime } : {}), ...(withState ? { state } : {}), ...(lockstep ? { lockstep: true as const } : {}), ...(framed ? { inputs } : {}) };
  });

/** A serialised node address: [4][4 bytes][port] or [6][16 bytes][port]. */
export const arbWireAddr: fc.Arbitrary<WireAddr> = fc.oneof(
  fc.uint8Array({ minLength: 6, maxLength: 6 }).map((b) => Uint8Array.of(4, ...b)),
  fc.uint8Array({ minLength: 18, maxLength: 18 }).map((b) => Uint8Array.of(6, ...b)),
);

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
/** 1..MAX_NAME_LENGTH printable ASCII, not starting or ending with a space. */
export const arbName: fc.Arbitrary<string> = fc
  .string({ unit: printable, minLength: 1, maxLength: MAX_NAME_LENGTH })
  .filter((s) => !s.startsWith(' ') && !s.endsWith(' '));

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;
const hasControl = (s: string): boolean => /[\u0000-\u001f\u007f-\u009f]/u.test(s);
/** Chat text: any Unicode (ASCII-heavy), no control characters, at most MAX_TEXT_BYTES UTF-8 bytes. */
export const arbText: fc.Arbitrary<string> = fc
  .oneof(fc.string({ maxLength: MAX_TEXT_BYTES }), fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 40 }))
  .map((s) => s.replace(/[\u0000-\u001f\u007f-\u009f]/gu, '?'))
  .filter((s) => utf8Length(s) <= MAX_TEXT_BYTES && !hasControl(s));

/** A solar system's name: 1..31 of A–Z a–z 0–9 . _ - (galaxyMap.ts). */
export const arbSystemName: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9._-]{1,31}$/);

export const arbPlayerEntry: fc.Arbitrary<PlayerEntry> = fc.record({ slot: arbSlot, addr: arbWireAddr, name: arbName, joined: fc.boolean() });

/** One chunk of a state transfer or difference: its frame, index of count (1..MAX_STATE_CHUNKS) and 1..STATE_CHUNK_BYTES bytes. */
const arbChunk = fc.integer({ min: 1, max: MAX_STATE_CHUNKS }).chain((count) =>
  fc.record({ frame: arbU32, index: fc.integer({ min: 0, max: count - 1 }), count: fc.constant(count), data: fc.uint8Array({ minLength: 1, maxLength: STATE_CHUNK_BYTES }) }),
);

/** One arbitrary per remote event type. */
export const arbEventOf: { [K in RemoteEventType]: fc.Arbitrary<Extract<RemoteEvent, { type: K }>> } = {
  createObject: fc.record({ type: fc.constant('createObject'), id: arbU32, kind: arbU8, pos: arbCoordVec, rot: arbQuat, vel: arbCoordVec }),
  createLaser: fc.record({ type: fc.constant('createLaser'), id: arbU32, pos: arbCoordVec, vel: arbCoordVec, ttl: arbU16 }),
  createMissile: fc.record({ type: fc.constant('createMissile'), id: arbU32, pos: arbCoordVec, vel: arbCoordVec, targetSlot: arbSlotOrNone, ttl: arbU16 }),
  createExtra: fc.record({ type: fc.constant('createExtra'), id: arbU32, kind: arbU8, pos: arbCoordVec }),
  killObject: fc.oneof(
    fc.record({ type: fc.constant('killObject'), id: arbU32, killerSlot: arbSlotOrNone }),
    fc.record({ type: fc.constant('killObject'), id: arbU32, killerSlot: arbSlotOrNone, cause: fc.integer({ min: 1, max: 5 }) }),
  ),
  sendText: fc.record({ type: fc.constant('sendText'), text: arbText }),
  playerName: fc.record({ type: fc.constant('playerName'), name: arbName }),
  playerLook: fc.record({ type: fc.constant('playerLook'), design: fc.constantFrom(0, 1, 2, 0xff), colour: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 0xff) }),
  particleObject: fc.record({
    type: fc.constant('particleObject'),
    id: arbU32,
    kind: arbU8,
    pos: arbCoordVec,
    radius: fc.float({ min: 0, max: MAX_COORD, noNaN: true }),
    ttl: arbU16,
  }),
  playerList: fc.record({
    type: fc.constant('playerList'),
    players: fc.uniqueArray(arbPlayerEntry, { maxLength: MAX_SLOTS, selector: (p) => p.slot }),
  }),
  connectQueue: fc.record({ type: fc.constant('connectQueue'), addrs: fc.array(arbWireAddr, { maxLength: MAX_QUEUE }) }),
  matchState: fc.record({
    type: fc.constant('matchState'),
    round: arbU16,
    phase: fc.integer({ min: 0, max: 1 }),
    killLimit: arbU16,
    timeLimitS: arbU32,
    msLeft: arbU32,
    msPlayed: arbU32,
  }).chain((m) =>
    // Any page, its scores any slots of that page.
    fc.integer({ min: 0, max: MATCH_PAGES - 1 }).chain((page) =>
      fc
        .uniqueArray(fc.record({ slot: fc.integer({ min: page * MATCH_SCORES_PER_PAGE, max: Math.min(MAX_WIRE_SLOTS, (page + 1) * MATCH_SCORES_PER_PAGE) - 1 }), kills: arbU16, deaths: arbU16 }), { maxLength: MATCH_SCORES_PER_PAGE, selector: (s) => s.slot })
        .map((scores) => ({ ...m, page, scores })),
    ),
  ),
  jumpTicket: fc.record({
    type: fc.constant('jumpTicket'),
    host: fc.constantFrom('127.0.0.1', '10.20.30.40', '::1', 'fd00::1:2'),
    port: arbU16,
    system: arbSystemName,
    ticket: fc.stringMatching(/^[A-Za-z0-9_-]{1,120}$/),
    clockShift: arbU32,
  }),
  solarSystem: fc.record({
    type: fc.constant('solarSystem'),
    name: arbSystemName,
    seed: arbU32,
    asteroids: arbU16,
    radius: arbU16,
    fields: arbU8,
    gates: fc.array(fc.record({ to: arbSystemName, pos: arbCoordVec }), { maxLength: MAX_WIRE_GATES }),
    placed: fc.boolean(),
    pos: arbCoordVec,
    rot: arbQuat,
    vel: arbCoordVec,
  }),
  asteroidBreaks: fc.record({
    type: fc.constant('asteroidBreaks'),
    round: arbU16,
    breaks: fc.uniqueArray(fc.record({ id: arbU32, tick: arbU32 }), { maxLength: MAX_BREAKS, selector: (b) => b.id }),
  }),
  lockstepStatus: fc.record({
    type: fc.constant('lockstepStatus'),
    frame: arbU32,
    epoch: arbU16,
    lead: arbU8,
    waitingOn: fc.integer({ min: 0, max: (1 << SMALL_GAME_SLOTS) - 1 }),
    needState: fc.boolean(),
    checkFrame: arbU32,
    checkHash: fc.uint8Array({ minLength: 8, maxLength: 8 }).map((b) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('')),
  }),
  lockstepState: fc.tuple(arbChunk, arbU16).map(([c, epoch]) => ({ type: 'lockstepState' as const, epoch, ...c })),
  controlChange: fc.record({ type: fc.constant('controlChange'), frame: arbU32, input: arbFrameInput }),
  gameMoves: fc.record({
    type: fc.constant('gameMoves'),
    serverFrame: arbU32,
    controlLead: arbU8,
    stamp: arbU32,
    end: arbU32,
    start: arbU32,
    moves: fc.array(fc.record({ frame: arbU32, kind: fc.integer({ min: 0, max: 2 }), slot: arbSlot, input: arbFrameInput }), { maxLength: MAX_MOVES }),
  }),
  movesAck: fc.record({ type: fc.constant('movesAck'), clientFrame: arbU32, next: arbU32, stamp: arbU32 }),
  stateDiff: fc.tuple(arbChunk, arbU32).map(([c, base]) => ({ type: 'stateDiff' as const, base, ...c })),
  stateAck: fc.record({ type: fc.constant('stateAck'), frame: arbU32, corrected: fc.boolean() }),
  lateControl: fc.record({ type: fc.constant('lateControl'), serverFrame: arbU32, late: arbU16, errors: arbU32 }),
  netgameWelcome: fc.record({ type: fc.constant('netgameWelcome'), slot: arbSlot, serverFrame: arbU32, start: arbU32, controlLead: arbU8, serverLead: arbU8 }),
};

export const arbRemoteEvent: fc.Arbitrary<RemoteEvent> = fc.oneof(...Object.values(arbEventOf));

/** A packet that fits in one datagram: a header, maybe a link section (when it fits), plus as many events of a random queue as fillPacket takes. */
export const arbPacket: fc.Arbitrary<Packet> = fc
  .tuple(arbHeader, fc.array(arbRemoteEvent, { maxLength: 12 }), fc.option(fc.constant(null).chain(() => arbLinkSection), { nil: undefined }))
  .map(([header, queue, link]) => {
    const room = link === undefined ? 0 : MAX_DATAGRAM_BYTES - headerSize(header) - TERMINATOR_SIZE - linkSize(link);
    if (link === undefined || room < 0) return fillPacket(header, queue).packet;
    return { ...fillPacket(header, queue, MAX_DATAGRAM_BYTES - linkSize(link)).packet, link };
  });

/** Tolerances of the lossy fields (see codec.ts and shipStateCodec.ts): quaternion components (q or −q: the same rotation), angular rates, a ship state's position and velocity (half a step). */
export const QUAT_TOLERANCE = 1e-4;
export const ANGVEL_TOLERANCE = 0.0005 + 1e-9;
export const POSITION_TOLERANCE = 0.5 / POSITION_STEPS + 1e-9;
export const VELOCITY_TOLERANCE = 0.5 / VELOCITY_STEPS + 1e-9;

type Lossy = { quats: [Quat, string][]; rates: [Vec3, string][]; grid: [Vec3, string, number][] };

/**
 * Copy of a packet for exact comparison: f32 fields rounded through
 * Math.fround, energy/damage rounded, and the lossy rotations/angular rates
 * replaced by a marker and collected for tolerance checks.
 */
function comparable(value: unknown, path: string, lossy: Lossy): unknown {
  if (typeof value === 'number') return Math.fround(value);
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map((v, i) => comparable(v, `${path}[${i}]`, lossy));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const at = `${path}.${k}`;
      // A ship state's position and velocity are on the compact state's grid (shipStateCodec.ts); an event's are f32.
      const gridded = path.endsWith('.state') && (k === 'pos' || k === 'vel');
      if (k === 'rot') lossy.quats.push([v as Quat, at]);
      else if (k === 'angVel') lossy.rates.push([v as Vec3, at]);
      else if (gridded) lossy.grid.push([v as Vec3, at, k === 'pos' ? POSITION_TOLERANCE : VELOCITY_TOLERANCE]);
      else if (k === 'energy' || k === 'damage') out[k] = Math.round(v as number);
      // Integers compare as they are: fround would blur u32 ids above 2^24 (float fields within ±1e6 that
      // happen to be integers are exact in f32 anyway).
      else if (typeof v === 'number' && Number.isInteger(v)) out[k] = v;
      else out[k] = comparable(v, at, lossy);
      if (k === 'rot' || k === 'angVel' || gridded) out[k] = 'lossy';
    }
    return out;
  }
  return value;
}

/**
 * Asserts `actual` (a decoded packet) equals `expected` (what was encoded):
 * exactly for every field once floats go through Math.fround, within
 * QUAT_TOLERANCE per rotation component and ANGVEL_TOLERANCE per rate
 * (after clamping the expected rate to ±MAX_ANGULAR_RATE).
 */
export function expectWireEqual(actual: Packet | RemoteEvent, expected: Packet | RemoteEvent): void {
  const a: Lossy = { quats: [], rates: [], grid: [] };
  const e: Lossy = { quats: [], rates: [], grid: [] };
  expect(comparable(actual, '', a)).toEqual(comparable(expected, '', e));
  e.quats.forEach(([q, at], i) => {
    const got = a.quats[i]![0];
    // q and −q are the same rotation (a compact state sends the one whose largest component is positive).
    const sign = got.x * q.x + got.y * q.y + got.z * q.z + got.w * q.w < 0 ? -1 : 1;
    for (const c of ['x', 'y', 'z', 'w'] as const) {
      expect(Math.abs(sign * got[c] - q[c]), `${at}.${c}: ${got[c]} vs ${q[c]}`).toBeLessThanOrEqual(QUAT_TOLERANCE);
    }
  });
  e.grid.forEach(([v, at, tolerance], i) => {
    const got = a.grid[i]![0];
    for (const c of ['x', 'y', 'z'] as const) {
      expect(Math.abs(got[c] - v[c]), `${at}.${c}: ${got[c]} vs ${v[c]}`).toBeLessThanOrEqual(tolerance);
    }
  });
  e.rates.forEach(([v, at], i) => {
    const got = a.rates[i]![0];
    for (const c of ['x', 'y', 'z'] as const) {
      const want = Math.max(-MAX_ANGULAR_RATE, Math.min(MAX_ANGULAR_RATE, v[c]));
      expect(Math.abs(got[c] - want), `${at}.${c}: ${got[c]} vs ${want}`).toBeLessThanOrEqual(ANGVEL_TOLERANCE);
    }
  });
}

/** A reliable message: an id and one of the events sent reliably (kills, chat, names). */
export const arbLinkedMessage: fc.Arbitrary<LinkedMessage> = fc.record({
  id: arbU16,
  event: fc.oneof(arbEventOf.killObject, arbEventOf.sendText, arbEventOf.playerName),
});

/** An acknowledgement of 1..MAX_ACK_IDS message ids. */
export const arbAcks: fc.Arbitrary<number[]> = fc.array(arbU16, { minLength: 1, maxLength: MAX_ACK_IDS });

/** A link section (wire v11): acknowledgements, reliable messages (1..3) or both, never empty; some with a state acknowledgement (v13) or a relay acknowledgement (v14), some only those. */
export const arbLinkSection: fc.Arbitrary<LinkSection> = fc
  .tuple(
    fc.oneof(
      arbAcks.map((acks): LinkSection => ({ acks })),
      fc.array(arbLinkedMessage, { minLength: 1, maxLength: 3 }).map((messages): LinkSection => ({ messages })),
      fc.tuple(arbAcks, fc.array(arbLinkedMessage, { minLength: 1, maxLength: 3 })).map(([acks, messages]): LinkSection => ({ acks, messages })),
      fc.constant<LinkSection>({}),
    ),
    fc.option(arbU16, { nil: undefined }),
    fc.option(fc.record({ newest: arbU16, mask: arbU32 }), { nil: undefined }),
  )
  .map(([link, stateAck, relayAck]) => ({ ...(stateAck === undefined ? {} : { stateAck }), ...(relayAck === undefined ? {} : { relayAck }), ...link }))
  .filter((link) => link.acks !== undefined || link.messages !== undefined || link.stateAck !== undefined || link.relayAck !== undefined);
