/**
 * Reliable out-of-order messages over datagrams (Retro Tank's messaging
 * system), for what a player must not miss: kills, names, chat. One
 * {@link ReliableLink} per remote node, on both sides of it:
 *
 * - Sending: each message gets a 16-bit id (per link, starting at a random
 *   value so a restarted peer is not mistaken for the old one). It goes out in
 *   the next datagram to that node that has room, and again after 200 ms
 *   (or 1.5 measured round trips + 40 ms, if longer), then at doubling
 *   intervals capped at 1,000 ms until acknowledged; after
 *   {@link RELIABLE_DEFAULTS}.maxSends sends without an acknowledgement the
 *   link has failed and the peer is treated as gone. A message queued with a
 *   `supersede` key replaces an older one with the same key that is still
 *   queued or in flight (a newer name makes the old one pointless); the old
 *   one is cancelled, never counted as a failure.
 * - Receiving: a message id seen for the first time is delivered, later
 *   copies are not (exactly once, in any order); every copy is acknowledged,
 *   so a lost acknowledgement is repaired by the next resend. New ids are
 *   listed in the acknowledgements of the next `ackRepeats` datagrams. Ids
 *   are remembered for 30 s (a message's resends end after 10.4 s), so ids
 *   may wrap as long as a link carries under ~2,000 messages a second.
 *
 * Pure: time is passed in, sizes come from the caller's codec.
 */
import { MAX_ACK_IDS } from '../wire/types';

/** Tunables; the defaults are what every protocol uses (docs/PROTOCOL.md). */
export interface ReliableConfig {
  /** Delay before the first resend (ms); doubles after each resend. */
  firstResendMs: number;
  /** Largest delay between resends (ms). */
  maxResendMs: number;
  /** Sends (first + resends) before an unacknowledged message fails the link. */
  maxSends: number;
  /** Datagrams that list a newly received id in their acknowledgement. */
  ackRepeats: number;
  /** How long a new acknowledgement may wait for a datagram to ride on before it needs one of its own (ms). */
  ackDelayMs: number;
  /** Most ids one datagram's link section acknowledges. */
  maxAcksPerDatagram: number;
  /** Messages in flight (sent, not yet acknowledged) at once; the rest wait in order. */
  maxInFlight: number;
  /** Messages waiting to be sent before the oldest is dropped (and counted). */
  maxQueued: number;
  /** How long a received id is remembered for duplicate detection (ms); longer than a message's whole resend life. */
  rememberMs: number;
}

export const RELIABLE_DEFAULTS: Readonly<ReliableConfig> = Object.freeze({
  firstResendMs: 200,
  maxResendMs: 1000,
  maxSends: 12,
  ackRepeats: 3,
  ackDelayMs: 40,
  maxAcksPerDatagram: MAX_ACK_IDS,
  maxInFlight: 128,
  maxQueued: 1024,
  rememberMs: 30_000,
});

/**
 * Time from the first send of a message to the link failing, with `cfg` and
 * a first resend interval of `firstMs` (10.4 s with the defaults on a link
 * whose round trip is under ~100 ms; the first interval grows with the
 * measured round trip).
 */
export function giveUpAfterMs(cfg: ReliableConfig = RELIABLE_DEFAULTS, firstMs = cfg.firstResendMs): number {
  let total = 0;
  let interval = firstMs;
  for (let i = 0; i < cfg.maxSends; i++) {
    total += interval;
    interval = Math.min(interval * 2, cfg.maxResendMs);
  }
  return total;
}

/** Received ids remembered at most (bounded memory against a flood of fresh ids). */
const MAX_REMEMBERED = 16_384;

interface Outgoing<M> {
  id: number;
  message: M;
  /** Bytes it adds to a datagram, measured once when queued (resends reuse it). */
  size: number;
  supersede: string | undefined;
  /** Sends so far. */
  sends: number;
  /** When it is due again (first send: as soon as possible). */
  dueAt: number;
  /** Interval before the next resend. */
  interval: number;
  /** Time of the first send (round-trip samples come from messages acknowledged after one send). */
  firstAt: number;
}

/** What one datagram to the link's node should carry. */
export interface ReliableTake<M> {
  /** Ids to acknowledge (may be empty). */
  acks: number[];
  /** Messages to (re)send, oldest first. */
  /** Each with the bytes it adds to the datagram (measured when it was queued). */
  messages: { id: number; message: M; size: number }[];
}

/** Counters for stats and tests. */
export interface ReliableCounters {
  queued: number;
  sent: number;
  resent: number;
  acked: number;
  delivered: number;
  duplicates: number;
  superseded: number;
  /** Messages dropped because the send queue overflowed. */
  overflow: number;
}

export class ReliableLink<M> {
  readonly counters: ReliableCounters = { queued: 0, sent: 0, resent: 0, acked: 0, delivered: 0, duplicates: 0, superseded: 0, overflow: 0 };
  private readonly cfg: ReliableConfig;
  private nextId: number;
  /** Waiting for their first send (beyond the in-flight window). */
  private readonly waiting: Outgoing<M>[] = [];
  /** Sent at least once and not acknowledged, by id. */
  private readonly inFlight = new Map<number, Outgoing<M>>();
  /** Received ids → when first seen (duplicate filter). */
  private readonly seen = new Map<number, number>();
  /** Ids to acknowledge → datagrams left that should list them, and when the id (last) arrived. */
  private readonly toAck = new Map<number, { left: number; since: number }>();
  private failure: string | null = null;
  private srtt: number | null = null;

  constructor(
    /** Bytes a message adds to a datagram's link section (its id and event). */
    private readonly sizeOf: (message: M) => number,
    /** First id (u16); pick it at random per link. */
    firstId: number,
    config: Partial<ReliableConfig> = {},
  ) {
    this.cfg = { ...RELIABLE_DEFAULTS, ...config };
    this.nextId = firstId & 0xffff;
  }

  /** Queues `message`; with `supersede`, an older message with the same key still queued or in flight is cancelled. Returns its id. */
  queue(message: M, now: number, supersede?: string): number {
    if (supersede !== undefined) {
      for (const [id, o] of this.inFlight) {
        if (o.supersede === supersede) {
          this.inFlight.delete(id);
          this.counters.superseded += 1;
        }
      }
      const before = this.waiting.length;
      for (let i = this.waiting.length - 1; i >= 0; i--) if (this.waiting[i]?.supersede === supersede) this.waiting.splice(i, 1);
      this.counters.superseded += before - this.waiting.length;
    }
    const id = this.nextId;
    this.nextId = (this.nextId + 1) & 0xffff;
    if (this.waiting.length >= this.cfg.maxQueued) {
      this.waiting.shift();
      this.counters.overflow += 1;
    }
    this.waiting.push({ id, message, size: this.sizeOf(message), supersede, sends: 0, dueAt: now, interval: this.cfg.firstResendMs, firstAt: now });
    this.counters.queued += 1;
    return id;
  }

  /** Whether `take` at `now` would give nothing: no acknowledgement owed, no resend due, no new message the window lets go. */
  quiet(now: number): boolean {
    return this.failure !== null || (this.toAck.size === 0 && !this.wantsSend(now));
  }

  /** True when a datagram to this node should go out now (acknowledgements owed or messages due). */

  wantsSend(now: number): boolean {
    if (this.failure !== null) return false;
    for (const a of this.toAck.values()) if (a.left === this.cfg.ackRepeats && now - a.since >= this.cfg.ackDelayMs) return true;
    for (const o of this.inFlight.values()) if (o.dueAt <= now && o.sends < this.cfg.maxSends) return true;
    return this.waiting.length > 0 && this.inFlight.size < this.cfg.maxInFlight;
  }

  /**
   * What the next datagram to this node carries, within `budget` bytes
   * (`ackSize(n)` = bytes of an acknowledgement of n ids): acknowledgements
   * first, then due resends oldest first, then new messages while the
   * in-flight window allows. Everything returned counts as sent at `now`.
   */
  take(now: number, budget: number, ackSize: (count: number) => number): ReliableTake<M> {
    const out: ReliableTake<M> = { acks: [], messages: [] };
    if (this.failure !== null) return out;
    let room = budget;
    if (this.toAck.size > 0) {
      const ids = [...this.toAck.keys()].slice(0, this.cfg.maxAcksPerDatagram);
      let n = ids.length;
      while (n > 0 && ackSize(n) > room) n -= 1;
      if (n > 0) {
        out.acks = ids.slice(0, n);
        room -= ackSize(n);
        for (const id of out.acks) {
          const a = this.toAck.get(id);
          if (!a || a.left <= 1) this.toAck.delete(id);
          else a.left -= 1;
        }
      }
    }
    const due = [...this.inFlight.values()].filter((o) => o.dueAt <= now && o.sends < this.cfg.maxSends).sort((a, b) => a.dueAt - b.dueAt);
    for (const o of due) {
      const size = o.size;
      if (size > room) continue;
      room -= size;
      this.mark(o, now);
      this.counters.resent += 1;
      out.messages.push({ id: o.id, message: o.message, size: o.size });
    }
    while (this.waiting.length > 0 && this.inFlight.size < this.cfg.maxInFlight) {
      const o = this.waiting[0] as Outgoing<M>;
      const size = o.size;
      if (size > room) break;
      room -= size;
      this.waiting.shift();
      this.inFlight.set(o.id, o);
      // The first resend waits at least 1.5 round trips plus the receiver's ack delay, so a slow link is not flooded with copies.
      o.firstAt = now;
      if (this.srtt !== null) o.interval = Math.max(this.cfg.firstResendMs, Math.min(this.cfg.maxResendMs, 1.5 * this.srtt + this.cfg.ackDelayMs));
      this.mark(o, now);
      this.counters.sent += 1;
      out.messages.push({ id: o.id, message: o.message, size: o.size });
    }
    return out;
  }

  /** An acknowledgement from the node listed these ids at `now` (unknown ones are ignored). */
  onAcks(ids: readonly number[], now: number): void {
    for (const id of ids) {
      const o = this.inFlight.get(id);
      if (!o) continue;
      this.inFlight.delete(id);
      this.counters.acked += 1;
      // Karn's rule: only a message sent once gives an unambiguous round trip.
      if (o.sends === 1) {
        const sample = now - o.firstAt;
        this.srtt = this.srtt === null ? sample : this.srtt + (sample - this.srtt) / 8;
      }
    }
  }

  /** Smoothed round trip from acknowledgements (ms), or null before the first. */
  get roundTripMs(): number | null {
    return this.srtt;
  }

  /** A reliable message `id` arrived at `now`: true the first time (deliver it), false for a copy. Both are acknowledged. */
  onMessage(id: number, now: number): boolean {
    this.toAck.set(id, { left: this.cfg.ackRepeats, since: now });
    const first = this.seen.get(id);
    if (first !== undefined && now - first < this.cfg.rememberMs) {
      this.counters.duplicates += 1;
      return false;
    }
    this.seen.set(id, now);
    if (this.seen.size > MAX_REMEMBERED) this.forget(now);
    this.counters.delivered += 1;
    return true;
  }

  /**
   * Checks for a message that was sent `maxSends` times and not acknowledged
   * within its last interval: returns why the link failed (once it has, every
   * call returns it), else null.
   */
  check(now: number): string | null {
    if (this.failure !== null) return this.failure;
    for (const o of this.inFlight.values()) {
      if (o.sends >= this.cfg.maxSends && o.dueAt <= now) {
        this.failure = `no acknowledgement after ${o.sends} sends over ${((now - o.firstAt) / 1000).toFixed(1)} s`;
        this.inFlight.clear();
        this.waiting.length = 0;
        return this.failure;
      }
    }
    return null;
  }

  /** Whether message `id` is still waiting or in flight (not acknowledged, not given up on). */
  unacknowledged(id: number): boolean {
    return this.inFlight.has(id) || this.waiting.some((o) => o.id === id);
  }

  /** Messages not yet acknowledged (queued or in flight). */
  get pending(): number {
    return this.waiting.length + this.inFlight.size;
  }

  private mark(o: Outgoing<M>, now: number): void {
    o.sends += 1;
    o.dueAt = now + o.interval;
    o.interval = Math.min(o.interval * 2, this.cfg.maxResendMs);
  }

  /** Drops remembered ids older than `rememberMs`; if still too many, the oldest half. */
  private forget(now: number): void {
    for (const [id, at] of this.seen) if (now - at >= this.cfg.rememberMs) this.seen.delete(id);
    if (this.seen.size <= MAX_REMEMBERED) return;
    const byAge = [...this.seen.entries()].sort((a, b) => a[1] - b[1]);
    for (const [id] of byAge.slice(0, byAge.length / 2)) this.seen.delete(id);
  }
}
