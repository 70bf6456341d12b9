/**
 * What the gameserver forwards to whom (Parsec §2.3.3): the distance filter
 * between players, the priority of each remote event, which events reach
 * every player whatever the distance, and which a client may not send at all.
 * Pure functions of plain data.
 */
import type { Vec3 } from '../../shared/sim/types';
import { objectOwner, type RemoteEvent } from '../../shared/wire/types';

/**
 * Send priority of a forwarded event, lowest number first: 0 time-critical
 * (lasers, missiles: useless when late), 1 world changes (kills, objects,
 * extras, particles), 2 talk (chat, names: may wait for a later tick).
 */
export type Tier = 0 | 1 | 2;
/** Number of tiers (queues per recipient). */
export const TIERS = 3;
/** Tier of the time-critical events, which are dropped once older than the outdated limit. */
export const URGENT: Tier = 0;

/**
 * The tier of an event a client may send through the gameserver, or null for
 * the ones it may not: slot tables and connect queues belong to peer-to-peer
 * start-up, and `relayed` only ever comes from the server.
 */
export function tierOf(event: RemoteEvent): Tier | null {
  switch (event.type) {
    case 'createLaser':
    case 'createMissile':
      return 0;
    case 'killObject':
    case 'createObject':
    case 'createExtra':
    case 'particleObject':
      return 1;
    case 'sendText':
    case 'playerName':
      return 2;
    default:
      return null;
  }
}

/** Chat, names and kills go to every player whatever the distance; the rest only to players within the filter radius. */
export function reachesEveryone(event: RemoteEvent): boolean {
  return event.type === 'sendText' || event.type === 'playerName' || event.type === 'killObject';
}

/**
 * True when an event's object id (if it has one) is in `slot`'s own range
 * (ids are owner-scoped: slot << 16 | local id). A client claiming another
 * player's objects is lying or confused; receivers would ignore it anyway.
 */
export function ownedBy(event: RemoteEvent, slot: number): boolean {
  return !('id' in event) || objectOwner(event.id) === slot;
}

/** Squared distance between two positions. */
export function distanceSquared(a: Vec3, b: Vec3): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Whether a player at `from` is of interest to one at `to`: within `radius`
 * units. An unknown position (the player has sent no state yet) is never
 * filtered, so nobody misses anything before the server knows where they are.
 */
export function withinRadius(from: Vec3 | undefined, to: Vec3 | undefined, radius: number): boolean {
  if (from === undefined || to === undefined) return true;
  return distanceSquared(from, to) <= radius * radius;
}

/** What {@link IdWindow.check} makes of a message id. */
export type IdVerdict = 'newest' | 'late' | 'duplicate' | 'stale';

/** How many ids behind the newest one a late (reordered) packet may be. */
export const ID_WINDOW = 32;

/**
 * Per-sender message-id filter over the u32 wrapping counter. The newest id
 * so far carries the state; a `late` packet (older, but within ID_WINDOW and
 * not seen) still has events worth forwarding; a `duplicate` or a `stale`
 * one (too old) is dropped whole.
 */
export class IdWindow {
  private newest: number | null = null;
  /** Bit k set: id newest-1-k has been seen. */
  private seen = 0;

  check(id: number): IdVerdict {
    if (this.newest === null) {
      this.newest = id;
      return 'newest';
    }
    const ahead = (id - this.newest) >>> 0;
    if (ahead === 0) return 'duplicate';
    if (ahead < 0x80000000) {
      this.seen = ahead > ID_WINDOW ? 0 : ((ahead === ID_WINDOW ? 0 : this.seen << ahead) | (1 << (ahead - 1))) >>> 0;
      this.newest = id;
      return 'newest';
    }
    const back = (this.newest - id) >>> 0;
    if (back > ID_WINDOW) return 'stale';
    const bit = (1 << (back - 1)) >>> 0;
    if ((this.seen & bit) !== 0) return 'duplicate';
    this.seen = (this.seen | bit) >>> 0;
    return 'late';
  }
}
