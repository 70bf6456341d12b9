/**
 * The payload layout of every game event on the wire (events.ts frames them:
 * `[type u8][payload length u16][payload]`): one `struct` per event, whose key
 * order is the byte order, with the checks each field and event must pass;
 * and the events by type code.
 */
import { flagBit, list, position, radius, refine, slot, slotOrNone, smallGameSlot, struct, u16, u32, u8, unitQuat, velocity } from './fields';
import type { Codec } from './fields';
import { chatText, hostText, playerName, systemName, ticketText, wireAddr } from './strings';
import { fail, refuse } from './stream';
import { frameInput } from './frameInputs';
import { LOOK_AUTO, SHIP_COLOURS, SHIP_DESIGNS } from './shipLook';
import { MATCH_PAGES, MATCH_SCORES_PER_PAGE, MAX_BREAKS, MAX_WIRE_GATES, MAX_MOVES, MAX_QUEUE, MAX_SLOTS, MAX_STATE_CHUNKS, SMALL_GAME_SLOTS, STATE_CHUNK_BYTES, WIRE_KILL_CAUSES } from './types';
import type { BreakEntry, LockstepStateEvent, MoveEntry, PlayerEntry, RemoteEvent, RemoteEventType, ScoreEntry, WireStargate } from './types';

/** Wire type code of each remote event (1..10, the order of the RemoteEvent union). */
export const EVENT_CODES = {
  createObject: 1,
  createLaser: 2,
  createMissile: 3,
  createExtra: 4,
  killObject: 5,
  sendText: 6,
  playerName: 7,
  particleObject: 8,
  playerList: 9,
  connectQueue: 10,
  matchState: 14,
  asteroidBreaks: 15,
  lockstepStatus: 16,
  lockstepState: 17,
  controlChange: 18,
  gameMoves: 19,
  movesAck: 20,
  stateDiff: 21,
  stateAck: 22,
  lateControl: 23,
  netgameWelcome: 24,
  playerLook: 25,
  solarSystem: 26,
  jumpTicket: 27,
} as const satisfies Record<RemoteEventType, number>;

type EventOf<K extends RemoteEventType> = Extract<RemoteEvent, { type: K }>;
export type EventBody<K extends RemoteEventType> = Omit<EventOf<K>, 'type'>;

const playerEntry = struct<PlayerEntry>({ slot: smallGameSlot, joined: flagBit, addr: wireAddr, name: playerName });
const scoreEntry = struct<ScoreEntry>({ slot, kills: u16, deaths: u16 });
const breakEntry = struct<BreakEntry>({ id: u32, tick: u32 });
const stargate = struct<WireStargate>({ to: systemName, pos: position });

function duplicateBreak(breaks: readonly BreakEntry[]): string | null {
  const seen = new Set<number>();
  for (const b of breaks) {
    if (seen.has(b.id)) return `asteroid ${b.id} breaks twice`;
    seen.add(b.id);
  }
  return null;
}

function duplicateScore(scores: readonly ScoreEntry[]): string | null {
  const seen = new Set<number>();
  for (const s of scores) {
    if (seen.has(s.slot)) return `slot ${s.slot} appears twice in the scores`;
    seen.add(s.slot);
  }
  return null;
}

const slotMask = refine(u16, (v) => (v >= 1 << SMALL_GAME_SLOTS ? `mask ${v} names slots above ${SMALL_GAME_SLOTS - 1}` : null), 'out-of-range');
/** A 64-bit world hash as 16 lower-case hex digits, 8 bytes on the wire. */
const hash64: Codec<string> = {
  write(s, v) {
    if (typeof v !== 'string' || !/^[0-9a-f]{16}$/.test(v)) refuse(`${String(v)} is not 16 lower-case hex digits`);
    s.u32(parseInt(v.slice(0, 8), 16));
    s.u32(parseInt(v.slice(8), 16));
  },
  read(r) {
    return r.u32().toString(16).padStart(8, '0') + r.u32().toString(16).padStart(8, '0');
  },
};
/** A state chunk's bytes: u16 length (1..STATE_CHUNK_BYTES), then the bytes. */
const chunkBytes: Codec<Uint8Array> = {
  write(s, v) {
    if (!(v instanceof Uint8Array) || v.length === 0 || v.length > STATE_CHUNK_BYTES) refuse(`a state chunk must have 1..${STATE_CHUNK_BYTES} bytes`);
    s.u16(v.length);
    s.bytes(v);
  },
  read(r) {
    const n = r.u16();
    if (n === 0 || n > STATE_CHUNK_BYTES) fail('bad-length');
    return r.bytes(n);
  },
};
function badChunkIndex(c: Omit<LockstepStateEvent, 'type'>): string | null {
  return c.count === 0 || c.count > MAX_STATE_CHUNKS || c.index >= c.count ? `chunk ${c.index} of ${c.count} (1..${MAX_STATE_CHUNKS} chunks)` : null;
}

const moveKind = refine(u8, (v) => (v > 2 ? `move kind ${v} is none of 0 (input), 1 (join), 2 (leave)` : null), 'out-of-range');
const moveEntry = struct<MoveEntry>({ frame: u32, kind: moveKind, slot, input: frameInput });
function badDiffChunk(c: { index: number; count: number }): string | null {
  return c.count === 0 || c.count > MAX_STATE_CHUNKS || c.index >= c.count ? `chunk ${c.index} of ${c.count} (1..${MAX_STATE_CHUNKS} chunks)` : null;
}

/** killObject: id and killerSlot, then (wire v9) the weapon as one byte 1..WIRE_KILL_CAUSES.length when the event names one. */
const killObjectBase = struct({ id: u32, killerSlot: slotOrNone });
const killCause = refine(u8, (v) => (v < 1 || v > WIRE_KILL_CAUSES.length ? `cause ${v} is not 1..${WIRE_KILL_CAUSES.length}` : null), 'out-of-range');
const killObjectBody: Codec<EventBody<'killObject'>> = {
  write(s, v) {
    killObjectBase.write(s, v);
    if (v.cause !== undefined) struct({ cause: killCause }).write(s, { cause: v.cause });
  },
  read(r) {
    const base = killObjectBase.read(r);
    return r.remaining() === 0 ? base : { ...base, cause: killCause.read(r) };
  },
};

/** One part of a ship look: an index of its list (`n` entries) or LOOK_AUTO. */
function lookPart(n: number, what: string): Codec<number> {
  return refine(u8, (v) => (v < n || v === LOOK_AUTO ? null : `${what} ${v} is neither 0..${n - 1} nor ${LOOK_AUTO} (auto)`), 'out-of-range');
}

const matchPhase = refine(u8, (v) => (v > 1 ? `phase ${v} is neither 0 (playing) nor 1 (over)` : null), 'out-of-range');
const matchPage = refine(u8, (v) => (v >= MATCH_PAGES ? `score page ${v} is not 0..${MATCH_PAGES - 1}` : null), 'out-of-range');

/** A matchState's scores must be slots of its page (MATCH_SCORES_PER_PAGE slots from page × that). */
function scoresOutsidePage(m: { page: number; scores: readonly ScoreEntry[] }): string | null {
  const first = m.page * MATCH_SCORES_PER_PAGE;
  const stray = m.scores.find((e) => e.slot < first || e.slot >= first + MATCH_SCORES_PER_PAGE);
  return stray ? `slot ${stray.slot} is not on score page ${m.page} (slots ${first}..${first + MATCH_SCORES_PER_PAGE - 1})` : null;
}

function duplicateSlot(players: readonly PlayerEntry[]): string | null {
  const seen = new Set<number>();
  for (const p of players) {
    if (seen.has(p.slot)) return `slot ${p.slot} appears twice in the player list`;
    seen.add(p.slot);
  }
  return null;
}

/** Payload layout of every event. */
export const BODIES: { readonly [K in RemoteEventType]: Codec<EventBody<K>> } = {
  createObject: struct({ id: u32, kind: u8, pos: position, rot: unitQuat, vel: velocity }),
  createLaser: struct({ id: u32, pos: position, vel: velocity, ttl: u16 }),
  createMissile: struct({ id: u32, pos: position, vel: velocity, targetSlot: slotOrNone, ttl: u16 }),
  createExtra: struct({ id: u32, kind: u8, pos: position }),
  killObject: killObjectBody,
  sendText: struct({ text: chatText }),
  playerName: struct({ name: playerName }),
  playerLook: struct({ design: lookPart(SHIP_DESIGNS.length, 'design'), colour: lookPart(SHIP_COLOURS.length, 'colour') }),
  particleObject: struct({ id: u32, kind: u8, pos: position, radius, ttl: u16 }),
  playerList: struct({ players: refine(list(playerEntry, MAX_SLOTS), duplicateSlot, 'bad-list') }),
  connectQueue: struct({ addrs: list(wireAddr, MAX_QUEUE) }),
  matchState: refine(
    struct({
      round: u16,
      phase: matchPhase,
      killLimit: u16,
      timeLimitS: u32,
      msLeft: u32,
      msPlayed: u32,
      page: matchPage,
      scores: refine(list(scoreEntry, MATCH_SCORES_PER_PAGE), duplicateScore, 'bad-list'),
    }),
    scoresOutsidePage,
    'out-of-range',
  ),
  asteroidBreaks: struct({ round: u16, breaks: refine(list(breakEntry, MAX_BREAKS), duplicateBreak, 'bad-list') }),
  jumpTicket: struct({ host: hostText, port: u16, system: systemName, ticket: ticketText, clockShift: u32 }),
  solarSystem: struct({ name: systemName, seed: u32, asteroids: u16, radius: u16, fields: u8, gates: list(stargate, MAX_WIRE_GATES), placed: flagBit, pos: position, rot: unitQuat, vel: velocity }),
  lockstepStatus: struct({
    frame: u32,
    epoch: u16,
    lead: u8,
    waitingOn: slotMask,
    needState: flagBit,
    checkFrame: u32,
    checkHash: hash64,
  }),
  lockstepState: refine(struct({ epoch: u16, frame: u32, index: u8, count: u8, data: chunkBytes }), badChunkIndex, 'out-of-range'),
  controlChange: struct({ frame: u32, input: frameInput }),
  gameMoves: struct({ serverFrame: u32, controlLead: u8, stamp: u32, end: u32, start: u32, moves: list(moveEntry, MAX_MOVES) }),
  movesAck: struct({ clientFrame: u32, next: u32, stamp: u32 }),
  stateDiff: refine(struct({ base: u32, frame: u32, index: u8, count: u8, data: chunkBytes }), badDiffChunk, 'out-of-range'),
  stateAck: struct({ frame: u32, corrected: flagBit }),
  lateControl: struct({ serverFrame: u32, late: u16, errors: u32 }),
  // A spectator's welcome names no slot (NO_SLOT): it holds the state, and never has a ship.
  netgameWelcome: struct({ slot: slotOrNone, serverFrame: u32, start: u32, controlLead: u8, serverLead: u8 }),
};

export const TYPE_BY_CODE: (RemoteEventType | undefined)[] = [];
for (const [type, code] of Object.entries(EVENT_CODES)) TYPE_BY_CODE[code] = type as RemoteEventType;

