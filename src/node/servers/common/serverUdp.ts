/**
 * A server's UDP port, bound through the same packet API code as the
 * clients' (`udp`, or `udp6` when the host is an IPv6 address): one socket
 * path for the whole program. A server adds what a client does not need:
 * exactly the port asked for (no fallback), a dual-stack `::` that also hears
 * IPv4 broadcasts, a larger receive buffer, oversized datagrams handed up so
 * the server can hold them against their source, and each datagram's sender
 * as an endpoint (address text and port) for its rate limits, logs and
 * status pages. The udp6 socket joins the discovery multicast group only
 * when bound to the wildcard.
 */
import { MAX_RELAY_BYTES, type NodeAddress } from '../../../shared/net/packetApi';
import { asDgramNode } from '../../packet/dgramNode';
import type { DgramPacketApi } from '../../packet/dgramPacketApi';
import { UdpPacketApi } from '../../packet/udp';
import { Udp6PacketApi, type MulticastJoin } from '../../packet/udp6';
import { PortInUseError } from './portInUse';

/** Where a datagram came from (or goes to): the node for the packet API and its address text and port. */
export interface UdpEndpoint {
  node: NodeAddress;
  /** As the kernel reports it (an IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d). */
  address: string;
  port: number;
}

export interface ServerUdpOptions {
  /** Kernel receive buffer to ask for (a refusal is a warning, not a failure). */
  recvBufferBytes?: number;
  /** udp6 on `::`: interfaces that join the discovery multicast group (default every external IPv6 one). */
  lanInterfaces?: readonly string[];
}

export class ServerUdp {
  private constructor(
    private readonly api: DgramPacketApi,
    /** udp6 on the wildcard: the socket joined (or tried to join) the discovery multicast group. */
    readonly multicastListener: boolean,
    /** The address it was bound to. */
    private readonly host: string,
  ) {}

  /**
   * Binds `host:port` (0: any free port). Rejects with one clear line when the
   * port is taken (a {@link PortInUseError}: `<what>: UDP port <port> on <host> is in use`)
   * or the bind fails.
   */
  static async bind(host: string, port: number, what: string, options: ServerUdpOptions = {}): Promise<ServerUdp> {
    const v6 = host.includes(':');
    const api: DgramPacketApi = v6 ? new Udp6PacketApi() : new UdpPacketApi();
    try {
      await api.init({
        port,
        bindAddress: host,
        exactPort: true,
        dualStack: v6,
        receiveOversize: true,
        // A gameserver's Relays to its clients may be up to MAX_RELAY_BYTES (wire v12); the rest it sends stays within 512.
        maxSendBytes: MAX_RELAY_BYTES,
        ...(options.recvBufferBytes === undefined ? {} : { recvBufferBytes: options.recvBufferBytes }),
        // Only a wildcard socket answers LAN discovery by multicast.
        lanInterfaces: v6 && host === '::' ? options.lanInterfaces : [],
      });
    } catch (err) {
      const message = (err as Error).message;
      // The packet API words a taken exact port as `all in use`.
      if (/all in use/.test(message)) throw new PortInUseError('UDP', port, host, what);
      throw new Error(`${what}: cannot bind UDP ${host}:${port}: ${message}`, { cause: err });
    }
    return new ServerUdp(api, v6 && host === '::', host);
  }

  get port(): number {
    return this.api.localPort();
  }

  /** The socket's own endpoint as this machine reaches it (the loopback address for a wildcard socket): for datagrams to itself. */
  self(): UdpEndpoint {
    const node = this.api.resolve(this.host === '0.0.0.0' || this.host === '::' ? 'localhost' : this.host, this.port);
    const view = asDgramNode(node);
    return { node, address: view?.address ?? this.host, port: this.port };
  }

  /** Every datagram, with its sender; the handler's faults are counted by the packet API, never thrown. */
  onDatagram(handler: (data: Uint8Array, from: UdpEndpoint) => void): void {
    this.api.onPacket(({ from, data }) => {
      const view = asDgramNode(from);
      if (view) handler(data, { node: from, address: view.address, port: view.port });
    });
  }

  /** Asks the kernel for a receive buffer of `bytes` now; false when refused. */
  setReceiveBuffer(bytes: number): boolean {
    return this.api.setReceiveBuffer(bytes);
  }

  /** Sends one datagram; false when the packet API refused it (the caller counts that). */
  send(to: UdpEndpoint, data: Uint8Array): boolean {
    try {
      this.api.send(to.node, data);
      return true;
    } catch {
      return false;
    }
  }

  /** udp6 multicast joins (empty for IPv4 or a socket not on the wildcard). */
  multicastJoins(): MulticastJoin[] {
    return this.api instanceof Udp6PacketApi ? [...this.api.multicastJoins()] : [];
  }

  /** What the bind could not set up (a refused receive buffer). */
  warnings(): string[] {
    return this.api.setupWarnings();
  }

  /** Closes the socket (waits until its handle is gone). */
  close(): Promise<void> {
    return this.api.kill();
  }
}
