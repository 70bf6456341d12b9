/**
 * Link conditioner: fake network trouble (lag, jitter, loss, duplication,
 * reordering) wrapped around a packet API, so a game on loopback or a quiet
 * LAN can be played and tested as if it ran over a bad Internet link. The
 * `net_fake*` cvars of the host and the bot's `--fake-*` options drive it
 * (the conditions are described in `linkConditions.ts`).
 *
 * Every datagram, in both directions (`send` and `broadcast` on the way out,
 * the inner API's receive handler on the way in), is treated on its own, with
 * `conditions()` read afresh for each one, so a changed cvar applies to the
 * very next datagram; what happens to it (loss, delay, duplicate, hold-back)
 * is the {@link DatagramScheduler}'s business (`datagramScheduler.ts`). Both
 * directions are conditioned, so one end with 150 ms lag adds 300 ms to every
 * round trip it takes part in.
 *
 * With every setting at zero the wrapper is a synchronous pass-through: no
 * timer, no copy, no allocation. Delayed datagrams are private copies (a
 * caller may reuse its buffer after `send` returns). A datagram the inner API
 * would refuse (too large, bad address or port, API not initialised) is
 * refused at once with the inner API's own error, never later inside a timer.
 * `kill`, `init` and {@link ConditionedPacketApi.cancelPending} drop every
 * datagram still waiting, so nothing is delivered to a dead handler or sent on
 * a socket that has been replaced.
 */
import {
  MAX_DATAGRAM_BYTES,
  type NodeAddress,
  type PacketApi,
  type PacketApiOptions,
  type PacketApiStats,
  type ReceivedPacket,
} from './packetApi';
import { DatagramScheduler, GLOBAL_TIMERS, seededRandom, type ConditionerTimers, type SchedulerCounters } from './datagramScheduler';
import { isConditioned, sanitizeConditions, type LinkConditions } from './linkConditions';

/**
 * Cumulative real datagrams on the inner API since the wrapper was made (not
 * reset by re-inits, so a sampler can take differences): out counts what was
 * actually handed to the inner API (a lost datagram is not, a duplicate twice);
 * in counts what the inner API received (before loss or duplication).
 */
export interface Traffic {
  packetsIn: number;
  bytesIn: number;
  packetsOut: number;
  bytesOut: number;
}

/** What the conditioner did, per direction, since it was made (`cancelled` counts kill, init and cancelPending). */
export interface ConditionerCounters extends SchedulerCounters {
  /** A delayed datagram arrived while no receive handler was registered. */
  noHandler: number;
}

export interface ConditionerOptions {
  /** Read for every datagram, so changes apply at once. */
  conditions: () => LinkConditions;
  /** Seed of the PRNG (default 1); ignored when `random` is given. */
  seed?: number;
  /** Uniform [0, 1) source replacing the seeded PRNG. */
  random?: () => number;
  /** Timers to schedule delayed datagrams with (default: the global setTimeout/clearTimeout). */
  timers?: ConditionerTimers;
}

/**
 * A {@link PacketApi} that forwards every member to `inner` (an
 * implementation or, in the game, the packet API jump table) and conditions
 * datagrams as the file comment describes. Ownership: the wrapper owns its
 * scheduler's timers and its receive registration on `inner`; `inner`'s lifetime belongs
 * to whoever made it (the subsystem kind), which must call
 * {@link cancelPending} when it kills or re-inits the inner API behind the
 * wrapper's back.
 */
export class ConditionedPacketApi implements PacketApi {
  private handler: ((packet: ReceivedPacket) => void) | null = null;
  private readonly conditions: () => LinkConditions;
  private readonly scheduler: DatagramScheduler;
  private readonly counts: Traffic = { packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0 };
  private noHandler = 0;

  constructor(
    private readonly inner: PacketApi,
    options: ConditionerOptions,
  ) {
    this.conditions = options.conditions;
    this.scheduler = new DatagramScheduler(options.random ?? seededRandom(options.seed ?? 1), options.timers ?? GLOBAL_TIMERS);
  }

  get name(): string {
    return this.inner.name;
  }

  get active(): boolean {
    return this.inner.active;
  }

  /** Drops every waiting datagram, then (re)starts the inner API. */
  init(options: PacketApiOptions): Promise<void> {
    this.cancelPending();
    return this.inner.init(options);
  }

  /** Drops every waiting datagram and the receive handler, then kills the inner API. */
  kill(): Promise<void> {
    this.cancelPending();
    this.handler = null;
    return this.inner.kill();
  }

  /** Cancels every datagram waiting in a timer (both directions); returns how many. */
  cancelPending(): number {
    return this.scheduler.cancelPending();
  }

  /** Datagrams waiting in timers right now. */
  pending(): number {
    return this.scheduler.pending();
  }

  traffic(): Traffic {
    return { ...this.counts };
  }

  counters(): ConditionerCounters {
    return { ...this.scheduler.counters(), noHandler: this.noHandler };
  }

  localNode(): NodeAddress {
    return this.inner.localNode();
  }

  localPort(): number {
    return this.inner.localPort();
  }

  send(to: NodeAddress, data: Uint8Array): void {
    const raw = this.conditions();
    if (!isConditioned(raw) || this.refusedAtOnce(data) || !this.validNode(to)) {
      // Clean link, or a datagram the inner API must refuse now: hand it over as is.
      this.inner.send(to, data);
      this.countOut(data.byteLength);
      return;
    }
    const copy = data.slice();
    this.scheduler.condition('out', sanitizeConditions(raw), () => {
      this.inner.send(to, copy);
      this.countOut(copy.byteLength);
    });
  }

  broadcast(port: number, data: Uint8Array): void {
    const raw = this.conditions();
    if (!isConditioned(raw) || this.refusedAtOnce(data) || !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
      this.inner.broadcast(port, data);
      this.countOut(data.byteLength);
      return;
    }
    const copy = data.slice();
    this.scheduler.condition('out', sanitizeConditions(raw), () => {
      this.inner.broadcast(port, copy);
      this.countOut(copy.byteLength);
    });
  }

  /**
   * Registers the handler and puts the wrapper's own receiver on the inner
   * API. Through a jump table that is the implementation bound now, so (as
   * with the bare table) call it again after every packet API change.
   */
  onPacket(handler: (packet: ReceivedPacket) => void): void {
    this.handler = handler;
    this.inner.onPacket(this.receive);
  }

  resolve(host: string, port: number): NodeAddress {
    return this.inner.resolve(host, port);
  }

  nodeEquals(a: NodeAddress, b: NodeAddress): boolean {
    return this.inner.nodeEquals(a, b);
  }

  nodeKey(node: NodeAddress): string {
    return this.inner.nodeKey(node);
  }

  nodeToString(node: NodeAddress): string {
    return this.inner.nodeToString(node);
  }

  encodeNode(node: NodeAddress): Uint8Array {
    return this.inner.encodeNode(node);
  }

  decodeNode(bytes: Uint8Array, scopeFrom?: NodeAddress): NodeAddress | null {
    return this.inner.decodeNode(bytes, scopeFrom);
  }

  /** The inner API's counters (socket level; conditioner effects are in {@link counters}). */
  stats(): PacketApiStats {
    return this.inner.stats();
  }

  /** The receiver registered on the inner API: counts, then conditions the way in. */
  private readonly receive = (packet: ReceivedPacket): void => {
    this.counts.packetsIn++;
    this.counts.bytesIn += packet.data.byteLength;
    const raw = this.conditions();
    if (!isConditioned(raw)) {
      // Synchronous: a throwing handler is caught and counted by the inner API, as without the wrapper.
      const handler = this.handler;
      if (handler) handler(packet);
      return;
    }
    const copy: ReceivedPacket = { from: packet.from, data: packet.data.slice() };
    this.scheduler.condition('in', sanitizeConditions(raw), () => this.deliver(copy));
  };

  private deliver(packet: ReceivedPacket): void {
    const handler = this.handler;
    if (!handler) {
      this.noHandler++;
      return;
    }
    // A duplicate must not see what the handler did to the first copy's bytes.
    handler({ from: packet.from, data: packet.data.slice() });
  }

  /** True when the inner API refuses `data` outright, so it must see it now and throw its own error. */
  private refusedAtOnce(data: Uint8Array): boolean {
    return data.byteLength > MAX_DATAGRAM_BYTES || !this.inner.active;
  }

  /** True when the inner API accepts `to` as one of its addresses (nodeKey throws `bad-address` otherwise). */
  private validNode(to: NodeAddress): boolean {
    try {
      this.inner.nodeKey(to);
      return true;
    } catch {
      return false;
    }
  }

  private countOut(bytes: number): void {
    this.counts.packetsOut++;
    this.counts.bytesOut += bytes;
  }
}
