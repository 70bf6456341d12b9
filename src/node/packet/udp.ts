/**
 * The `udp` packet API: IPv4 datagrams through `node:dgram`, LAN broadcast to
 * 255.255.255.255.
 */
import type dgram from 'node:dgram';
import type { PacketApiOptions } from '../../shared/net/packetApi';
import net from 'node:net';
import os from 'node:os';
import { DgramPacketApi } from './dgramPacketApi';

/** Name of the IPv4 packet API as typed in the console. */
export const UDP_PACKET_API = 'udp';

/** Limited-broadcast address used by {@link UdpPacketApi.broadcast}. */
export const IPV4_BROADCAST_ADDRESS = '255.255.255.255';

/**
 * IPv4 packet API. Binds a `udp4` socket (all interfaces unless told
 * otherwise) with broadcasting enabled; `broadcast` goes to
 * `options.broadcastAddress` (default 255.255.255.255). Accepts dotted-quad IPv4 text or
 * `localhost` (127.0.0.1) in `resolve`; anything else is `bad-address`.
 */
export class UdpPacketApi extends DgramPacketApi {
  readonly name = UDP_PACKET_API;
  protected readonly family = 'udp4' as const;
  protected readonly wildcard = '0.0.0.0';
  protected readonly loopback = '127.0.0.1';

  protected parseAddress(host: string): string | null {
    // net.isIPv4 rejects leading zeros and other ambiguous spellings, so accepted text is already canonical.
    return net.isIPv4(host) ? host : null;
  }

  private broadcastTo = IPV4_BROADCAST_ADDRESS;

  protected broadcastAddresses(): string[] {
    return [this.broadcastTo];
  }

  protected configure(socket: dgram.Socket, options: PacketApiOptions): void {
    socket.setBroadcast(true);
    this.broadcastTo = options.broadcastAddress ?? IPV4_BROADCAST_ADDRESS;
  }

  /**
   * With a directed broadcast address (a LAN's x.y.z.255, or loopback's
   * 127.255.255.255) our identity is our address on that network, so the
   * address peers see on our packets is the one we announce.
   */
  protected override preferredLocalAddress(): string | null {
    if (this.broadcastTo === IPV4_BROADCAST_ADDRESS) return null;
    if (this.broadcastTo.startsWith('127.')) return '127.0.0.1';
    const target = ipv4ToInt(this.broadcastTo);
    for (const infos of Object.values(os.networkInterfaces())) {
      for (const i of infos ?? []) {
        if (i.family !== 'IPv4') continue;
        const mask = ipv4ToInt(i.netmask);
        if (((ipv4ToInt(i.address) | ~mask) >>> 0) === target) return i.address;
      }
    }
    return null;
  }

  protected unconfigure(): void {
    // Nothing beyond the socket itself.
  }
}

function ipv4ToInt(text: string): number {
  return text.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}
