/**
 * Link conditioner: fake network trouble (lag, jitter, loss, duplication,
 * reordering) wrapped around a packet API, so a game on loopback or a quiet
 * LAN can be played and tested as if it ran over a bad Internet link. The
 * `net_fake*` cvars of the host and the bot's `--fake-*` options drive it.
 *
 * Semantics. Every datagram, in both directions (`send` and `broadcast` on
 * the way out, the inner API's receive handler on the way in), is treated on
 * its own, with `conditions()` read afresh for each one, so a changed cvar
 * applies to the very next datagram:
 * - it is lost with probability `lossPct` %;
 * - otherwise it is delayed `lagMs` plus a uniform amount in
 *   [−`jitterMs`, +`jitterMs`], never below 0 (independent delays mean that
 *   jitter alone can swap two datagrams sent closer together than 2·jitter);
 * - with probability `reorderPct` % it is held back a further
 *   `lagMs + jitterMs + 20` ms, so datagrams sent after it overtake it;
 * - with probability `dupPct` % a second copy goes too; the copy draws its
 *   own delay (and its own reorder chance), as a datagram of its own would.
 * Both directions are conditioned, so one end with 150 ms lag adds 300 ms to
 * every round trip it takes part in.
 *
 * With every setting at zero the wrapper is a synchronous pass-through: no
 * timer, no copy, no allocation. A datagram delayed by exactly 0 ms (loss
 * only, or jitter cancelling lag) also goes synchronously. Delayed datagrams
 * are private copies (a caller may reuse its buffer after `send` returns).
 * A datagram the inner API would refuse (too large, bad address or port, API
 * not initialised) is refused at once with the inner API's own error, never
 * later inside a timer. `kill`, `init` and {@link ConditionedPacketApi.cancelPending}
 * drop every datagram still waiting, so nothing is delivered to a dead handler
 * or sent on a socket that has been replaced; failures inside a timer are
 * counted, never thrown.
 *
 * Randomness comes from a seeded mulberry32 stream (`src/shared/sim/prng.ts`),
 * so a test or benchmark with a fixed seed sees the same losses every run.
 * Pure TS: the only platform things it touches are the timers it is given
 * (the global `setTimeout` by default).
 */
import {
  MAX_DATAGRAM_BYTES,
  type NodeAddress,
  type PacketApi,
  type PacketApiOptions,
  type PacketApiStats,
  type ReceivedPacket,
} from './packetApi';
import { nextFloat, seedRng } from '../sim/prng';

/** Fake network conditions; each applies to each direction on its own. */
export interface LinkConditions {
  /** One-way extra delay, ms (0..{@link MAX_FAKE_LAG_MS}). */
  lagMs: number;
  /** Uniform ± spread around the lag, ms (0..{@link MAX_FAKE_JITTER_MS}). */
  jitterMs: number;
  /** Chance that a datagram is lost, % (0..100). */
  lossPct: number;
  /** Chance that a datagram arrives twice, % (0..100). */
  dupPct: number;
  /** Chance that a datagram is held back so later ones overtake it, % (0..100). */
  reorderPct: number;
}

/** A clean link: the wrapper passes everything straight through. */
export const NO_CONDITIONS: LinkConditions = Object.freeze({ lagMs: 0, jitterMs: 0, lossPct: 0, dupPct: 0, reorderPct: 0 });

/** Largest lag the conditioner applies (larger values are clamped), ms. */
export const MAX_FAKE_LAG_MS = 2000;
/** Largest jitter the conditioner applies, ms. */
export const MAX_FAKE_JITTER_MS = 1000;
/** Extra hold-back of a reordered datagram on top of lag + jitter, ms. */
export const REORDER_EXTRA_MS = 20;
/**
 * Most datagrams waiting at once; beyond it new ones are dropped and counted
 * as `queueFull`, so a flood of incoming datagrams cannot pile up timers
 * without bound (2 s of lag at 60 packets/s from 15 peers is about 1,800).
 */
export const MAX_PENDING_DATAGRAMS = 10_000;

/** Timer functions the conditioner schedules with (tests pass a virtual clock). */
export interface ConditionerTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

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

/** What the conditioner did, per direction, since it was made. */
export interface ConditionerCounters {
  lostOut: number;
  lostIn: number;
  duplicatedOut: number;
  duplicatedIn: number;
  reorderedOut: number;
  reorderedIn: number;
  /** Datagrams that went through a timer (delay > 0). */
  delayedOut: number;
  delayedIn: number;
  /** Waiting datagrams dropped by kill, init or cancelPending. */
  cancelled: number;
  /** Dropped because {@link MAX_PENDING_DATAGRAMS} were already waiting. */
  queueFull: number;
  /** A delayed send the inner API refused when its time came (e.g. the socket had been closed). */
  sendFailed: number;
  /** A delayed datagram arrived while no receive handler was registered. */
  noHandler: number;
  /** The receive handler threw on a delayed datagram (swallowed, like the packet APIs do). */
  handlerThrew: number;
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

/** True when `c` asks for anything at all (NaN and negative values count as 0). */
export function isConditioned(c: LinkConditions): boolean {
  return c.lagMs > 0 || c.jitterMs > 0 || c.lossPct > 0 || c.dupPct > 0 || c.reorderPct > 0;
}

const clampTo = (value: number, max: number): number => (value > 0 ? Math.min(value, max) : 0);

/** `c` with every field finite and in range (NaN and negatives → 0, too large → the limit). */
export function sanitizeConditions(c: LinkConditions): LinkConditions {
  return {
    lagMs: clampTo(c.lagMs, MAX_FAKE_LAG_MS),
    jitterMs: clampTo(c.jitterMs, MAX_FAKE_JITTER_MS),
    lossPct: clampTo(c.lossPct, 100),
    dupPct: clampTo(c.dupPct, 100),
    reorderPct: clampTo(c.reorderPct, 100),
  };
}

/** One line for the console: `lag 200 ms ± 20 ms, loss 5%` (or `none`). */
export function describeConditions(raw: LinkConditions): string {
  const c = sanitizeConditions(raw);
  const parts: string[] = [];
  if (c.lagMs > 0 || c.jitterMs > 0) parts.push(`lag ${c.lagMs} ms${c.jitterMs > 0 ? ` ± ${c.jitterMs} ms` : ''}`);
  if (c.lossPct > 0) parts.push(`loss ${c.lossPct}%`);
  if (c.dupPct > 0) parts.push(`duplicates ${c.dupPct}%`);
  if (c.reorderPct > 0) parts.push(`reorder ${c.reorderPct}%`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** A seeded uniform [0, 1) stream over the shared mulberry32 (seed mixed, so 1, 2, 3 are unrelated). */
export function seededRandom(seed: number): () => number {
  let state = seedRng(seed);
  return () => {
    const [value, next] = nextFloat(state);
    state = next;
    return value;
  };
}

const GLOBAL_TIMERS: ConditionerTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
};

type Direction = 'out' | 'in';

/** A datagram waiting in a timer; the set of these is what kill cancels. */
interface Waiting {
  handle: unknown;
}

/**
 * A {@link PacketApi} that forwards every member to `inner` (an
 * implementation or, in the game, the packet API jump table) and conditions
 * datagrams as the file comment describes. Ownership: the wrapper owns its
 * timers and its receive registration on `inner`; `inner`'s lifetime belongs
 * to whoever made it (the subsystem kind), which must call
 * {@link cancelPending} when it kills or re-inits the inner API behind the
 * wrapper's back.
 */
export class ConditionedPacketApi implements PacketApi {
  private handler: ((packet: ReceivedPacket) => void) | null = null;
  private readonly waiting = new Set<Waiting>();
  private readonly conditions: () => LinkConditions;
  private readonly random: () => number;
  private readonly timers: ConditionerTimers;
  private readonly counts: Traffic = { packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0 };
  private readonly effects: ConditionerCounters = {
    lostOut: 0,
    lostIn: 0,
    duplicatedOut: 0,
    duplicatedIn: 0,
    reorderedOut: 0,
    reorderedIn: 0,
    delayedOut: 0,
    delayedIn: 0,
    cancelled: 0,
    queueFull: 0,
    sendFailed: 0,
    noHandler: 0,
    handlerThrew: 0,
  };

  constructor(
    private readonly inner: PacketApi,
    options: ConditionerOptions,
  ) {
    this.conditions = options.conditions;
    this.random = options.random ?? seededRandom(options.seed ?? 1);
    this.timers = options.timers ?? GLOBAL_TIMERS;
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
    const n = this.waiting.size;
    for (const w of this.waiting) this.timers.clearTimeout(w.handle);
    this.waiting.clear();
    this.effects.cancelled += n;
    return n;
  }

  /** Datagrams waiting in timers right now. */
  pending(): number {
    return this.waiting.size;
  }

  traffic(): Traffic {
    return { ...this.counts };
  }

  counters(): ConditionerCounters {
    return { ...this.effects };
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
    this.condition('out', sanitizeConditions(raw), () => {
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
    this.condition('out', sanitizeConditions(raw), () => {
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
    this.condition('in', sanitizeConditions(raw), () => this.deliver(copy));
  };

  private deliver(packet: ReceivedPacket): void {
    const handler = this.handler;
    if (!handler) {
      this.effects.noHandler++;
      return;
    }
    // A duplicate must not see what the handler did to the first copy's bytes.
    handler({ from: packet.from, data: packet.data.slice() });
  }

  /** Loss, then one or two copies, each with its own delay. `fire` may throw when run synchronously. */
  private condition(dir: Direction, c: LinkConditions, fire: () => void): void {
    if (c.lossPct > 0 && this.random() * 100 < c.lossPct) {
      if (dir === 'out') this.effects.lostOut++;
      else this.effects.lostIn++;
      return;
    }
    const duplicate = c.dupPct > 0 && this.random() * 100 < c.dupPct;
    this.dispatch(dir, c, fire);
    if (duplicate) {
      if (dir === 'out') this.effects.duplicatedOut++;
      else this.effects.duplicatedIn++;
      this.dispatch(dir, c, fire);
    }
  }

  /** Runs one copy now (delay 0) or schedules it. */
  private dispatch(dir: Direction, c: LinkConditions, fire: () => void): void {
    let delay = c.lagMs;
    if (c.jitterMs > 0) delay += (this.random() * 2 - 1) * c.jitterMs;
    if (delay < 0) delay = 0;
    if (c.reorderPct > 0 && this.random() * 100 < c.reorderPct) {
      delay += c.lagMs + c.jitterMs + REORDER_EXTRA_MS;
      if (dir === 'out') this.effects.reorderedOut++;
      else this.effects.reorderedIn++;
    }
    if (delay === 0) {
      fire();
      return;
    }
    if (this.waiting.size >= MAX_PENDING_DATAGRAMS) {
      this.effects.queueFull++;
      return;
    }
    if (dir === 'out') this.effects.delayedOut++;
    else this.effects.delayedIn++;
    const entry: Waiting = { handle: undefined };
    entry.handle = this.timers.setTimeout(() => {
      if (!this.waiting.delete(entry)) return; // cancelled after the timer was already due
      try {
        fire();
      } catch {
        // Never throw out of a timer: the socket may have closed or the handler failed meanwhile.
        if (dir === 'out') this.effects.sendFailed++;
        else this.effects.handlerThrew++;
      }
    }, delay);
    this.waiting.add(entry);
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
