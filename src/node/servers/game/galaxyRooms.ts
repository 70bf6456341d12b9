/**
 * A gameserver's galaxy at run time (issue 29): one SystemRoom per solar
 * system (systemRoom.ts), every seat in exactly one of them, the seats'
 * tokens shared. A player joins the first system; a ship whose path passes
 * through a stargate (stargate.ts) jumps — its path between two of its
 * states, and on each tick since its last state where its velocity takes it
 * (a ship flying straight sends a state only twice a second: dead
 * reckoning, net/sendPolicy.ts) — to a
 * system of this galaxy at once — its seat moves to that system's room,
 * keeping its token, endpoint and reliable link, and it hears the new
 * system with where it arrives — or, for a system this server does not
 * have, the jump is refused (`refused`), the ship stays and may try again
 * after JUMP_COOLDOWN_MS. A seat that jumped has its states held back
 * (`arriving`) until it acknowledges the system message: a state it sent
 * before it knew would put its ship back at the old gate.
 *
 * Each system is its own interest space (its forwarder's grid): a server of
 * several systems costs what its systems cost, each as its players.
 */
import { arrivalAt, gateCrossed, type Arrival } from '../../../shared/game/stargate';
import type { Galaxy, Stargate } from '../../../shared/servers/galaxyMap';
import type { Vec3 } from '../../../shared/sim/types';
import type { ClientSeat } from './seat';
import { SystemRoom, type SystemRoomParts } from './systemRoom';
import type { Forwarder } from './forwarder';
import type { SystemCensus } from './gameserverOptions';

/** After a refused jump the ship may go through a gate again this much later (ms); an arriving ship is beyond the gate back, and goes on at once. */
export const JUMP_COOLDOWN_MS = 2000;

/** A player's totals over every system it played in (they travel with it through the gates). */
export interface Career {
  kills: number;
  deaths: number;
  jumps: number;
}

/** A ship arriving from another server (universeDoor.ts): the system, the one it left, its speed. */
export interface Arriving {
  system: string;
  from: string;
  speed: number;
  career: Career;
}

export interface GalaxyRoomsParts extends Omit<SystemRoomParts, 'tokens' | 'record' | 'killed'> {
  /** --record: each system's matches into files beginning with the server's name (and the system's, after the first). */
  record?: Omit<NonNullable<SystemRoomParts['record']>, 'recordAs'> & { serverName: string };
  clock: () => number;
  /** The name of the player in `slot`. */
  nameOf(slot: number): string;
  /** `s` jumped from `from` to `to` through `gate`, arriving at `arrival`; `before`: the slots of the players it was with. */
  jumped(s: ClientSeat, from: SystemRoom, to: SystemRoom, arrival: Arrival, before: ReadonlySet<number>): void;
  /** `s` flew through the gate to `to`, a system this server does not host: another server's, or nobody's (the server decides). */
  elsewhere(s: ClientSeat, from: SystemRoom, to: string): void;
}

export class GalaxyRooms {
  readonly rooms: SystemRoom[];
  /** Every seat by its token (the forwarders share it). */
  readonly tokens = new Map<number, ClientSeat>();
  /** The room of each player's seat, by slot. */
  private readonly where = new Map<number, SystemRoom>();
  private readonly byName = new Map<string, SystemRoom>();
  /** Each player's last state (where, how fast, when) and the point of its path judged last (the tick extrapolates from it). */
  private readonly paths = new WeakMap<ClientSeat, { pos: Vec3; vel: Vec3; at: number; judged: Vec3 }>();
  /** Counters for the status page: jumps made inside the server, and to other systems (their fate is the universe door's). */
  readonly jumps = { made: 0, refused: 0, elsewhere: 0 };
  /** Each player's career totals, by slot. */
  private readonly careers = new Map<number, Career>();

  constructor(
    readonly galaxy: Galaxy,
    private readonly p: GalaxyRoomsParts,
  ) {
    const { record: recording, ...parts } = p;
    this.rooms = galaxy.systems.map((system, i) => {
      const record = recording ? { dir: recording.dir, keep: recording.keep, server: recording.server, log: recording.log, timers: recording.timers, recordAs: i === 0 ? recording.serverName : `${recording.serverName}-${system.name}` } : undefined;
      const killed = (victim: number, killer: number) => this.killed(victim, killer);
      const room = new SystemRoom(system, { ...parts, killed, tokens: this.tokens, ...(record ? { record } : {}) }, p.clock);
      this.byName.set(system.name.toLowerCase(), room);
      return room;
    });
  }

  /** Where a player joins: of the systems marked `entry`, the one with fewest players (the first of those tied); none marked: the first. */
  private entryRoom(): SystemRoom {
    const entries = this.rooms.filter((r) => r.system.entry);
    if (entries.length === 0) return this.first;
    return entries.reduce((a, b) => (b.fwd.clients.size < a.fwd.clients.size ? b : a));
  }

  /** The galaxy's first system, where spectators watch. */
  get first(): SystemRoom {
    return this.rooms[0] as SystemRoom;
  }

  /** The system a seat is in (a spectator's: the first). */
  roomOf(s: ClientSeat): SystemRoom {
    return (s.spectator === null ? this.where.get(s.slot) : undefined) ?? this.first;
  }

  /** The forwarder that handles `s`'s datagrams. */
  forwarderOf(s: ClientSeat): Forwarder {
    return this.roomOf(s).fwd;
  }

  /** The room of the player in `slot`, if seated. */
  roomOfSlot(slot: number): SystemRoom | undefined {
    return this.where.get(slot);
  }

  /** Whether the spectators watch the player in `slot`: it is in the first system, where they watch. */
  watched(slot: number): boolean {
    return this.where.get(slot) === this.first;
  }

  /** Whether the players in slots `a` and `b` are in one system (the join server's client lists follow it). */
  together(a: number, b: number): boolean {
    return this.where.get(a) === this.where.get(b);
  }

  /**
   * A player seated in `slot` as `name`: its seat in the first system, which it hears as it joins — or,
   * `arriving` through a stargate from another server, in that system, placed beyond the gate back.
   */
  add(slot: number, name: string, address: string, newToken: () => number, now: number, arriving?: Arriving): ClientSeat {
    const room = (arriving && this.byName.get(arriving.system.toLowerCase())) || this.entryRoom();
    const s = room.fwd.add(slot, address, newToken, now);
    this.where.set(slot, room);
    this.careers.set(slot, arriving ? { ...arriving.career } : { kills: 0, deaths: 0, jumps: 0 });
    if (!arriving) {
      room.greet(s, name, now);
      return s;
    }
    const arrival = arrivalAt(room.system, arriving.from, arriving.speed);
    s.arrival = { linkId: room.greet(s, name, now, arrival), pos: arrival.pos };
    return s;
  }

  /** The career totals of the player in `slot` (zeros for nobody). */
  careerOf(slot: number): Career {
    return { ...(this.careers.get(slot) ?? { kills: 0, deaths: 0, jumps: 0 }) };
  }

  /** Counts a kill in the careers: the victim's death, the killer's kill (not for a ship that destroyed itself). */
  private killed(victim: number, killer: number): void {
    const v = this.careers.get(victim);
    if (v) v.deaths += 1;
    const k = killer !== victim ? this.careers.get(killer) : undefined;
    if (k) k.kills += 1;
  }

  /** A jump to another server left with the player: its career counts it. */
  jumpedAway(slot: number): void {
    const c = this.careers.get(slot);
    if (c) c.jumps += 1;
  }

  /** The player in `slot` left the server. */
  remove(slot: number): void {
    const room = this.where.get(slot);
    if (!room) return;
    this.where.delete(slot);
    this.careers.delete(slot);
    room.fwd.remove(slot);
    room.farewell(slot);
  }

  /** A spectator's seat (it watches the first system). */
  addSpectator(n: number, address: string, newToken: () => number, now: number): ClientSeat {
    const s = this.first.fwd.addSpectator(n, address, newToken, now);
    this.first.greet(s, '', now);
    return s;
  }

  removeSpectator(n: number): void {
    this.first.fwd.removeSpectator(n);
  }

  /** The spectators' seats. */
  get spectators(): ReadonlyMap<number, ClientSeat> {
    return this.first.fwd.stand.seats;
  }

  /** Whether `s` still holds its seat. */
  seated(s: ClientSeat): boolean {
    return this.roomOf(s).fwd.seated(s);
  }

  /** Whether a player holds `slot` (in any system). */
  hasPlayer(slot: number): boolean {
    return this.where.has(slot);
  }

  /** Every player's seat, system by system. */
  *players(): IterableIterator<ClientSeat> {
    for (const r of this.rooms) yield* r.fwd.clients.values();
  }

  /** Every seat: the players', then the spectators'. */
  *everySeat(): IterableIterator<ClientSeat> {
    yield* this.players();
    yield* this.spectators.values();
  }

  set slowdown(v: number) {
    for (const r of this.rooms) r.fwd.slowdown = v;
  }

  /** Hands `flush` each seat with something new since its last flush, system by system. */
  takeDirty(flush: (c: ClientSeat) => void): void {
    for (const r of this.rooms) r.fwd.takeDirty(flush);
  }

  /** Takes `c` off its system's dirty set (the tick flushes it anyway). */
  undirty(c: ClientSeat): void {
    this.roomOf(c).fwd.dirty.delete(c);
  }

  /** The server's tick for every system; ships flying on since their last state go through the gates on their way. */
  tick(now: number): void {
    for (const r of this.rooms) r.tick(now);
    for (const r of this.rooms) {
      if (r.system.gates.length === 0) continue;
      for (const s of [...r.fwd.clients.values()]) {
        const path = this.paths.get(s);
        if (!path || s.arrival !== null || now < s.jumpReadyAt) continue;
        // At most a second on: a ship silent for longer is judged by its next state.
        const t = Math.min(1000, Math.max(0, now - path.at)) / 1000;
        const at = { x: path.pos.x + path.vel.x * t, y: path.pos.y + path.vel.y * t, z: path.pos.z + path.vel.z * t };
        const gate = gateCrossed(r.system.gates, path.judged, at);
        path.judged = at;
        if (gate) this.jump(s, r, gate, now);
      }
    }
  }

  /**
   * `s` took a newer state, its ship having been at `from` before (null: its first): through a gate, it jumps
   * (or is refused). A seat still arriving, or cooling down after a jump or a refusal, goes through no gate.
   */
  stateTaken(s: ClientSeat, from: Vec3 | undefined, now: number): void {
    const state = s.header?.state;
    if (s.spectator !== null || !state || s.arrival !== null) return;
    const judged = this.paths.get(s)?.judged ?? from ?? null;
    this.paths.set(s, { pos: state.pos, vel: state.vel, at: now, judged: state.pos });
    if (now < s.jumpReadyAt) return;
    const room = this.roomOf(s);
    const gate = gateCrossed(room.system.gates, judged, state.pos);
    if (gate) this.jump(s, room, gate, now);
  }

  private jump(s: ClientSeat, from: SystemRoom, gate: Stargate, now: number): void {
    const to = this.byName.get(gate.to.toLowerCase());
    if (!to) {
      // Another server's system (or nobody's): no second try while the server finds out.
      s.jumpReadyAt = now + JUMP_COOLDOWN_MS;
      this.jumps.elsewhere += 1;
      this.p.elsewhere(s, from, gate.to);
      return;
    }
    const before = new Set([...from.fwd.clients.keys()].filter((slot) => slot !== s.slot));
    this.paths.delete(s);
    const vel = s.header?.state?.vel;
    const speed = vel ? Math.sqrt(vel.x * vel.x + vel.y * vel.y + vel.z * vel.z) : 0;
    from.fwd.release(s.slot);
    from.farewell(s.slot);
    to.fwd.adopt(s);
    this.where.set(s.slot, to);
    const arrival = arrivalAt(to.system, from.name, speed);
    const linkId = to.greet(s, this.p.nameOf(s.slot), now, arrival);
    s.arrival = { linkId, pos: arrival.pos };
    this.jumps.made += 1;
    const c = this.careers.get(s.slot);
    if (c) c.jumps += 1;
    this.p.jumped(s, from, to, arrival, before);
  }

  /** Whether this server hosts `system` (any case). */
  hosts(system: string): boolean {
    return this.byName.has(system.toLowerCase());
  }

  /** Players per system, where its gates lead and its match at `now`, for the status page and the server browser. */
  census(now: number): SystemCensus[] {
    return this.rooms.map((r) => ({ name: r.name, players: r.fwd.clients.size, gates: r.system.gates.map((g) => ({ to: g.to, local: this.byName.has(g.to.toLowerCase()) })), match: r.referee.announcement(now) }));
  }
}
