/**
 * Remote events on the wire: `[type u8][payload length u16][payload]`.
 * Type codes 1..10 are the ten game events of the 1998 design in the order of
 * the GameEvent union, 11 is `relayed` (the gameserver's envelope), 12 and 13
 * are free (the `reliable` and `ack` events until wire v10; reliable messages
 * travel in the header's link section since v11, linkSection.ts),
 * 14 `matchState` (wire v5), 15 `asteroidBreaks` (wire v6), 16 `lockstepStatus`
 * (wire v10; `lockstepFrame` from v7 to v9) and 17 `lockstepState` (wire v7), 18..24 the netgame messages (wire v8),
 * 25 `playerLook` (wire v9); 0 ends the list.
 * Each game event payload is one `struct` below, whose key order is the byte
 * order. A `relayed` payload is `[slot u8][u16 length][inner datagram]`,
 * allowed only in Relay packets, and the inner datagram is a GameState
 * without a token or `relayed` events of its own (else `bad-nesting`); it
 * may end its header with a link section (the relayed player's reliable
 * messages, with its relay's ids).
 */
import {
  flagBit,
  list,
  position,
  radius,
  refine,
  slot,
  slotOrNone,
  smallGameSlot,
  struct,
  u16,
  u32,
  u8,
  unitQuat,
  velocity,
} from './fields';
import type { Codec } from './fields';
import { chatText, playerName, wireAddr } from './strings';
import { ByteWriter, fail, Measurer, refuse, WireEncodeError, type Sink } from './stream';
import type { Reader } from './stream';
import { HEADER_SIZE } from './header';
import { linkSectionCodec, packetHeadCodec } from './linkSection';
import { frameInput } from './frameInputs';
import { LOOK_AUTO, SHIP_COLOURS, SHIP_DESIGNS } from './shipLook';
import { MATCH_PAGES, MATCH_SCORES_PER_PAGE, MAX_BREAKS, MAX_DATAGRAM_BYTES, MAX_MOVES, MAX_QUEUE, MAX_SLOTS, MAX_STATE_CHUNKS, PacketType, SMALL_GAME_SLOTS, STATE_CHUNK_BYTES, WIRE_KILL_CAUSES } from './types';
import type { BreakEntry, LockstepStateEvent, MoveEntry, Packet, PacketHeader, PlayerEntry, RelayedEvent, ScoreEntry, RemoteEvent, RemoteEventType } from './types';

/** Bytes in front of every event payload: type u8 + length u16. */
export const EVENT_HEADER_SIZE = 3;
/** The 0 byte that ends the event list. */
export const TERMINATOR_SIZE = 1;
/**
 * Largest payload one event may have: what is left of a datagram after the
 * header, one event header and the terminator (454 bytes). Every valid event
 * is smaller (the largest, a full IPv6 connectQueue, has 321), so any single
 * event always fits in an otherwise empty packet.
 */
export const MAX_EVENT_PAYLOAD = MAX_DATAGRAM_BYTES - HEADER_SIZE - EVENT_HEADER_SIZE - TERMINATOR_SIZE;

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
} as const satisfies Record<RemoteEventType, number>;

/** The event-list terminator in place of a type code. */
export const EVENT_LIST_END = 0;
/** Wire type code of a `relayed` event (gameserver → client, Relay packets only). */
export const RELAYED_EVENT_CODE = 11;
/** Bytes a `relayed` event adds around its inner datagram: event header 3 + slot 1 + inner length 2. */
export const RELAYED_OVERHEAD = EVENT_HEADER_SIZE + 3;

type EventOf<K extends RemoteEventType> = Extract<RemoteEvent, { type: K }>;
type EventBody<K extends RemoteEventType> = Omit<EventOf<K>, 'type'>;

const playerEntry = struct<PlayerEntry>({ slot: smallGameSlot, joined: flagBit, addr: wireAddr, name: playerName });
const scoreEntry = struct<ScoreEntry>({ slot, kills: u16, deaths: u16 });
const breakEntry = struct<BreakEntry>({ id: u32, tick: u32 });

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
const BODIES: { readonly [K in RemoteEventType]: Codec<EventBody<K>> } = {
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
  netgameWelcome: struct({ slot, serverFrame: u32, start: u32, controlLead: u8, serverLead: u8 }),
};

const TYPE_BY_CODE: (RemoteEventType | undefined)[] = [];
for (const [type, code] of Object.entries(EVENT_CODES)) TYPE_BY_CODE[code] = type as RemoteEventType;

/** Rethrows an encode error with `segment` in front of its path. */
function within<T>(segment: string, body: () => T): T {
  try {
    return body();
  } catch (e) {
    throw e instanceof WireEncodeError ? e.within(segment) : e;
  }
}

/**
 * Inner headers encoded once: a gameserver puts each player's newest header
 * (with its ship state) into the Relays of every other player its events or
 * state go to, so the same header would be written N − 1 times. Only a
 * frozen header is kept (the gameserver's seat freezes each newest header
 * with its ship state and vectors, seat.ts), so the bytes kept are the bytes
 * it would write; a new state is a new header, and the old one's bytes go
 * with it.
 */
const encodedHeaders = new WeakMap<PacketHeader, Uint8Array>();

/** Game events encoded once, the same way: only a frozen event is kept (the gameserver freezes each event it relays, forwarder.ts). */
const encodedEvents = new WeakMap<RemoteEvent, Uint8Array>();

/** `header`'s bytes without a link section, from {@link encodedHeaders} (encoded the first time). */
function frozenHeaderBytes(header: PacketHeader): Uint8Array {
  let bytes = encodedHeaders.get(header);
  if (!bytes) {
    const head = { header };
    const m = new Measurer();
    packetHead.write(m, head);
    const w = new ByteWriter(m.size);
    packetHead.write(w, head);
    bytes = w.buf;
    encodedHeaders.set(header, bytes);
  }
  return bytes;
}

function writeInner(s: Sink, p: Packet): void {
  const header = (p.header ?? {}) as Partial<Packet['header']>;
  if (header.type !== PacketType.GameState) throw new WireEncodeError(`a relayed packet must be a GameState, not type ${String(header.type)}`);
  if (header.token !== undefined) throw new WireEncodeError('a relayed packet carries no session token');
  if (p.link === undefined && Object.isFrozen(p.header)) s.bytes(frozenHeaderBytes(p.header));
  else within('header', () => packetHead.write(s, p.link === undefined ? { header: p.header } : { header: p.header, link: p.link }));
  within('events', () => gameEventList.write(s, p.events));
}

/**
 * The datagram inside a `relayed` event: a GameState header without a token,
 * then game events only. Anything else is refused (`bad-nesting`).
 */
const innerPacket: Codec<Packet> = {
  write(s, p) {
    if (typeof p !== 'object' || p === null) throw new WireEncodeError(`${String(p)} is not a packet`);
    writeInner(s, p);
  },
  read(r) {
    const head = packetHead.read(r);
    if (head.header.type !== PacketType.GameState || head.header.token !== undefined) fail('bad-nesting');
    return { ...head, events: gameEventList.read(r) };
  },
};

/** `relayed` payload: the player's slot, then its datagram behind a u16 length; the inner sender slot must equal the slot (`bad-slot`). */
const relayedBody: Codec<Omit<RelayedEvent, 'type'>> = {
  write(s, v) {
    within('slot', () => slot.write(s, v.slot));
    if (v.packet?.header?.senderSlot !== v.slot) {
      throw new WireEncodeError(`packet.header.senderSlot ${String(v.packet?.header?.senderSlot)} is not the relayed slot ${v.slot}`);
    }
    within('packet', () => s.lengthPrefixed(() => innerPacket.write(s, v.packet)));
  },
  read(r) {
    const from = slot.read(r);
    const length = r.u16();
    const packet = r.within(length, () => innerPacket.read(r));
    if (packet.header.senderSlot !== from) fail('bad-slot');
    return { slot: from, packet };
  },
};

/** An event codec that can also read an event whose type byte the caller has already read. */
type EventCodec = Codec<RemoteEvent> & { readCode(r: Reader, code: number): RemoteEvent };

/** One event codec per context: `relayOk` only for Relay packets (a `relayed` code elsewhere fails `bad-nesting`). */
function eventCodec(relayOk: boolean): EventCodec {
  const codec: EventCodec = {
    write(s, ev) {
      // A frozen game event is written once and its bytes kept (a gameserver relays a player's laser to every other player).
      if (Object.isFrozen(ev) && ev.type !== 'relayed') {
        let kept = encodedEvents.get(ev);
        if (!kept) {
          const m = new Measurer();
          codec.write(m, { ...ev });
          const w = new ByteWriter(m.size);
          codec.write(w, { ...ev });
          kept = w.buf;
          encodedEvents.set(ev, kept);
        }
        return s.bytes(kept);
      }
      const type = (ev as { type?: unknown } | null)?.type;
      const code = type === 'relayed' ? RELAYED_EVENT_CODE : typeof type === 'string' ? (EVENT_CODES as Record<string, number | undefined>)[type] : undefined;
      if (code === undefined) throw new WireEncodeError(`${String(type)} is not a remote event type`);
      if (code === RELAYED_EVENT_CODE && !relayOk) throw new WireEncodeError('a relayed event may only travel in a Relay packet, never nested');
      s.u8(code);
      within(`(${ev.type})`, () => {
        const body = (ev.type === 'relayed' ? relayedBody : BODIES[ev.type]) as Codec<RemoteEvent>;
        const length = s.lengthPrefixed(() => body.write(s, ev as never));
        if (length > MAX_EVENT_PAYLOAD) throw new WireEncodeError(`payload is ${length} bytes, more than MAX_EVENT_PAYLOAD (${MAX_EVENT_PAYLOAD})`);
      });
    },
    read: (r) => codec.readCode(r, r.u8()),
    readCode(r, code) {
      if (code === RELAYED_EVENT_CODE) {
        if (!relayOk) fail('bad-nesting');
        const length = r.u16();
        return { type: 'relayed', ...r.within(length, () => relayedBody.read(r)) };
      }
      const type = TYPE_BY_CODE[code];
      if (type === undefined) return fail('unknown-event');
      const length = r.u16();
      const body = r.within(length, () => BODIES[type].read(r));
      return { type, ...body } as RemoteEvent;
    },
  };
  return codec;
}

/**
 * The event list: events in order, then the 0 terminator. Every event takes at
 * least 3 bytes, so reading a hostile list ends within a datagram's length.
 */
function eventListCodec(event: EventCodec): Codec<RemoteEvent[]> {
  return {
    write(s, events) {
      if (!Array.isArray(events)) throw new WireEncodeError(`${String(events)} is not an array of events`);
      events.forEach((ev: RemoteEvent, i) => within(`[${i}]`, () => event.write(s, ev)));
      s.u8(EVENT_LIST_END);
    },
    read(r) {
      const events: RemoteEvent[] = [];
      for (;;) {
        const code = r.u8();
        if (code === EVENT_LIST_END) return events;
        events.push(event.readCode(r, code));
      }
    },
  };
}

/** Any event, `relayed` included: what `eventSize` measures. */
export const remoteEvent: EventCodec = eventCodec(true);
const gameEvent = eventCodec(false);
const gameEventList = eventListCodec(gameEvent);
/** The link section: its messages' events are world events (RELIABLE_EVENT_TYPES), framed as in an event list. */
export const linkSection = linkSectionCodec({ write: (s, ev) => gameEvent.write(s, ev), readCode: (r, code) => gameEvent.readCode(r, code), typeOf: (code) => TYPE_BY_CODE[code] });
/** A header with its link section: a datagram's, and a relayed one's inside a Relay. */
export const packetHead = packetHeadCodec(linkSection);
const relayEventList = eventListCodec(remoteEvent);

/** The event list of a packet of type `type`: only a Relay packet may carry `relayed` events. */
export function eventListFor(type: number): Codec<RemoteEvent[]> {
  return type === PacketType.Relay ? relayEventList : gameEventList;
}
