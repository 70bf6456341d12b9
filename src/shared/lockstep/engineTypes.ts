/** The shapes a LockstepEngine (engine.ts) takes and gives: its options, its notices for the console, its figures. */
import type { MatchLimits } from '../game/match';
import type { FrameInputs, LockstepMessage } from '../wire/types';
import type { StatePacker } from './stateTransfer';

export interface LockstepOptions {
  /** Seeds a world this peer starts alone. */
  seed: number;
  /** Kill and time limits of a world this peer starts. */
  matchLimits?(): Partial<MatchLimits>;
  /** The largest round trip to the peers in ms, or null until measured. */
  rttMs(): number | null;
  /** The `input_lead` setting: frames, or 0 for automatic (from the round trip). */
  lead(): number;
  /** Sends one datagram to the peer in `slot`. */
  send(slot: number, datagram: LockstepDatagram): void;
  notify(notice: LockstepNotice): void;
  packer?: StatePacker;
  /** For comparison only: a plain stop-and-wait (no repeated inputs, no immediate resends; a lost input waits for a timeout). */
  plainStopAndWait?: boolean;
}

export type LockstepNotice =
  | { kind: 'started'; frame: number }
  | { kind: 'adopted'; from: number; frame: number; epoch: number; bytes: number; chunks: number; cause: 'join' | 'roster' | 'resync'; firstDiff: number | null }
  | { kind: 'transfer-sent'; frame: number; epoch: number; bytes: number; chunks: number; cause: 'roster' | 'resync' }
  | { kind: 'waiting'; slots: number[]; forState: boolean; seconds: number }
  /** Frames move again after a stall that was shown. */
  | { kind: 'resumed'; afterMs: number }
  | { kind: 'desync'; slot: number; frame: number }
  | { kind: 'frame-hash'; frame: number; hash: string; epoch: number }
  | { kind: 'refused-state'; from: number; reason: string };


/** What `players` and `netgraph` show. */
export interface LockstepStats {
  frame: number | null;
  epoch: number;
  lead: number;
  /** Host ticks in which no frame could be stepped. */
  framesWaited: number;
  /** Frame packets sent again (timeouts and run-wait answers). */
  resends: number;
  /** World-hash mismatches seen. */
  desyncs: number;
  /** State transfers taken after a desync. */
  corrected: number;
  framesStepped: number;
  /** Slots whose input we are waiting for now. */
  waitingOn: number[];
}

/**
 * What one lockstep datagram carries (wire v10): the sender's frame inputs
 * (header flags bit 5) and events — its status now and then, a chunk of a
 * state transfer.
 */
export interface LockstepDatagram {
  inputs?: FrameInputs;
  events: LockstepMessage[];
}

/**
 * What a peer's newest datagrams said: its frame (null without a world or
 * before we could place one), whether it has a world at all, its epoch,
 * whether it asks for state, whom it waits for; and when we last answered it
 * at once.
 */
export interface PeerView {
  frame: number | null;
  seesWorld: boolean;
  epoch: number;
  needState: boolean;
  waitingOn: number;
  answeredAt: number;
}
