/**
 * Shared `node:dgram` machinery for the `udp` and `udp6` packet APIs: socket
 * lifetime with port fallback, the 512-byte rule for what it sends (received: up to 1,200 bytes, a gameserver's Relay; the decoder holds the rest to 512), counters,
 * and opaque node addresses. Subclasses add the family-specific parts
 * (address parsing, broadcast target, per-socket setup).
 */
import type dgram from 'node:dgram';
import os from 'node:os';
import {
  CLIENT_PORT_FALLBACK_RANGE,
  MAX_DATAGRAM_BYTES,
  MAX_RELAY_BYTES,
  PacketApiError,
  type NodeAddress,
  type PacketApi,
  type PacketApiOptions,
  type PacketApiStats,
  type ReceivedPacket,
} from '../../shared/net/packetApi';
import { asDgramNode, makeDgramNode, type DgramFamily } from './dgramNode';
import { addressToBytes, bytesToAddress } from './nodeBytes';
import { bindDgramSocket, drainCloseCallbacks, errorCode, type DgramInitOptions } from './dgramBind';

export type { DgramInitOptions } from './dgramBind';
export type { DgramFamily } from './dgramNode';

/** Sends of one socket awaiting dgram's callback, who waits for them to settle, and the one callback they share. */
interface InFlight {
  count: number;
  settled: (() => void) | null;
  /** dgram's callback for every send on the socket: counts it sent (with its bytes) or failed. */
  done: (err: Error | null, bytes?: number) => void;
}

/** The longest a kill waits for datagrams already sent to leave before it closes the socket. */
const SEND_FLUSH_MS = 200;

/**
 * Base class of the dgram packet APIs. Ownership: an instance owns at most
 * one socket, created by `init` and destroyed by `kill`; `init`/`kill` calls
 * on one instance are serialised. Node addresses it makes are accepted by any
 * instance of the same family (so stored addresses survive a re-init), and by
 * nothing else.
 */
export abstract class DgramPacketApi implements PacketApi {
  abstract readonly name: string;
  protected abstract readonly family: DgramFamily;
  /** Text of the any-address for the family. */
  protected abstract readonly wildcard: string;
  /** Text of the loopback address for the family (what `localhost` means). */
  protected abstract readonly loopback: string;

  private socket: dgram.Socket | null = null;
  private boundPort = 0;
  private boundAddress = '';
  private handler: ((packet: ReceivedPacket) => void) | null = null;
  private counters: PacketApiStats = DgramPacketApi.freshStats();
  /** Sends of the current socket that dgram has not called back yet (address lookup, then the kernel). */
  private inFlight: InFlight = this.flightOf(this.counters);
  private lifecycle: Promise<unknown> = Promise.resolve();
  private warnings: string[] = [];

  /** Canonical address text for `host` (no port), or null if it is not an address of this family. */
  protected abstract parseAddress(host: string): string | null;
  /** Destinations (address text) a broadcast goes to; empty makes `broadcast` a no-op. */
  protected abstract broadcastAddresses(): string[];
  /** Family-specific setup after a successful bind (broadcast flag, multicast groups). */
  protected abstract configure(socket: dgram.Socket, options: PacketApiOptions): void;
  /** Undoes `configure` bookkeeping when the socket goes away. */
  protected abstract unconfigure(): void;
  /**
   * For a wildcard bind: the local address peers will see our packets come
   * from, when the implementation knows better than "the first external
   * interface" (udp: the interface on the broadcast address's subnet).
   */
  protected preferredLocalAddress(): string | null {
    return null;
  }

  get active(): boolean {
    return this.socket !== null;
  }

  /** Binds the socket (port fallback on EADDRINUSE unless `exactPort`). On an active instance it restarts it. */
  /** Largest datagram `send` and `broadcast` take (set at init: DgramInitOptions.maxSendBytes). */
  private sendLimit = MAX_DATAGRAM_BYTES;

  init(options: DgramInitOptions): Promise<void> {
    return this.serialise(async () => {
      await this.close();
      this.counters = DgramPacketApi.freshStats();
      const { port } = options;
      this.sendLimit = options.maxSendBytes ?? MAX_DATAGRAM_BYTES;
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new PacketApiError(`${this.name}: port ${port} is not a port number (0-65535)`, 'bind-failed');
      }
      const requested = options.bindAddress ?? this.wildcard;
      const address = requested.toLowerCase() === 'localhost' ? this.loopback : requested;
      const last = port === 0 || options.exactPort ? port : Math.min(65535, port + CLIENT_PORT_FALLBACK_RANGE);
      for (let candidate = port; candidate <= last; candidate++) {
        const outcome = await bindDgramSocket(this.family, candidate, address, options.dualStack === true);
        if (outcome instanceof Error) {
          if (errorCode(outcome) === 'EADDRINUSE' && candidate < last) continue;
          const range = port === last ? `port ${port}` : `ports ${port}-${last}`;
          const why = errorCode(outcome) === 'EADDRINUSE' ? 'all in use' : outcome.message;
          throw new PacketApiError(`${this.name}: cannot bind ${address} on ${range}: ${why}`, 'bind-failed');
        }
        this.adopt(outcome, address, options);
        return;
      }
    });
  }

  /** Closes the socket and waits until its handle is gone; drops the receive handler. Idempotent. */
  kill(): Promise<void> {
    return this.serialise(async () => {
      await this.close();
      this.handler = null;
    });
  }

  localNode(): NodeAddress {
    this.requireSocket();
    return this.node(this.publicAddress(), this.boundPort);
  }

  localPort(): number {
    this.requireSocket();
    return this.boundPort;
  }

  /** Asks the kernel for a receive buffer of `bytes` now (a server bounds its queue with it); false when refused. */
  setReceiveBuffer(bytes: number): boolean {
    try {
      this.socket?.setRecvBufferSize(bytes);
      return this.socket !== null;
    } catch {
      return false;
    }
  }

  send(to: NodeAddress, data: Uint8Array): void {
    const node = this.own(to);
    if (!node) throw new PacketApiError(`${this.name}: not a ${this.name} node address`, 'bad-address');
    this.transmit(node.address, node.port, data);
  }

  broadcast(port: number, data: Uint8Array): void {
    // Validate up front so misuse is reported even when there is nowhere to broadcast to.
    this.requireSocket();
    this.checkSize(data);
    this.checkPort(port);
    for (const address of this.broadcastAddresses()) this.transmit(address, port, data);
  }

  onPacket(handler: (packet: ReceivedPacket) => void): void {
    this.handler = handler;
  }

  resolve(host: string, port: number): NodeAddress {
    this.checkPort(port);
    const address = host.toLowerCase() === 'localhost' ? this.loopback : this.parseAddress(host);
    if (address === null) {
      throw new PacketApiError(`${this.name}: '${host}' is not an address this packet API understands`, 'bad-address');
    }
    return this.node(address, port);
  }

  nodeEquals(a: NodeAddress, b: NodeAddress): boolean {
    const x = this.own(a);
    const y = this.own(b);
    return x !== null && y !== null && x.address === y.address && x.port === y.port;
  }

  nodeKey(node: NodeAddress): string {
    const n = this.own(node);
    if (!n) throw new PacketApiError(`${this.name}: not a ${this.name} node address`, 'bad-address');
    return `${n.family}/${n.address}/${n.port}`;
  }

  nodeToString(node: NodeAddress): string {
    const n = this.own(node);
    if (!n) return `<not a ${this.name} address>`;
    return n.family === 'udp6' ? `[${n.address}]:${n.port}` : `${n.address}:${n.port}`;
  }

  encodeNode(node: NodeAddress): Uint8Array {
    const n = this.own(node);
    const bytes = n ? addressToBytes(n.address, n.port) : null;
    if (!bytes) throw new PacketApiError(`${this.name}: not a ${this.name} node address`, 'bad-address');
    return bytes;
  }

  /**
   * Decodes a node from packet bytes. A link-local IPv6 address carries no
   * scope on the wire; it takes the scope of `scopeFrom` (the node the packet
   * came from), since that is the link both share.
   */
  decodeNode(bytes: Uint8Array, scopeFrom?: NodeAddress): NodeAddress | null {
    const parsed = bytesToAddress(bytes);
    if (!parsed || parsed.family !== (this.family === 'udp4' ? 4 : 6) || parsed.port === 0) return null;
    let text = parsed.address;
    const scope = scopeFrom ? this.own(scopeFrom)?.address.split('%')[1] : undefined;
    if (parsed.family === 6 && /^fe[89ab]/i.test(text) && scope) text = `${text}%${scope}`;
    const address = this.parseAddress(text);
    return address === null ? null : this.node(address, parsed.port);
  }

  stats(): PacketApiStats {
    return { ...this.counters, drops: { ...this.counters.drops } };
  }

  /** What the last `init` could not set up but did not fail over (a receive buffer the kernel refused). */
  setupWarnings(): string[] {
    return [...this.warnings];
  }

  /** Non-internal interfaces with at least one address of `family` ('IPv4' | 'IPv6'). */
  protected static externalInterfaces(family: 'IPv4' | 'IPv6'): Array<[string, os.NetworkInterfaceInfo[]]> {
    const out: Array<[string, os.NetworkInterfaceInfo[]]> = [];
    for (const [name, infos] of Object.entries(os.networkInterfaces())) {
      const usable = (infos ?? []).filter((i) => i.family === family && !i.internal);
      if (usable.length > 0) out.push([name, usable]);
    }
    return out;
  }

  private static freshStats(): PacketApiStats {
    return { packetsIn: 0, packetsOut: 0, bytesIn: 0, bytesOut: 0, drops: {} };
  }

  private serialise(job: () => Promise<void>): Promise<void> {
    const run = this.lifecycle.then(job);
    this.lifecycle = run.catch(() => undefined);
    return run;
  }

  private node(address: string, port: number): NodeAddress {
    return makeDgramNode(this.family, address, port);
  }

  private own(value: NodeAddress): ReturnType<typeof asDgramNode> {
    const node = asDgramNode(value);
    return node !== null && node.family === this.family ? node : null;
  }

  private checkPort(port: number): void {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new PacketApiError(`${this.name}: port ${port} is not a destination port (1-65535)`, 'bad-address');
    }
  }

  private checkSize(data: Uint8Array): void {
    if (data.byteLength > this.sendLimit) {
      throw new PacketApiError(
        `${this.name}: datagram of ${data.byteLength} bytes exceeds the ${this.sendLimit}-byte limit`,
        'too-large',
      );
    }
  }

  private requireSocket(): dgram.Socket {
    if (!this.socket) throw new PacketApiError(`${this.name}: packet API not initialised`, 'not-initialised');
    return this.socket;
  }

  private drop(stats: PacketApiStats, reason: string): void {
    stats.drops[reason] = (stats.drops[reason] ?? 0) + 1;
  }

  private transmit(address: string, port: number, data: Uint8Array): void {
    const socket = this.requireSocket();
    this.checkSize(data);
    // dgram may read the buffer after send() returns (the kernel's queue when it cannot take it at once),
    // so send a private copy the caller cannot change underneath us.
    const copy = Buffer.from(data);
    const flight = this.inFlight;
    flight.count++;
    try {
      socket.send(copy, port, address, flight.done);
    } catch (err) {
      flight.count--;
      throw new PacketApiError(`${this.name}: send to ${address}:${port} failed: ${(err as Error).message}`, 'send-failed');
    }
  }

  /** The in-flight sends of a new socket, counted in `stats` (this init's only: a late callback from a previous socket must not touch the new ones). */
  private flightOf(stats: PacketApiStats): InFlight {
    const flight: InFlight = {
      count: 0,
      settled: null,
      done: (err, bytes) => {
        if (err) this.drop(stats, 'send-failed');
        else {
          stats.packetsOut++;
          stats.bytesOut += bytes ?? 0;
        }
        if (--flight.count === 0) flight.settled?.();
      },
    };
    return flight;
  }

  private adopt(socket: dgram.Socket, address: string, options: DgramInitOptions): void {
    const stats = this.counters;
    this.socket = socket;
    this.inFlight = this.flightOf(stats);
    this.warnings = [];
    if (options.recvBufferBytes !== undefined) {
      try {
        socket.setRecvBufferSize(options.recvBufferBytes);
      } catch (err) {
        this.warnings.push(`could not enlarge the UDP receive buffer: ${(err as Error).message}`);
      }
    }
    const oversizeToo = options.receiveOversize === true;
    this.boundPort = socket.address().port;
    this.boundAddress = address;
    // Socket errors (e.g. ICMP unreachable surfacing on Linux) are counted, never thrown.
    socket.on('error', () => this.drop(stats, 'socket-error'));
    socket.on('message', (msg, rinfo) => {
      // A gameserver's Relay may be up to MAX_RELAY_BYTES; the decoder holds everything else to MAX_DATAGRAM_BYTES.
      if (msg.byteLength > MAX_RELAY_BYTES && !oversizeToo) {
        this.drop(stats, 'too-large');
        return;
      }
      stats.packetsIn++;
      stats.bytesIn += msg.byteLength;
      const handler = this.handler;
      if (!handler) {
        this.drop(stats, 'no-handler');
        return;
      }
      const packet: ReceivedPacket = {
        from: this.node(rinfo.address, rinfo.port),
        data: new Uint8Array(msg.buffer, msg.byteOffset, msg.byteLength),
      };
      try {
        handler(packet);
      } catch {
        this.drop(stats, 'handler-threw');
      }
    });
    this.configure(socket, options);
  }

  /**
   * Closes the socket once what was already sent on it has left (a
   * protocol's goodbye just before a switch), waiting at most
   * SEND_FLUSH_MS; nothing new is accepted meanwhile.
   */
  private async close(): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    this.unconfigure();
    const flight = this.inFlight;
    if (flight.count > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SEND_FLUSH_MS);
        flight.settled = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await new Promise<void>((resolve) => {
      try {
        socket.close(() => resolve());
      } catch {
        resolve(); // already closed by Node after a fatal error
      }
    });
    socket.removeAllListeners();
    await drainCloseCallbacks();
  }

  /** The address reported by `localNode`: the bound one, or for the wildcard the first external one. */
  private publicAddress(): string {
    if (this.boundAddress !== this.wildcard) return this.parseAddress(this.boundAddress) ?? this.boundAddress;
    const preferred = this.preferredLocalAddress();
    if (preferred !== null) return preferred;
    const family = this.family === 'udp4' ? 'IPv4' : 'IPv6';
    const candidates = DgramPacketApi.externalInterfaces(family).flatMap(([name, list]) =>
      list.map((i) => (i.address.startsWith('fe80:') ? `${i.address}%${name}` : i.address)),
    );
    // Prefer an address reachable without a scope id (global over link-local).
    return candidates.find((a) => !a.includes('%')) ?? candidates[0] ?? this.wildcard;
  }
}
