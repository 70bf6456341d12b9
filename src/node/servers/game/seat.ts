/**
 * One joined player of a gameserver (its seat): its TCP identity (slot, name, address),
 * its UDP session (token, endpoint bound by the first valid datagram), its
 * newest state, its Connection (the one sequence window, the numbers of the
 * server's datagrams, the traffic counters), what it still has to receive (the
 * Outbox) and the counters the status page shows.
 */
import { SeatDetail } from './levelOfDetail';
import { Connection } from '../../../shared/net/connection';
import { sequenceStart } from '../../../shared/net/replayWindow';
import { ReliableLink } from '../../../shared/net/reliable';
import type { Vec3 } from '../../../shared/sim/types';
import { messageSize } from '../../../shared/net/linkLayer';
import { NO_SLOT, type PacketHeader, type ReliableGameEvent, type ShipState } from '../../../shared/wire/types';
import { relayedPartialBytes, relayedStateBytes } from '../../../shared/wire/relayBundle';
import { FULL_STATE_SIZE, partialSize, quantiseState, type QuantisedState } from '../../../shared/wire/shipStateCodec';
import { MAX_BASE_AGE } from '../../../shared/net/stateDeltas';
import { RelayLog } from './relayLog';
import { Outbox } from './relay';
import { SlotSet } from './slotSet';
import type { UdpEndpoint } from '../common/serverUdp';
import { InputAge } from './receiveBacklog';

/** Per-client counters (status page, JSON, tests). */
export interface ClientCounters {
  /** Datagrams accepted from this client (its connection's). */
  readonly packetsIn: number;
  readonly bytesIn: number;
  /** New states of others sent to this client. */
  statesSent: number;
  /** Of those, the ones sent partial: built on a state of the same player in a Relay this client acknowledged (wire v14). */
  statesPartial: number;
  /** Relays of ours this client acknowledged taking (each once; relayLog.ts). */
  readonly relaysAcknowledged: number;
  /**
   * New states of others not sent because they were beyond the filter radius (once per state): those
   * judged so, and those of players too far to be looked at (not in the spatial grid's neighbouring cells).
   */
  readonly statesFiltered: number;
  /** New states of others held back by their tier of detail (levelOfDetail.ts); a newer one of the same player went instead, or it went later. */
  statesThinned: number;
  /** Events of others sent to this client. */
  eventsSent: number;
  /** Events of others not queued for this client because of the distance filter. */
  eventsFiltered: number;
  /** Relay datagrams (and pings) sent to this client, and their bytes (its connection's). */
  readonly datagramsSent: number;
  readonly bytesSent: number;
}

/** A seat's counters: its own, and the datagrams and bytes of its connection under the names the status page has always used. */
function seatCounters(seat: ClientSeat): ClientCounters {
  const traffic = seat.connection.counters;
  return {
    get packetsIn() {
      return traffic.datagramsIn;
    },
    get bytesIn() {
      return traffic.bytesIn;
    },
    statesSent: 0,
    statesPartial: 0,
    get relaysAcknowledged() {
      return seat.relayLog.acknowledged;
    },
    get statesFiltered() {
      return seat.filteredJudged + seat.unlooked();
    },
    statesThinned: 0,
    eventsSent: 0,
    eventsFiltered: 0,
    get datagramsSent() {
      return traffic.datagramsOut;
    },
    get bytesSent() {
      return traffic.bytesOut;
    },
  };
}

/** A reliable message the server passes on: the event and the slot it came from. */
export interface Forwarded {
  from: number;
  event: ReliableGameEvent;
}

/** This player's own last states kept quantised by message id: what a relayed partial state of it may be built on (a base is at most MAX_BASE_AGE ids back). */
const OWN_KEPT = MAX_BASE_AGE + 1;

/** One joined player's seat (or a spectator's: see `spectator`). */
export class ClientSeat {
  /**
   * The reliable link with this client (hop by hop: the server acknowledges
   * what the client sends, and sends the others' kills, chat and names on
   * with its own ids, which the client acknowledges).
   */
  readonly link: ReliableLink<Forwarded>;
  /** UDP endpoint, fixed by the first valid datagram (any port from the TCP address). */
  udp: UdpEndpoint | null = null;
  /** Newest GameState header (without its token), and a counter bumped with each. */
  header: PacketHeader | null = null;
  seq = 0;
  /** The newest state as the `relayed` event that carries it alone, encoded at its first relay (null: not yet). */
  private relayed: Uint8Array | null = null;
  /** The newest state's `relayed` event partial against the state `distance` ids back, by distance (undefined: not encoded yet; null: it goes full). */
  private readonly partials: (Uint8Array | null | undefined)[] = new Array<Uint8Array | null | undefined>(MAX_BASE_AGE + 1).fill(undefined);
  /** This player's last OWN_KEPT states by message id (a ring; quantised only when a partial state is built on one). */
  private readonly ownIds = new Float64Array(OWN_KEPT).fill(-1);
  private readonly ownStates: (ShipState | undefined)[] = new Array<ShipState | undefined>(OWN_KEPT).fill(undefined);
  /** Each kept state quantised, once a partial state needed it (undefined: not yet). */
  private readonly ownQuantised: (QuantisedState | undefined)[] = new Array<QuantisedState | undefined>(OWN_KEPT).fill(undefined);
  private ownNext = 0;
  /** The Relays this client was sent and the other players' states it acknowledged holding (relayLog.ts). */
  readonly relayLog = new RelayLog();
  /** Server clock (ms) of the join, then of the last accepted game datagram (with its token): TCP lines do not count. */
  lastHeard: number;
  readonly outbox: Outbox;
  /** Per other player's slot: the `seq` of its newest state this client has been sent (or skipped by distance); 0 for a player who left. */
  private readonly sentSeq = new Float64Array(NO_SLOT + 1);
  /**
   * The other seats whose newest state this client has not been sent (or
   * skipped) yet, in the order their states came: a flush looks at these, not
   * at every seat, so it costs what is new, not the number of players.
   */
  readonly due = new SlotSet<ClientSeat>();
  /** Each other player's tier of detail, when its last state went to this client, and which are held back (levelOfDetail.ts). */
  readonly detail = new SeatDetail<ClientSeat>();
  /** Datagrams this client may still be sent in the current tick. */
  budget: number;
  /**
   * The client as a remote node: the message ids of the server's datagrams to it (from the wall-clock second,
   * like every session link), its datagrams already taken (replays of any age are dropped), traffic each way.
   */
  readonly connection = new Connection(sequenceStart(Math.floor(Date.now() / 1000)));
  /** How long this player's datagrams waited in the server's receive queue, and when a state of its was last taken (receiveBacklog.ts). */
  readonly inputAge = new InputAge();
  /** Server clock (ms) of the last datagram taken from the bound UDP endpoint. */
  udpHeardAt = -Infinity;
  /**
   * After a jump (galaxyRooms.ts): the link id of the system message that
   * placed the ship, and where; its states wait until it is acknowledged.
   */
  arrival: { linkId: number; pos: Vec3 } | null = null;
  /** Server time before which the ship goes through no stargate (a cooldown after a jump or a refused one). */
  jumpReadyAt = 0;
  readonly counters: ClientCounters = seatCounters(this);
  /** New states of others judged beyond the filter radius (when they came, or when their turn came). */
  filteredJudged = 0;
  /**
   * What the forwarder's count of newest states stood at when this seat was made, this player's own
   * since, and how many of the others' this seat was looked at for: the rest came from players too far
   * for the spatial grid to look at this seat, and count as filtered without a visit each.
   */
  arrivalsAtJoin = 0;
  ownArrivals = 0;
  looked = 0;
  /** The forwarder's count of newest states so far (set by the forwarder). */
  arrivals: () => number = () => 0;

  constructor(
    /** Unique per session (a slot is reused; this is not). */
    readonly id: number,
    readonly slot: number,
    /** TCP peer address; datagrams must come from it. */
    readonly address: string,
    readonly token: number,
    now: number,
    queueCap: number,
    budget: number,
    /** First id of the server's reliable messages to this client (random per session). */
    firstLinkId = 1,
    /** A spectator's seat: its number among the spectators (spectatorStand.ts; `slot` is then NO_SLOT); null for a player's. */
    readonly spectator: number | null = null,
  ) {
    this.lastHeard = now;
    this.link = new ReliableLink<Forwarded>((m) => messageSize(m.event), firstLinkId);
    this.outbox = new Outbox(queueCap);
    this.budget = budget;
  }

  /** Last known position, or undefined before the first state. */
  get pos(): Vec3 | undefined {
    return this.header?.state?.pos;
  }

  /** Takes a newer GameState header as this player's state. */
  setState(header: PacketHeader): void {
    const { token: _token, ...rest } = header;
    // Frozen, with its ship state: the codec encodes a frozen state once for every Relay it goes into (events.ts).
    const st = rest.state;
    if (st) for (const part of [st.pos, st.rot, st.vel, st.angVel, st]) Object.freeze(part);
    this.header = Object.freeze(rest);
    this.relayed = null;
    this.partials.fill(undefined);
    this.seq += 1;
    if (st) {
      // Kept as a base for relayed partial states.
      this.ownIds[this.ownNext] = rest.messageId;
      this.ownStates[this.ownNext] = st;
      this.ownQuantised[this.ownNext] = undefined;
      this.ownNext = (this.ownNext + 1) % OWN_KEPT;
    }
  }

  /**
   * The newest state's `relayed` event for a client that holds this player's
   * state of message `baseId` (−1: none it acknowledged): partial against it
   * when that is 1..MAX_BASE_AGE ids back, still kept, and partial saves
   * bytes; else full (relayedState). Each distance is encoded once for every
   * client it goes to. Null before the first state.
   */
  relayedStateFor(baseId: number): Uint8Array | null {
    const h = this.header;
    if (baseId < 0 || h === null || h.state === undefined) return this.relayedState();
    const distance = (h.messageId - baseId) >>> 0;
    if (distance < 1 || distance > MAX_BASE_AGE) return this.relayedState();
    let bytes = this.partials[distance];
    if (bytes === undefined) bytes = this.partials[distance] = this.encodePartial(h, distance, baseId);
    return bytes ?? this.relayedState();
  }

  /** The `relayed` event partial against the kept state of message `baseId`, or null when it is not kept or partial saves nothing. */
  private encodePartial(h: PacketHeader, distance: number, baseId: number): Uint8Array | null {
    try {
      const sent = this.quantisedOwn(baseId);
      const now = this.quantisedOwn(h.messageId);
      if (sent === undefined || now === undefined) return null;
      return partialSize(now, sent) < FULL_STATE_SIZE ? relayedPartialBytes(h, { distance, sent }) : null;
    } catch {
      return null;
    }
  }

  /** The kept state of message `id` quantised (worked out once), or undefined when it is not kept. */
  private quantisedOwn(id: number): QuantisedState | undefined {
    const i = this.ownIds.indexOf(id);
    const kept = i < 0 ? undefined : this.ownStates[i];
    if (kept === undefined) return undefined;
    return (this.ownQuantised[i] ??= quantiseState(kept));
  }

  /** Whether `bytes` (from relayedStateFor) is the newest state's partial event. */
  isPartial(bytes: Uint8Array): boolean {
    return bytes !== this.relayed;
  }

  /** The newest state's `relayed` event bytes (wire/relayBundle.ts), encoded once for every client it goes to; null before the first state. */
  relayedState(): Uint8Array | null {
    if (this.relayed === null && this.header !== null) this.relayed = relayedStateBytes(this.header);
    return this.relayed;
  }

  /** New states of others that came while this seat was seated and were never looked at for it (too far away). */
  unlooked(): number {
    return Math.max(0, this.arrivals() - this.arrivalsAtJoin - this.ownArrivals - this.looked);
  }

  /** True when the newest state of `other` has not been sent to (or skipped for) this client yet. */
  stateDue(other: ClientSeat): boolean {
    return other.header !== null && other.seq > (this.sentSeq[other.slot] as number);
  }

  /** The newest state of `other` went to this client (or was skipped for it). */
  stateTaken(other: ClientSeat): void {
    this.sentSeq[other.slot] = other.seq;
  }

  /**
   * This seat moves to another solar system (forwarder.ts release): the
   * states it had filtered there stay counted, and it has no state of its
   * own in the next system until it sends one.
   */
  leftSystem(): void {
    this.filteredJudged += this.unlooked();
    this.ownArrivals = 0;
    this.looked = 0;
    this.arrivals = () => 0;
    this.arrivalsAtJoin = 0;
    this.header = null;
    this.relayed = null;
    this.partials.fill(undefined);
  }

  /** `other` left: the next player in its slot starts from its first state. */
  forgetStates(other: ClientSeat): void {
    this.sentSeq[other.slot] = 0;
  }
}
