/**
 * The match: a kill limit and a time limit, a ranking when either is
 * reached, and a new match after a countdown. Part of the simulation (the
 * World's `match`), stepped by the world that decides the match (the match
 * authority in Parsec games, every node in lockstep and netgame); other
 * worlds only count its clock down and take the authority's word for the
 * rest (ClientGame.applyMatch).
 */
import { TICK_HZ } from '../sim/types';
import { createShip } from './kinds/ship';
import { RULES } from './rules';
import { MATCH_OVER, MATCH_PLAYING, type Match, type Score, type World } from './types';
import type { WorldEvent } from './events';
import { freeSpawnPoint } from './spawnPoint';

/** Most kills a kill limit may ask for, and most minutes a time limit may last. */
export const MAX_KILL_LIMIT = 999;
export const MAX_TIME_LIMIT_S = 24 * 3600;

/** Limits of a match: a kill limit and a time limit in seconds, 0 meaning none. */
export interface MatchLimits {
  killLimit: number;
  timeLimitS: number;
}

const limit = (v: number, max: number, fallback: number): number => (Number.isInteger(v) && v >= 0 ? Math.min(v, max) : fallback);

/** A match about to be played with `limits` (bad values fall back to RULES.match), `round` matches after the first. */
export function createMatch(limits: Partial<MatchLimits> = {}, round = 0): Match {
  const killLimit = limit(limits.killLimit ?? RULES.match.killLimit, MAX_KILL_LIMIT, RULES.match.killLimit);
  const timeLimitTicks = limit(limits.timeLimitS ?? RULES.match.timeLimitS, MAX_TIME_LIMIT_S, RULES.match.timeLimitS) * TICK_HZ;
  return { killLimit, timeLimitTicks, phase: MATCH_PLAYING, ticksLeft: timeLimitTicks > 0 ? timeLimitTicks : -1, round, playedTicks: 0 };
}

/** The scores best first: most kills, then fewest deaths, then lowest slot. */
export function ranking(scores: readonly Score[]): Score[] {
  return [...scores].sort((a, b) => b.kills - a.kills || a.deaths - b.deaths || a.slot - b.slot);
}

/**
 * The match one tick on, in `world` (the tick's ships, objects and scores
 * already stepped). A world that does not decide the match only counts the
 * clock down. Deciding: while playing, a score reaching the kill limit or the
 * clock running out ends it (`match-over` event with the ranking); once over,
 * the countdown's end starts the next match: scores back to zero, every ship
 * fresh on a free spawn point, the players' objects and extras gone (the
 * energy fields stay), `match-start` event.
 */
export function stepMatch(world: World, decides: boolean, events: WorldEvent[]): World {
  const m = world.match;
  const ticksLeft = m.ticksLeft > 0 ? m.ticksLeft - 1 : m.ticksLeft;
  const playedTicks = m.playedTicks + 1;
  if (!decides) return { ...world, match: { ...m, ticksLeft, playedTicks } };
  if (m.phase === MATCH_PLAYING) {
    const byKills = m.killLimit > 0 && world.scores.some((s) => s.kills >= m.killLimit);
    if (byKills || ticksLeft === 0) {
      events.push({ type: 'match-over', ranking: ranking(world.scores) });
      return { ...world, match: { ...m, phase: MATCH_OVER, ticksLeft: RULES.match.restartS * TICK_HZ, playedTicks } };
    }
    return { ...world, match: { ...m, ticksLeft, playedTicks } };
  }
  if (ticksLeft > 0) return { ...world, match: { ...m, ticksLeft, playedTicks } };
  const next = createMatch({ killLimit: m.killLimit, timeLimitS: m.timeLimitTicks / TICK_HZ }, m.round + 1);
  // A fresh arena: the asteroids as the field began.
  const asteroids = world.field.slice();
  const ships = world.ships.map((s) => s);
  for (let i = 0; i < ships.length; i++) {
    const slot = ships[i]!.slot;
    // Placed one by one, each clear of those placed before it.
    ships[i] = createShip(slot, freeSpawnPoint(slot, ships.slice(0, i), asteroids), RULES.spawnInvulnerableTicks);
  }
  events.push({ type: 'match-start', round: next.round });
  return {
    ...world,
    ships,
    asteroids,
    objects: world.objects.filter((o) => o.kind === 'field'),
    scores: world.scores.map((s) => ({ slot: s.slot, kills: 0, deaths: 0 })),
    match: next,
  };
}

/** `world` with a new match of `limits` begun at once (the next round): every score back to zero; ships and arena as they are. */
export function withNewMatch(world: World, limits: Partial<MatchLimits>): World {
  return { ...world, scores: world.scores.map((s) => ({ slot: s.slot, kills: 0, deaths: 0 })), match: createMatch(limits, world.match.round + 1) };
}

/**
 * `m` under new kill and time limits, taking effect at once: the time
 * already played counts against a new time limit (at least a tick is left);
 * between two matches the countdown to the next stands.
 */
export function withLimits(m: Match, limits: Partial<MatchLimits>): Match {
  const next = createMatch(limits, m.round);
  const played = m.timeLimitTicks > 0 && m.ticksLeft >= 0 ? m.timeLimitTicks - m.ticksLeft : 0;
  const ticksLeft = m.phase !== MATCH_PLAYING ? m.ticksLeft : next.timeLimitTicks > 0 ? Math.max(1, next.timeLimitTicks - played) : -1;
  return { ...m, killLimit: next.killLimit, timeLimitTicks: next.timeLimitTicks, ticksLeft };
}
