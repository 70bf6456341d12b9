/** The lockstep protocol's numbers (docs/PROTOCOL.md, "Lockstep"). */

/** Frames between two world-hash checks. */
export const HASH_EVERY = 40;
/**
 * The seed's input lead: Maelstrom lets no player run more than one frame
 * ahead, so a pilot's input is due one frame ahead. The automatic lead never
 * goes below it.
 */
export const SEED_LEAD = 1;
/** Largest input lead (a cvar value beyond it is capped): 20 frames, half a second. */
export const MAX_LEAD = 20;
/** Frames one host tick may step to catch up with peers that are ahead. */
export const MAX_CATCH_UP = 4;
/** The seed's resend timeout: a frame packet not answered within a second goes again. */
export const SEED_RESEND_MS = 1000;
/** Shortest resend timeout (a LAN round trip is far below it). */
export const MIN_RESEND_MS = 50;
/** Shortest interval between two sends of the same state transfer to a peer that has not taken it. */
export const MIN_TRANSFER_RESEND_MS = 250;
/** A stall this long is shown: "waiting for <name> (0 s)", then every whole second. */
export const WAIT_SHOWN_MS = 250;
/** Frames of own world hashes kept (for the first differing frame after a desync). */
export const HASH_RING = 64;
/** A node without a world that hears of no world for this long, as the lowest joined slot, starts one. */
export const START_ALONE_MS = 600;

/** Resend timeout for a round trip of `rttMs` (null: not measured): twice the round trip, within [MIN_RESEND_MS, SEED_RESEND_MS]. */
export function resendTimeout(rttMs: number | null): number {
  if (rttMs === null || !Number.isFinite(rttMs)) return 4 * MIN_RESEND_MS;
  return Math.min(SEED_RESEND_MS, Math.max(MIN_RESEND_MS, Math.ceil(2 * rttMs)));
}

/**
 * The automatic input lead for a round trip of `rttMs`: enough frames (25 ms
 * each) to cover half the round trip plus one frame of jitter, at least the
 * seed's, so a peer's input arrives before the others step its frame. Null
 * (not measured yet): 2.
 */
export function autoLead(rttMs: number | null, stepMs: number): number {
  if (rttMs === null || !Number.isFinite(rttMs)) return 2;
  return Math.min(MAX_LEAD, Math.max(SEED_LEAD, Math.ceil(rttMs / 2 / stepMs) + 1));
}
