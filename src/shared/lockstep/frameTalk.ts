/**
 * What a lockstep peer says each frame (engine.ts decides when): its frame
 * section — its own inputs from the lowest frame a peer may still lack —
 * and its status; and whether a peer's word asks for an answer at once (the
 * seed's run-wait). Pure: everything comes in as a snapshot of our side.
 */
import type { World } from '../game/types';
import { MAX_FRAME_INPUTS, NO_FRAME, type FrameInputs, type LockstepStatusEvent } from '../wire/types';
import type { PeerView } from './engineTypes';
import type { InputLog } from './inputLog';

const NO_HASH = '0000000000000000';

/** Our side as the frame talk reads it. */
export interface OwnSide {
  world: World | null;
  self: number | null;
  /** The newest frame we queued an input for (−1: none). */
  ownNewest: number;
  epoch: number;
  lead: number;
  /** We wait for the leader's state. */
  frozen: boolean;
  /** Slots whose input for our frame we lack. */
  waitingOn: readonly number[];
  check: { frame: number; hash: string } | null;
  log: InputLog;
}

/** The lowest frame a peer may still need our inputs from: the lowest frame any of `peers` reported (ours when none has). */
export function neededFrom(side: OwnSide, peers: readonly (PeerView | undefined)[]): number {
  let low = side.world?.tick ?? side.ownNewest + 1;
  for (const p of peers) if (p && p.frame !== null) low = Math.min(low, p.frame);
  return Math.max(low, side.ownNewest - MAX_FRAME_INPUTS + 1, 0);
}

/** Our inputs from frame `from` (as many as a section takes) with our frame, and the frame of the first. */
export function ownInputs(side: OwnSide, from: number): { inputs: FrameInputs; first: number } {
  const world = side.world;
  const frame = world ? world.tick : Math.max(0, side.ownNewest + 1);
  // The section places the first input within a signed byte of our frame; peers are never that far apart.
  const first = Math.min(frame + 127, Math.max(frame - 128, 0, Math.min(from, side.ownNewest + 1)));
  const inputs = side.self === null || !world ? [] : side.log.run(side.self, first, MAX_FRAME_INPUTS);
  return { inputs: { frame: frame & 0xff, firstOffset: first - frame, noWorld: !world, inputs }, first };
}

/** What we say about ourselves: frame, epoch, lead, whom we wait for, whether we need the state, our newest check. */
export function ownStatus(side: OwnSide): LockstepStatusEvent {
  let waitingOn = 0;
  for (const s of side.waitingOn) waitingOn |= 1 << s;
  return {
    type: 'lockstepStatus',
    frame: side.world ? side.world.tick >>> 0 : NO_FRAME,
    epoch: side.epoch,
    lead: side.lead,
    waitingOn,
    needState: side.frozen,
    checkFrame: side.check ? side.check.frame >>> 0 : NO_FRAME,
    checkHash: side.check ? side.check.hash : NO_HASH,
  };
}

/**
 * Whether the peer in `slot` (its view `peer`) gets an answer at once, and
 * from which frame: it waits for our input for its frame, which went out a
 * round trip ago or more (`sentAt`; sooner it is still on its way) — answer
 * from its frame (the seed's cached packet); or it is already past our frame
 * while we wait for its input (the seed's "packet for the next frame") —
 * answer from `needed`. Null: no answer.
 */
export function answerFrom(side: OwnSide, slot: number, peer: PeerView, sentAt: number | undefined, now: number, rttMs: number | null, needed: number): number | null {
  const world = side.world;
  if (!world || side.self === null) return null;
  const wantsOurs = (peer.waitingOn & (1 << side.self)) !== 0 && sentAt !== undefined && now - sentAt >= (rttMs ?? 0);
  if (wantsOurs && peer.frame !== null) return peer.frame;
  const passedUs = peer.frame !== null && peer.frame > world.tick && side.waitingOn.includes(slot);
  return passedUs ? needed : null;
}
