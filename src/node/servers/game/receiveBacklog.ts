/**
 * How long a datagram waited in the gameserver's receive queue before the
 * server read it, and the states it sheds for it. A saturated server reads
 * slower than its players send: its socket buffer (4 MiB) then holds seconds
 * of input, and forwarding states that old costs as much as fresh ones and
 * shows the others ships where they were long ago. So while it is behind, a
 * state that waited longer than SHED_AGE_MS is not relayed (counted as the
 * drop `backlog`; the datagram's events and link section still count), unless
 * its player had no state relayed for SHED_FLOOR_MS: every player still goes
 * out at least four times a second, however deep the backlog. Reading and
 * shedding costs a fraction of forwarding, so the queue drains to about
 * SHED_AGE_MS instead of the buffer's length.
 *
 * The age comes from two measures, neither trusted alone:
 * - a probe: every PROBE_EVERY_MS the server sends itself a 16-byte datagram
 *   (a random nonce and its clock) through the same socket queue. The queue
 *   is first in, first out, so a datagram read after a probe arrived after it:
 *   it waited at most `now − the probe's send time` (the bound). Calm, the
 *   bound is about PROBE_EVERY_MS; while the server's loop is blocked no
 *   probes go, so it is loose then, never too small.
 *   Reading a probe also bounds what came before it from below: a datagram
 *   read before the probe arrived before it was sent, so it waited at least
 *   `its read time − the probe's send time`.
 * - the player's stamps: `now − gameTime` (the lag) is the player's clock
 *   offset plus its one-way delay plus the wait. Its smallest value so far
 *   (the base) stands for offset and delay, so `lag − base` is the wait, to
 *   the network's jitter. The probes keep the base honest both ways: a lag
 *   beyond base + the bound raises it (a clock stepped back by a time sync
 *   would otherwise make every later datagram look old), and a last
 *   datagram whose estimate is below the probe's lower bound lowers it (a
 *   player who joined a server already behind would otherwise have its
 *   waits taken for its delay).
 * A player's stamps can only make its own states look old (shed) or young
 * (relayed as before): they cannot cost anyone else anything.
 */
import { randomBytes } from 'node:crypto';
import { RecentSamples } from '../../../shared/util/stats';

/** A probe goes this often (ms): the bound on a calm server's wait. */
export const PROBE_EVERY_MS = 25;
/** While the server is this far behind (ms), states that waited longer are shed. */
export const SHED_AGE_MS = 100;
/** A player with no state relayed for this long (ms) gets its next one relayed, however long it waited. */
export const SHED_FLOOR_MS = 1000;
/** Probe bytes: the nonce (8) and the server clock at sending (float64, 8). */
export const PROBE_BYTES = 16;
/** Probe waits kept for the status JSON's percentiles (a minute at PROBE_EVERY_MS). */
const KEPT = 2400;

/** The server's probes through its own receive queue. */
export class BacklogProbe {
  private readonly nonce: Uint8Array;
  /** Server clock at sending of the newest probe read (−∞: none read yet). */
  private lastSentAt = -Infinity;
  private readonly samples = new RecentSamples(KEPT);
  /** Probes sent and read; the longest wait a probe had (ms). */
  sent = 0;
  read = 0;
  maxWaitMs = 0;
  /** The longest wait of a probe read since {@link takeLongest} was last called (ms). */
  private longest = 0;

  constructor(nonce: Uint8Array = randomBytes(8)) {
    if (nonce.length !== 8) throw new RangeError('a backlog probe nonce is 8 bytes');
    this.nonce = Uint8Array.from(nonce);
  }

  /** The probe datagram to send to the server's own port at `now`. */
  probe(now: number): Uint8Array {
    const bytes = new Uint8Array(PROBE_BYTES);
    bytes.set(this.nonce, 0);
    new DataView(bytes.buffer).setFloat64(8, now);
    this.sent += 1;
    return bytes;
  }

  /** True when `msg` is one of this server's probes (taken: it goes no further); false for anything else. */
  take(msg: Uint8Array, now: number): boolean {
    if (msg.length !== PROBE_BYTES) return false;
    for (let i = 0; i < 8; i++) if (msg[i] !== this.nonce[i]) return false;
    const sentAt = new DataView(msg.buffer, msg.byteOffset, msg.byteLength).getFloat64(8);
    // Probes leave in order and the queue keeps it: an older one than the newest read is impossible, so ignored.
    if (!(sentAt > this.lastSentAt) || !(sentAt <= now)) return true;
    this.lastSentAt = sentAt;
    this.read += 1;
    const wait = now - sentAt;
    this.maxWaitMs = Math.max(this.maxWaitMs, wait);
    this.longest = Math.max(this.longest, wait);
    this.samples.add(wait);
    return true;
  }

  /** Server clock when the newest probe read was sent (−∞: none yet): what was read before it arrived before then. */
  get lastSent(): number {
    return this.lastSentAt;
  }

  /** The longest a datagram read at `now` can have waited in the queue (ms; Infinity before the first probe is read). */
  bound(now: number): number {
    return Math.max(0, now - this.lastSentAt);
  }

  /**
   * The longest wait of a probe read since the last call, or, when probes
   * stopped coming through (a full queue drops them too), how long since the
   * newest one read was sent, less a probe interval (ms); starts again.
   */
  takeLongest(now: number): number {
    const l = Math.max(this.longest, this.bound(now) - PROBE_EVERY_MS);
    this.longest = 0;
    return l;
  }

  /** The probes' waits over the last minute (ms): median and 99th percentile. */
  waits(): { p50: number; p99: number } {
    return this.samples.p50p99();
  }
}

/** One player's side: the base of its stamps and when a state of its was last relayed. */
export class InputAge {
  /** Smallest `now − stamp` so far, as raised by the bound (NaN: no stamp yet). */
  private base = Number.NaN;
  /** Server clock when a state of this player was last taken for relaying. */
  private takenAt = -Infinity;
  /** The lag of the last stamp looked at and when it was read. */
  private lastLag = 0;
  private lastReadAt = -Infinity;

  /** How long the datagram stamped `stamp` (u32 ms of the player's game time), read at `now`, waited (ms, at most `bound`). */
  age(stamp: number, now: number, bound: number): number {
    // The difference of two u32 clocks, wrapping like the stamps do (and the part of a millisecond the stamp leaves out).
    const whole = Math.floor(now);
    const lag = (((whole >>> 0) - (stamp >>> 0)) | 0) + (now - whole);
    if (!(lag >= this.base)) this.base = lag;
    else if (lag - this.base > bound) this.base = lag - bound;
    this.lastLag = lag;
    this.lastReadAt = now;
    return lag - this.base;
  }

  /** A probe sent at `sentAt` was read after this player's last datagram: that one waited at least its read time − `sentAt`. */
  probed(sentAt: number): void {
    const least = this.lastReadAt - sentAt;
    if (least > 0 && this.lastLag - this.base < least) this.base = this.lastLag - least;
  }

  /**
   * Whether the newest state stamped `stamp`, read at `now`, is shed: it
   * waited longer than SHED_AGE_MS and this player had a state taken within
   * SHED_FLOOR_MS. Then its wait (ms); otherwise null: it is taken (and the
   * floor starts again).
   */
  shed(stamp: number, now: number, bound: number): number | null {
    const age = this.age(stamp, now, bound);
    if (age > SHED_AGE_MS && now - this.takenAt < SHED_FLOOR_MS) return age;
    this.takenAt = now;
    return null;
  }
}

/** The smallest receive buffer a server that stays behind asks for (bytes): some 100 small datagrams. */
export const MIN_RECEIVE_BUFFER = 128 * 1024;
/** Seconds of calm (no probe waiting over SHED_AGE_MS / 2) before the buffer doubles back. */
export const CALM_SECONDS = 3;

/**
 * The receive buffer of a server that stays behind. Shedding keeps what is
 * relayed fresh while reading keeps up; when reading itself cannot (the
 * core is saturated), the kernel queue would fill its whole buffer, seconds
 * of input, and every state read would be that old. So each second in which
 * a probe waited over 2 × SHED_AGE_MS shrinks the buffer by the share of
 * that wait SHED_AGE_MS is (a half to an eighth; down to
 * MIN_RECEIVE_BUFFER): the kernel then drops what arrives beyond it, and what
 * the server reads is at most about that long queued. CALM_SECONDS of calm
 * double it back, up to the size the server was started with.
 */
export class ReceiveBufferControl {
  /** The size asked for now (bytes). */
  bytes: number;
  /** Times it was halved and doubled back. */
  shrunk = 0;
  grown = 0;
  private calm = 0;

  constructor(
    /** The size the server was started with (bytes). */
    readonly full: number,
    private readonly ask: (bytes: number) => boolean,
  ) {
    this.bytes = full;
  }

  /** A second went by in which the longest probe wait was `longestWaitMs`. */
  second(longestWaitMs: number): void {
    if (longestWaitMs > 2 * SHED_AGE_MS) {
      this.calm = 0;
      // By the share of the wait it should have been (a half at most, an eighth at least), so seconds of queue go in a step or two.
      const next = Math.max(MIN_RECEIVE_BUFFER, Math.floor(this.bytes * Math.min(0.5, Math.max(0.125, SHED_AGE_MS / longestWaitMs))));
      if (this.bytes > MIN_RECEIVE_BUFFER && this.ask(next)) {
        this.bytes = next;
        this.shrunk += 1;
      }
    } else if (longestWaitMs < SHED_AGE_MS / 2) {
      this.calm += 1;
      if (this.calm >= CALM_SECONDS && this.bytes < this.full && this.ask(Math.min(this.full, this.bytes * 2))) {
        this.bytes = Math.min(this.full, this.bytes * 2);
        this.grown += 1;
        this.calm = 0;
      }
    } else this.calm = 0;
  }
}
