/**
 * The computer pilots of an offline game (`bot add`): a hunt pilot per bot
 * slot of a ClientGame, each with its skill and its own memory, giving the
 * bots' inputs tick by tick (GameDriver's `botInputs`).
 */
import type { ShipInput } from '../../sim/types';
import type { World } from '../types';
import { createHuntMemory, huntInput, type HuntMemory } from './hunt';
import { DEFAULT_SKILL } from './skill';

/** What a crew needs of the game: the world and which slots are bots (ClientGame has both). */
export interface CrewGame {
  readonly curr: World;
  readonly bots: readonly number[];
}

interface Crewman {
  skill: number;
  memory: HuntMemory;
}

export class BotCrew {
  private readonly pilots = new Map<number, Crewman>();
  /** Seeds the next pilot's aim error: every pilot aims off in its own way. */
  private nextSeed: number;

  constructor(seed = 1) {
    this.nextSeed = seed;
  }

  /** A hunt pilot of `skill` now flies the bot of `slot` (replacing any before). */
  add(slot: number, skill: number): void {
    this.pilots.set(slot, { skill, memory: createHuntMemory(this.nextSeed++) });
  }

  /** The pilot of `slot` leaves. */
  remove(slot: number): void {
    this.pilots.delete(slot);
  }

  /** Of `bots`, the slot whose pilot was added last, or undefined. */
  lastAdded(bots: readonly number[]): number | undefined {
    let last: number | undefined;
    for (const slot of this.pilots.keys()) if (bots.includes(slot)) last = slot;
    return last;
  }

  /** Skill of the pilot of `slot`, or undefined. */
  skillOf(slot: number): number | undefined {
    return this.pilots.get(slot)?.skill;
  }

  /** Every bot's input for the tick about to run; a bot without a pilot gets one of DEFAULT_SKILL, pilots of slots no longer bots leave. */
  inputs(game: CrewGame): Map<number, ShipInput> {
    const out = new Map<number, ShipInput>();
    for (const slot of [...this.pilots.keys()]) if (!game.bots.includes(slot)) this.pilots.delete(slot);
    for (const slot of game.bots) {
      if (!this.pilots.has(slot)) this.add(slot, DEFAULT_SKILL);
      const p = this.pilots.get(slot)!;
      out.set(slot, huntInput(game.curr, slot, p.memory, p.skill));
    }
    return out;
  }
}
