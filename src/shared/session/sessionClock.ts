/**
 * A game session's common game time (Retro Tank's time sync): which node's
 * clock is the reference, the TimeSyncClient that measures the offset to it,
 * the join gate (a player enters the game only once the offset is good),
 * answering peers' requests, and the age of received states. The session
 * (pipeline.ts) owns one and feeds it ticks and time-sync datagrams.
 */
import type { NodeAddress } from '../net/packetApi';
import { answerTimeRequest, decodeTimeDatagram, TimePacketType, TimeSyncClient } from '../time';
import { addrKey } from '../wire/addr';
import type { PlayerEntry, WireAddr } from '../wire/types';

/** A player may join once the clock offset is known this well: ≥ 8 samples kept and a standard error ≤ 2 ms (sync goes on refining it). */
const JOIN_MIN_SAMPLES = 8;
const JOIN_MAX_ERROR_MS = 2;
/** With no reply at all from the time source for this long, the local clock is used rather than never joining. */
export const TIME_SYNC_GIVE_UP_MS = 3000;
/**
 * With replies but a link too jittery (or a machine too busy) for the 2 ms gate, a player joins on the best
 * estimate after this long rather than never; sync goes on refining it.
 */
export const TIME_SYNC_JOIN_WAIT_MS = 5000;
/** State ages beyond this are treated as clock trouble, not as latency. */
const MAX_STATE_AGE_MS = 1000;

/**
 * What the player should hear about the clock, as data (the Node adapter
 * words it): a join waits for sync; sync is good; good enough after waiting
 * `waitMs` on a jittery link; or the source never answered within `giveUpMs`.
 * `source` is the time source (null: not known yet).
 */
export type ClockReport =
  | { kind: 'waiting'; source: WireAddr | null }
  | { kind: 'synced'; source: WireAddr; offsetMs: number; errorMs: number; rttMs: number }
  | { kind: 'synced-best-effort'; source: WireAddr; offsetMs: number; errorMs: number; rttMs: number; waitMs: number }
  | { kind: 'no-reply'; source: WireAddr; giveUpMs: number };

/** The clock as it stands, for the `players` listing. */
export type ClockStatus =
  | { kind: 'reference' }
  | { kind: 'unsynchronised' }
  | { kind: 'no-reply'; source: WireAddr; usingOwnClock: boolean }
  | { kind: 'sync'; source: WireAddr; good: boolean; offsetMs: number; errorMs: number; rttMs: number; kept: number; samples: number };

/** What the clock needs from its session. */
export interface ClockHost {
  report(report: ClockReport): void;
  /** Sends raw bytes (a time-sync datagram) to a node. */
  send(to: WireAddr, bytes: Uint8Array, node?: NodeAddress): void;
  /** A node's identity from its wire address (default: the bytes; a session: the packet API's key). */
  keyOf?(addr: WireAddr): string;
}

export class SessionClock {
  /**
   * The node whose clock is the common game time, for the server protocols
   * (the gameserver, the slotserver's time port); unset, the session's
   * fallback decides (the member with the lowest slot, peer to peer).
   */
  source: (() => WireAddr | null) | null = null;
  /** Clock sync with the time source (null while we are the reference or not connected). */
  private sync: { client: TimeSyncClient; key: string; addr: WireAddr; since: number } | null = null;
  /** Added to the host clock to get common game time (kept when the source changes, so time runs on smoothly). */
  private offset = 0;
  /** A usable common time exists (synchronised, or we are the reference, or the source never answered). */
  private good = false;
  /** A join waits for the clock (cl_autojoin or the join command before sync). */
  private pendingJoin = false;

  private readonly keyOf: (addr: WireAddr) => string;

  constructor(private readonly host: ClockHost) {
    this.keyOf = host.keyOf ? (a) => host.keyOf?.(a) ?? addrKey(a) : addrKey;
  }

  /** Common game time at host time `now` (ms). */
  commonTime(now: number): number {
    return now + this.offset;
  }

  /** The node we synchronise with now (null: we are the reference, or not connected). */
  get syncingWith(): WireAddr | null {
    return this.sync?.addr ?? null;
  }

  /** True once the common time is usable. */
  get synced(): boolean {
    return this.good;
  }

  /**
   * Our ship jumps to another server of a universe whose game time is this one's plus `shiftMs` (mod 2^32):
   * the servers share a time reference, so the common time is good there at once — no fresh sync to wait
   * for; sync with the new source goes on refining it.
   */
  carryOver(shiftMs: number): void {
    this.offset += shiftMs | 0;
    this.good = true;
    this.pendingJoin = false;
  }

  /** Not connected any more: everything starts over at the next connection (the offset is kept). */
  reset(): void {
    this.sync = null;
    this.good = false;
    this.pendingJoin = false;
  }

  /**
   * A join was asked for: true when it may happen now; otherwise it waits
   * for {@link tick} to say so (the player is told once).
   */
  requestJoin(now: number, fallback: () => WireAddr | null): boolean {
    if (!this.good) this.tick(now, fallback); // we may be the reference ourselves
    if (this.good) {
      this.pendingJoin = false;
      return true;
    }
    if (!this.pendingJoin) {
      this.pendingJoin = true;
      this.host.report({ kind: 'waiting', source: this.sync ? this.sync.addr : null });
    }
    return false;
  }

  /** Picks the source, sends its requests, takes the offset; returns true when a waiting join may happen now. */
  tick(now: number, fallback: () => WireAddr | null): boolean {
    const source = this.source ? this.source() : fallback();
    if (!source) {
      // We are the reference: our common time (the offset kept from an earlier source) is everyone's.
      this.sync = null;
      this.good = true;
    } else {
      const key = this.keyOf(source);
      if (this.sync?.key !== key) this.sync = { client: new TimeSyncClient(), key, addr: Uint8Array.from(source), since: now };
      const client = this.sync.client;
      for (const request of client.poll(now)) this.host.send(source, request);
      if (client.ready || this.good) {
        if (client.measured) this.offset = client.offset;
      } else {
        const st = client.stats();
        if (st.kept >= JOIN_MIN_SAMPLES && st.standardErrorMs <= JOIN_MAX_ERROR_MS) {
          this.offset = client.offset;
          this.good = true;
          if (this.pendingJoin) this.host.report({ kind: 'synced', source, offsetMs: client.offset, errorMs: st.standardErrorMs, rttMs: st.rttMs });
        } else if (st.repliesAccepted > 0 && client.measured && now - this.sync.since >= TIME_SYNC_JOIN_WAIT_MS) {
          this.offset = client.offset;
          this.good = true;
          if (this.pendingJoin) this.host.report({ kind: 'synced-best-effort', source, offsetMs: client.offset, errorMs: st.standardErrorMs, rttMs: st.rttMs, waitMs: TIME_SYNC_JOIN_WAIT_MS });
        } else if (st.repliesAccepted === 0 && now - this.sync.since >= TIME_SYNC_GIVE_UP_MS) {
          this.good = true;
          this.host.report({ kind: 'no-reply', source, giveUpMs: TIME_SYNC_GIVE_UP_MS });
        }
      }
    }
    if (!this.pendingJoin || !this.good) return false;
    this.pendingJoin = false;
    return true;
  }

  /**
   * A time-sync datagram from `from`: our source's reply is a sample; a
   * request is answered with our common time when `mayAnswer` (a member of
   * our game) and our clock is good. False for a malformed datagram.
   */
  onDatagram(data: Uint8Array, from: WireAddr, fromNode: NodeAddress, now: number, mayAnswer: () => boolean): boolean {
    const decoded = decodeTimeDatagram(data);
    if (!decoded.ok) return false;
    if (decoded.msg.type === TimePacketType.TimeReply) {
      if (this.sync && this.keyOf(from) === this.sync.key) this.sync.client.receive(data, now);
      return true;
    }
    if (!this.good || !mayAnswer()) return true;
    const reply = answerTimeRequest(data, this.commonTime(now));
    if (reply) this.host.send(from, reply, fromNode);
    return true;
  }

  /**
   * A state's age from its sender's common-time stamp, once our clock is
   * good (an implausible age — clocks out of step, a corrupt stamp — gives
   * none, and the state counts as new).
   */
  ageOf(stamp: number, now: number): { ageMs?: number } {
    if (!this.good) return {};
    const age = ((Math.floor(this.commonTime(now)) >>> 0) - stamp) | 0;
    return age >= 0 && age <= MAX_STATE_AGE_MS ? { ageMs: age } : {};
  }

  /** The common game time as it stands: where it comes from and how good it is. */
  status(): ClockStatus {
    if (!this.sync) return this.good ? { kind: 'reference' } : { kind: 'unsynchronised' };
    const st = this.sync.client.stats();
    if (st.repliesAccepted === 0) return { kind: 'no-reply', source: this.sync.addr, usingOwnClock: this.good };
    return { kind: 'sync', source: this.sync.addr, good: this.good, offsetMs: st.offsetMs, errorMs: st.standardErrorMs, rttMs: st.rttMs, kept: st.kept, samples: st.samples };
  }
}

/**
 * The member whose clock a player in slot `mine` should follow when no
 * server names a time source (peer to peer, slotservers without a time
 * port); null: it is the reference. The reference is the joined member with
 * the lowest slot — joined players have a good clock already, so a newcomer
 * in a freed lower slot syncs with them first and takes over the same time
 * when it joins, without a jump. Before anyone has joined, the lowest slot
 * is the reference. Sources always have lower slots or are joined when we are
 * not, so no two players ask each other.
 */
export function timeReference(players: readonly PlayerEntry[], mine: number | null): WireAddr | null {
  if (mine === null) return null;
  const me = players.find((p) => p.slot === mine);
  let root: PlayerEntry | null = null;
  let lowest: PlayerEntry | null = null;
  for (const p of players) {
    if (p.slot === mine) continue;
    if (p.joined && (root === null || p.slot < root.slot)) root = p;
    if (lowest === null || p.slot < lowest.slot) lowest = p;
  }
  if (root) return !me?.joined || root.slot < mine ? root.addr : null;
  // Nobody else has joined: a joined player is the reference; before anyone joins, the lowest slot is.
  if (me?.joined) return null;
  return lowest && lowest.slot < mine ? lowest.addr : null;
}
