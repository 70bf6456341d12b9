/**
 * What the gameserver forwards to whom (Parsec §2.3.3): the distance filter
 * between players, the priority of each remote event, which events reach
 * every player whatever the distance, and which a client may not send at all.
 * Pure functions of plain data.
 */
import type { SequenceVerdict } from '../../../shared/net/replayWindow';
import type { Vec3 } from '../../../shared/sim/types';
import { objectOwner, type RemoteEvent } from '../../../shared/wire/types';

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
  // (distanceSquared written out: this runs for every pair of players, and a number returned from a call that is not inlined is boxed.)
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  const dz = from.z - to.z;
  return dx * dx + dy * dy + dz * dz <= radius * radius;
}

/**
 * How many ids behind the newest datagram a late GameState may be and still
 * have its events forwarded (its state never replaces a newer one); one
 * further behind is dropped whole as `stale`. The ids come from the seat's
 * connection (net/connection.ts, its one replay window), which the admission
 * ladder (common/seatAdmission.ts) has already used to drop every id taken before.
 */
export const LATE_STATE_LIMIT = 32;

/**
 * What the gameserver makes of a GameState's id as its seat's connection
 * placed it: `newest` (its state counts), `late` (within LATE_STATE_LIMIT:
 * only its events do), `stale` (further behind: dropped whole) or
 * `replayed` (taken before, or older than the window: dropped).
 */
export function stateVerdict(seq: SequenceVerdict): 'newest' | 'late' | 'stale' | 'replayed' {
  if (seq.verdict === 'replayed' || seq.verdict === 'too-old') return 'replayed';
  if (seq.verdict === 'late' && seq.behind > LATE_STATE_LIMIT) return 'stale';
  return seq.verdict;
}
