/**
 * The server half of LAN discovery (src/shared/servers/lanDiscovery.ts): a
 * slot- or gameserver hands every datagram that starts with the request magic
 * to {@link DiscoveryResponder.offer}, which answers a valid request straight
 * to the requester's address and port with an announcement of the server.
 *
 * Requests are untrusted: malformed ones are counted by reason and ignored,
 * and each source address may only make the server answer a few times a
 * second (so the server cannot be used to flood a forged address). Nothing
 * here throws out of a socket handler.
 *
 * udp6: IPv6 has no broadcast, so a server whose socket listens on the IPv6
 * wildcard joins the Starlane link-local multicast group (the group the udp6
 * packet API's broadcast goes to) on each external interface — the packet
 * API does that when the server binds (ServerUdp); the client's request then
 * reaches it on the server's own port.
 */
import { randomInt } from 'node:crypto';
import {
  encodeAnnouncement,
  isDiscoveryRequest,
  parseDiscoveryRequest,
  type ServerAnnouncement,
} from '../../../shared/servers/lanDiscovery';
import { RateLimiter } from '../../../shared/util/rateLimit';
import type { Logger } from '../../log';
import { STARLANE_MULTICAST_GROUP, type MulticastJoin } from '../../packet/udp6';
import type { ServerUdp, UdpEndpoint } from './serverUdp';

/**
 * A warning for a slot- or gameserver started on a loopback address
 * (127.x.x.x, ::1, localhost), which no LAN broadcast or multicast reaches
 * and no other machine can join; null for any other address.
 */
export function loopbackWarning(host: string): string | null {
  const h = host.trim().toLowerCase();
  const loopback = h === 'localhost' || h === '::1' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
  return loopback
    ? `listening on loopback ${host}: LAN discovery cannot reach this server (servers lan and connect without an address will not find it) and only this machine can join; use --host 0.0.0.0 to be found on the LAN`
    : null;
}

/** What a UDP service did with a datagram offered to it (discovery, time sync): `other` is not its kind. */
export type DatagramVerdict = 'answered' | 'dropped' | 'other';

/** What a server announces (the reply without its nonce and instance); read fresh for every answer. */
export type DiscoveryInfo = Omit<ServerAnnouncement, 'nonce' | 'instance'>;

export interface DiscoveryResponderOptions {
  /** The server's bound UDP port; the responder only sends on it (the server owns and closes it). */
  udp: ServerUdp;
  /** The server as it stands now, or null while it cannot take players yet (requests are then ignored). */
  info(): DiscoveryInfo | null;
  log: Logger;
  /** Answers per second and burst per source address (default 5/s, burst 10: a client asks 3 times per query). */
  rate?: { perSecond: number; burst: number };
}

/** Counters since start, for status pages and tests. */
export interface DiscoveryStats {
  answered: number;
  /** Requests not answered, by reason: the parser's, `rate-limited`, `bad-source`, `not-ready`, `bad-info`, `send-failed`. */
  ignored: Record<string, number>;
  /** udp6 multicast joins (empty for an IPv4 socket). */
  multicast: MulticastJoin[];
}

export class DiscoveryResponder {
  private readonly udp: ServerUdp;
  private readonly limiter: RateLimiter;
  /** Random per server start, so a client that hears us over two paths lists us once. */
  private readonly instance = randomInt(0, 0x1_0000_0000);
  private answered = 0;
  private readonly ignored = new Map<string, number>();
  private warnedBadInfo = false;

  constructor(private readonly options: DiscoveryResponderOptions) {
    this.udp = options.udp;
    const rate = options.rate ?? { perSecond: 5, burst: 10 };
    this.limiter = new RateLimiter({ perSecond: rate.perSecond, burst: rate.burst, maxKeys: 1024 });
    this.reportMulticast();
  }

  /**
   * The datagram if it is discovery's (it starts with the request magic):
   * `answered`, or `dropped` (malformed, over the source's rate, …, counted
   * in `stats().ignored`); `other` for anything else, which the caller
   * handles as before. Never throws.
   */
  offer(msg: Uint8Array, from: UdpEndpoint): DatagramVerdict {
    if (!isDiscoveryRequest(msg)) return 'other';
    try {
      return this.answer(msg, from) ? 'answered' : 'dropped';
    } catch (err) {
      this.ignore('bad-info');
      this.options.log.error({ err }, 'discovery responder failed (request ignored)');
      return 'dropped';
    }
  }

  stats(): DiscoveryStats {
    return { answered: this.answered, ignored: Object.fromEntries(this.ignored), multicast: this.udp.multicastJoins() };
  }

  /** Answers a request; false (and counted) when it is not answered. */
  private answer(msg: Uint8Array, from: UdpEndpoint): boolean {
    const request = parseDiscoveryRequest(msg);
    if (!request.ok) return this.ignore(request.reason);
    if (!Number.isInteger(from.port) || from.port < 1 || from.port > 65535 || from.address === '') return this.ignore('bad-source');
    if (!this.limiter.allow(from.address, performance.now())) return this.ignore('rate-limited');
    const info = this.options.info();
    if (!info) return this.ignore('not-ready');
    let reply: Uint8Array;
    try {
      reply = encodeAnnouncement({ ...info, nonce: request.value.nonce, instance: this.instance });
    } catch (err) {
      // A server whose own numbers are out of range is a bug; say so once, not per request.
      if (!this.warnedBadInfo) this.options.log.error({ err, info }, 'cannot announce this server on the LAN');
      this.warnedBadInfo = true;
      return this.ignore('bad-info');
    }
    if (!this.udp.send(from, reply)) {
      this.options.log.debug({ to: `${from.address}:${from.port}` }, 'discovery answer not sent');
      return this.ignore('send-failed');
    }
    this.answered += 1;
    return true;
  }

  private ignore(reason: string): false {
    this.ignored.set(reason, (this.ignored.get(reason) ?? 0) + 1);
    return false;
  }

  /** udp6 on the wildcard: which interfaces joined the Starlane group when the server bound its port (logged once). */
  private reportMulticast(): void {
    if (!this.udp.multicastListener) return;
    const joins = this.udp.multicastJoins();
    const joined = joins.filter((j) => j.error === null).map((j) => j.iface);
    const failed = joins.filter((j) => j.error !== null);
    this.options.log.info({ group: STARLANE_MULTICAST_GROUP, port: this.udp.port, interfaces: joined }, 'answering udp6 LAN discovery');
    if (failed.length > 0) this.options.log.warn({ failed }, 'could not join the discovery multicast group on some interfaces');
  }
}
