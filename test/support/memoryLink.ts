/**
 * Two packet APIs joined by a wire in memory: what one sends the other
 * receives at once (wrap one end in a ConditionedPacketApi on a virtual clock
 * for loss, duplication, delay and reordering). For protocol tests that are
 * about what happens above the packet API, not about sockets.
 */
import { MAX_DATAGRAM_BYTES, PacketApiError, type NodeAddress, type PacketApi, type PacketApiStats, type ReceivedPacket } from '../../src/shared/net/packetApi';

const node = (name: string): NodeAddress => ({ name }) as unknown as NodeAddress;
const nameOf = (n: NodeAddress): string => String((n as unknown as { name?: unknown }).name);

class MemoryEnd implements PacketApi {
  readonly name = 'memory';
  active = true;
  peer: MemoryEnd | null = null;
  private handler: ((p: ReceivedPacket) => void) | null = null;
  private readonly counts = { packetsIn: 0, packetsOut: 0, bytesIn: 0, bytesOut: 0 };

  constructor(private readonly self: string) {}

  async init(): Promise<void> {
    this.active = true;
  }
  async kill(): Promise<void> {
    this.active = false;
    this.handler = null;
  }
  localNode(): NodeAddress {
    return node(this.self);
  }
  localPort(): number {
    return 1;
  }
  send(_to: NodeAddress, data: Uint8Array): void {
    if (data.byteLength > MAX_DATAGRAM_BYTES) throw new PacketApiError(`memory: ${data.byteLength} bytes is over the limit`, 'too-large');
    this.counts.packetsOut += 1;
    this.counts.bytesOut += data.byteLength;
    this.peer?.deliver(this.self, data.slice());
  }
  broadcast(port: number, data: Uint8Array): void {
    this.send(node(`broadcast:${port}`), data);
  }
  onPacket(handler: (p: ReceivedPacket) => void): void {
    this.handler = handler;
  }
  resolve(host: string, port: number): NodeAddress {
    return node(`${host}:${port}`);
  }
  nodeEquals(a: NodeAddress, b: NodeAddress): boolean {
    return nameOf(a) === nameOf(b);
  }
  nodeKey(n: NodeAddress): string {
    return nameOf(n);
  }
  nodeToString(n: NodeAddress): string {
    return nameOf(n);
  }
  encodeNode(): Uint8Array {
    return new Uint8Array(7);
  }
  decodeNode(): NodeAddress | null {
    return null;
  }
  stats(): PacketApiStats {
    return { ...this.counts, drops: {} };
  }

  private deliver(from: string, data: Uint8Array): void {
    if (!this.active) return;
    this.counts.packetsIn += 1;
    this.counts.bytesIn += data.byteLength;
    this.handler?.({ from: node(from), data });
  }
}

/** Ends `a` and `b` of one in-memory wire. */
export function memoryLink(): [PacketApi, PacketApi] {
  const a = new MemoryEnd('a');
  const b = new MemoryEnd('b');
  a.peer = b;
  b.peer = a;
  return [a, b];
}
