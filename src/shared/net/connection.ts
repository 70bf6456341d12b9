/**
 * One remote node as the connection layer sees it (Quake III's netchan, one
 * per remote): the only place a datagram's `messageId` is written (`stamp`)
 * and read (`admit`), with the figures `players`, the scoreboard, the net
 * graph and the status pages show: traffic counters, round trip, loss. Every
 * side keeps one per node it talks to: a client session per
 * node it sends to or hears from (session/connections.ts: what its
 * membership sends is unnumbered, UnnumberedPacket, and what it receives
 * comes with an Arrival), a gameserver or netgame server per seat.
 *
 * Outgoing numbers start from the wall-clock second (sequenceStart), so a
 * restarted node is never taken for a replay of itself; incoming numbers go
 * through the one replay window (replayWindow.ts): a number taken once, or
 * older than the window, is refused whatever its age.
 */
import type { LinkSection, Packet, PacketHeader, RemoteEvent } from '../wire/types';
import { LossSpan } from './lossMeter';
import { RoundTrip } from './roundTrip';
import { ReplayWindow, sequenceStart, type SequenceVerdict } from './replayWindow';
import { StateDeltas } from './stateDeltas';

/** A header as a membership or the session builds it: everything but the `messageId`, which only a Connection writes. */
export type UnnumberedHeader = Omit<PacketHeader, 'messageId'>;

/** A packet before it leaves: its connection numbers it (`Connection.number`) as the last thing before it is encoded. */
export interface UnnumberedPacket {
  header: UnnumberedHeader;
  events: RemoteEvent[];
  /** The link layer's acknowledgements and reliable messages (added by the session's sender). */
  link?: LinkSection;
}

/**
 * What the connection made of a received datagram's number, as it goes up
 * with the packet: the newest from its node, or older than the newest (late:
 * overtaken on the way; too old: from before the window, so nothing says it
 * was seen). A number taken before never goes up: the duplicate is dropped
 * where it was admitted.
 */
export type Arrival = 'newest' | 'late' | 'too-old';

/** Datagrams and bytes each way (what `players`, status pages and benches read). */
export interface ConnectionCounters {
  datagramsIn: number;
  bytesIn: number;
  datagramsOut: number;
  bytesOut: number;
}

/** Most connections one table keeps (beyond it, a flood of strangers starts the table afresh). */
export const MAX_CONNECTIONS = 4096;

export class Connection {
  private readonly window = new ReplayWindow();
  private next: number;
  readonly counters: ConnectionCounters = { datagramsIn: 0, bytesIn: 0, datagramsOut: 0, bytesOut: 0 };
  /** Round trips to the node by Ping/Pong (the `players` list, the scoreboard, the net graph). */
  readonly roundTrip = new RoundTrip();
  /** The node's message ids heard over the last seconds: their gaps are its datagrams lost on the way (the net graph). */
  readonly loss = new LossSpan();
  /** Ship states each way, for partial states (stateDeltas.ts): the bases the node's states name, ours it acknowledged. */
  readonly states = new StateDeltas();

  /** `firstId`: the number of the first datagram sent on it (from the wall-clock second: {@link sequenceStart}). */
  constructor(firstId: number) {
    this.next = firstId >>> 0;
  }

  /** The `messageId` of the next datagram sent to the node (one number per datagram that leaves). */
  stamp(): number {
    const id = this.next;
    this.next = (id + 1) >>> 0;
    return id;
  }

  /** `packet` with the next `messageId` ({@link stamp}): what leaves for the node. */
  number(packet: UnnumberedPacket): Packet {
    const header = { ...packet.header, messageId: this.stamp() };
    return packet.link === undefined ? { header, events: packet.events } : { header, events: packet.events, link: packet.link };
  }

  /** Classifies a received `messageId` (newest, late with how far behind, replayed, too old) and takes it when it is new. */
  admit(seq: number): SequenceVerdict {
    return this.window.admit(seq);
  }

  /** Whether `seq` is newer than every number taken (a datagram that may move the node to another port). Records nothing. */
  ahead(seq: number): boolean {
    return this.window.ahead(seq);
  }

  /** Takes `seq` as the newest whatever came before (the node started a new session below its old numbers): its old states are no base. */
  restart(seq: number): void {
    this.window.restart(seq);
    this.states.forget();
  }

  /** The newest number taken, or null before the first. */
  get newestTaken(): number | null {
    return this.window.newestTaken;
  }

  /** Forgets what was received (the node left the session) and the ship states each way; the outgoing numbers go on, never back. */
  forgetReceived(): void {
    this.window.reset();
    this.states.forget();
  }

  /** A datagram of `bytes` taken from the node. */
  received(bytes: number): void {
    this.counters.datagramsIn += 1;
    this.counters.bytesIn += bytes;
  }

  /** A datagram of `bytes` sent to the node. */
  sent(bytes: number): void {
    this.counters.datagramsOut += 1;
    this.counters.bytesOut += bytes;
  }
}

/**
 * The connections of one side, by node key (a client: the packet API's key of
 * the node; a server: the seat). A connection outlives its node's stay in the
 * session (forgetting its outgoing numbers could restart them below numbers
 * already sent), bounded by MAX_CONNECTIONS.
 */
export class Connections<K = string> {
  private readonly table = new Map<K, Connection>();

  constructor(
    /** Wall-clock seconds, for the first number of a new connection. */
    private readonly wallSeconds: () => number = () => Math.floor(Date.now() / 1000),
    private readonly max = MAX_CONNECTIONS,
  ) {}

  /** The connection with `key`, or undefined when none was opened. */
  get(key: K): Connection | undefined {
    return this.table.get(key);
  }

  /** The connection with `key`, opened now when there was none. */
  open(key: K): Connection {
    let c = this.table.get(key);
    if (!c) {
      if (this.table.size >= this.max) this.table.clear();
      c = new Connection(sequenceStart(this.wallSeconds()));
      this.table.set(key, c);
    }
    return c;
  }

  /** Forgets the connection with `key` altogether (a seat that ended). */
  close(key: K): void {
    this.table.delete(key);
  }

  /** Every connection, with its key. */
  entries(): IterableIterator<[K, Connection]> {
    return this.table.entries();
  }

  clear(): void {
    this.table.clear();
  }
}
