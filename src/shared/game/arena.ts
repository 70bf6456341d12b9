/**
 * The arena between the nodes of a Parsec-protocol game: the asteroids are
 * the match's, and the match authority (a gameserver, or the lowest joined
 * slot) alone decides when one breaks. Every match starts from the same field
 * (World.field) and asteroids move without anyone steering them, so the
 * arena of any node is a function of three things: the field, the ticks
 * played in the match (Match.playedTicks, announced in every matchState) and
 * the breaks so far, each at its tick (asteroidBreaks events). A break's
 * pieces are a function of the broken asteroid alone (kinds/asteroid.ts), so
 * every node makes the same ones.
 *
 * The authority keeps the log of its match's breaks, sends the new ones with
 * the next tick and the whole log to a newcomer; a follower applies a break
 * at its tick (at once when it arrives late), and rebuilds its arena from the field and the log when it finds
 * itself more than RESYNC_TICKS away from the authority's clock, on a new
 * match, or when breaks arrive that happened well before now (a newcomer
 * catching up).
 */
import { MAX_BREAKS, type BreakEntry } from '../wire/types';
import { breakAsteroid, stepAsteroid } from './kinds/asteroid';
import type { WorldEvent } from './events';
import type { Asteroid, World } from './types';

/** A follower this many ticks or more from the authority's arena clock (or a break that long ago) rebuilds its arena. */
export const RESYNC_TICKS = 4;
/** Most breaks a match's log keeps (the rest are still applied live, but not given to newcomers). */
export const MAX_LOGGED_BREAKS = 4096;

/** The asteroids of `field` after `ticks` ticks of a match, with `breaks` (any order) applied at their ticks. Pure. */
export function arenaAt(field: readonly Asteroid[], ticks: number, breaks: readonly BreakEntry[]): Asteroid[] {
  const byTick = breaks.filter((b) => b.tick >= 1 && b.tick <= ticks).sort((a, b) => a.tick - b.tick || a.id - b.id);
  let asteroids = field.slice();
  let next = 0;
  for (let t = 1; t <= ticks; t++) {
    asteroids = asteroids.map(stepAsteroid);
    while (next < byTick.length && byTick[next]!.tick === t) asteroids = broken(asteroids, byTick[next++]!.id);
  }
  return asteroids;
}

/** `asteroids` with asteroid `id` replaced by its pieces (unchanged when there is none of that id). */
export function broken(asteroids: readonly Asteroid[], id: number): Asteroid[] {
  const i = asteroids.findIndex((a) => a.id === id);
  if (i < 0) return asteroids.slice();
  return [...asteroids.slice(0, i), ...breakAsteroid(asteroids[i]!), ...asteroids.slice(i + 1)];
}

/** The breaks of one match, as its authority logs them or a follower hears them. */
export class ArenaLog {
  private round = -1;
  private readonly log: BreakEntry[] = [];
  private readonly known = new Set<number>();
  private fresh: BreakEntry[] = [];
  /** Follower: breaks heard before our clock reached their tick, applied when it does. */
  private waiting: BreakEntry[] = [];
  /** A follower's arena must be rebuilt from the log before the next tick. */
  private stale = false;

  /** Authority: the breaks of the tick just stepped (`events`), in `world` after it. */
  record(world: World, roundBefore: number, events: readonly WorldEvent[]): void {
    const m = world.match;
    if (m.round !== roundBefore) return;
    this.follow(m.round);
    for (const e of events) if (e.type === 'broken') this.add({ id: e.id, tick: m.playedTicks }, true);
  }

  /** Authority: the breaks of `round` to announce now — those since the last call, or every one (`all`: for a newcomer) — at most MAX_BREAKS per event. */
  take(round: number, all = false): BreakEntry[][] {
    const out = all ? this.all(round) : round === this.round ? chunks(this.fresh) : [];
    this.fresh = [];
    return out;
  }

  /** Authority: every break of `round`'s log, for a newcomer, at most MAX_BREAKS per event. */
  all(round: number): BreakEntry[][] {
    return round === this.round ? chunks(this.log) : [];
  }

  /**
   * Follower: the authority says `breaks` happened in match `round`. Breaks
   * of another match are ignored (a new match's announcement comes first).
   * Returns `world` with those of its tick applied; those of a tick our clock
   * has not reached wait for it (settle); older ones mark the arena for a
   * rebuild.
   */
  heard(world: World, round: number, breaks: readonly BreakEntry[]): World {
    if (round !== world.match.round) return world;
    this.follow(round);
    for (const b of breaks) if (this.add(b, false)) this.waiting.push({ id: b.id, tick: b.tick });
    return this.settle(world);
  }

  /** Follower: `world` (after a tick) with the waiting breaks its clock has reached. */
  settle(world: World): World {
    if (this.waiting.length === 0) return world;
    const now = world.match.playedTicks;
    let asteroids = world.asteroids;
    const later: BreakEntry[] = [];
    for (const b of this.waiting) {
      if (b.tick > now) later.push(b);
      else if (now - b.tick >= RESYNC_TICKS) this.stale = true;
      else asteroids = broken(asteroids, b.id);
    }
    this.waiting = later;
    return asteroids === world.asteroids ? world : { ...world, asteroids };
  }

  /**
   * Follower: `world` after the authority's announcement put its match at
   * `playedTicks` (aged) of match `round` (`ticksBefore`: our own clock before it).
   * A new match, or a clock RESYNC_TICKS or more away, rebuilds the arena at
   * the authority's clock; otherwise our own clock stays.
   */
  announced(world: World, roundBefore: number, ticksBefore: number): World {
    const m = world.match;
    this.follow(m.round);
    if (m.round === roundBefore && Math.abs(ticksBefore - m.playedTicks) < RESYNC_TICKS) world = { ...world, match: { ...m, playedTicks: ticksBefore } };
    else this.stale = true;
    return this.rebuilt(world);
  }

  /** Follower: `world` with its arena rebuilt from the field and the log if that is due. */
  rebuilt(world: World): World {
    if (!this.stale) return world;
    this.stale = false;
    return { ...world, asteroids: arenaAt(world.field, world.match.playedTicks, this.round === world.match.round ? this.log : []) };
  }

  /** Another game: nothing carries over. */
  clear(): void {
    this.round = -1;
    this.reset();
  }

  private follow(round: number): void {
    if (round === this.round) return;
    this.round = round;
    this.reset();
  }

  private reset(): void {
    this.log.length = 0;
    this.known.clear();
    this.fresh = [];
    this.waiting = [];
    this.stale = false;
  }

  private add(b: BreakEntry, fresh: boolean): boolean {
    if (this.known.has(b.id)) return false;
    this.known.add(b.id);
    if (this.log.length < MAX_LOGGED_BREAKS) this.log.push({ id: b.id, tick: b.tick });
    if (fresh) this.fresh.push({ id: b.id, tick: b.tick });
    return true;
  }
}

function chunks(breaks: readonly BreakEntry[]): BreakEntry[][] {
  const out: BreakEntry[][] = [];
  for (let i = 0; i < breaks.length; i += MAX_BREAKS) out.push(breaks.slice(i, i + MAX_BREAKS).map((b) => ({ ...b })));
  return out;
}
