/**
 * A LAN in memory for session tests: any number of packet APIs on one
 * virtual clock. Each end has a real IPv4-style node address (10.0.0.n,
 * port 6526) that encodes to and decodes from wire bytes like the udp packet
 * API's, broadcast reaches every other end, and every datagram arrives
 * `latencyMs` later through the clock (never synchronously: a protocol's send
 * must not re-enter its own receive). Loss, duplication and reordering come
 * from wrapping an end in the game's ConditionedPacketApi on the same clock;
 * `cut` silences an end both ways (a crashed or unplugged node).
 */
import { MAX_DATAGRAM_BYTES, PacketApiError, type NodeAddress, type PacketApi, type PacketApiStats, type ReceivedPacket } from '../../src/shared/net/packetApi';
import type { VirtualClock } from './virtualClock';

const PORT = 6526;

/** Node addresses of this net: frozen objects only the net makes (a WeakSet is the brand). */
const made = new WeakSet<object>();
interface MemNode {
  readonly host: number;
  readonly port: number;
}
const makeNode = (host: number, port = PORT): NodeAddress => {
  const n: MemNode = Object.freeze({ host, port });
  made.add(n);
  return n as unknown as NodeAddress;
};
const own = (n: NodeAddress): MemNode | null => (made.has(n as unknown as object) ? (n as unknown as MemNode) : null);

export class MemoryEnd implements PacketApi {
  readonly name = 'udp';
  active = true;
  /** Silenced both ways (see MemoryNet.cut). */
  cut = false;
  private handler: ((p: ReceivedPacket) => void) | null = null;
  private readonly counts: PacketApiStats = { packetsIn: 0, packetsOut: 0, bytesIn: 0, bytesOut: 0, drops: {} };

  constructor(
    private readonly net: MemoryNet,
    readonly host: number,
  ) {}

  async init(): Promise<void> {
    this.active = true;
  }
  async kill(): Promise<void> {
    this.active = false;
    this.handler = null;
  }
  localNode(): NodeAddress {
    return makeNode(this.host);
  }
  localPort(): number {
    return PORT;
  }
  send(to: NodeAddress, data: Uint8Array): void {
    const node = own(to);
    if (!node) throw new PacketApiError('memory: not a node of this net', 'bad-address');
    this.check(data);
    this.net.carry(this, node.host, data.slice());
  }
  broadcast(_port: number, data: Uint8Array): void {
    this.check(data);
    for (const end of this.net.ends) if (end !== this) this.net.carry(this, end.host, data.slice());
  }
  onPacket(handler: (p: ReceivedPacket) => void): void {
    this.handler = handler;
  }
  resolve(host: string, port: number): NodeAddress {
    const m = /^10\.0\.0\.(\d+)$/.exec(host);
    if (!m) throw new PacketApiError(`memory: '${host}' is not an address of this net`, 'bad-address');
    return makeNode(Number(m[1]), port);
  }
  nodeEquals(a: NodeAddress, b: NodeAddress): boolean {
    const x = own(a);
    const y = own(b);
    return x !== null && y !== null && x.host === y.host && x.port === y.port;
  }
  nodeKey(n: NodeAddress): string {
    const node = own(n);
    if (!node) throw new PacketApiError('memory: not a node of this net', 'bad-address');
    return `mem/${node.host}/${node.port}`;
  }
  nodeToString(n: NodeAddress): string {
    const node = own(n);
    return node ? `10.0.0.${node.host}:${node.port}` : '<not a memory address>';
  }
  encodeNode(n: NodeAddress): Uint8Array {
    const node = own(n);
    if (!node) throw new PacketApiError('memory: not a node of this net', 'bad-address');
    return Uint8Array.from([4, 10, 0, 0, node.host, node.port >> 8, node.port & 0xff]);
  }
  decodeNode(bytes: Uint8Array): NodeAddress | null {
    if (bytes.length !== 7 || bytes[0] !== 4 || bytes[1] !== 10 || bytes[2] !== 0 || bytes[3] !== 0) return null;
    const port = ((bytes[5] as number) << 8) | (bytes[6] as number);
    return port === 0 ? null : makeNode(bytes[4] as number, port);
  }
  stats(): PacketApiStats {
    return { ...this.counts, drops: { ...this.counts.drops } };
  }

  /** A datagram reaches this end now. */
  arrive(fromHost: number, data: Uint8Array): void {
    if (!this.active || this.cut) return;
    this.counts.packetsIn += 1;
    this.counts.bytesIn += data.byteLength;
    try {
      this.handler?.({ from: makeNode(fromHost), data });
    } catch {
      this.counts.drops['handler-threw'] = (this.counts.drops['handler-threw'] ?? 0) + 1;
    }
  }

  private check(data: Uint8Array): void {
    if (!this.active) throw new PacketApiError('memory: packet API not initialised', 'not-initialised');
    if (data.byteLength > MAX_DATAGRAM_BYTES) throw new PacketApiError(`memory: ${data.byteLength} bytes is over the limit`, 'too-large');
    this.counts.packetsOut += 1;
    this.counts.bytesOut += data.byteLength;
  }
}

export class MemoryNet {
  readonly ends: MemoryEnd[] = [];
  /** Datagrams handed to the net (each copy of a broadcast counts). */
  carried = 0;

  constructor(
    private readonly clock: VirtualClock,
    /** One-way delay of every datagram, ms (≥ 1, so nothing arrives synchronously). */
    private readonly latencyMs = 2,
  ) {}

  /** A new end at 10.0.0.(n + 1). */
  add(): MemoryEnd {
    const end = new MemoryEnd(this, this.ends.length + 1);
    this.ends.push(end);
    return end;
  }

  carry(from: MemoryEnd, toHost: number, data: Uint8Array): void {
    if (from.cut) return;
    const to = this.ends.find((e) => e.host === toHost);
    if (!to) return;
    this.carried += 1;
    this.clock.setTimeout(() => to.arrive(from.host, data), Math.max(1, this.latencyMs));
  }
}
