/**
 * A duel between two hunt pilots in the pure simulation (createWorld +
 * stepWorld, no network, no clock): one match of two ships, first to
 * `kills` kills or `seconds` of play. For the duel bench (bench/duels.ts)
 * and the pilot's tests.
 */
import type { ShipInput } from '../../sim/types';
import { TICK_HZ } from '../../sim/types';
import type { WorldEvent } from '../events';
import { stepWorld } from '../step';
import { MATCH_OVER } from '../types';
import { createWorld } from '../world';
import { createHuntMemory, huntInput } from './hunt';

export interface DuelOptions {
  seed: number;
  /** Skills of the pilots of slot 0 and slot 1. */
  skills: readonly [number, number];
  /** Kills that win (default 3). */
  kills?: number;
  /** Length of the match in seconds (default 180). */
  seconds?: number;
}

export interface DuelResult {
  seed: number;
  skills: readonly [number, number];
  /** Kills of slot 0 and slot 1. */
  kills: [number, number];
  /** Slot that won (more kills), or null for a draw. */
  winner: 0 | 1 | null;
  ticks: number;
  /** Laser bolts, missiles, mines and EMPs each pilot set off, and its laser hits on the other. */
  shots: [number, number];
  missiles: [number, number];
  mines: [number, number];
  emps: [number, number];
  hits: [number, number];
  pickups: [number, number];
}

/** Flies one duel to the end of its match. */
export function runDuel(options: DuelOptions): DuelResult {
  const kills = options.kills ?? 3;
  const seconds = options.seconds ?? 180;
  let world = createWorld(options.seed, { ships: 2, match: { killLimit: kills, timeLimitS: seconds } });
  const memories = [createHuntMemory(options.seed * 2 + 1), createHuntMemory(options.seed * 2 + 2)];
  const r: DuelResult = {
    seed: options.seed,
    skills: options.skills,
    kills: [0, 0],
    winner: null,
    ticks: 0,
    shots: [0, 0],
    missiles: [0, 0],
    mines: [0, 0],
    emps: [0, 0],
    hits: [0, 0],
    pickups: [0, 0],
  };
  const maxTicks = seconds * TICK_HZ + 1;
  while (world.match.phase !== MATCH_OVER && world.tick < maxTicks) {
    const inputs = new Map<number, ShipInput>([
      [0, huntInput(world, 0, memories[0]!, options.skills[0])],
      [1, huntInput(world, 1, memories[1]!, options.skills[1])],
    ]);
    const events: WorldEvent[] = [];
    world = stepWorld(world, inputs, { events });
    for (const e of events) tally(r, e);
  }
  r.ticks = world.tick;
  for (const s of world.scores) if (s.slot === 0 || s.slot === 1) r.kills[s.slot] = s.kills;
  r.winner = r.kills[0] > r.kills[1] ? 0 : r.kills[1] > r.kills[0] ? 1 : null;
  return r;
}

function tally(r: DuelResult, e: WorldEvent): void {
  const slotOf = (n: number): 0 | 1 | null => (n === 0 || n === 1 ? n : null);
  if (e.type === 'fired') {
    const s = slotOf(e.slot);
    if (s === null) return;
    if (e.kind === 'laser') r.shots[s]++;
    else if (e.kind === 'missile') r.missiles[s]++;
    else if (e.kind === 'mine') r.mines[s]++;
    else if (e.kind === 'emp') r.emps[s]++;
  } else if (e.type === 'hit' && e.cause === 'laser') {
    const s = slotOf(e.by);
    if (s !== null) r.hits[s]++;
  } else if (e.type === 'pickup') {
    const s = slotOf(e.slot);
    if (s !== null) r.pickups[s]++;
  }
}
