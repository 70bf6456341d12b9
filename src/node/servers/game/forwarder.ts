/**
 * The gameserver's forwarding core, without sockets: the joined players'
 * seats, what each one's GameState packets mean for the others (state
 * kept, events queued by priority and distance), and, per client, packing
 * what is due into encoded Relay datagrams within its budget (seatFlush.ts).
 * The caller sends them (gameDatagrams.ts).
 *
 * It handles two channels on purpose (wire/channels.ts) and the link
 * sections: it takes a client's link section (`takeLinkEvents`) and relays
 * its world messages (`onGameState`; any other channel's are foreign), and it
 * sends world messages inside the relay channel's `relayed` carriers, the
 * players' reliable messages in those carriers' link sections and its own
 * acknowledgements and messages in the Relay's.
 */
import { eventSize } from '../../../shared/wire/codec';
import { NO_SLOT, objectId, objectOwner, PacketType, type Packet, type PacketHeader, type ReliableGameEvent, type RemoteEvent } from '../../../shared/wire/types';
import { isWorldMessage, type WorldMessage } from '../../../shared/wire/channels';
import { ClientSeat } from './seat';
import { distanceSquared, ownedBy, reachesEveryone, tierOf, withinRadius } from './interest';
import { CLAIM_SLACK } from '../../../shared/game/extraClaims';
import { MINE_CODE, MINE_DRIFT } from '../../../shared/game/kinds/mine';
import { SHIP_RADIUS } from '../../../shared/game/kinds/ship';
import { RULES } from '../../../shared/game/rules';
import type { Vec3 } from '../../../shared/sim/types';
import type { ShipState } from '../../../shared/wire/types';
import type { PendingEvent } from './relay';
import { SeatFlush } from './seatFlush';
import { SlotSet } from './slotSet';
import { LiveShots } from './liveShots';
import { StateInterest } from './stateInterest';
import { SpectatorStand } from './spectatorStand';

/** Tunables of a {@link Forwarder} (validated by the gameserver). */
export interface ForwarderConfig {
  /** Distance filter in units. */
  radius: number;
  /** Lasers and missiles older than this when their turn comes are dropped. */
  outdatedMs: number;
  /** Relay datagrams per client per tick. */
  budget: number;
  /** Events queued per client and tier. */
  queueCap: number;
  /** States of far players at lower rates (levelOfDetail.ts); off: every state of every player within the radius. */
  levelOfDetail: boolean;
  /** How late spectators see the game (ms; spectatorStand.ts); absent: as it happens. */
  spectatorDelayMs?: number;
}

/** Dropped events by reason. */
export interface EventDrops {
  /** Time-critical events that waited longer than `outdatedMs`. */
  outdated: number;
  /** Events pushed out of a full queue. */
  overflow: number;
  /** Events a client may not send (slot tables, connect queues, other players' objects). */
  foreign: number;
  /** Claims of an extra by a ship nowhere near it (dropped, and struck as `far-pickup`). */
  farPickup: number;
  /** Reliable messages from spectators (acknowledged, passed on to nobody: a spectator has no say in the game). */
  spectator: number;
}

/** Most claimable objects the server remembers the place of (extras: at most RULES.extras.max plus drops; mines: 8 a player of 255). */
const MAX_CLAIMABLE = 2304;
/** A claimed extra must be this close to the claimer's last reported position (pickup reach plus the claim slack). */
const PICKUP_REACH = RULES.extras.pickupRadius + SHIP_RADIUS + CLAIM_SLACK;

/** A mine report must come from this close to where the mine was laid: its trigger reach, its drift to a stop, and the claim slack. */
const MINE_REACH = RULES.mine.triggerRadius + SHIP_RADIUS + MINE_DRIFT + CLAIM_SLACK;

/** A claim: a killObject of another player's object naming the sender as the one who took it or set it off (extraClaims.ts, kinds/mine.ts). */
function claimOf(event: RemoteEvent, slot: number): boolean {
  return event.type === 'killObject' && event.killerSlot === slot && !ownedBy(event, slot);
}

/** Whether the claimer (last reported at `pos`) was within `reach` of the object. */
function near(pos: Vec3 | undefined, object: Vec3, reach: number): boolean {
  return pos !== undefined && distanceSquared(pos, object) <= reach * reach;
}

/** A destroyed ship's game may drop extras (reliable createExtra of its own) this long after its death announcement, ms. */
const DROP_WINDOW_MS = 2000;
/** Most extras one death may drop (a ship drops at most missiles, mines and its laser upgrade: combat.ts dropsOf). */
const DROPS_PER_DEATH = 3;


/** Seats and forwarding for one gameserver. */
export class Forwarder {
  /** Joined players by slot. */
  readonly clients = new Map<number, ClientSeat>();
  /** Every seat by its token: the server's, shared by the forwarders of its solar systems (galaxyRooms.ts). */
  readonly byToken: Map<number, ClientSeat>;
  readonly eventDrops: EventDrops = { outdated: 0, overflow: 0, foreign: 0, farPickup: 0, spectator: 0 };
  /** The spectators, apart from the players (spectatorStand.ts). */
  readonly stand: SpectatorStand;
  /** Called with each player's announcement of its own ship's destruction (the match referee counts it). */
  onOwnKill: ((victim: number, killer: number, now: number) => void) | null = null;
  /**
   * What another player may claim (full object id → where it was announced,
   * the reach a claim must come from, and an extra's type): the authority's
   * extras and the players' mines, newest last, at most MAX_CLAIMABLE.
   */
  private readonly claimable = new Map<number, { pos: Vec3; reach: number; extraType?: number }>();
  /** Lasers and missiles relayed lately: a victim may report one that hit it (liveShots.ts). */
  private readonly shots = new LiveShots();
  /** Called when the authority gives extra of `type` to `winner` (the rules guard grants the ammunition it carries). */
  onExtraTaken: ((winner: number, type: number) => void) | null = null;
  /** Called with each laser a player fires (the server's arena simulates it). */
  onLaser: ((slot: number, event: WorldMessage) => void) | null = null;
  /** Called with everything relayed from a player: its newest state, each event and reliable message passed on (a match recording watches them, matchRecorder.ts). */
  onRelayed: ((slot: number, what: { state: ShipState; event?: undefined } | { event: WorldMessage; state?: undefined }, gameTime: number | undefined) => void) | null = null;
  /** Called with a claim of one of the server's own extras (wire id `id`) by `slot`, from near it; the server answers everyone. */
  onServerClaim: ((slot: number, id: number, now: number) => void) | null = null;
  /** Players whose ship was just destroyed: until when, and how many extras, their game may still drop. */
  private readonly drops = new Map<number, { until: number; left: number }>();
  private nextId = 1;
  /**
   * Seats with something new since their last flush (a state due, an event
   * or a reliable message queued): what a flush on arrival looks at, so it
   * costs what arrived, not the number of players. The tick flushes every
   * seat (resends, acknowledgements, what a budget held back).
   */
  readonly dirty = new SlotSet<ClientSeat>();

  /** Whose state goes to whom, and when: the spatial grid, the filter radius, level of detail (stateInterest.ts). */
  private readonly interest: StateInterest;
  /** Packs what is due for one client into its datagrams. */
  private readonly flusher: SeatFlush;

  constructor(
    private readonly cfg: ForwarderConfig,
    tokens: Map<number, ClientSeat> = new Map(),
  ) {
    this.byToken = tokens;
    this.interest = new StateInterest(cfg.radius, cfg.levelOfDetail);
    this.flusher = new SeatFlush(this.interest, this.clients, this.eventDrops, cfg.outdatedMs);
    this.stand = new SpectatorStand({ delayMs: cfg.spectatorDelayMs ?? 0, queueCap: cfg.queueCap, budget: cfg.budget, outdatedMs: cfg.outdatedMs }, this.clients);
  }

  /** How much the mid and far tiers' intervals are stretched: 1, or more while the server is overloaded (overload.ts). */
  get slowdown(): number {
    return this.interest.slowdown;
  }
  set slowdown(v: number) {
    this.interest.slowdown = v;
  }

  /** A new seat for a player seated in `slot` at `address`, with a token no other seat has. */
  add(slot: number, address: string, newToken: () => number, now: number): ClientSeat {
    const token = this.freshToken(newToken);
    const s = new ClientSeat(this.nextId++, slot, address, token, now, this.cfg.queueCap, this.cfg.budget, newToken() & 0xffff);
    this.byToken.set(token, s);
    this.adopt(s);
    return s;
  }

  /**
   * Seats `s` (new, or moved here from another solar system's forwarder by
   * `release`): it gets every player's newest state at its first flush.
   */
  adopt(s: ClientSeat): void {
    this.interest.seated(s);
    for (const other of this.clients.values()) if (other.header !== null) s.due.add(other);
    this.clients.set(s.slot, s);
    this.dirty.add(s);
  }

  /**
   * Takes the seat in `slot` out of this forwarder without ending it (its
   * token, endpoint and reliable link stay: it moves to another solar
   * system, galaxyRooms.ts): the others forget it, it forgets them and has
   * no state here any more. Returns it, or null.
   */
  release(slot: number): ClientSeat | null {
    const s = this.clients.get(slot);
    if (!s) return null;
    this.unseat(s);
    s.outbox.remove(() => true);
    s.due.clear();
    for (const c of this.clients.values()) s.forgetStates(c);
    s.leftSystem();
    return s;
  }

  /** A new seat for spectator `n` at `address` (spectatorStand.ts), with a token no other seat has. */
  addSpectator(n: number, address: string, newToken: () => number, now: number): ClientSeat {
    const s = this.stand.add(n, address, this.freshToken(newToken), now, newToken() & 0xffff);
    this.byToken.set(s.token, s);
    return s;
  }

  /** Ends spectator `n`'s seat: its token stops working. */
  removeSpectator(n: number): void {
    const s = this.stand.remove(n);
    if (s) this.byToken.delete(s.token);
  }

  /** Whether `s` still holds its seat (a player's, or a spectator's). */
  seated(s: ClientSeat): boolean {
    return s.spectator === null ? this.clients.get(s.slot) === s : this.stand.seats.get(s.spectator) === s;
  }

  /** Every seat: the players', then the spectators'. */
  *everySeat(): IterableIterator<ClientSeat> {
    yield* this.clients.values();
    yield* this.stand.seats.values();
  }

  private freshToken(newToken: () => number): number {
    let token: number;
    do token = newToken();
    while (this.byToken.has(token));
    return token;
  }

  /** Ends the seat in `slot`: its token stops working, and what the others still had queued from it is forgotten. */
  remove(slot: number): void {
    const s = this.clients.get(slot);
    if (!s) return;
    this.byToken.delete(s.token);
    this.unseat(s);
  }

  /** `s` leaves this forwarder: the others forget what they had queued from it. */
  private unseat(s: ClientSeat): void {
    this.clients.delete(s.slot);
    this.drops.delete(s.slot);
    for (const c of this.clients.values()) {
      c.outbox.remove((p) => p.from === s.slot);
      c.forgetStates(s);
      c.due.delete(s);
    }
    this.interest.left(s, this.clients.values());
    this.dirty.delete(s);
    this.stand.playerLeft(s);
  }

  /**
   * A GameState accepted from `s` (`newest`: its id is the highest so far, so its state counts); its events are queued for the others.
   * Returns how many of its events were not the client's to send (dropped as `foreign`), so the server can count strikes.
   */
  onGameState(s: ClientSeat, packet: Packet, newest: boolean, now: number): number {
    if (newest) {
      s.setState(packet.header);
      this.interest.newState(s, this.clients.values(), now, this.dirty);
      this.stand.state(s, now);
      const state = packet.header.state;
      if (state && packet.header.joined) this.onRelayed?.(s.slot, { state }, packet.header.gameTime);
    }
    let foreign = 0;
    for (const event of packet.events) {
      const tier = tierOf(event);
      // Only world messages are relayed (tierOf names no other channel's). The server owns the arena: a player's extras (its ship's drops) come only as reliable messages.
      if (tier === null || !isWorldMessage(event) || !ownedBy(event, s.slot) || event.type === 'createExtra') {
        this.eventDrops.foreign += 1;
        foreign += 1;
        continue;
      }
      if (event.type === 'createMissile') this.engage(s, event.targetSlot, now);
      if (event.type === 'createObject' && event.kind === MINE_CODE) this.claimableAt(event.id, event.pos, MINE_REACH);
      else if (event.type === 'createLaser') this.onLaser?.(s.slot, event);
      this.shots.relayed(event, now);
      // Frozen with its vectors: the codec encodes it once for every client it goes to (events.ts).
      for (const part of Object.values(event)) if (typeof part === 'object' && part !== null) Object.freeze(part);
      Object.freeze(event);
      this.onRelayed?.(s.slot, { event }, packet.header.gameTime);
      const pending: PendingEvent = { from: s.slot, event, at: now, size: eventSize(event) };
      const everyone = reachesEveryone(event);
      for (const c of this.clients.values()) {
        if (c === s) continue;
        if (!everyone && !withinRadius(s.pos, c.pos, this.cfg.radius)) c.counters.eventsFiltered += 1;
        else {
          this.eventDrops.overflow += c.outbox.push(tier, pending);
          this.dirty.add(c);
        }
      }
      this.stand.event(tier, pending, now);
    }
    return foreign;
  }

  /**
   * The link section of a datagram accepted from `s`:
   * acknowledgements settle what the server sent it; each reliable message
   * is acknowledged and, the first time, queued on every other client's link
   * (a name, or a match state, supersedes the same player's older one still in flight). A
   * message the client may not send (another player's object) is dropped and
   * counted as foreign; one `refuse` returns true for (the rules guard's
   * verdict) is acknowledged and dropped; a claim of an extra from afar is
   * dropped. Returns the packet without its link section, how many messages
   * were foreign and how many were claims from afar.
   */
  takeLinkEvents(s: ClientSeat, packet: Packet, now: number, refuse?: (event: RemoteEvent) => boolean): { packet: Packet; foreign: number; farPickups: number } {
    let foreign = 0;
    let farPickups = 0;
    const link = packet.link;
    if (link?.acks) s.link.onAcks(link.acks, now);
    // The Relays it took: the others' states there are bases of their next partial states to it (relayLog.ts).
    if (link?.relayAck) s.relayLog.acknowledge(link.relayAck);
    for (const ev of link?.messages ?? []) {
      if (!s.link.onMessage(ev.id, now)) continue;
      // A spectator's messages are acknowledged (or it would send them forever) and go to nobody.
      if (s.spectator !== null) {
        this.eventDrops.spectator += 1;
        continue;
      }
      const claimed = claimOf(ev.event, s.slot) ? (ev.event as { id: number }).id : undefined;
      const claim = claimed === undefined ? undefined : this.claimable.get(claimed);
      // Where the claimer is: the state of this very datagram if it carries one (the guard checks it next), else its last.
      const at = packet.header.type === PacketType.GameState && packet.header.joined ? (packet.header.state?.pos ?? s.pos) : s.pos;
      if (claim && !near(at, claim.pos, claim.reach)) {
        this.eventDrops.farPickup += 1;
        farPickups += 1;
        continue;
      }
      // The server is the match authority and owns the arena: a player's word on either is not passed on.
      if (ev.event.type === 'matchState' || ev.event.type === 'asteroidBreaks') continue;
      // A claim of one of the server's own extras: the server decides it and tells everyone.
      if (claimed !== undefined && objectOwner(claimed) === NO_SLOT) {
        this.onServerClaim?.(s.slot, claimed, now);
        continue;
      }
      // A player's extra can only be a drop of its ship just destroyed, where it was.
      if (ev.event.type === 'createExtra') {
        const allowance = this.drops.get(s.slot);
        if (!allowance || now > allowance.until || allowance.left <= 0 || !near(at, ev.event.pos, PICKUP_REACH)) {
          this.eventDrops.foreign += 1;
          foreign += 1;
          continue;
        }
        allowance.left -= 1;
        this.claimableAt(ev.event.id, ev.event.pos, PICKUP_REACH, ev.event.kind);
      }
      // A mine that went off is gone; an extra is gone when the authority says who got it.
      if (claim && claimed !== undefined && claim.extraType === undefined) this.claimable.delete(claimed);
      if (ev.event.type === 'killObject' && ownedBy(ev.event, s.slot)) {
        // The authority's word on one of its extras: the winner's ammunition grows by what it carried.
        const taken = this.claimable.get(ev.event.id);
        if (taken?.extraType !== undefined && ev.event.killerSlot !== NO_SLOT) this.onExtraTaken?.(ev.event.killerSlot, taken.extraType);
        this.claimable.delete(ev.event.id);
      }
      // A victim's report of a laser or missile that hit it (hitReports.ts): for the shooter and everyone who still shows the shot.
      const hitReport = !claim && claimed !== undefined && this.shots.report(claimed, now);
      if (!claim && !hitReport && !ownedBy(ev.event, s.slot)) {
        this.eventDrops.foreign += 1;
        foreign += 1;
        continue;
      }
      if (refuse?.(ev.event)) continue;
      // Its own ship destroyed (a claim the rules guard let through): the match referee counts it.
      if (ev.event.type === 'killObject' && ev.event.id === objectId(s.slot, 0)) {
        this.onOwnKill?.(s.slot, ev.event.killerSlot, now);
        this.drops.set(s.slot, { until: now + DROP_WINDOW_MS, left: DROPS_PER_DEATH });
      }
      if (isWorldMessage(ev.event)) this.onRelayed?.(s.slot, { event: ev.event }, packet.header.gameTime);
      const supersede = ev.event.type === 'playerName' ? `name:${s.slot}` : undefined;
      for (const c of this.clients.values()) {
        if (c === s) continue;
        c.link.queue({ from: s.slot, event: ev.event }, now, supersede);
        this.dirty.add(c);
      }
      this.stand.reliable(s.slot, ev.event, now, supersede);
    }
    return { packet: link === undefined ? packet : { header: packet.header, events: packet.events }, foreign, farPickups };
  }

  /** The server's own extra of wire id `id` and `type` lies at `pos`: players may claim it from within the pickup reach. */
  serverExtra(id: number, pos: Vec3, type: number): void {
    this.claimableAt(id, pos, PICKUP_REACH, type);
  }

  /** The server's own extra of wire id `id` is gone (taken or expired). */
  forget(id: number): void {
    this.claimable.delete(id);
  }

  /** A reliable message from the server itself to seat `s` (the match state, a page at a time): it travels in the Relay packets' outer event list; a newer page supersedes the same page not yet sent. Returns its link id. */
  sayToSeat(s: ClientSeat, event: ReliableGameEvent, now: number): number {
    const id = s.link.queue({ from: NO_SLOT, event }, now, event.type === 'matchState' ? `match:server:${event.page}` : undefined);
    this.dirty.add(s);
    return id;
  }

  /** A reliable message from the server itself to every player and spectator (sayToSeat each). */
  sayToEveryone(event: ReliableGameEvent, now: number): void {
    for (const s of this.clients.values()) this.sayToSeat(s, event, now);
    this.stand.reliable(NO_SLOT, event, now, event.type === 'matchState' ? `match:server:${event.page}` : undefined);
  }

  /** Object `id` (an extra of `extraType`, or a mine) was announced at `pos`: others may claim it from within `reach`. */
  private claimableAt(id: number, pos: Vec3, reach: number, extraType?: number): void {
    this.claimable.delete(id);
    this.claimable.set(id, { pos: { x: pos.x, y: pos.y, z: pos.z }, reach, ...(extraType === undefined ? {} : { extraType }) });
    if (this.claimable.size > MAX_CLAIMABLE) this.claimable.delete(this.claimable.keys().next().value as number);
  }

  /** `s` fired a missile locked on the player in `target`: the two are near each other's detail for a while (levelOfDetail.ts). */
  private engage(s: ClientSeat, target: number, now: number): void {
    const t = this.clients.get(target);
    if (t && t !== s) this.interest.engage(s, t, now);
  }

  /** Hands `flush` each seat with something new since its last flush, in the order they became so, taking it off the dirty set first. */
  takeDirty(flush: (c: ClientSeat) => void): void {
    this.dirty.visit((c) => {
      this.dirty.delete(c);
      flush(c);
      return true;
    });
  }

  /** The tick: states held back whose tier's interval has passed become due (level of detail); what spectators were held back from has waited out its delay. */
  releaseHeld(now: number): void {
    this.interest.releaseHeld(this.clients.values(), now, this.dirty);
    this.stand.release(now);
  }

  /**
   * Everything due for client `c` (bound, with budget left) as encoded Relay
   * datagrams under `header()` (seatFlush.ts). Throws WireEncodeError only on
   * a server bug (an invalid packet).
   */
  flush(c: ClientSeat, now: number, header: () => PacketHeader): Uint8Array[] {
    return c.spectator === null ? this.flusher.flush(c, now, header) : this.stand.flush(c, now, header);
  }
}
