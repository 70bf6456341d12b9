/**
 * The match between client games of the Parsec protocols: what the match
 * authority (the lowest joined slot) announces in a matchState event, what
 * the others make of one, and the authority's tally of the kills victims'
 * games announce. Pure functions of worlds; ClientGame keeps who the
 * authority is and when it last spoke.
 */
import { STEP_MS, TICK_HZ } from '../sim/types';
import { MATCH_SCORES_PER_PAGE, MAX_SCORE, MAX_WIRE_SLOTS, NO_SLOT, NO_TIME_LIMIT, type RemoteEvent } from '../wire/types';
import { addScore } from './combat';
import { createShip, withShip } from './kinds/ship';
import { RULES } from './rules';
import { freeSpawnPoint } from './spawnPoint';
import { MATCH_PLAYING, type World } from './types';

/** The match as its authority announces it: a matchState event's fields. */
export type MatchAnnouncement = Omit<Extract<RemoteEvent, { type: 'matchState' }>, 'type'>;

/** The whole match as its authority holds it: an announcement's fields with every player's score, before it is split into pages. */
export type MatchStanding = Omit<MatchAnnouncement, 'page'>;

/**
 * `standing` as the matchState events that say it to a game of up to `slots`
 * players: one per score page (MATCH_SCORES_PER_PAGE slots each), every page
 * of those slots even when it holds no score now (a leaver's score must be
 * cleared too), each carrying the match's own fields.
 */
export function matchPages(standing: MatchStanding, slots: number): MatchAnnouncement[] {
  const pages = Math.max(1, Math.ceil(Math.min(slots, MAX_WIRE_SLOTS) / MATCH_SCORES_PER_PAGE));
  return Array.from({ length: pages }, (_, page) => ({
    ...standing,
    page,
    scores: standing.scores.filter((s) => Math.floor(s.slot / MATCH_SCORES_PER_PAGE) === page),
  }));
}

/** Ticks between two announcements of an unchanged match by its authority (10 s): they keep every clock in step. */
export const MATCH_ANNOUNCE_TICKS = 10 * TICK_HZ;

/** The announcement of `world`'s match by a peer (at most MAX_SLOTS players, so one page): limits, phase, time left, round, and the scores (capped to the wire's range). */
export function announcementOf(world: World): MatchAnnouncement {
  const m = world.match;
  return {
    round: m.round & 0xffff,
    phase: m.phase,
    killLimit: m.killLimit,
    timeLimitS: m.timeLimitTicks / TICK_HZ,
    msLeft: m.ticksLeft < 0 ? NO_TIME_LIMIT : m.ticksLeft * STEP_MS,
    msPlayed: Math.min(0xffffffff, m.playedTicks * STEP_MS),
    page: 0,
    scores: world.scores.filter((s) => s.slot < MATCH_SCORES_PER_PAGE).map((s) => ({ slot: s.slot, kills: Math.min(MAX_SCORE, s.kills), deaths: Math.min(MAX_SCORE, s.deaths) })),
  };
}

/**
 * `world` after the authority's announcement `ev`, `ageMs` old (finite, ≥ 0): scores
 * of its page's slots (all of a peer's game: page 0 holds slots 0..63), phase
 * and clocks become the authority's (aged by the packet; the arena's
 * asteroids follow in arena.ts); a new round starts every page afresh. A new
 * round means a new match began: the ship of `local` starts fresh on a free
 * spawn point, invulnerable for a while, and its objects are gone.
 */
export function withAnnouncement(world: World, ev: MatchAnnouncement, ageMs: number, local: number): World {
  const ticksLeft = ev.msLeft === NO_TIME_LIMIT ? -1 : Math.max(0, Math.round((ev.msLeft - ageMs) / STEP_MS));
  const playedTicks = Math.max(0, Math.round((ev.msPlayed + ageMs) / STEP_MS));
  const match = { killLimit: ev.killLimit, timeLimitTicks: ev.timeLimitS * TICK_HZ, phase: ev.phase, ticksLeft, round: ev.round, playedTicks };
  const first = ev.page * MATCH_SCORES_PER_PAGE;
  const kept = ev.round === world.match.round ? world.scores.filter((s) => s.slot < first || s.slot >= first + MATCH_SCORES_PER_PAGE) : [];
  const scores = [...kept, ...ev.scores.map((s) => ({ slot: s.slot, kills: s.kills, deaths: s.deaths }))].sort((a, b) => a.slot - b.slot);
  let { ships, objects } = world;
  if (ev.round !== world.match.round) {
    const fresh = createShip(local, freeSpawnPoint(local, ships, world.asteroids), RULES.spawnInvulnerableTicks);
    ships = withShip(ships, fresh);
    // The old match's objects are gone: ours, and the extras (the authority spawns new ones).
    objects = objects.filter((o) => o.owner !== local && o.kind !== 'extra');
  }
  return { ...world, ships, objects, scores, match };
}

/**
 * `world` with a kill announced by the victim's game: the victim's death, and
 * the killer's kill when that is another player. The match ends the moment
 * someone reaches the kill limit (the next step shows it): a kill that
 * arrives after that, in the same tick, counts in no match.
 */
export function withKill(world: World, victim: number, killerSlot: number): World {
  const m = world.match;
  if (m.phase !== MATCH_PLAYING || (m.killLimit > 0 && world.scores.some((s) => s.kills >= m.killLimit))) return world;
  let scores = addScore(world.scores, victim, { deaths: 1 });
  if (killerSlot !== NO_SLOT && killerSlot !== victim && Number.isInteger(killerSlot) && killerSlot >= 0 && killerSlot < MAX_WIRE_SLOTS) scores = addScore(scores, killerSlot, { kills: 1 });
  return { ...world, scores };
}

/** A player of the slot table as far as the score is concerned. */
export interface ScoredPlayer {
  slot: number;
  joined: boolean;
  name?: string;
}

/**
 * The match authority's memory of players who left during the match: their
 * score, by name, given back when someone joins again under that name (in
 * whatever slot); a newcomer in a slot someone left starts from zero. A new
 * round forgets them all (every score starts again anyway).
 */
export class Rejoins {
  private names = new Map<number, string>();
  private readonly departed = new Map<string, { kills: number; deaths: number }>();
  private round = -1;

  /** `world` with the scores following the slot table `players` (joined players with names only). */
  apply(world: World, players: readonly ScoredPlayer[]): World {
    if (world.match.round !== this.round) {
      this.departed.clear();
      this.round = world.match.round;
    }
    const current = new Map<number, string>();
    for (const p of players) if (p.joined && p.name !== undefined) current.set(p.slot, p.name);
    let scores = world.scores;
    for (const [slot, name] of this.names) {
      if (current.get(slot) === name) continue;
      const left = scores.find((s) => s.slot === slot);
      if (left) this.departed.set(name, { kills: left.kills, deaths: left.deaths });
      scores = scores.filter((s) => s.slot !== slot);
    }
    for (const [slot, name] of current) {
      if (this.names.get(slot) === name) continue;
      const back = this.departed.get(name);
      scores = scores.filter((s) => s.slot !== slot);
      if (back) {
        this.departed.delete(name);
        scores = [...scores, { slot, ...back }].sort((a, b) => a.slot - b.slot);
      }
    }
    this.names = current;
    return scores === world.scores ? world : { ...world, scores };
  }
}
