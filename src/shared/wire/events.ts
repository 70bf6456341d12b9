/**
 * The ten remote events on the wire: `[type u8][payload length u16][payload]`.
 * Type codes are 1..10 in the order of the RemoteEvent union; 0 ends the list.
 * Each payload is one `struct` below, whose key order is the byte order.
 */
import { MAX_DATAGRAM_BYTES } from '../net/packetApi';
import {
  flagBit,
  list,
  position,
  radius,
  refine,
  slot,
  slotOrNone,
  struct,
  u16,
  u32,
  u8,
  unitQuat,
  velocity,
} from './fields';
import type { Codec } from './fields';
import { chatText, playerName, wireAddr } from './strings';
import { fail, WireEncodeError } from './stream';
import type { Reader } from './stream';
import { HEADER_SIZE } from './header';
import { MAX_QUEUE, MAX_SLOTS } from './types';
import type { PlayerEntry, RemoteEvent, RemoteEventType } from './types';

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
} as const satisfies Record<RemoteEventType, number>;

/** The event-list terminator in place of a type code. */
export const EVENT_LIST_END = 0;

type EventOf<K extends RemoteEventType> = Extract<RemoteEvent, { type: K }>;
type EventBody<K extends RemoteEventType> = Omit<EventOf<K>, 'type'>;

const playerEntry = struct<PlayerEntry>({ slot, joined: flagBit, addr: wireAddr, name: playerName });

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
  killObject: struct({ id: u32, killerSlot: slotOrNone }),
  sendText: struct({ text: chatText }),
  playerName: struct({ name: playerName }),
  particleObject: struct({ id: u32, kind: u8, pos: position, radius, ttl: u16 }),
  playerList: struct({ players: refine(list(playerEntry, MAX_SLOTS), duplicateSlot, 'bad-list') }),
  connectQueue: struct({ addrs: list(wireAddr, MAX_QUEUE) }),
};

const TYPE_BY_CODE: (RemoteEventType | undefined)[] = [];
for (const [type, code] of Object.entries(EVENT_CODES)) TYPE_BY_CODE[code] = type as RemoteEventType;

function readEvent(r: Reader, code: number): RemoteEvent {
  const type = TYPE_BY_CODE[code];
  if (type === undefined) return fail('unknown-event');
  const length = r.u16();
  const body = r.within(length, () => BODIES[type].read(r));
  return { type, ...body } as RemoteEvent;
}

/** One remote event: type code, u16 payload length, payload. Its size is what `eventSize` reports. */
export const remoteEvent: Codec<RemoteEvent> = {
  write(s, ev) {
    const type = (ev as { type?: unknown } | null)?.type;
    const code = typeof type === 'string' ? (EVENT_CODES as Record<string, number | undefined>)[type] : undefined;
    if (code === undefined) throw new WireEncodeError(`${String(type)} is not a remote event type`);
    s.u8(code);
    try {
      const length = s.lengthPrefixed(() => (BODIES[ev.type] as Codec<RemoteEvent>).write(s, ev));
      if (length > MAX_EVENT_PAYLOAD) throw new WireEncodeError(`payload is ${length} bytes, more than MAX_EVENT_PAYLOAD (${MAX_EVENT_PAYLOAD})`);
    } catch (e) {
      throw e instanceof WireEncodeError ? e.within(`(${ev.type})`) : e;
    }
  },
  read: (r) => readEvent(r, r.u8()),
};

/**
 * The event list: events in order, then the 0 terminator. Every event takes at
 * least 3 bytes, so reading a hostile list ends within a datagram's length.
 */
export const eventList: Codec<RemoteEvent[]> = {
  write(s, events) {
    if (!Array.isArray(events)) throw new WireEncodeError(`${String(events)} is not an array of events`);
    events.forEach((ev: RemoteEvent, i) => {
      try {
        remoteEvent.write(s, ev);
      } catch (e) {
        throw e instanceof WireEncodeError ? e.within(`[${i}]`) : e;
      }
    });
    s.u8(EVENT_LIST_END);
  },
  read(r) {
    const events: RemoteEvent[] = [];
    for (;;) {
      const code = r.u8();
      if (code === EVENT_LIST_END) return events;
      events.push(readEvent(r, code));
    }
  },
};
