/**
 * The netgame's sync gate (Purple Martians' `server_sync`, the seed
 * `purple-martians-netgame.txt`): how far behind the server a client runs,
 * measured as the server's frame less the frame the client last reported
 * (its `movesAck`), so a client that stops reporting falls further behind
 * with every server frame. The server uses it twice:
 *
 * - activation: a joining client's ship enters the game only once the client
 *   holds the server's state (it acknowledged one) and runs at the server's
 *   frame — the seed's `-2 < server_sync < 4` on a LAN; here the upper bound
 *   grows with the client's round trip, since a client runs its server lead
 *   plus a round trip of frames behind by design;
 * - dropping: an active client more than `maxBehind` frames behind (the
 *   seed's 100) is dropped with that reason.
 *
 * Pure numbers, no clock.
 */
import { STEP_MS } from '../sim/types';

/** The seed's limit: a client more than this many frames behind the server is dropped. */
export const DEFAULT_MAX_BEHIND_FRAMES = 100;
/** The range a server may set the limit to (`--max-behind-frames`): from a quarter second to a minute. */
export const MIN_MAX_BEHIND_FRAMES = 10;
export const MAX_MAX_BEHIND_FRAMES = 2400;
/** A client more than this many frames ahead of the server is not activated (the seed's `server_sync > -2`). */
export const MAX_FRAMES_AHEAD_TO_ACTIVATE = 1;

/** Frames the client at `reportedFrame` runs behind the server at `serverFrame` (negative: ahead). */
export function framesBehind(serverFrame: number, reportedFrame: number): number {
  return serverFrame - reportedFrame;
}

/**
 * The most frames behind at which a joining client is activated: its server
 * lead, plus the frames its round trip (with twice its mean deviation) takes,
 * plus one — 3 on a LAN with the seed's server lead of 1, as the seed's
 * `server_sync < 4`.
 */
export function activationLimit(serverLead: number, rttMs: number | null, rttDevMs: number): number {
  const rtt = rttMs === null ? 0 : Math.max(0, rttMs + 2 * rttDevMs);
  return serverLead + Math.max(1, Math.ceil(rtt / STEP_MS)) + 1;
}

/** Whether a client `behind` frames behind may be activated, given its limit. */
export function mayActivate(behind: number, limit: number): boolean {
  return behind >= -MAX_FRAMES_AHEAD_TO_ACTIVATE && behind <= limit;
}

/** Whether an active client `behind` frames behind is dropped under `maxBehind`. */
export function droppedBehind(behind: number, maxBehind: number): boolean {
  return behind > maxBehind;
}

/** The reason a dropped client and the other players read (at most 56 characters: a leave reason may have 60). */
export function behindReason(behind: number, maxBehind: number): string {
  return `${behind} frames behind the server, limit ${maxBehind}`;
}
