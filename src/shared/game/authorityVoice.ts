/**
 * What a client game says as the match authority of a Parsec-protocol game
 * (the lowest joined slot, when no gameserver runs the match; it owns the
 * arena too): the match (matchSync.ts) on any change, every
 * MATCH_ANNOUNCE_TICKS and at once to a newcomer; the asteroid breaks
 * (arena.ts) as they happen, and every break of the match to a newcomer.
 */
import type { ArenaLog } from './arena';
import { announcementOf, MATCH_ANNOUNCE_TICKS, type MatchAnnouncement } from './matchSync';
import type { Match, World } from './types';
import type { BreakEntry } from '../wire/types';

/** The match fields whose change is news (the clocks count on every node by themselves). */
type MatchNews = Omit<Match, 'ticksLeft' | 'playedTicks'>;

export class AuthorityVoice {
  /** What we last announced, and when (tick); null: announce at the next tick. */
  private announced: { scores: World['scores']; match: MatchNews; tick: number } | null = null;
  /** Somebody must hear every break of the match at the next tick. */
  private everything = false;

  /** Everything must be said again at the next tick: a newcomer, or we just became the authority. */
  speakUp(): void {
    this.announced = null;
    this.everything = true;
  }

  /** The match announcement due now in `w` (after its tick), if any. */
  match(w: World): MatchAnnouncement | undefined {
    const { ticksLeft: _, playedTicks: __, ...match } = w.match;
    const last = this.announced;
    // The scores array is replaced whenever a score changes, so comparing it is enough (every tick, cheaply).
    const same = last !== null && last.scores === w.scores && (Object.keys(match) as (keyof MatchNews)[]).every((k) => last.match[k] === match[k]);
    if (same && w.tick - last.tick < MATCH_ANNOUNCE_TICKS) return undefined;
    this.announced = { scores: w.scores, match, tick: w.tick };
    return announcementOf(w);
  }

  /** The asteroidBreaks events due now for match `round` of `arena`: its new breaks, or all of them after speakUp. */
  breaks(arena: ArenaLog, round: number): { round: number; breaks: BreakEntry[] }[] {
    const due = arena.take(round, this.everything);
    this.everything = false;
    return due.map((breaks) => ({ round, breaks }));
  }
}
