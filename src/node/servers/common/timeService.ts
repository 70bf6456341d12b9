/**
 * The servers' side of time sync: a time-sync request datagram (see
 * src/shared/time) arriving on a server's UDP socket is answered straight
 * away with the server's clock, which is the common game time of everyone
 * playing there. Requests are small and replies only 8 bytes longer, and
 * each source (ip:port) gets at most 50 answers a second, so the socket
 * cannot be used to flood a third party. Anything that looks like a time
 * datagram but is not a valid request is dropped and counted.
 */
import { isTimeDatagram, TimeResponder } from '../../../shared/time';
import { RateLimiter } from '../../../shared/util/rateLimit';
import type { DatagramVerdict } from './discoveryResponder';
import type { ServerUdp, UdpEndpoint } from './serverUdp';

export class ServerTimeService {
  private readonly responder: TimeResponder;
  private readonly limiter = new RateLimiter({ perSecond: 50, burst: 100 });

  constructor(
    private readonly udp: ServerUdp,
    /** The server's clock in ms (monotonic): common game time. */
    private readonly clock: () => number,
  ) {
    this.responder = new TimeResponder(clock);
  }

  /**
   * `msg` if it is a time datagram: `answered` (a valid request), `dropped`
   * (a time datagram that is not a valid request, or over the source's rate);
   * `other` leaves it for the other handlers.
   */
  offer(msg: Uint8Array, from: UdpEndpoint): DatagramVerdict {
    if (!isTimeDatagram(msg)) return 'other';
    if (!this.limiter.allow(`${from.address}:${from.port}`, this.clock())) return 'dropped';
    const reply = this.responder.answer(msg);
    if (!reply) return 'dropped';
    this.udp.send(from, reply);
    return 'answered';
  }

  /** Requests answered and dropped (by reason), and answers refused by the rate limit. */
  stats(): { answered: number; drops: Record<string, number>; rateLimited: number } {
    const { answered, drops } = this.responder.stats();
    return { answered, drops: { ...drops } as Record<string, number>, rateLimited: this.limiter.refused };
  }
}
