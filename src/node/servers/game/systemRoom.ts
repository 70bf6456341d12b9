/**
 * One solar system of a gameserver's galaxy (issue 29): its own arena
 * (asteroids, energy fields, extras: arenaOwner.ts), its own match
 * (matchReferee.ts), its own interest space and forwarding (forwarder.ts:
 * only the players in this system see each other), and, with --record, its
 * own match recordings. The seats' tokens are the server's (shared by every
 * system's forwarder); a seat moves between systems without ending
 * (galaxyRooms.ts). What a player hears first on entering is the system
 * itself (the `solarSystem` message: its arena and stargates, and after a
 * jump where the ship arrives), then the match and the arena as a newcomer.
 */
import { EXTRA_KINDS } from '../../../shared/game/combat';
import { RULES } from '../../../shared/game/rules';
import { MATCH_OVER } from '../../../shared/game/types';
import { matchPages } from '../../../shared/game/matchSync';
import type { Arrival } from '../../../shared/game/stargate';
import type { SolarSystem } from '../../../shared/servers/galaxyMap';
import { NO_SLOT, type ReliableGameEvent } from '../../../shared/wire/types';
import type { Logger } from '../../log';
import { MatchRecorder } from '../common/matchRecorder';
import { ArenaOwner } from './arenaOwner';
import { Forwarder, type ForwarderConfig } from './forwarder';
import { MatchReferee } from './matchReferee';
import type { ClientSeat } from './seat';
import type { Clock } from '../../../shared/time/clock';

export interface SystemRoomParts {
  forwarding: ForwarderConfig;
  /** The server's seats by token, shared by every system. */
  tokens: Map<number, ClientSeat>;
  match: { killLimit?: number; timeLimitS?: number };
  maxPlayers: number;
  /** A player's ship was destroyed in this system (`killer`: NO_SLOT or a slot): the career totals count it. */
  killed(victim: number, killer: number): void;
  /** Grants the ammunition an extra carried to its winner (the rules guard: ruleGuard.ts). */
  grantAmmo(slot: number, missiles: number, mines: number): void;
  /** Who is seated where (the join server's players), for the recordings. */
  playersIn(room: SystemRoom): { slot: number; name: string }[];
  /** A match recording per match (--record): its file names begin with `recordAs`. */
  record?: { dir: string; keep: number; recordAs: string; server: string; log: Logger; timers: Clock };
  log: Logger;
  now: number;
}

export class SystemRoom {
  readonly fwd: Forwarder;
  readonly referee: MatchReferee;
  readonly arena: ArenaOwner;
  readonly recorder: MatchRecorder | null = null;
  /** The round whose end was logged last. */
  private loggedEnd = -1;
  private playersChanged = false;

  constructor(
    readonly system: SolarSystem,
    private readonly p: SystemRoomParts,
    clock: () => number,
  ) {
    this.fwd = new Forwarder(p.forwarding, p.tokens);
    // The server is each system's match authority: scores from the kills players' games announce, limits from its options.
    this.referee = new MatchReferee(p.match, p.now);
    this.fwd.onOwnKill = (victim, killer, now) => {
      this.referee.kill(victim, killer, now);
      p.killed(victim, killer);
    };
    // A missile or mine pack the authority gave a player: the rules guard lets it fire those too.
    this.fwd.onExtraTaken = (winner, type) => {
      const x = RULES.extras;
      if (EXTRA_KINDS[type] === 'missiles') p.grantAmmo(winner, x.missilePack, 0);
      else if (EXTRA_KINDS[type] === 'mines') p.grantAmmo(winner, 0, x.minePack);
    };
    // The server owns the arena too: asteroids, energy fields and extras (arenaOwner.ts), on the referee's clock.
    this.arena = new ArenaOwner(this.referee.currentRound, system);
    this.fwd.onLaser = (slot, ev) => this.arena.laser(slot, ev);
    this.fwd.onServerClaim = (slot, id, now) => {
      const r = this.arena.claim(slot, id);
      if (r.won !== undefined) this.fwd.onExtraTaken?.(slot, r.won);
      this.sayArena([r.answer], now);
    };
    // Every match into a demo file (--record): the server watches its own game as a spectator would (matchRecorder.ts).
    const record = p.record;
    if (record) {
      const recorder = new MatchRecorder({ dir: record.dir, keep: record.keep, serverName: record.recordAs, server: record.server, protocol: 'gameserver', log: record.log, clock, timers: record.timers });
      this.recorder = recorder;
      this.fwd.onRelayed = (slot, what, gameTime) => {
        if (what.state) recorder.state(slot, what.state, gameTime);
        else recorder.event(slot, what.event, gameTime);
      };
      recorder.startMatch({ round: this.referee.currentRound, players: p.playersIn(this), welcome: this.welcome(p.now) });
    }
  }

  get name(): string {
    return this.system.name;
  }

  /** The system as its players hear it (wire v15 `solarSystem`): its arena, its stargates, and where a jumping ship arrives. */
  systemMessage(arrival?: Arrival): ReliableGameEvent {
    const { name, seed, asteroids, radius, fields, gates } = this.system;
    const zero = { x: 0, y: 0, z: 0 };
    return {
      type: 'solarSystem',
      name,
      seed,
      asteroids,
      radius,
      fields,
      gates: gates.map((g) => ({ to: g.to, pos: { ...g.pos } })),
      placed: arrival !== undefined,
      pos: arrival ? { ...arrival.pos } : zero,
      rot: arrival ? { ...arrival.rot } : { x: 0, y: 0, z: 0, w: 1 },
      vel: arrival ? { ...arrival.vel } : zero,
    };
  }

  /** What a newcomer hears first, in order: the system, the match, the arena (a match recording's game hears the same). */
  welcome(now: number, arrival?: Arrival): ReliableGameEvent[] {
    return [this.systemMessage(arrival), ...matchPages(this.referee.announcement(now), this.p.maxPlayers).map((page) => ({ type: 'matchState' as const, ...page })), ...this.arena.forNewcomer()];
  }

  /**
   * `s` (slot `slot`, named `name`) enters this system, seated already in its forwarder: it hears the welcome
   * (after a jump, placed at `arrival`). Returns the link id of the system message (the seat's arrival waits for its acknowledgement).
   */
  greet(s: ClientSeat, name: string, now: number, arrival?: Arrival): number {
    if (s.spectator === null) this.referee.join(s.slot, name);
    this.playersChanged = true;
    const [system, ...rest] = this.welcome(now, arrival);
    const id = this.fwd.sayToSeat(s, system as ReliableGameEvent, now);
    for (const ev of rest) this.fwd.sayToSeat(s, ev, now);
    return id;
  }

  /** The player in `slot` left this system (the server, or for another system). */
  farewell(slot: number): void {
    this.referee.leave(slot);
    this.playersChanged = true;
  }

  /** Tells every player here what the arena did (new extras, extras gone, breaks), keeping the claimable extras in step. */
  private sayArena(events: ReliableGameEvent[], now: number): void {
    for (const ev of events) {
      this.recorder?.event(NO_SLOT, ev);
      if (ev.type === 'createExtra') this.fwd.serverExtra(ev.id, ev.pos, ev.kind);
      else if (ev.type === 'killObject') this.fwd.forget(ev.id);
      this.fwd.sayToEveryone(ev, now);
    }
  }

  /** The server's tick for this system: the match's clock, the arena's, what the match says. */
  tick(now: number): void {
    if (this.playersChanged) {
      this.playersChanged = false;
      this.recorder?.players(this.p.playersIn(this));
    }
    const roundBefore = this.referee.currentRound;
    this.referee.tick(now);
    // A new match: a new recording, which hears the arena's fresh start as a newcomer would.
    if (this.recorder && this.referee.currentRound !== roundBefore) this.recorder.startMatch({ round: this.referee.currentRound, players: this.p.playersIn(this), welcome: this.welcome(now) });
    this.sayArena(this.arena.advance(this.referee.currentRound, this.referee.playedMs(now)), now);
    const said = this.referee.due(now);
    if (said) {
      const pages = matchPages(said, this.p.maxPlayers);
      for (const page of pages) this.fwd.sayToEveryone({ type: 'matchState', ...page }, now);
      for (const page of pages) this.recorder?.event(NO_SLOT, { type: 'matchState', ...page });
      if (said.phase === MATCH_OVER && said.round !== this.loggedEnd) {
        this.loggedEnd = said.round;
        this.p.log.info({ system: this.system.name, round: said.round, ranking: this.referee.lastRanking }, 'match over');
      }
    }
    this.fwd.releaseHeld(now);
  }
}
