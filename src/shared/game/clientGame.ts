/**
 * One client's game: the World with every ship keyed by slot — ours
 * simulated from our inputs, the others placed from their states — and every
 * object, local or replicated. The renderer's view, the headless bot and the
 * host all use it through the GameDriver; nothing else steps a world.
 *
 * Parsec's ownership model: this node owns its ship and the objects it
 * creates; other players' objects are simulated here from their creation
 * events, and hits on our ship are decided here (the victim decides), so
 * stepWorld is told to decide hits on our slot only.
 *
 * Its parts: who decides the match and what is said of it (clientMatch.ts),
 * the other players' objects on their way in (remoteObjects.ts), the extras'
 * claims (extraClaims.ts) and our shots' reports (hitReports.ts).
 */
import { NO_INPUT, TICK_HZ, type ShipInput } from '../sim/types';
import { withLimits, type MatchLimits } from './match';
import { withKill } from './matchSync';
import { ClientMatch } from './clientMatch';
import { ExtraClaims } from './extraClaims';
import { RemoteObjects } from './remoteObjects';
import type { ClientGameOptions, GamePlayer, GameNotice, TickOutcome } from './clientTypes';
import { explosions, type SteppedFrame } from './frameSync';
import { killCause, killCauseOf } from './killCause';
import { reportsOf, ShotLog } from './hitReports';

export type { ClientGameOptions, GamePlayer, GameNotice, TickOutcome } from './clientTypes';
import { NO_SLOT, MAX_WIRE_SLOTS, objectId, objectOwner, type RemoteEvent, type ShipState } from '../wire/types';
import { DEFAULT_CONVERGE_MS } from '../net/smoothing';
import type { WorldEvent } from './events';
import { shipToState, withShip } from './kinds/ship';
import { Replicas } from './replicas';
import { stepWorld } from './step';
import { MATCH_OWNER, MATCH_PLAYING, NO_ATTACKER, type GameObject, type Ship, type World } from './types';
import { createWorld } from './world';
import { RULES } from './rules';
import type { GameJournal } from './journal';
import { seatBot, unseatBot } from './botSeats';
import { anotherGame, shipsInNewSlot } from './newSlot';
import { foreignKill } from './foreignKills';
import { enterSystem, type SolarSystemMessage, type SystemView } from './systemEntry';

/** Ticks between the local ship's destruction and its respawn (3 s). */
export const RESPAWN_TICKS = RULES.respawnTicks;
/** The seed every node's offline world starts from (so every peer sees the same asteroids). */
export const WORLD_SEED = 0x5741524c;

const validSlot = (slot: number | null): slot is number => slot !== null && Number.isInteger(slot) && slot >= 0 && slot < MAX_WIRE_SLOTS;

export class ClientGame {
  private prevWorld: World;
  private currWorld: World;
  /** The slot our ship flies in: the network's slot for us, 0 offline. */
  private local = 0;
  /** The network's slot for us, null offline. */
  private netSlot: number | null = null;
  /** Whether the slot table shows our own player joined (a network game's; offline there is none). */
  private ownJoined = false;
  /** Highest id of our objects already reported; ids only grow, so newer ones are above it. */
  private reportedId: number;
  private readonly replicas: Replicas;
  /** Remote slots that are joined and shown. */
  private shown = new Set<number>();
  /** Other players' objects arriving, joined to the world at the next tick. */
  private readonly remote = new RemoteObjects();
  private notices: GameNotice[] = [];
  /** Slots of the computer pilots flying in this (offline) game, ascending. */
  private botSlots: number[] = [];
  /** What the last tick did (hits, kills, pickups…), for pilots and the view. */
  private lastEvents: WorldEvent[] = [];
  /** The extras' claims and answers between us and the match authority. */
  private readonly extraClaims = new ExtraClaims();
  /** Who decides the match, its limits, what the authority says and a follower hears (clientMatch.ts). */
  private readonly match: ClientMatch;
  /** Our recent lasers and missiles, to recognise a victim's report of one, and the reports until taken (hitReports.ts). */
  private readonly shotLog = new ShotLog();
  /** The last tick was a shared world's (lockstep, netgame): every node decides every hit. */
  private synced = false;
  /** The correction time last set (so an unchanged one set every tick is not journaled). */
  private converge: number;
  /** The solar system a gameserver last said we are in (systemEntry.ts); null: none said (p2p, offline: the default arena). */
  private system: SolarSystemMessage | null = null;
  /**
   * Our ship is going through a stargate to another server (its `jumpTicket`): the next game joined keeps
   * the ship as it is (energy, hull, ammunition) rather than a fresh one, until that server places it.
   */
  private jumping = false;
  /** A recording's ear (journal.ts): hears every change made to this game, after it is made; null when nothing records. Never part of a snapshot. */
  journal: GameJournal | null = null;

  constructor(options: ClientGameOptions = {}) {
    this.match = new ClientMatch(options.match);
    this.currWorld = createWorld(options.seed ?? WORLD_SEED, { ships: 1, match: this.match.limits });
    this.prevWorld = this.currWorld;
    this.reportedId = this.currWorld.nextId - 1;
    this.converge = options.convergeMs ?? DEFAULT_CONVERGE_MS;
    this.replicas = new Replicas(this.converge);
  }

  /** The world before the last step (for interpolation). */
  get prev(): World {
    return this.prevWorld;
  }
  /** The world now. */
  get curr(): World {
    return this.currWorld;
  }
  /** Our slot (0 offline). */
  get localSlot(): number {
    return this.local;
  }
  /**
   * Watching the network game rather than flying in it: a spectator (no slot
   * of our own, NO_SLOT), or a player connected but not joined. The host
   * then shows it through the watch camera (watchCamera.ts).
   */
  get watching(): boolean {
    return this.netSlot === NO_SLOT || (this.netSlot !== null && !this.ownJoined);
  }
  /** Our ship, or undefined while it is destroyed. */
  get localShip(): Ship | undefined {
    const mine = this.currWorld.ships.find((s) => s.slot === this.local);
    return mine && mine.respawnIn === 0 ? mine : undefined;
  }
  /** True while our ship is destroyed and waiting to respawn. */
  get dead(): boolean {
    return (this.currWorld.ships.find((s) => s.slot === this.local)?.respawnIn ?? 0) > 0;
  }
  /** Whole seconds until the respawn (0 when alive), for the HUD. */
  get respawnSeconds(): number {
    const mine = this.currWorld.ships.find((s) => s.slot === this.local);
    return mine ? Math.ceil(mine.respawnIn / TICK_HZ) : 0;
  }
  /**
   * Whether this game decides the match (its end and the next one's start)
   * and owns its arena (spawns the extras, breaks the asteroids): offline, or
   * as the lowest joined slot — unless a gameserver runs the match (it has
   * spoken: a matchState from no player's slot), which then owns both.
   */
  get decidesMatch(): boolean {
    return this.match.decides(this.netSlot);
  }

  /**
   * New kill and time limits (the `killlimit` and `timelimit` cvars). They
   * take effect at once when this game decides the match (offline, or as the
   * match authority, which announces them), else the next time it does.
   * The time already played counts against a new time limit. Returns whether
   * they took effect now.
   */
  setMatchLimits(limits: Partial<MatchLimits>): boolean {
    this.match.limits = { ...this.match.limits, ...limits };
    const now = this.decidesMatch;
    if (now) this.currWorld = { ...this.currWorld, match: withLimits(this.currWorld.match, this.match.limits) };
    this.journal?.setMatchLimits(this, limits);
    return now;
  }

  /** The kill and time limits of the matches this game decides (the `killlimit` and `timelimit` cvars). */
  get matchLimits(): Partial<MatchLimits> {
    return { ...this.match.limits };
  }

  /** The solar system we are in and its stargates, as a gameserver said; null outside a gameserver's galaxy. */
  get solarSystem(): SystemView | null {
    return this.system === null ? null : { name: this.system.name, gates: this.system.gates };
  }

  /** Slots of the computer pilots in this offline game (`bot add`), ascending. */
  get bots(): readonly number[] {
    return this.botSlots;
  }
  /**
   * Whether this game decides the hits our shots make: offline (every ship is
   * ours or a bot's) and in a shared world (lockstep, netgame). In a Parsec
   * game the victim's game decides, and says so (takeCountedShots).
   */
  get decidesOurHits(): boolean {
    return this.netSlot === null || this.synced;
  }

  /** Keys of our shots (ShotWatch's `SeenHit.key`) whose victims' games reported counting them since the last call, oldest first. */
  takeCountedShots(): string[] {
    return this.shotLog.takeCounted();
  }

  /** What the last tick did: hits, kills, pickups, launches (events.ts). */
  get events(): readonly WorldEvent[] {
    return this.lastEvents;
  }

  /**
   * A computer pilot joins this offline game in the lowest free slot below
   * MAX_SLOTS, with a zero score: a fresh ship far from ours and out of its
   * sights, its weapons cold for a few seconds (spawnPoint.ts
   * `withJoiningPilot`), so the player has time to turn round.
   * The first one to join a player practising alone starts a new match (the
   * clock stood while there was nobody to play against; scores back to
   * zero). Its inputs come with each `step`. Returns its slot, or null when
   * the game is online (bots fly only offline) or every slot is taken.
   */
  addBot(): number | null {
    const slot = this.seatBot();
    this.journal?.addBot(this);
    return slot;
  }

  private seatBot(): number | null {
    if (this.netSlot !== null) return null;
    const seated = seatBot(this.currWorld, this.botSlots, this.local, this.match.limits);
    if (!seated) return null;
    this.currWorld = seated.world;
    this.botSlots = [...this.botSlots, seated.slot].sort((a, b) => a - b);
    return seated.slot;
  }

  /** Removes the computer pilot of `slot` (default: the last one added… the highest slot). Returns the slot removed, or null if there was none. */
  removeBot(slot?: number): number | null {
    const removed = this.unseatBot(slot);
    this.journal?.removeBot(this, slot);
    return removed;
  }

  private unseatBot(slot?: number): number | null {
    const which = slot ?? this.botSlots[this.botSlots.length - 1];
    if (which === undefined || !this.botSlots.includes(which)) return null;
    this.botSlots = this.botSlots.filter((s) => s !== which);
    const worlds = unseatBot(this.currWorld, this.prevWorld, which);
    this.currWorld = worlds.curr;
    this.prevWorld = worlds.prev;
    return which;
  }

  /** New correction time for remote ships (the `net_smooth` cvar). */
  set convergeMs(ms: number) {
    if (ms === this.converge) return;
    this.converge = ms;
    this.replicas.convergeMs = ms;
    this.journal?.convergeMs(this, ms);
  }

  /** Our ship as game packets carry it, or null while it is destroyed. */
  localState(): ShipState | null {
    const ship = this.localShip;
    if (!ship || this.dead) return null;
    return shipToState(ship);
  }

  /** Notices since the last call (explosions, kills), oldest first. */
  takeNotices(): GameNotice[] {
    if (this.notices.length === 0) return [];
    const out = this.notices;
    this.notices = [];
    return out;
  }

  /**
   * One 25 ms tick at host time `nowMs` with `input` for our ship (ignored
   * while it is destroyed). Remote ships are placed where their tracks are at
   * `nowMs`; replicated objects that arrived since the last tick join first.
   */
  step(input: ShipInput, nowMs: number, botInputs?: ReadonlyMap<number, ShipInput>): TickOutcome {
    const outcome = this.stepNow(input, nowMs, botInputs);
    this.journal?.step(this, input, nowMs, botInputs);
    return outcome;
  }

  private stepNow(input: ShipInput, nowMs: number, botInputs?: ReadonlyMap<number, ShipInput>): TickOutcome {
    this.synced = false;
    let world = this.match.arena.rebuilt(this.currWorld);
    if (this.remote.waiting) world = this.remote.joinTo(world);
    this.prevWorld = world;
    const local = this.local;
    const events: WorldEvent[] = [];
    const inputs = new Map([[local, input]]);
    const bots = this.botSlots;
    for (const slot of bots) inputs.set(slot, botInputs?.get(slot) ?? NO_INPUT);
    // Our ship's fate, and offline the computer pilots', is this game's to decide.
    const decidesHitsOn = bots.length === 0 ? (slot: number) => slot === local : (slot: number) => slot === local || bots.includes(slot);
    // The match's decider owns the arena: it spawns the extras (extraClaims.ts) and breaks the asteroids (arena.ts); a ship's drops are its own game's.
    const decides = this.decidesMatch;
    const online = this.netSlot !== null;
    const roundBefore = world.match.round;
    const matchBefore = world.match;
    world = stepWorld(world, inputs, { decidesHitsOn, decidesMatch: decides, spawnsExtras: decides, breaksAsteroids: decides, events });
    // Practice alone: a match needs someone to play against, so its clock stands until a bot joins.
    if (!online && bots.length === 0 && matchBefore.phase === MATCH_PLAYING) world = { ...world, match: matchBefore };
    this.lastEvents = events;
    if (online && decides) this.match.arena.record(world, roundBefore, events);
    else if (online) world = this.match.arena.settle(world);
    const created: GameObject[] = [];
    // Checked every tick, not every frame: an object can be born and die between two packets.
    // Ours, and online the extras this game made (the arena's as its owner, our ship's drops), go out as their creation events.
    for (const o of world.objects) {
      const reported = o.owner === local || (online && o.owner === MATCH_OWNER && o.kind === 'extra');
      if (!reported || o.id <= this.reportedId) continue;
      this.reportedId = o.id;
      created.push(o);
    }
    if (online) this.shotLog.fired(created);
    // Extras we took and others' mines that went off under us are claimed; others' shots that hit us are reported the same way (hitReports.ts).
    const claims = online ? [...this.extraClaims.fromTick(events, local), ...reportsOf(events, local)] : [];
    const mine = world.ships.find((s) => s.slot === local);
    let destroyed: TickOutcome['destroyed'] = null;
    for (const e of events) {
      // Our ship, and offline our computer pilots': this game decided, so it knows the weapon too.
      if (e.type !== 'destroyed' || (e.slot !== local && !bots.includes(e.slot))) continue;
      const killerSlot = e.killer === NO_ATTACKER ? NO_SLOT : e.killer;
      const cause = killCause(events, e.slot);
      const ship = e.slot === local ? mine : world.ships.find((s) => s.slot === e.slot);
      this.notices.push({ type: 'destroyed', slot: e.slot, killerSlot, pos: ship ? ship.pos : null, local: e.slot === local, ...(cause === undefined ? {} : { cause }) });
      if (e.slot === local) destroyed = cause === undefined ? { killerSlot } : { killerSlot, cause };
    }
    let ships = this.replicas.ships(nowMs);
    if (mine) ships = withShip(ships, mine);
    for (const slot of bots) {
      const bot = world.ships.find((s) => s.slot === slot);
      if (bot) ships = withShip(ships, bot);
    }
    this.currWorld = { ...world, ships };
    const outcome: TickOutcome = online && decides ? { created, destroyed, ...this.match.says(this.currWorld, world.match.round) } : { created, destroyed };
    if (claims.length > 0) outcome.claims = claims;
    const answers = this.extraClaims.takeAnswers();
    if (answers.length > 0) outcome.answers = answers;
    return outcome;
  }

  /**
   * A protocol that runs the simulation (lockstep) stepped the shared world:
   * it is shown as it is, every ship included, with its explosions as
   * notices. Our slot is `slot`; nothing of it is reported as Parsec events.
   */
  showSynced(frames: readonly SteppedFrame[], slot: number): void {
    this.showSyncedNow(frames, slot);
    this.journal?.showSynced(this, frames, slot);
  }

  private showSyncedNow(frames: readonly SteppedFrame[], slot: number): void {
    const last = frames[frames.length - 1];
    if (!last) return;
    this.prevWorld = last.before;
    this.currWorld = last.world;
    this.local = slot;
    this.netSlot = slot;
    this.reportedId = last.world.nextId - 1;
    this.lastEvents = frames.flatMap((f) => f.events);
    this.notices.push(...explosions(frames, slot));
    this.synced = true;
  }

  /**
   * The slot table changed. Entering a game (a new slot) puts our ship,
   * fresh, on a free spawn point — its slot's own unless a ship or an
   * asteroid is there — so two players never start on one spot; leaving it
   * keeps the ship where it is, in slot 0. Remote ships of slots that left or
   * unjoined leave the world. `localSlot` NO_SLOT watches the game without a
   * ship (a spectator, a server's recording): every joined player is shown,
   * and the game decides nothing.
   */
  applyPlayers(players: readonly GamePlayer[], localSlot: number | null): void {
    this.applyPlayersNow(players, localSlot);
    this.journal?.applyPlayers(this, players, localSlot);
  }

  private applyPlayersNow(players: readonly GamePlayer[], localSlot: number | null): void {
    // NO_SLOT: a spectator (a server's recording, a watcher), in the game but with no ship of its own.
    const net = validSlot(localSlot) || localSlot === NO_SLOT ? localSlot : null;
    // Computer pilots fly only offline: entering a network game sends them home.
    if (net !== null) while (this.botSlots.length > 0) this.unseatBot();
    this.currWorld = this.match.seated(this.currWorld, players, net, this.shown);
    this.shown = new Set(players.filter((p) => p.joined && !p.local && p.slot !== net).map((p) => p.slot));
    this.ownJoined = net !== null && net !== NO_SLOT && players.some((p) => p.slot === net && p.joined);
    this.replicas.retain(this.shown);
    let ships = this.currWorld.ships.filter((s) => s.slot === this.local || this.shown.has(s.slot) || this.botSlots.includes(s.slot));
    if (net !== this.netSlot) {
      this.netSlot = net;
      // Through a stargate to another server, our ship goes on as it was (the new server places it); else a new slot's ship.
      const mine = this.jumping ? ships.find((s) => s.slot === this.local) : undefined;
      ships = mine && net !== NO_SLOT ? withShip(ships.filter((s) => s.slot !== this.local && s.slot !== (net ?? 0)), { ...mine, slot: net ?? 0 }) : shipsInNewSlot(ships, this.local, net, this.currWorld);
      this.local = net ?? 0;
      // Our ids restart counting from here: objects reported under the old slot stay reported.
      this.reportedId = this.currWorld.nextId - 1;
      // Out of a gameserver's solar system: the default arena again (a gameserver says its system as we join it; a jump's next one says it at once).
      if (this.system !== null && !this.jumping) {
        this.system = null;
        const fresh = createWorld(WORLD_SEED, { ships: 0, match: this.match.limits });
        this.currWorld = { ...fresh, nextId: Math.max(fresh.nextId, this.currWorld.nextId), ships: this.currWorld.ships };
      }
      // Another game, another match (the authority's word replaces it if it is not us): newSlot.ts.
      this.currWorld = anotherGame(this.currWorld, this.match.limits);
      this.remote.clear();
      this.extraClaims.clear();
      this.shotLog.clear();
      this.match.clear();
    }
    this.currWorld = { ...this.currWorld, ships };
    this.prevWorld = { ...this.prevWorld, ships: this.prevWorld.ships.filter((s) => ships.some((n) => n.slot === s.slot)) };
  }

  /** Into the solar system of `m` (systemEntry.ts): a new arena, a new match, nothing of the last system left. */
  private entered(m: SolarSystemMessage): void {
    const entry = enterSystem(this.currWorld, m, this.system, this.netSlot === NO_SLOT ? null : this.local, this.match.limits);
    this.system = m;
    if (m.placed) this.jumping = false;
    this.currWorld = entry.world;
    this.prevWorld = entry.world;
    if (!entry.changed) return;
    this.replicas.retain(new Set());
    this.remote.clear();
    this.extraClaims.clear();
    this.shotLog.clear();
    this.match.clear();
  }

  /** A remote ship state that arrived at `nowMs`, `ageMs` old by common game time. */
  applyState(slot: number, state: ShipState, nowMs: number, ageMs: number): void {
    if (slot === this.netSlot || !this.shown.has(slot)) return;
    this.replicas.onState(slot, state, nowMs, ageMs);
    this.journal?.applyState(this, slot, state, nowMs, ageMs);
  }

  /**
   * A remote event from `slot` that arrived at `nowMs`, `ageMs` old by common
   * game time: an object creation (moved on by its age; it joins the world at
   * the next tick) or removal, or the destruction of that player's ship.
   * Only the owner may create or remove objects in its id range; duplicates of
   * a live object and objects beyond MAX_REMOTE_OBJECTS are ignored.
   */
  applyEvent(slot: number, ev: RemoteEvent, nowMs: number, rawAgeMs: number): void {
    this.applyEventNow(slot, ev, nowMs, rawAgeMs);
    this.journal?.applyEvent(this, slot, ev, nowMs, rawAgeMs);
  }

  private applyEventNow(slot: number, ev: RemoteEvent, nowMs: number, rawAgeMs: number): void {
    // Our own events come back from nobody; a spectator's slot is the server's (NO_SLOT), whose word it follows.
    if (slot === this.netSlot && slot !== NO_SLOT) return;
    // The one place an event's age is checked: the kinds and the match take it as it is.
    const ageMs = rawAgeMs > 0 && Number.isFinite(rawAgeMs) ? rawAgeMs : 0;
    // The gameserver's word on the solar system we are in (as we join, after a jump): its arena replaces the last.
    if (ev.type === 'solarSystem') {
      if (slot === NO_SLOT && this.netSlot !== null) this.entered(ev);
      return;
    }
    // The server sends our ship to another server: it goes on as it is there.
    if (ev.type === 'jumpTicket') {
      if (slot === NO_SLOT && this.netSlot !== null && this.netSlot !== NO_SLOT) this.jumping = true;
      return;
    }
    if (ev.type === 'matchState' || ev.type === 'asteroidBreaks') {
      this.currWorld = this.match.heard(this.currWorld, slot, ev, ageMs, this.local, this.netSlot);
      return;
    }
    if (!('id' in ev)) return;
    if (objectOwner(ev.id) !== slot) {
      // Another player's word on an object it does not own: only a kill (foreignKills.ts).
      if (ev.type === 'killObject') this.currWorld = foreignKill({ world: this.currWorld, netSlot: this.netSlot, local: this.local, shotLog: this.shotLog, remote: this.remote, extraClaims: this.extraClaims }, slot, ev.id, ev.killerSlot);
      return;
    }
    const id = ev.id & 0xffff;
    if (ev.type === 'killObject') {
      if (ev.id === objectId(slot, 0)) {
        // The match authority keeps the score; the others show its word (matchState), so nothing is counted twice.
        if (this.decidesMatch) this.currWorld = withKill(this.currWorld, slot, ev.killerSlot);
        const pos = this.replicas.destroyed(slot, nowMs);
        // The victim's game decided, and (wire v9) names the weapon.
        const cause = killCauseOf(ev.cause);
        this.notices.push({ type: 'destroyed', slot, killerSlot: ev.killerSlot, pos, local: false, ...(cause === undefined ? {} : { cause }) });
      } else {
        this.remote.remove(slot, id);
        // The owner's word on an extra we claimed (the arena's or a dropped one): ours, or taken back.
        this.currWorld = this.extraClaims.onAnswer(this.currWorld, slot, id, ev.killerSlot, this.local);
      }
      return;
    }
    this.remote.create(this.currWorld, slot, id, ev, ageMs, this.local);
  }
}
