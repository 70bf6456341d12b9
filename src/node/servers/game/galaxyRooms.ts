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

/** After a refused jump, or an arrival, the ship may go through a gate again this much later (ms). */
export const JUMP_COOLDOWN_MS = 2000;

export interface GalaxyRoomsParts extends Omit<SystemRoomParts, 'tokens' | 'record'> {
  /** --record: each system's matches into files beginning with the server's name (and the system's, after the first). */
  record?: Omit<NonNullable<SystemRoomParts['record']>, 'recordAs'> & { serverName: string };
  clock: () => number;
  /** The name of the player in `slot`. */
  nameOf(slot: number): string;
  /** `s` jumped from `from` to `to` through `gate`, arriving at `arrival`; `before`: the slots of the players it was with. */
  jumped(s: ClientSeat, from: SystemRoom, to: SystemRoom, arrival: Arrival, before: ReadonlySet<number>): void;
  /** `s` flew through the gate to `to`, which no server of this galaxy has: the ship stays. */
  refused(s: ClientSeat, from: SystemRoom, to: string): void;
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
  /** Counters for the status page: jumps made, refused. */
  readonly jumps = { made: 0, refused: 0 };

  constructor(
    readonly galaxy: Galaxy,
    private readonly p: GalaxyRoomsParts,
  ) {
    const { record: recording, ...parts } = p;
    this.rooms = galaxy.systems.map((system, i) => {
      const record = recording ? { dir: recording.dir, keep: recording.keep, server: recording.server, log: recording.log, timers: recording.timers, recordAs: i === 0 ? recording.serverName : `${recording.serverName}-${system.name}` } : undefined;
      const room = new SystemRoom(system, { ...parts, tokens: this.tokens, ...(record ? { record } : {}) }, p.clock);
      this.byName.set(system.name.toLowerCase(), room);
      return room;
    });
  }

  /** The system players join (the galaxy's first), where spectators watch. */
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

  /** Whether the players in slots `a` and `b` are in one system (the join server's client lists follow it). */
  together(a: number, b: number): boolean {
    return this.where.get(a) === this.where.get(b);
  }

  /** A player seated in `slot` as `name`: its seat in the first system, which it hears as it joins. */
  add(slot: number, name: string, address: string, newToken: () => number, now: number): ClientSeat {
    const room = this.first;
    const s = room.fwd.add(slot, address, newToken, now);
    this.where.set(slot, room);
    room.greet(s, name, now);
    return s;
  }

  /** The player in `slot` left the server. */
  remove(slot: number): void {
    const room = this.where.get(slot);
    if (!room) return;
    this.where.delete(slot);
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
    s.jumpReadyAt = now + JUMP_COOLDOWN_MS;
    const to = this.byName.get(gate.to.toLowerCase());
    if (!to) {
      this.jumps.refused += 1;
      this.p.refused(s, from, gate.to);
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
    this.p.jumped(s, from, to, arrival, before);
  }

  /** Players per system, where its gates lead and its match at `now`, for the status page and the server browser. */
  census(now: number): SystemCensus[] {
    return this.rooms.map((r) => ({ name: r.name, players: r.fwd.clients.size, gates: r.system.gates.map((g) => ({ to: g.to, local: this.byName.has(g.to.toLowerCase()) })), match: r.referee.announcement(now) }));
  }
}
