/**
 * Remote events on the wire: `[type u8][payload length u16][payload]`.
 * Type codes 1..10 are the ten game events of the 1998 design in the order of
 * the GameEvent union, 11 is `relayed` (the gameserver's envelope), 12 and 13
 * are free (the `reliable` and `ack` events until wire v10; reliable messages
 * travel in the header's link section since v11, linkSection.ts),
 * 14 `matchState` (wire v5), 15 `asteroidBreaks` (wire v6), 16 `lockstepStatus`
 * (wire v10; `lockstepFrame` from v7 to v9) and 17 `lockstepState` (wire v7), 18..24 the netgame messages (wire v8),
 * 25 `playerLook` (wire v9), 26 `solarSystem` and 27 `jumpTicket` (wire v15); 0 ends the list.
 * Each game event payload is one `struct` (eventBodies.ts), whose key order
 * is the byte order. A `relayed` payload is `[slot u8][u16 length][inner datagram]`,
 * allowed only in Relay packets, and the inner datagram is a GameState
 * without a token or `relayed` events of its own (else `bad-nesting`); it
 * may end its header with a link section (the relayed player's reliable
 * messages, with its relay's ids).
 */
import { slot } from './fields';
import type { Codec } from './fields';
import { BODIES, EVENT_CODES, TYPE_BY_CODE } from './eventBodies';
import { ByteWriter, fail, Measurer, WireEncodeError, type Sink } from './stream';
import type { Reader } from './stream';
import { HEADER_SIZE, type StateBases } from './header';
import { linkSectionCodec, packetHeadCodec } from './linkSection';
import { MAX_DATAGRAM_BYTES, MAX_WIRE_SLOTS, PacketType } from './types';
import type { Packet, PacketHeader, RelayedEvent, RemoteEvent } from './types';

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

export { EVENT_CODES };

/** The event-list terminator in place of a type code. */
export const EVENT_LIST_END = 0;
/** Wire type code of a `relayed` event (gameserver → client, Relay packets only). */
export const RELAYED_EVENT_CODE = 11;
/** Bytes a `relayed` event adds around its inner datagram: event header 3 + slot 1 + inner length 2. */
export const RELAYED_OVERHEAD = EVENT_HEADER_SIZE + 3;

/** Rethrows an encode error with `segment` in front of its path. */
function within<T>(segment: string, body: () => T): T {
  try {
    return body();
  } catch (e) {
    throw e instanceof WireEncodeError ? e.within(segment) : e;
  }
}

/** {@link within} for a list's `[i]` or an event's `(type)`: the segment's text is made only when there is an error to name. */
function withinPart<T>(open: '[' | '(', key: string | number, body: () => T): T {
  try {
    return body();
  } catch (e) {
    throw e instanceof WireEncodeError ? e.within(`${open}${String(key)}${open === '[' ? ']' : ')'}`) : e;
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

/** `event`'s bytes from {@link encodedEvents} (a frozen game event; encoded the first time). */
function frozenEventBytes(event: RemoteEvent): Uint8Array {
  let bytes = encodedEvents.get(event);
  if (!bytes) {
    const m = new Measurer();
    gameEvent.write(m, { ...event });
    const w = new ByteWriter(m.size);
    gameEvent.write(w, { ...event });
    bytes = w.buf;
    encodedEvents.set(event, bytes);
  }
  return bytes;
}

/**
 * Writes a `relayed` event whose inner packet is a frozen header (a
 * GameState without a token) and frozen events, with no link section, from
 * their kept bytes: the bytes the codec writes for it, without a closure
 * per field (a gameserver writes one per player per client it relays to).
 * Returns false, writing nothing, for any other: the codec writes those.
 */
function writeKeptRelayed(s: Sink, ev: RelayedEvent): boolean {
  const p = ev.packet;
  const h = p?.header;
  if (typeof p !== 'object' || p === null || p.link !== undefined || !Object.isFrozen(h) || h.type !== PacketType.GameState || h.token !== undefined || h.senderSlot !== ev.slot) return false;
  if (!Number.isInteger(ev.slot) || ev.slot < 0 || ev.slot >= MAX_WIRE_SLOTS || !Array.isArray(p.events)) return false;
  for (const e of p.events) if (!Object.isFrozen(e) || e.type === 'relayed') return false;
  const head = frozenHeaderBytes(h);
  let inner = head.length + TERMINATOR_SIZE;
  for (const e of p.events) inner += frozenEventBytes(e).length;
  const payload = 1 + 2 + inner;
  if (payload > MAX_EVENT_PAYLOAD) return false;
  s.u8(RELAYED_EVENT_CODE);
  s.u16(payload);
  s.u8(ev.slot);
  s.u16(inner);
  s.bytes(head);
  for (const e of p.events) s.bytes(frozenEventBytes(e));
  s.u8(EVENT_LIST_END);
  return true;
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
const innerPacket = {
  write(s: Sink, p: Packet): void {
    if (typeof p !== 'object' || p === null) throw new WireEncodeError(`${String(p)} is not a packet`);
    writeInner(s, p);
  },
  /** Reads the datagram of the player in `slot`, a partial state completed from the bases kept for that player (readingRelays). */
  read(r: Reader, slot: number): Packet {
    const head = packetHead.read(r, relayBases?.relayed?.(slot));
    if (head.header.type !== PacketType.GameState || head.header.token !== undefined) fail('bad-nesting');
    return { ...head, events: gameEventList.read(r) };
  },
};

/** While a Relay's events are read: the bases of the Relay's sender, whose `relayed` has each relayed player's, or none. */
let relayBases: StateBases | undefined;

/**
 * Runs `body` (the reading of a Relay's event list) with `bases`' relayed
 * players' bases at hand for their partial states (decoding is synchronous
 * and a relayed packet holds no Relay, so one at a time is enough).
 */
export function readingRelays<T>(bases: StateBases | undefined, body: () => T): T {
  const before = relayBases;
  relayBases = bases;
  try {
    return body();
  } finally {
    relayBases = before;
  }
}

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
    const packet = r.within(length, () => innerPacket.read(r, from));
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
      // A gameserver's relayed player: its frozen header and events are written from their kept bytes (writeKeptRelayed).
      if (ev.type === 'relayed' && relayOk && writeKeptRelayed(s, ev)) return;
      // A frozen game event is written once and its bytes kept (a gameserver relays a player's laser to every other player).
      if (Object.isFrozen(ev) && ev.type !== 'relayed') return s.bytes(frozenEventBytes(ev));
      const type = (ev as { type?: unknown } | null)?.type;
      const code = type === 'relayed' ? RELAYED_EVENT_CODE : typeof type === 'string' ? (EVENT_CODES as Record<string, number | undefined>)[type] : undefined;
      if (code === undefined) throw new WireEncodeError(`${String(type)} is not a remote event type`);
      if (code === RELAYED_EVENT_CODE && !relayOk) throw new WireEncodeError('a relayed event may only travel in a Relay packet, never nested');
      s.u8(code);
      withinPart('(', ev.type, () => {
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
      for (let i = 0; i < events.length; i++) withinPart('[', i, () => event.write(s, events[i] as RemoteEvent));
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
