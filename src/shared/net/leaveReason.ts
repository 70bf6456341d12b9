/**
 * Why a player left a game, as the others read it ("bravo left (switched to
 * netgame)"): a short line of printable ASCII. It travels in a server's
 * `remove ip: … left: <reason>` line and a p2p Disconnect, from a source we
 * do not trust, so it is validated on the way in and made valid on the way out.
 */

/** Longest leave reason. */
export const MAX_REASON_LENGTH = 60;

/** Whether `reason` may travel as a leave reason: 1..60 printable ASCII, no space at either end. */
export function isLeaveReason(reason: string): boolean {
  return reason.length >= 1 && reason.length <= MAX_REASON_LENGTH && /^[\x20-\x7e]+$/.test(reason) && reason.trim() === reason;
}

/** `reason` made a valid leave reason (anything else blanked, trimmed, cut), or null when nothing is left. */
export function leaveReason(reason: string): string | null {
  const r = reason.replace(/[^\x20-\x7e]/g, ' ').trim().slice(0, MAX_REASON_LENGTH).trim();
  return isLeaveReason(r) ? r : null;
}
