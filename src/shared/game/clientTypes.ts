/** The shapes a ClientGame (clientGame.ts) takes and gives: options, slot-table entries, a tick's outcome, notices for the view. */
import type { MatchLimits } from './match';
import type { MatchAnnouncement } from './matchSync';
import type { ExtraAnswer, ExtraClaim } from './extraClaims';
import type { GameObject, ObjectKind, Vec3 } from './types';
import type { BreakEntry } from '../wire/types';

/** Something the view shows once (an explosion, a kill-feed line). */
export type GameNotice = {
  type: 'destroyed';
  /** Whose ship. */
  slot: number;
  /** Who shot it down (NO_SLOT when unknown). */
  killerSlot: number;
  /** Where it was shown when it blew up (null if it was not on screen). */
  pos: Vec3 | null;
  /** It was our ship. */
  local: boolean;
  /** What dealt the last blow (killCause.ts): named by the game that decided the kill — this one, or the victim's in its killObject (wire v9); absent when that game could not say. */
  cause?: KillCause;
};

/** What can destroy a ship: an object of some kind, or an asteroid it flew into. */
export type KillCause = ObjectKind | 'asteroid';

/** What one tick of our own game did that other players must hear of. */
export interface TickOutcome {
  /** Objects our ship created this tick (each kind sends its own creation event). */
  created: GameObject[];
  /** Our ship was destroyed this tick, by `killerSlot` (NO_SLOT if unknown), with the weapon when the tick's events name it. */
  destroyed: { killerSlot: number; cause?: KillCause } | null;
  /** We are the match authority and the others must hear the match as it stands (scores, clock, phase). */
  match?: MatchAnnouncement;
  /** Other players' objects our ship took or set off this tick (the authority's extras, their mines): each told with a killObject naming us. */
  claims?: ExtraClaim[];
  /** As the match authority: which of our extras went to whom (answers to claims, and our own pickups). */
  answers?: ExtraAnswer[];
  /** The asteroid breaks to announce (we own the arena), one asteroidBreaks event each. */
  breaks?: { round: number; breaks: BreakEntry[] }[];
}

/** One player of the slot table, as far as the game cares. */
export interface GamePlayer {
  slot: number;
  joined: boolean;
  local: boolean;
  /** The player's name (the match authority keeps a leaver's score under it). */
  name?: string;
}

export interface ClientGameOptions {
  seed?: number;
  /** The kill and time limits of the matches this game decides (offline, or as the match authority). */
  match?: Partial<MatchLimits>;
  /** Correction time of remote ships' smoothing (the `net_smooth` cvar). */
  convergeMs?: number;
}

