/**
 * The gameserver as the match authority of its game: it keeps the scores
 * (the kills players' games announce about their own ships), runs the match
 * clock with its kill and time limits (`--kill-limit`, `--time-limit`), ends
 * the match with a ranking, starts the next after the countdown, and keeps a
 * leaver's score under their name for the rest of the match. What it says is
 * a matchState (the same announcement a p2p authority sends,
 * src/shared/game/matchSync.ts), sent reliably to each newcomer and to every
 * player on each change of the scores or the phase (every game counts the
 * clock down itself between them). Pure: the caller gives the time.
 */
import { createMatch, ranking, type MatchLimits } from '../../../shared/game/match';
import { RULES } from '../../../shared/game/rules';
import { TICK_HZ } from '../../../shared/sim/types';
import { MATCH_OVER, MATCH_PLAYING, type Score } from '../../../shared/game/types';
import { MAX_SCORE, MAX_WIRE_SLOTS, NO_SLOT, NO_TIME_LIMIT } from '../../../shared/wire/types';
import type { MatchStanding } from '../../../shared/game/matchSync';

export class MatchReferee {
  private readonly killLimit: number;
  private readonly timeLimitS: number;
  private phase = MATCH_PLAYING;
  private round = 0;
  /** When the match (playing) or the countdown (over) ends, ms; Infinity without a time limit. */
  private endsAt: number;
  /** When this round began, ms (the arena's clock counts from it). */
  private startedAt: number;
  private scores = new Map<number, { kills: number; deaths: number }>();
  private readonly names = new Map<number, string>();
  private readonly departed = new Map<string, { kills: number; deaths: number }>();
  private dirty = false;
  /** The ranking of the last match that ended, with the players' names (for the server's log). */
  lastRanking: (Score & { name: string })[] = [];

  constructor(limits: Partial<MatchLimits>, now: number) {
    const m = createMatch(limits);
    this.killLimit = m.killLimit;
    this.timeLimitS = m.timeLimitTicks / TICK_HZ;
    this.endsAt = this.timeLimitS > 0 ? now + this.timeLimitS * 1000 : Infinity;
    this.startedAt = now;
  }

  /** The round being played (or whose ranking is shown). */
  get currentRound(): number {
    return this.round;
  }

  /** Ms since this round began at `now` (its arena's clock). */
  playedMs(now: number): number {
    return Math.max(0, now - this.startedAt);
  }

  /** A player joined `slot` under `name`: a score they left earlier in this match comes back. */
  join(slot: number, name: string): void {
    this.names.set(slot, name);
    const back = this.departed.get(name);
    this.departed.delete(name);
    // A newcomer hears the match on joining; the others learn of it only when it brings a score back.
    if (back) {
      this.scores.set(slot, back);
      this.dirty = true;
    } else this.scores.delete(slot);
  }

  /** The player of `slot` left: their score is kept under their name until the match ends. */
  leave(slot: number): void {
    const name = this.names.get(slot);
    const score = this.scores.get(slot);
    if (name !== undefined && score) this.departed.set(name, score);
    this.names.delete(slot);
    // Only a line that leaves the scoreboard is news.
    if (this.scores.delete(slot)) this.dirty = true;
  }

  /** The game of `victim` says its ship was destroyed by `killer` (NO_SLOT: nobody). Counted only while the match is played. */
  kill(victim: number, killer: number, now: number): void {
    if (this.phase !== MATCH_PLAYING || !this.names.has(victim)) return;
    this.add(victim, 0, 1);
    if (killer !== NO_SLOT && killer !== victim && this.names.has(killer)) this.add(killer, 1, 0);
    this.dirty = true;
    this.tick(now);
  }

  /** Moves the match on to `now`: the end by the kill or time limit, the next match after the countdown. */
  tick(now: number): void {
    if (this.phase === MATCH_PLAYING) {
      const byKills = this.killLimit > 0 && [...this.scores.values()].some((s) => s.kills >= this.killLimit);
      if (byKills || now >= this.endsAt) {
        this.lastRanking = ranking(this.scoreList()).map((s) => ({ ...s, name: this.names.get(s.slot) ?? `slot ${s.slot}` }));
        this.phase = MATCH_OVER;
        this.endsAt = now + RULES.match.restartS * 1000;
        this.dirty = true;
      }
    } else if (now >= this.endsAt) {
      this.phase = MATCH_PLAYING;
      this.round = (this.round + 1) & 0xffff;
      this.endsAt = this.timeLimitS > 0 ? now + this.timeLimitS * 1000 : Infinity;
      this.startedAt = now;
      this.scores = new Map();
      this.departed.clear();
      this.dirty = true;
    }
  }

  /** The standing due at `now` for every player (the scores or the phase changed), or null. */
  due(now: number): MatchStanding | null {
    if (!this.dirty) return null;
    this.dirty = false;
    return this.announcement(now);
  }

  /** The match as it stands at `now` (every player's score: matchPages splits it for the wire). */
  announcement(now: number): MatchStanding {
    const left = this.endsAt === Infinity ? NO_TIME_LIMIT : Math.max(0, Math.round(this.endsAt - now));
    return {
      round: this.round,
      phase: this.phase,
      killLimit: this.killLimit,
      timeLimitS: this.timeLimitS,
      msLeft: left,
      msPlayed: Math.min(0xffffffff, Math.round(this.playedMs(now))),
      scores: this.scoreList().map((s) => ({ slot: s.slot, kills: Math.min(MAX_SCORE, s.kills), deaths: Math.min(MAX_SCORE, s.deaths) })),
    };
  }

  private scoreList(): Score[] {
    return [...this.scores].filter(([slot]) => slot < MAX_WIRE_SLOTS).map(([slot, s]) => ({ slot, ...s })).sort((a, b) => a.slot - b.slot);
  }

  private add(slot: number, kills: number, deaths: number): void {
    const s = this.scores.get(slot) ?? { kills: 0, deaths: 0 };
    this.scores.set(slot, { kills: s.kills + kills, deaths: s.deaths + deaths });
  }
}
