/**
 * When a lockstep peer's status (`lockstepStatus`, wire v10) goes with its
 * frame inputs to another peer: always while it lacks a world, waits for the
 * state or for someone's input (or answers a peer at once); when it differs
 * from what that peer was last told, and with the two frames after in case
 * one is lost; else with every tenth frame. In a quiet game that is one frame
 * datagram in ten, so a frame costs its inputs and little more.
 */
import type { LockstepStatusEvent } from '../wire/types';

/** A status goes with every tenth frame at least, whatever changed. */
export const STATUS_EVERY = 10;
/** A changed status goes with this many more frames after the first. */
export const STATUS_REPEATS = 2;

/** What we last told a peer, how many repeats are left, and at which of our frames. */
interface Told {
  said: string;
  repeats: number;
  at: number;
}

export class StatusSchedule {
  private readonly told = new Map<number, Told>();

  /**
   * Whether `status` goes to `slot` now, at our frame `frame`; `urgent`: we
   * lack a world, wait for something, or answer at once. Counts it as told.
   */
  due(slot: number, status: LockstepStatusEvent, frame: number, urgent: boolean): boolean {
    const said = `${status.epoch}/${status.lead}/${status.waitingOn}/${status.needState}/${status.checkFrame}`;
    const told = this.told.get(slot);
    const changed = told === undefined || told.said !== said;
    if (!urgent && !changed && told.repeats === 0 && frame - told.at < STATUS_EVERY) return false;
    this.told.set(slot, { said, repeats: changed ? STATUS_REPEATS : Math.max(0, told.repeats - 1), at: frame });
    return true;
  }

  forget(slot: number): void {
    this.told.delete(slot);
  }

  clear(): void {
    this.told.clear();
  }
}
