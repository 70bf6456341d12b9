/**
 * The hit marker's verdict: a hit our screen saw (ShotWatch, at once) is
 * later confirmed or withdrawn by what the game that decides it says.
 *
 * - Offline, and in a shared world (lockstep, netgame), our own game decides
 *   every hit (ClientGame.decidesOurHits): what our screen saw is what
 *   counted, so each hit is confirmed in the tick it is seen.
 * - In a Parsec game (p2p, slotserver, gameserver) the victim's game decides
 *   and reports every laser or missile it applied to its ship
 *   (hitReports.ts; ClientGame.takeCountedShots gives the keys). A seen hit
 *   whose report comes is confirmed. A report may come first (the victim's
 *   game counted a shot our screen saw hit a tick later, or never): it is
 *   kept for HIT_VERDICT_TIMEOUT_MS, so a hit seen after it is confirmed at
 *   once.
 * - **Timeout: a seen hit still unresolved after HIT_VERDICT_TIMEOUT_MS is
 *   withdrawn**, not left as seen. The report is a reliable message, sent in
 *   the victim's next packet (≤ 50 ms at the default send rate) and resent
 *   after 200 ms (or 1.5 round trips + 40 ms) while unacknowledged; the shot
 *   reaches the victim one way and the report comes back the other, through
 *   the gameserver on two hops. At 150 ms one way with 5 % loss a report
 *   arrives within about 0.4 s, or 0.9 s when resent once (one in 20, or 10
 *   through a gameserver); two losses in a row (1 in 400) still arrive within
 *   1.5 s. So a hit unresolved by then was not counted by the game that
 *   decides, and the marker should stop claiming it was: leaving it "seen"
 *   would keep the very disagreement issue 25 is about on screen. A report
 *   later than that (a link that stalled) still turns it confirmed.
 *
 * Pure: time is passed in (host ms); views come in order, as the page gets
 * them.
 */
import { ShotWatch, type SeenHit } from './shotWatch';
import type { WorldView } from './view';

/** How long a seen hit waits for the deciding game's word before it is withdrawn, ms (see above). */
export const HIT_VERDICT_TIMEOUT_MS = 1500;

/** What the deciding game said of the hit of shot `key` (SeenHit.key). */
export interface HitVerdict {
  key: string;
  state: 'confirmed' | 'withdrawn';
}

/** What the ledger needs of the game each tick (ClientGame has it). */
export interface VerdictSource {
  readonly decidesOurHits: boolean;
  takeCountedShots(): string[];
}

export class HitLedger {
  private readonly watch = new ShotWatch();
  /** Seen hits waiting for the deciding game's word: key → when seen. */
  private readonly pending = new Map<string, number>();
  /** Reports that came before (or without) a seen hit: key → when they came. */
  private readonly early = new Map<string, number>();
  /** Withdrawn hits, a report of which would still confirm them: key → when withdrawn. */
  private readonly withdrawn = new Map<string, number>();
  /** Hits seen (for tests and figures). */
  seenTotal = 0;

  /**
   * One tick: `view` is the world view the page gets, `game` says who decides
   * and which shots were reported counted. Returns the verdicts of this tick
   * (a hit seen now and confirmed at once included), and the hits seen now in
   * `seen` when asked.
   */
  tick(view: WorldView, game: VerdictSource, nowMs: number, seen?: SeenHit[]): HitVerdict[] {
    const out: HitVerdict[] = [];
    const hits = this.watch.next(view);
    this.seenTotal += hits.length;
    seen?.push(...hits);
    const decides = game.decidesOurHits;
    for (const key of game.takeCountedShots()) {
      if (this.pending.delete(key)) out.push({ key, state: 'confirmed' });
      else if (this.withdrawn.delete(key)) out.push({ key, state: 'confirmed' });
      else this.early.set(key, nowMs);
    }
    for (const hit of hits) {
      if (decides || this.early.delete(hit.key)) out.push({ key: hit.key, state: 'confirmed' });
      else this.pending.set(hit.key, nowMs);
    }
    for (const [key, at] of this.pending) {
      if (nowMs - at < HIT_VERDICT_TIMEOUT_MS) continue;
      this.pending.delete(key);
      this.withdrawn.set(key, nowMs);
      out.push({ key, state: 'withdrawn' });
    }
    for (const [key, at] of this.early) if (nowMs - at >= HIT_VERDICT_TIMEOUT_MS) this.early.delete(key);
    for (const [key, at] of this.withdrawn) if (nowMs - at >= 4 * HIT_VERDICT_TIMEOUT_MS) this.withdrawn.delete(key);
    return out;
  }

  /** Seen hits still waiting for a verdict. */
  get waiting(): number {
    return this.pending.size;
  }
}
