/**
 * The gameserver as the owner of its game's arena (the shared objects of the
 * match): it simulates the asteroids and energy fields with the same rules
 * code every client runs (stepWorld, in a world without ships), the players'
 * lasers in it so they wear the asteroids, breaks those worn through, spawns
 * the extras and decides every claim of one (the first wins). What it says —
 * new extras, extras gone, breaks — is reliable, from no player's slot, to
 * every player; a newcomer hears every live extra and every break of the
 * match (src/shared/game/arena.ts has the followers' side).
 *
 * Its clock is the match referee's: each match's arena starts from the field
 * when the referee's round begins and steps once per 25 ms of the time played
 * since (matchState.msPlayed), so the clients, which rebuild their arena from
 * the same clock, see the same asteroids. Pure: the caller gives the time.
 */
import { ArenaLog } from '../../../shared/game/arena';
import { WORLD_SEED } from '../../../shared/game/clientGame';
import type { WorldEvent } from '../../../shared/game/events';
import { kindCreatedBy } from '../../../shared/game/registry';
import { stepWorld } from '../../../shared/game/step';
import { MATCH_OWNER, type Extra, type World } from '../../../shared/game/types';
import { createWorld } from '../../../shared/game/world';
import { STEP_MS } from '../../../shared/sim/types';
import type { SolarSystem } from '../../../shared/servers/galaxyMap';
import { NO_SLOT, objectId, objectOwner, type RemoteEvent, type ReliableGameEvent } from '../../../shared/wire/types';

/** Most lasers the arena simulates at once (a flooding client cannot make every tick expensive). */
const MAX_LASERS = 256;
/** Answers the arena remembers (which extra went to whom) for late claims. */
const MEMORY = 64;
const NEVER = (): boolean => false;

/** What makes a solar system's arena (galaxyMap.ts SolarSystem). */
export type ArenaShape = Pick<SolarSystem, 'seed' | 'asteroids' | 'radius' | 'fields'>;

export class ArenaOwner {
  private world: World;
  private readonly log = new ArenaLog();
  /** Extras announced (local id → type), to tell everyone when one is gone. */
  private readonly announced = new Map<number, number>();
  /** Who got which extra (local id → winner slot). */
  private readonly taken = new Map<number, number>();
  /** Counters for the status page and the tests. */
  readonly counters = { extrasSpawned: 0, extrasTaken: 0, claimsRefused: 0, asteroidsBroken: 0 };

  /** The arena of a solar system (galaxyMap.ts: its seed, asteroids, field radius, energy fields); default: the default system's. */
  constructor(round: number, arena?: ArenaShape) {
    this.world = fresh(createWorld(arena?.seed ?? WORLD_SEED, { ships: 0, ...(arena ? { asteroids: arena.asteroids, radius: arena.radius, fields: arena.fields } : {}) }), round);
  }

  /** The arena's world (for tests). */
  get current(): World {
    return this.world;
  }

  /** A player's laser, as relayed (its creation event): simulated so it wears the asteroids it strikes. */
  laser(slot: number, ev: RemoteEvent): void {
    if (ev.type !== 'createLaser' || objectOwner(ev.id) !== slot) return;
    const id = ev.id & 0xffff;
    let lasers = 0;
    for (const o of this.world.objects) {
      if (o.kind !== 'laser') continue;
      if (o.owner === slot && o.id === id) return;
      lasers++;
    }
    if (lasers >= MAX_LASERS) return;
    const laser = kindCreatedBy(ev)?.fromEvent(ev, slot, id, 0);
    if (laser) this.world = { ...this.world, objects: [...this.world.objects, laser] };
  }

  /**
   * Moves the arena to the referee's clock: match `round`, `playedMs` into it
   * (a new round starts from the field). Returns what every player must hear.
   */
  advance(round: number, playedMs: number): ReliableGameEvent[] {
    const out: ReliableGameEvent[] = [];
    if (round !== this.world.match.round) {
      this.world = fresh(this.world, round);
      this.announced.clear();
      this.taken.clear();
    }
    const due = Math.floor(playedMs / STEP_MS);
    while (this.world.match.playedTicks < due) {
      const events: WorldEvent[] = [];
      const before = this.world.match.round;
      this.world = stepWorld(this.world, undefined, { decidesHitsOn: NEVER, decidesMatch: false, spawnsExtras: true, breaksAsteroids: true, events });
      this.log.record(this.world, before, events);
      for (const e of events) if (e.type === 'broken') this.counters.asteroidsBroken++;
    }
    const live = new Set<number>();
    for (const o of this.world.objects) {
      if (o.kind !== 'extra') continue;
      live.add(o.id);
      if (this.announced.has(o.id)) continue;
      this.announced.set(o.id, o.type);
      this.counters.extrasSpawned++;
      out.push(createOf(o));
    }
    // Extras whose time ran out: gone for everyone, taken by nobody.
    for (const id of this.announced.keys()) {
      if (live.has(id)) continue;
      this.announced.delete(id);
      out.push({ type: 'killObject', id: objectId(NO_SLOT, id), killerSlot: NO_SLOT });
    }
    for (const breaks of this.log.take(this.world.match.round)) out.push({ type: 'asteroidBreaks', round: this.world.match.round, breaks });
    return out;
  }

  /**
   * Player `slot` claims the arena's extra of wire id `id` (the forwarder has
   * checked it was near). The first claim wins: the answer goes to everyone;
   * a later claim gets an answer naming the winner, so the loser undoes its
   * pickup. Returns the answer and, when `slot` won, the extra's type.
   */
  claim(slot: number, id: number): { answer: ReliableGameEvent; won?: number } {
    const local = id & 0xffff;
    const extra = this.world.objects.find((o): o is Extra => o.kind === 'extra' && (o.id & 0xffff) === local);
    if (!extra) {
      this.counters.claimsRefused++;
      return { answer: { type: 'killObject', id: objectId(NO_SLOT, local), killerSlot: this.taken.get(local) ?? NO_SLOT } };
    }
    this.world = { ...this.world, objects: this.world.objects.filter((o) => o !== extra) };
    this.announced.delete(extra.id);
    if (this.taken.size >= MEMORY) this.taken.delete(this.taken.keys().next().value as number);
    this.taken.set(local, slot);
    this.counters.extrasTaken++;
    return { answer: { type: 'killObject', id: objectId(NO_SLOT, local), killerSlot: slot }, won: extra.type };
  }

  /** What a newcomer must hear: every live extra and every break of the match so far. */
  forNewcomer(): ReliableGameEvent[] {
    const out: ReliableGameEvent[] = [];
    for (const o of this.world.objects) if (o.kind === 'extra') out.push(createOf(o));
    for (const breaks of this.log.all(this.world.match.round)) out.push({ type: 'asteroidBreaks', round: this.world.match.round, breaks });
    return out;
  }
}

/** `world` as match `round` begins: the field's asteroids, the energy fields, nothing else. */
function fresh(world: World, round: number): World {
  return {
    ...world,
    asteroids: world.field.slice(),
    objects: world.objects.filter((o) => o.kind === 'field' && o.owner === MATCH_OWNER),
    match: { ...world.match, round, playedTicks: 0 },
  };
}

function createOf(x: Extra): ReliableGameEvent {
  return { type: 'createExtra', id: objectId(NO_SLOT, x.id), kind: x.type, pos: { x: x.pos.x, y: x.pos.y, z: x.pos.z } };
}
