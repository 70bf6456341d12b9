/**
 * The victim's word on hits, between client games of the Parsec protocols
 * (p2p, slotserver, gameserver), where the victim's game decides whether
 * another player's laser or missile hit its ship.
 *
 * - The victim reports every such shot it applied to its own ship the way it
 *   already reports a mine that went off under it: a reliable killObject of
 *   the shooter's object naming itself as the "killer" (`reportsOf`, sent by
 *   the GameDriver with the extras' claims). Every other game removes the
 *   spent shot from its world.
 * - The shooter's game tells such a report apart from a claim of one of its
 *   extras by the id: a {@link ShotLog} remembers the ids of our recent lasers
 *   and missiles, each with the key the shooter's screen knows the shot by
 *   (ShotWatch's `SeenHit.key`), so the hit marker can be confirmed
 *   (hitLedger.ts); it keeps the keys of the shots reported until they are
 *   taken.
 */
import type { WorldEvent } from './events';
import type { GameObject } from './types';

/** A shot of player `owner` (its local id, 16 bits as the wire names it) that hit our ship. */
export interface HitReport {
  owner: number;
  id: number;
}

/** Shots whose reports we still recognise (lasers live 1 s, missiles 6 s; three bolts a shot, ~7 shots a second). */
const SHOT_MEMORY = 256;
/** Most reported shots kept until taken. */
const MAX_COUNTED_SHOTS = 256;

/** Other players' lasers and missiles our game applied to our ship (slot `local`) this tick. */
export function reportsOf(events: readonly WorldEvent[], local: number): HitReport[] {
  const out: HitReport[] = [];
  for (const e of events) {
    if (e.type === 'hit' && e.slot === local && (e.cause === 'laser' || e.cause === 'missile') && e.id !== undefined && e.by !== local && e.by >= 0) out.push({ owner: e.by, id: e.id & 0xffff });
  }
  return out;
}

/** The key ShotWatch gives a shot of `kind` by `owner` with object id `id`. */
export const shotKeyOf = (kind: string, owner: number, id: number): string => `${kind}${owner}:${id}`;

/** Our recent lasers and missiles by wire id, so a victim's report names the shot our screen saw; and the shots reported, until taken. */
export class ShotLog {
  private readonly keys = new Map<number, string>();
  /** Keys (ShotWatch's) of our shots the victims' games said they counted, since the last take. */
  private reported: string[] = [];

  /** Our objects created this tick: the lasers and missiles among them are remembered. */
  fired(created: readonly GameObject[]): void {
    for (const o of created) {
      if (o.kind !== 'laser' && o.kind !== 'missile') continue;
      const wire = o.id & 0xffff;
      this.keys.delete(wire);
      if (this.keys.size >= SHOT_MEMORY) this.keys.delete(this.keys.keys().next().value as number);
      this.keys.set(wire, shotKeyOf(o.kind, o.owner, o.id));
    }
  }

  /** The key of our shot of wire id `id`, or undefined when it is no shot of ours we remember (an extra, a mine). */
  keyOf(id: number): string | undefined {
    return this.keys.get(id & 0xffff);
  }

  /** A victim's game counted our shot of key `key`. */
  counted(key: string): void {
    // Bounded: a game whose driver never takes them (a headless bot) keeps only the newest.
    if (this.reported.length >= MAX_COUNTED_SHOTS) this.reported.shift();
    this.reported.push(key);
  }

  /** The keys of our shots counted since the last call, oldest first. */
  takeCounted(): string[] {
    if (this.reported.length === 0) return [];
    const out = this.reported;
    this.reported = [];
    return out;
  }

  /** Another game, another slot: nothing carries over. */
  clear(): void {
    this.keys.clear();
    this.reported = [];
  }
}
