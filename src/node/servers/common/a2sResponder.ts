/**
 * The server half of Valve's A2S server query (src/shared/servers/a2sQuery.ts)
 * on a Starlane server's UDP port: INFO, PLAYER and RULES, each answered only
 * with a valid challenge, so no reply to an unchallenged request is larger
 * than the request (a forged source gets 9 bytes back). A challenge is an
 * HMAC of the source address and port under a key random per server start,
 * good for the current and the previous CHALLENGE_WINDOW_MS: nothing is kept
 * per source. Each source address may make the server answer a few times a
 * second, as LAN discovery does; malformed queries and those over the rate
 * are dropped, counted by reason. Never throws out of a socket handler.
 */
import { createHmac, randomBytes } from 'node:crypto';
import {
  encodeA2sChallenge,
  encodeA2sInfo,
  encodeA2sPlayers,
  encodeA2sRules,
  isA2sDatagram,
  parseA2sRequest,
  type A2sInfo,
  type A2sPlayer,
} from '../../../shared/servers/a2sQuery';
import { RateLimiter } from '../../../shared/util/rateLimit';
import type { Logger } from '../../log';
import type { DatagramVerdict } from './discoveryResponder';
import type { ServerUdp, UdpEndpoint } from './serverUdp';

/** How long a challenge is good for (ms): the window it was made in, and the next. */
export const CHALLENGE_WINDOW_MS = 30_000;

/** What a server says of itself, read fresh for every answer; null while it cannot take players yet. */
export interface A2sSource {
  info(): A2sInfo | null;
  players(): A2sPlayer[];
  rules(): [string, string][];
}

export interface A2sResponderOptions {
  udp: ServerUdp;
  source: A2sSource;
  log: Logger;
  /** The server's clock (ms). */
  clock(): number;
  /** Answers per second and burst per source address (default 10/s, burst 20: a browser asks INFO, PLAYER and RULES, each twice). */
  rate?: { perSecond: number; burst: number };
}

export interface A2sStats {
  /** Answers by query (`info`, `players`, `rules`) and challenges sent. */
  answered: Record<string, number>;
  challenges: number;
  /** Queries not answered, by reason (`a2s-truncated`, `a2s-unknown`, `a2s-bad-info`, `a2s-oversized`, `rate-limited`, `not-ready`, `send-failed`). */
  ignored: Record<string, number>;
}

export class A2sResponder {
  private readonly key = randomBytes(32);
  private readonly limiter: RateLimiter;
  private readonly answered = new Map<string, number>();
  private readonly ignored = new Map<string, number>();
  private challenges = 0;

  constructor(private readonly options: A2sResponderOptions) {
    const rate = options.rate ?? { perSecond: 10, burst: 20 };
    this.limiter = new RateLimiter({ perSecond: rate.perSecond, burst: rate.burst, maxKeys: 1024 });
  }

  /** The datagram if it is an A2S query's: `answered`, or `dropped` (counted); `other` for anything else. Never throws. */
  offer(msg: Uint8Array, from: UdpEndpoint): DatagramVerdict {
    if (!isA2sDatagram(msg)) return 'other';
    try {
      return this.answer(msg, from) ? 'answered' : 'dropped';
    } catch (err) {
      this.options.log.error({ err }, 'A2S query could not be answered (dropped)');
      this.ignore('not-ready');
      return 'dropped';
    }
  }

  stats(): A2sStats {
    return { answered: Object.fromEntries(this.answered), challenges: this.challenges, ignored: Object.fromEntries(this.ignored) };
  }

  /** The challenge `from` is to send back in the window of `at` (ms). */
  challengeFor(from: Pick<UdpEndpoint, 'address' | 'port'>, at = this.options.clock()): number {
    const window = Math.floor(at / CHALLENGE_WINDOW_MS);
    const mac = createHmac('sha256', this.key).update(`${from.address}|${from.port}|${window}`).digest();
    // Never −1, which asks for a challenge.
    const c = mac.readInt32LE(0);
    return c === -1 ? 0 : c;
  }

  private answer(msg: Uint8Array, from: UdpEndpoint): boolean {
    const parsed = parseA2sRequest(msg);
    if (!parsed.ok) return this.ignore(parsed.reason);
    if (!this.limiter.allow(from.address, performance.now())) return this.ignore('rate-limited');
    const r = parsed.request;
    const now = this.options.clock();
    const good = r.challenge !== null && (r.challenge === this.challengeFor(from, now) || r.challenge === this.challengeFor(from, now - CHALLENGE_WINDOW_MS));
    if (!good) {
      this.challenges += 1;
      return this.send(from, encodeA2sChallenge(this.challengeFor(from, now)));
    }
    const src = this.options.source;
    const info = src.info();
    if (!info) return this.ignore('not-ready');
    const reply = r.kind === 'info' ? encodeA2sInfo(info) : r.kind === 'players' ? encodeA2sPlayers(src.players()) : encodeA2sRules(src.rules());
    if (!this.send(from, reply)) return false;
    this.answered.set(r.kind, (this.answered.get(r.kind) ?? 0) + 1);
    return true;
  }

  private send(to: UdpEndpoint, bytes: Uint8Array): boolean {
    if (this.options.udp.send(to, bytes)) return true;
    return this.ignore('send-failed');
  }

  private ignore(reason: string): false {
    this.ignored.set(reason, (this.ignored.get(reason) ?? 0) + 1);
    return false;
  }
}
