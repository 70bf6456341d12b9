/**
 * Packet API contract (Parsec's packet API layer, §2.4 of the architecture).
 *
 * A packet API sends and receives datagrams and owns the meaning of node
 * addresses. Callers never look inside a {@link NodeAddress}: they copy it,
 * store it, and hand it back to the packet API that made it, which alone can
 * compare it or print it. Implementations live in `src/node/packet`.
 */

/** Largest datagram payload Starlane sends or accepts, in bytes (Retro Tank's 512-byte rule): the codec's limit, defined beside it in wire/types.ts. */
export { MAX_DATAGRAM_BYTES, MAX_RELAY_BYTES } from '../wire/types';

/** Default UDP port a client listens on (Parsec: 6526). */
export const DEFAULT_CLIENT_PORT = 6526;

/** How many ports above the requested one a client tries when it is taken (two instances on one machine). */
export const CLIENT_PORT_FALLBACK_RANGE = 16;

/**
 * Opaque network address of a node (Parsec's `node_t`). The brand makes it
 * impossible to build one outside a packet API; compare with `PacketApi.nodeEquals`.
 */
export interface NodeAddress {
  readonly __nodeAddressBrand: unique symbol;
}

/** Options for {@link PacketApi.init}. */
export interface PacketApiOptions {
  /** Port to bind; the next free one up to {@link CLIENT_PORT_FALLBACK_RANGE} above is used when taken. 0 = any. */
  port: number;
  /** Local address to bind; default: all interfaces of the family. */
  bindAddress?: string;
  /** udp: where `broadcast` sends (default 255.255.255.255; tests use 127.255.255.255 so nothing leaves loopback). */
  broadcastAddress?: string;
  /** udp6: interfaces that join the discovery multicast group (default: every external one; [] = none). */
  lanInterfaces?: readonly string[];
}

/** Why a packet API call failed, for one clear console line. */
export class PacketApiError extends Error {
  constructor(
    message: string,
    readonly code: 'too-large' | 'not-initialised' | 'bind-failed' | 'bad-address' | 'send-failed',
  ) {
    super(message);
    this.name = 'PacketApiError';
  }
}

/** One received datagram. `data` is untrusted bytes owned by the receiver. */
export interface ReceivedPacket {
  from: NodeAddress;
  data: Uint8Array;
}

/**
 * The packet API jump-table entry. `init` binds the socket, `kill` closes it
 * and every timer/listener it made; after `kill` the instance may be `init`ed again.
 */
export interface PacketApi {
  /** Implementation name as typed in the console: `udp` or `udp6`. */
  readonly name: string;
  init(options: PacketApiOptions): Promise<void>;
  kill(): Promise<void>;
  /** True between a successful `init` and `kill`. */
  readonly active: boolean;
  /** The address other nodes reach us at (the bound port; the wildcard address is reported as loopback-free text). */
  localNode(): NodeAddress;
  /** The port actually bound (may differ from the requested one after fallback). */
  localPort(): number;
  /** Sends one datagram; throws {@link PacketApiError} `too-large` above {@link MAX_DATAGRAM_BYTES}. */
  send(to: NodeAddress, data: Uint8Array): void;
  /** Sends one datagram to every node on the LAN (udp: IPv4 broadcast; udp6: link-local multicast group) on `port`. */
  broadcast(port: number, data: Uint8Array): void;
  /** Registers the receive handler (one at a time); the handler must not throw, and errors it throws are counted and swallowed. */
  onPacket(handler: (packet: ReceivedPacket) => void): void;
  /** Resolves a literal host (IP text or `localhost`) and port into a node address; throws `bad-address` on nonsense. */
  resolve(host: string, port: number): NodeAddress;
  nodeEquals(a: NodeAddress, b: NodeAddress): boolean;
  /** A stable string key for maps (equal keys ⇔ equal nodes). */
  nodeKey(node: NodeAddress): string;
  /** Human-readable `address:port` (IPv6 in brackets). */
  nodeToString(node: NodeAddress): string;
  /**
   * Serialises a node for use inside packets (p2p player lists):
   * [family 4|6][4 or 16 address bytes][port u16, big-endian]. IPv6 scope ids
   * are not carried (a link-local peer is reached through the receiving socket's scope).
   */
  encodeNode(node: NodeAddress): Uint8Array;
  /**
   * The inverse of encodeNode for this API's family; null for anything
   * malformed, of the other family, or with port 0. A link-local IPv6 address
   * takes its scope from `scopeFrom` (the sender of the packet it came in).
   */
  decodeNode(bytes: Uint8Array, scopeFrom?: NodeAddress): NodeAddress | null;
  /** Counters since `init`: packets/bytes in and out, drops by reason. */
  stats(): PacketApiStats;
}

export interface PacketApiStats {
  packetsIn: number;
  packetsOut: number;
  bytesIn: number;
  bytesOut: number;
  drops: Record<string, number>;
}
