/**
 * Player slots on the wire: the slot numbers the format carries, the limits
 * each kind of game keeps within them, the score pages of a match, and
 * object ids scoped by their owner's slot. Re-exported by types.ts.
 */

/** Slot number meaning "no slot yet". */
export const NO_SLOT = 255;
/**
 * Most players of a peer-to-peer or slotserver game (peer-to-peer defaults to
 * 4), and most entries of a playerList event: a whole slot table travels in
 * one event, which must fit one datagram.
 */
export const MAX_SLOTS = 8;
/**
 * Slot numbers the format can carry: every slot field (sender, killer,
 * missile target, score entry) takes 0..MAX_WIRE_SLOTS-1, so 255 players (a
 * u8 with NO_SLOT kept; wire v12, was 16). A gameserver seats up to 255
 * (default 64); peer-to-peer and slotserver games stay within MAX_SLOTS,
 * lockstep and netgame games within SMALL_GAME_SLOTS.
 */
export const MAX_WIRE_SLOTS = 255;
/**
 * Slots of the games that hold few players, where the format is sized for
 * them: a slot mask (lockstep's waitingOn, u16), a lockstep world's lists and
 * a netgame's controls (their servers and hosts seat at most 8).
 */
export const SMALL_GAME_SLOTS = 16;
/**
 * Scores one matchState carries (wire v12): page p holds the slots
 * 64p..64p+63, so a full page still fits one datagram beside its header; a
 * gameserver with more players announces its match as several pages.
 */
export const MATCH_SCORES_PER_PAGE = 64;
/** Pages of a matchState's scores: enough for every wire slot. */
export const MATCH_PAGES = Math.ceil(MAX_WIRE_SLOTS / MATCH_SCORES_PER_PAGE);

/**
 * Object ids are owner-scoped: (ownerSlot << 16) | localId, so peers never
 * collide when they create objects at the same time.
 */
export function objectId(ownerSlot: number, localId: number): number {
  return ((ownerSlot & 0xff) << 16) | (localId & 0xffff);
}
export function objectOwner(id: number): number {
  return (id >>> 16) & 0xff;
}
