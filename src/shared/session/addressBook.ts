/**
 * The opaque node address of each member, decoded from its wire address once
 * (not on every send), and the way back from a received datagram's sender to
 * a member: the packet API's own key of the node (`nodeKey`), so nodes are
 * compared only by the packet API that made them.
 *
 * Entries live as long as their node is a member or a link target
 * (`retain`); a stranger we answer once (a p2p newcomer) is decoded and
 * dropped at the next retain. Bounded, since wire addresses come from
 * received packets.
 */
import type { NodeAddress, PacketApi } from '../net/packetApi';
import { addrKey } from '../wire/addr';
import type { WireAddr } from '../wire/types';

/** Most entries kept between two `retain` calls (16 slots, their links, a few strangers). */
const MAX_ENTRIES = 256;

interface Entry {
  node: NodeAddress | null;
  /** The packet API's key of `node` (null when the bytes are no node of this API). */
  key: string | null;
}

export class AddressBook {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly api: PacketApi,
    /** Our own node: link-local IPv6 addresses take its scope. */
    private readonly self: NodeAddress,
  ) {}

  /** The node at wire address `addr`, or null when the bytes are no address of this packet API. */
  node(addr: WireAddr): NodeAddress | null {
    return this.entry(addr).node;
  }

  /** The packet API's key of the node at `addr` (null as for {@link node}). */
  key(addr: WireAddr): string | null {
    return this.entry(addr).key;
  }

  /**
   * A node's identity for maps and comparisons: the packet API's key, or for
   * bytes that are no node of this API the bytes themselves (they can never
   * equal a real node's key).
   */
  identity(addr: WireAddr): string {
    return this.key(addr) ?? `wire:${addrKey(addr)}`;
  }

  /** The key of a node the packet API handed us (a datagram's sender). */
  keyOf(node: NodeAddress): string | null {
    try {
      return this.api.nodeKey(node);
    } catch {
      return null;
    }
  }

  /** Printable `address:port` of `addr`, or '?'. */
  text(addr: WireAddr): string {
    const node = this.node(addr);
    return node ? this.api.nodeToString(node) : '?';
  }

  /** Keeps only the entries of `addrs` (the members and link targets now). */
  retain(addrs: Iterable<WireAddr>): void {
    const keep = new Set<string>();
    for (const addr of addrs) keep.add(addrKey(addr));
    for (const key of [...this.entries.keys()]) if (!keep.has(key)) this.entries.delete(key);
  }

  private entry(addr: WireAddr): Entry {
    const wireKey = addrKey(addr);
    let entry = this.entries.get(wireKey);
    if (!entry) {
      const node = this.api.decodeNode(addr, this.self);
      entry = { node, key: node ? this.keyOf(node) : null };
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(wireKey, entry);
    }
    return entry;
  }
}
