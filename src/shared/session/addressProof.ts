/**
 * Proof of address for the nodes of a peer-to-peer session: a datagram is
 * taken only when it carries our cookie for its source address, which only
 * a node that receives at that address can know. Cookies are exchanged in
 * challenge datagrams (challengeWire.ts) and sent in every other datagram as
 * the header's token, so one forged datagram — a NodeAlive from a higher
 * address, a ConnectRequest naming strangers — changes nothing, and nothing
 * we send to an address we have not heard from is larger than what came from
 * it.
 *
 * The handshake between A and B, started by any datagram of A's that B
 * cannot take (a LAN broadcast carries no token):
 *
 *   B → A  challenge{echo 0,       cookie B(A)}   (in answer: 12 bytes)
 *   A → B  challenge{echo B(A),    cookie A(B)}   (unproven: echoed at once, nothing kept)
 *   B → A  challenge{echo A(B),    cookie B(A)}   (B keeps A(B): A received B(A) at its address)
 *   A → B  challenge{echo B(A),    cookie A(B)}   (A keeps B(A); B, knowing it already, stays quiet)
 *
 * A cookie is kept only from a challenge that echoes ours, so a forged
 * challenge cannot plant one; a node that restarts (new secret) is
 * challenged again by the first datagram it cannot take. Cookies are a keyed
 * hash of the address (`mac`: HMAC-SHA-256 in the Node adapter), so nothing
 * is stored for a stranger: a flood of unproven datagrams costs a hash and a
 * counter each, and its challenges are rationed per address and overall.
 */
import type { NodeAddress } from '../net/packetApi';
import type { UnnumberedPacket } from '../net/connection';
import type { WireAddr } from '../wire/types';
import { encodeChallenge, type Challenge } from './challengeWire';

/** Least time between two challenges to one address in answer to datagrams we cannot take. */
export const CHALLENGE_INTERVAL_MS = 100;
/** Most challenges a session sends per second, all addresses together (a flood of forged sources is answered at most this often). */
export const MAX_CHALLENGES_PER_SECOND = 200;
/** How long a packet for a node we have no cookie for waits for the handshake (then it is dropped: the protocol repeats what matters). */
export const HOLD_MS = 1000;
/** An untokened datagram from a node that sent one with our cookie within this long is the copy of a broadcast, not worth a challenge (it knows our cookie). */
const BROADCAST_COPY_MS = 1000;
/** A proven node not heard from for this long (and no longer in the session) is forgotten. */
export const FORGET_AFTER_MS = 60_000;
/** Most proven nodes and held packets kept (beyond it the oldest go, the held packet due first). */
const MAX_PROVEN = 1024;
const MAX_HELD = 64;
const MAX_COOKIE_CACHE = 4096;

/** The keyed hash a session's cookies come from: a non-zero u32 per address key, unguessable without the session's secret. */
export type CookieMac = (key: string) => number;

interface Proven {
  cookie: number;
  node: NodeAddress;
  heardAt: number;
  /** When it last sent a datagram with our cookie (so it knows it): -Infinity before. */
  tokenedAt: number;
}

interface Held {
  to: WireAddr;
  packet: UnnumberedPacket;
  until: number;
}

/** What the session does with a received challenge. */
export interface ChallengeOutcome {
  /** The challenge to send back, if any. */
  reply: Uint8Array | null;
  /** The node's cookie is new to us: it has just proven its address (flush what waited for it). */
  learned: boolean;
}

/** Counters for `netstat`-style output and tests. */
export interface ProofCounts {
  /** Datagrams dropped because they did not carry our cookie for their source. */
  unproven: number;
  challengesSent: number;
  challengesReceived: number;
  /** Challenges we did not send (per-address interval or the overall budget). */
  challengesRationed: number;
  /** Packets that waited for a handshake and were sent when it completed, or dropped when it did not. */
  heldSent: number;
  heldDropped: number;
}

export class AddressProof {
  readonly counts: ProofCounts = { unproven: 0, challengesSent: 0, challengesReceived: 0, challengesRationed: 0, heldSent: 0, heldDropped: 0 };
  private readonly ours = new Map<string, number>();
  private readonly theirs = new Map<string, Proven>();
  private readonly lastChallenge = new Map<string, number>();
  private readonly held = new Map<string, Held>();
  private budgetSecond = -Infinity;
  private budgetUsed = 0;

  constructor(private readonly mac: CookieMac) {}

  /** Our cookie for the node with packet API key `key` (what it must put in every datagram to us). */
  cookieFor(key: string): number {
    let c = this.ours.get(key);
    if (c === undefined) {
      if (this.ours.size >= MAX_COOKIE_CACHE) this.ours.clear();
      c = this.mac(key) >>> 0 || 1;
      this.ours.set(key, c);
    }
    return c;
  }

  /** The token to put in datagrams to `key` (its cookie for us), or undefined before its handshake. */
  tokenFor(key: string): number | undefined {
    return this.theirs.get(key)?.cookie;
  }

  /** Whether `key` has proven it receives at its address (answered our challenge). */
  proven(key: string): boolean {
    return this.theirs.has(key);
  }

  /** Proven nodes heard from within `withinMs` (where a broadcast's tokened copies go). */
  recentNodes(now: number, withinMs: number): NodeAddress[] {
    const out: NodeAddress[] = [];
    for (const p of this.theirs.values()) if (now - p.heardAt <= withinMs) out.push(p.node);
    return out;
  }

  /** Whether a decoded datagram from `key` with header token `token` may be taken; a taken one refreshes the node. */
  admits(key: string, token: number | undefined, now: number): boolean {
    if (token !== undefined && token === this.cookieFor(key)) {
      const p = this.theirs.get(key);
      if (p) p.heardAt = p.tokenedAt = now;
      return true;
    }
    this.counts.unproven += 1;
    return false;
  }

  /**
   * A decoded datagram from `key` carrying header token `token`: whether to
   * take it, and the challenge to send back. One without our cookie is not
   * taken and may be answered (challengeFor); one with it from a node whose
   * own cookie we lack (the challenge that told us was lost) is taken, and we
   * ask for that cookie — the node proved its address, so this is no reflection.
   */
  gate(key: string, token: number | undefined, now: number): { take: boolean; challenge: Uint8Array | null } {
    if (!this.admits(key, token, now)) return { take: false, challenge: this.challengeFor(key, now) };
    return { take: true, challenge: this.proven(key) ? null : this.hold(key, null, now) };
  }

  /**
   * The challenge to answer a datagram from `key` we could not take, or null:
   * rationed per address and overall, and never for the untokened copy of a
   * broadcast from a node that has just sent us good datagrams.
   */
  challengeFor(key: string, now: number): Uint8Array | null {
    const p = this.theirs.get(key);
    if (p && now - p.tokenedAt < BROADCAST_COPY_MS) return null;
    if (now - (this.lastChallenge.get(key) ?? -Infinity) < CHALLENGE_INTERVAL_MS || !this.spend(now)) {
      this.counts.challengesRationed += 1;
      return null;
    }
    if (this.lastChallenge.size >= MAX_PROVEN) this.lastChallenge.clear();
    this.lastChallenge.set(key, now);
    return this.challenge(key, p?.cookie ?? 0);
  }

  /**
   * A challenge from `node` (key `key`). One that echoes our cookie proves the
   * node: its cookie is kept, and if it is new to us we answer so the node
   * learns ours. One that does not is answered with its cookie echoed and
   * nothing kept (the same size: factor 1.0), within the overall budget.
   */
  onChallenge(key: string, node: NodeAddress, c: Challenge, now: number): ChallengeOutcome {
    this.counts.challengesReceived += 1;
    const mine = this.cookieFor(key);
    if (c.echo !== mine) {
      if (!this.spend(now)) {
        this.counts.challengesRationed += 1;
        return { reply: null, learned: false };
      }
      return { reply: this.challenge(key, c.cookie), learned: false };
    }
    const before = this.theirs.get(key);
    const learned = before?.cookie !== c.cookie;
    if (!before && this.theirs.size >= MAX_PROVEN) this.forgetOldest();
    this.theirs.set(key, { cookie: c.cookie, node, heardAt: now, tokenedAt: before?.tokenedAt ?? -Infinity });
    return { reply: learned ? this.challenge(key, c.cookie) : null, learned };
  }

  /**
   * A packet for `key`, whose cookie we do not have yet: it waits (the newest
   * per node) for the handshake, which a challenge starts. Returns the
   * challenge to send, or null when one went out a moment ago.
   */
  hold(key: string, held: { to: WireAddr; packet: UnnumberedPacket } | null, now: number): Uint8Array | null {
    if (held) {
      if (!this.held.has(key) && this.held.size >= MAX_HELD) this.dropSoonestDue();
      this.held.set(key, { ...held, until: now + HOLD_MS });
    }
    if (now - (this.lastChallenge.get(key) ?? -Infinity) < CHALLENGE_INTERVAL_MS || !this.spend(now)) return null;
    this.lastChallenge.set(key, now);
    return this.challenge(key, 0);
  }

  /** The packet that waited for `key`'s handshake, if it has not expired. */
  takeHeld(key: string, now: number): { to: WireAddr; packet: UnnumberedPacket } | null {
    const h = this.held.get(key);
    if (!h) return null;
    this.held.delete(key);
    if (now > h.until) {
      this.counts.heldDropped += 1;
      return null;
    }
    this.counts.heldSent += 1;
    return h;
  }

  /** Housekeeping: expired held packets go; proven nodes silent for FORGET_AFTER_MS go unless `keep` has them. */
  prune(now: number, keep: ReadonlySet<string>): void {
    this.dropExpired(now);
    for (const [key, p] of this.theirs) if (now - p.heardAt > FORGET_AFTER_MS && !keep.has(key)) this.theirs.delete(key);
    for (const [key, at] of this.lastChallenge) if (now - at > CHALLENGE_INTERVAL_MS) this.lastChallenge.delete(key);
  }

  /** Forgets everything learned (the protocol stops). Our cookies stay: they are a function of the secret. */
  clear(): void {
    this.theirs.clear();
    this.held.clear();
    this.lastChallenge.clear();
  }

  private challenge(key: string, echo: number): Uint8Array {
    this.counts.challengesSent += 1;
    return encodeChallenge({ echo, cookie: this.cookieFor(key) });
  }

  /** One challenge from the overall budget (a fixed one-second window). */
  private spend(now: number): boolean {
    const second = Math.floor(now / 1000);
    if (second !== this.budgetSecond) {
      this.budgetSecond = second;
      this.budgetUsed = 0;
    }
    if (this.budgetUsed >= MAX_CHALLENGES_PER_SECOND) return false;
    this.budgetUsed += 1;
    return true;
  }

  private dropExpired(now: number): void {
    for (const [key, h] of this.held) {
      if (now > h.until) {
        this.held.delete(key);
        this.counts.heldDropped += 1;
      }
    }
  }

  private dropSoonestDue(): void {
    let first: string | null = null;
    let until = Infinity;
    for (const [key, h] of this.held) if (h.until < until) [first, until] = [key, h.until];
    if (first === null) return;
    this.held.delete(first);
    this.counts.heldDropped += 1;
  }

  private forgetOldest(): void {
    let oldest: string | null = null;
    let at = Infinity;
    for (const [key, p] of this.theirs) if (p.heardAt < at) [oldest, at] = [key, p.heardAt];
    if (oldest !== null) this.theirs.delete(oldest);
  }
}
