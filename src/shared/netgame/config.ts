/** The netgame protocol's numbers (docs/PROTOCOL.md, "Netgame"). */

/** Frames between a join (or leave) and the ship entering (leaving) the game: the seed's 4. */
export const JOIN_DELAY_FRAMES = 4;
/** Largest control lead the server gives a client: 20 frames, half a second. */
export const MAX_CONTROL_LEAD = 20;
/** A control change for a frame further ahead of the server's than this is refused. */
export const MAX_FRAMES_AHEAD = 40;
/** Control changes a client may send a second (and in a burst): one per frame. */
export const MAX_CHANGES_PER_S = 40;
/** State differences the server remembers beyond the clients' acknowledged bases. */
export const SENT_STATES_KEPT = 4;
/** Frames of states a client keeps to go back to when a correction is for an earlier frame. */
export const CLIENT_HISTORY = 64;
/** Most frames a client steps in one host tick while chasing the server. */
export const MAX_CHASE = 3;

/**
 * The control lead for a client whose round trip is `rttMs` (with its
 * jitter margin): its change must reach the server before the frame it is
 * tagged with. The client runs `serverLead` frames plus half a round trip
 * behind the server, and the change takes the other half: lead ≥ serverLead
 * + rtt / 25 ms, plus a frame of margin; at least `baseLead`, at most
 * MAX_CONTROL_LEAD.
 */
export function controlLeadFor(rttMs: number, serverLead: number, baseLead: number): number {
  return Math.min(MAX_CONTROL_LEAD, Math.max(baseLead, serverLead + Math.ceil(rttMs / 25) + 1));
}
