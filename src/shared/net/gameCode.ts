/**
 * The game-code interface (Parsec's NET_RmEv* functions): game code calls one
 * function per remote event; events queue in the order they happened until
 * the next packet is built, and wait for a later packet when they do not fit.
 * Time-critical creations (lasers, missiles) get their position moved to where
 * the object is at the moment the packet is built.
 *
 * The queue belongs to one game at a time. Its {@link EventScope}, set by the
 * session that drains it, says what it takes: nothing outside a network game
 * (offline practice raises events nobody will ever read), the player's words
 * (chat, name) once connected, and the world's events (creations, kills, the
 * match) only while our ship is in the game. Narrowing the scope drops what
 * it no longer takes, so no event from before a game can reach that game.
 * It takes and gives only the world channel's messages (wire/channels.ts).
 */
import type { Vec3, Quat } from '../sim/types';
import { STEP_MS } from '../sim/types';
import { MAX_DATAGRAM_BYTES } from './packetApi';
import { eventSize, headerSize, TERMINATOR_SIZE, WireEncodeError } from '../wire/codec';
import { NO_SLOT, objectId, objectOwner, type BreakEntry, type Packet, type PacketHeader, type WorldMessage } from '../wire/types';

/** Most events kept waiting; beyond it the oldest non-critical ones are dropped and counted (a stuck link must not grow memory). */
export const MAX_PENDING_EVENTS = 256;

/**
 * What the queue takes now: `none` (no network game: everything raised is
 * dropped), `connected` (chat and names only: we have a slot but our ship is
 * not in the game, or the protocol shares one simulated world and sends no
 * Parsec world events), `joined` (everything).
 */
export type EventScope = 'none' | 'connected' | 'joined';

/** Events that belong to the player rather than the world: they may go out as soon as we are connected. */
const PLAYER_WORDS: ReadonlySet<WorldMessage['type']> = new Set(['sendText', 'playerName']);

/** Whether `scope` takes an event of `type`. */
export function scopeTakes(scope: EventScope, type: WorldMessage['type']): boolean {
  return scope === 'joined' || (scope === 'connected' && PLAYER_WORDS.has(type));
}

interface Pending {
  /** Event; for creations (and `killOwnShip`) the id is still local and gets the owner slot at send time. */
  event: WorldMessage;
  /** The id must be scoped by the sender's slot when the packet is built. */
  scoped: boolean;
  /** Host time the event happened, for the position refresh of moving objects. */
  at: number;
}

/** The ship of a player is object 0 of its slot. */
export const SHIP_LOCAL_ID = 0;

/** Utility (Parsec's NET_FetchOwnersShip): the object id of the ship whose player owns `objectId` — who fired a laser, who dropped a mine. */
export function ownerShipOf(id: number): number {
  return objectId(objectOwner(id), SHIP_LOCAL_ID);
}

/** Utility (Parsec's NET_FetchPlayerName): the name of the player in `slot`, or a neutral label when the slot is empty. */
export function playerNameOf(players: readonly { slot: number; name: string }[], slot: number): string {
  return players.find((p) => p.slot === slot)?.name ?? (slot === NO_SLOT ? 'nobody' : `slot ${slot}`);
}

export class GameCodeInterface {
  private queue: Pending[] = [];
  private dropped = 0;
  private refused = 0;

  /** `scope`: what the queue takes from the start (default everything: a bare queue in a tool; a game's queue starts with `none`). */
  constructor(private current: EventScope = 'joined') {}

  /** What the queue takes now. */
  get scope(): EventScope {
    return this.current;
  }

  /**
   * The session's word on where we are: what is queued and no longer taken
   * is dropped (leaving a game, or the game ending), and from now on only
   * what `scope` takes is queued.
   */
  setScope(scope: EventScope): void {
    if (scope === this.current) return;
    this.current = scope;
    if (this.queue.some((p) => !scopeTakes(scope, p.event.type))) this.queue = this.queue.filter((p) => scopeTakes(scope, p.event.type));
  }

  /** Events raised while the scope did not take them (offline practice, our ship not in the game): never queued. */
  get refusedCount(): number {
    return this.refused;
  }

  /** Events waiting for a packet. */
  get pending(): number {
    return this.queue.length;
  }

  /** Events dropped because the queue was full. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** Forgets everything queued (on disconnect: nobody is left to tell). */
  clear(): void {
    this.queue = [];
  }

  createObject(localId: number, kind: number, pos: Vec3, rot: Quat, vel: Vec3, now: number): void {
    this.push({ type: 'createObject', id: localId, kind, pos, rot, vel }, now);
  }

  createLaser(localId: number, pos: Vec3, vel: Vec3, ttl: number, now: number): void {
    this.push({ type: 'createLaser', id: localId, pos, vel, ttl }, now);
  }

  createMissile(localId: number, pos: Vec3, vel: Vec3, targetSlot: number, ttl: number, now: number): void {
    this.push({ type: 'createMissile', id: localId, pos, vel, targetSlot, ttl }, now);
  }

  createExtra(localId: number, kind: number, pos: Vec3, now: number): void {
    this.push({ type: 'createExtra', id: localId, kind, pos }, now);
  }

  /** `id` is a full (owner-scoped) object id: players may kill others' objects. */
  killObject(id: number, killerSlot: number, now: number): void {
    this.push({ type: 'killObject', id, killerSlot }, now, false);
  }

  /** The local ship was destroyed (its id is object 0 of our slot, known at send time). */
  /** Our ship was destroyed by `killerSlot` (NO_SLOT: nobody), with the weapon's wire code when our game knows it (killCause.ts). */
  killOwnShip(killerSlot: number, now: number, cause?: number): void {
    this.push({ type: 'killObject', id: SHIP_LOCAL_ID, killerSlot, ...(cause === undefined ? {} : { cause }) }, now);
  }

  sendText(text: string, now: number): void {
    this.push({ type: 'sendText', text }, now, false);
  }

  playerName(name: string, now: number): void {
    // A newer name supersedes one still waiting: only the latest matters.
    this.queue = this.queue.filter((p) => p.event.type !== 'playerName');
    this.push({ type: 'playerName', name }, now, false);
  }

  /** The match authority's word on the match (sent reliably); a newer one supersedes one still waiting. */
  matchState(state: Omit<Extract<WorldMessage, { type: 'matchState' }>, 'type'>, now: number): void {
    this.queue = this.queue.filter((p) => p.event.type !== 'matchState');
    this.push({ type: 'matchState', ...state }, now, false);
  }

  /** The arena owner's word on asteroids that broke in match `round` (sent reliably). */
  asteroidBreaks(round: number, breaks: BreakEntry[], now: number): void {
    this.push({ type: 'asteroidBreaks', round, breaks }, now, false);
  }

  particleObject(localId: number, kind: number, pos: Vec3, radius: number, ttl: number, now: number): void {
    this.push({ type: 'particleObject', id: localId, kind, pos, radius, ttl }, now);
  }

  /**
   * Builds the next packet for `header`: queued events from the front, in
   * order, while the packet stays within `maxBytes` (capped at 512). A
   * convenience over {@link takeEvents} for tools and tests; the session
   * takes events with `takeEvents` and its own byte budget. Throws
   * {@link WireEncodeError} when `maxBytes` leaves no room for the header.
   */
  take(header: PacketHeader, ownerSlot: number, now: number, maxBytes: number = MAX_DATAGRAM_BYTES): Packet {
    const base = headerSize(header) + TERMINATOR_SIZE;
    const limit = Math.min(maxBytes, MAX_DATAGRAM_BYTES);
    if (!(limit >= base)) throw new WireEncodeError(`maxBytes ${maxBytes} leaves no room for the ${base}-byte header and terminator`);
    return { header, events: this.takeEvents(ownerSlot, now, limit - base, eventSize) };
  }

  /**
   * The game events for the next packet, within `budget` bytes: queued events
   * from the front, in order, while they fit (`sizeOf` measures each; the
   * session measures each event object once and reuses the size for every
   * target), local object ids scoped by `ownerSlot`, lasers, missiles and mines
   * refreshed to their position at `now`. Stops at the first event that does
   * not fit, so order is kept; the rest wait for a later packet.
   */
  takeEvents(ownerSlot: number, now: number, budget: number, sizeOf: (event: WorldMessage) => number): WorldMessage[] {
    const out: WorldMessage[] = [];
    let room = budget;
    for (const p of this.queue) {
      const event = finalise(p, ownerSlot, now);
      const size = sizeOf(event);
      if (size > room) break;
      room -= size;
      out.push(event);
    }
    this.queue.splice(0, out.length);
    return out;
  }

  /**
   * Takes every queued event that `pick` selects out of the queue, finalised
   * for `ownerSlot` at `now`, in order (the reliable-message layer takes
   * kills, chat and names this way; the rest keep their places).
   */
  takeWhere<E extends WorldMessage>(pick: (event: WorldMessage) => event is E, ownerSlot: number, now: number): E[] {
    const out: E[] = [];
    this.queue = this.queue.filter((p) => {
      const ev = finalise(p, ownerSlot, now);
      if (!pick(ev)) return true;
      out.push(ev);
      return false;
    });
    return out;
  }

  private push(event: WorldMessage, at: number, scoped = true): void {
    if (!scopeTakes(this.current, event.type)) {
      this.refused += 1;
      return;
    }
    if (this.queue.length >= MAX_PENDING_EVENTS) {
      this.queue.shift();
      this.dropped += 1;
    }
    this.queue.push({ event, at, scoped });
  }
}

function finalise({ event, at, scoped }: Pending, slot: number, now: number): WorldMessage {
  switch (event.type) {
    case 'createObject': {
      // A mine drifts: like lasers and missiles it goes out where it is at send time.
      const s = Math.max(0, now - at) / 1000;
      return { ...event, id: objectId(slot, event.id), pos: { x: event.pos.x + event.vel.x * s, y: event.pos.y + event.vel.y * s, z: event.pos.z + event.vel.z * s } };
    }
    case 'createExtra':
    case 'particleObject':
    case 'killObject':
      return scoped ? { ...event, id: objectId(slot, event.id) } : event;
    case 'createLaser':
    case 'createMissile': {
      const dt = Math.max(0, now - at);
      const s = dt / 1000;
      const ticks = Math.round(dt / STEP_MS);
      return {
        ...event,
        id: objectId(slot, event.id),
        pos: { x: event.pos.x + event.vel.x * s, y: event.pos.y + event.vel.y * s, z: event.pos.z + event.vel.z * s },
        ttl: Math.max(1, event.ttl - ticks),
      };
    }
    default:
      return event;
  }
}
