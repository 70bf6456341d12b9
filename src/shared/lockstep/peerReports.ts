/**
 * What the other peers of a lockstep game told us (engine.ts): per slot its
 * newest status (frame, epoch, whether it needs the state, whom it waits
 * for) and where its frame sections place it. Frame sections carry the low
 * byte of the sender's frame; `place` reads it within ±127 of the frame we
 * know (ours, or the sender's last status), which holds because the peers of
 * one game are never further apart than the input lead.
 */
import type { FrameInputs, LockstepStatusEvent } from '../wire/types';
import { NO_FRAME } from '../wire/types';
import type { PeerView } from './engineTypes';

/** `low8`, the low byte of a frame, as the frame nearest to `near`. */
export function placeFrame(low8: number, near: number): number {
  return near + (((low8 - near) << 24) >> 24);
}

export class PeerReports {
  private readonly views = new Map<number, PeerView>();

  /** The view of `slot`, made fresh the first time it is heard. */
  view(slot: number): PeerView {
    let v = this.views.get(slot);
    if (!v) {
      v = { frame: null, epoch: 0, needState: false, waitingOn: 0, seesWorld: false, answeredAt: -Infinity };
      this.views.set(slot, v);
    }
    return v;
  }

  get(slot: number): PeerView | undefined {
    return this.views.get(slot);
  }

  /** The slots heard from. */
  slots(): number[] {
    return [...this.views.keys()];
  }

  forget(slot: number): void {
    this.views.delete(slot);
  }

  clear(): void {
    this.views.clear();
  }

  /** A status heard from the peer behind `view`. */
  heardStatus(view: PeerView, ev: LockstepStatusEvent): void {
    view.frame = ev.frame === NO_FRAME ? null : ev.frame;
    view.seesWorld = view.frame !== null;
    view.epoch = ev.epoch;
    view.needState = ev.needState;
    view.waitingOn = ev.waitingOn;
  }

  /**
   * A frame section heard from the peer behind `view`, our frame being
   * `ours` (null without a world): the frame of its first input, or null when
   * it has no world or we cannot place it yet (no world and no status from
   * it: its inputs come again).
   */
  heardInputs(view: PeerView, s: FrameInputs, ours: number | null): number | null {
    view.seesWorld = !s.noWorld;
    if (s.noWorld) {
      view.frame = null;
      return null;
    }
    const near = ours ?? view.frame;
    if (near === null) return null;
    view.frame = placeFrame(s.frame, near);
    return view.frame + s.firstOffset;
  }

  /** Whether any peer has a world (then we wait for its state instead of starting one). */
  anyWorld(): boolean {
    for (const v of this.views.values()) if (v.frame !== null || v.seesWorld) return true;
    return false;
  }

  /** How far the peers of `epoch` are ahead of frame `tick`, at most (0: none is). */
  furthestAhead(epoch: number, tick: number): number {
    let ahead = 0;
    for (const v of this.views.values()) if (v.frame !== null && v.epoch === epoch) ahead = Math.max(ahead, v.frame - tick);
    return ahead;
  }

  /** Whether a peer of `epoch` asks for the state (its world differs from ours). */
  asksForState(epoch: number): boolean {
    for (const v of this.views.values()) if (v.needState && v.epoch === epoch) return true;
    return false;
  }
}
