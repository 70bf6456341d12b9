/**
 * Where the computer pilots of an offline game sit (ClientGame's `bot
 * add` / `bot kick`): a new one takes the lowest free slot below MAX_SLOTS
 * with a fresh ship far from ours, the first of them starting a new match;
 * one leaving takes its ship with it. Pure: worlds in, worlds out.
 */
import { createShip } from './kinds/ship';
import { withNewMatch, type MatchLimits } from './match';
import { freeSpawnPoint, withJoiningPilot, withoutPilot } from './spawnPoint';
import { MATCH_PLAYING, type World } from './types';
import { MAX_SLOTS } from '../wire/types';

/** A bot seated in `world` (our ship in `local`; `bots` those flying already), or null when every slot is taken. */
export function seatBot(world: World, bots: readonly number[], local: number, limits: Partial<MatchLimits>): { world: World; slot: number } | null {
  const taken = new Set(world.ships.map((s) => s.slot));
  let slot = 0;
  while (taken.has(slot)) slot++;
  if (slot >= MAX_SLOTS) return null;
  // Practising alone the clock stood: the first pilot to come starts a new match.
  const w = bots.length === 0 && world.match.phase === MATCH_PLAYING ? withNewMatch(world, limits) : world;
  // Away from where we fly, or from where we will respawn.
  const mine = w.ships.find((s) => s.slot === local);
  const ours = mine && mine.respawnIn > 0 ? createShip(local, freeSpawnPoint(local, w.ships, w.asteroids)) : mine;
  return { world: withJoiningPilot(w, slot, ours), slot };
}

/** The worlds without the bot of `slot`'s ship. */
export function unseatBot(curr: World, prev: World, slot: number): { curr: World; prev: World } {
  return { curr: withoutPilot(curr, slot), prev: { ...prev, ships: prev.ships.filter((s) => s.slot !== slot) } };
}
