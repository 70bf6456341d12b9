/**
 * The match as one client game takes part in it (clientGame.ts): who decides
 * it — offline this game; online the match authority, the lowest joined slot
 * (ours included), unless a gameserver runs it (it has spoken: a matchState
 * from no player's slot) — the kill and time limits of the matches this game
 * decides, what the authority says (the match, the asteroid breaks:
 * authorityVoice.ts, arena.ts) and a follower hears, and the scores of
 * players who left, kept by name for when they rejoin.
 */
import type { GamePlayer, TickOutcome } from './clientTypes';
import type { MatchLimits } from './match';
import { Rejoins, withAnnouncement } from './matchSync';
import { AuthorityVoice } from './authorityVoice';
import { ArenaLog } from './arena';
import { MATCH_OWNER, type World } from './types';
import { NO_SLOT, type RemoteEvent } from '../wire/types';

/** The events that speak for the match. */
export type MatchWord = Extract<RemoteEvent, { type: 'matchState' | 'asteroidBreaks' }>;

export class ClientMatch {
  /** The kill and time limits of the matches this game decides. */
  limits: Partial<MatchLimits>;
  /** The asteroids' breaks this match: logged and announced as the authority, heard as a follower. */
  readonly arena = new ArenaLog();
  /** A gameserver runs this game's match (it has announced it). */
  private serverRuns = false;
  /** The match authority: the lowest joined slot (ours included), null offline or before anyone joined. */
  private authority: number | null = null;
  /** What we say as the match authority: the match and the breaks. */
  private readonly voice = new AuthorityVoice();
  /** Scores of players who left this match, kept by name (we as the match authority). */
  private readonly rejoins = new Rejoins();

  constructor(limits: Partial<MatchLimits> | undefined) {
    this.limits = { ...limits };
  }

  /** Whether this game decides the match (`net`: our network slot, null offline); see ClientGame.decidesMatch. */
  decides(net: number | null): boolean {
    return net === null || (!this.serverRuns && this.authority === net);
  }

  /** Whether `slot` speaks for the match to us: the gameserver (no player's slot) once it runs the match, else the lowest joined slot when that is not us. */
  private speaksFor(slot: number, net: number | null): boolean {
    return slot === NO_SLOT ? this.serverRuns : slot === this.authority && !this.decides(net);
  }

  /**
   * The slot table changed (`shown`: the remote slots shown until now): the
   * authority is the lowest joined slot; a new one, or a newcomer it must
   * tell the match, speaks at the next tick. The authority keeps the score
   * of a player who leaves, to give back if they rejoin under that name.
   */
  seated(world: World, players: readonly GamePlayer[], net: number | null, shown: ReadonlySet<number>): World {
    const joined = players.filter((p) => p.joined).map((p) => p.slot);
    const authority = net === null || joined.length === 0 ? null : Math.min(...joined);
    // A new authority, or a newcomer the authority must tell the match: announce at the next tick.
    const newcomer = joined.some((slot) => slot !== net && !shown.has(slot));
    if (authority !== this.authority || newcomer) this.voice.speakUp();
    this.authority = authority;
    return net !== null && authority === net ? this.rejoins.apply(world, players) : world;
  }

  /** A word on the match from `slot`, `ageMs` old: the world as it leaves it (unchanged when `slot` does not speak for the match). */
  heard(world: World, slot: number, ev: MatchWord, ageMs: number, local: number, net: number | null): World {
    if (ev.type === 'asteroidBreaks') return this.speaksFor(slot, net) ? this.arena.heard(world, ev.round, ev.breaks) : world;
    // A gameserver's word (from no player's slot) runs the match from then on; else the lowest joined slot's.
    if (slot === NO_SLOT && net !== null && !this.serverRuns) world = this.serverTakesOver(world);
    if (!this.speaksFor(slot, net)) return world;
    const before = world.match;
    return this.arena.announced(withAnnouncement(world, ev, ageMs, local), before.round, before.playedTicks);
  }

  /** What the authority says after a tick (`world`; `round`: the match's): the match when it is due, the breaks not yet said. */
  says(world: World, round: number): Pick<TickOutcome, 'match' | 'breaks'> {
    const out: Pick<TickOutcome, 'match' | 'breaks'> = {};
    const match = this.voice.match(world);
    if (match) out.match = match;
    const breaks = this.voice.breaks(this.arena, round);
    if (breaks.length > 0) out.breaks = breaks;
    return out;
  }

  /** Another game, another match: no breaks heard, no gameserver yet. */
  clear(): void {
    this.arena.clear();
    this.serverRuns = false;
  }

  /**
   * A gameserver spoke: it runs the match and owns the arena from now on.
   * Extras we may have spawned as the lowest slot before we heard it leave
   * (the server's replace them; its first word comes as we join).
   */
  private serverTakesOver(w: World): World {
    this.serverRuns = true;
    return { ...w, objects: w.objects.filter((o) => o.kind !== 'extra' || o.owner !== MATCH_OWNER) };
  }
}
