/**
 * The concrete node address of the dgram packet APIs, hidden behind the
 * opaque `NodeAddress` brand of the packet API contract.
 */
import type { NodeAddress } from '../../shared/net/packetApi';

/** Socket family of a dgram packet API; also tags which API a node address belongs to. */
export type DgramFamily = 'udp4' | 'udp6';

/** Read-only view of a dgram node address, for the packet API code only. */
export interface DgramNodeView {
  readonly family: DgramFamily;
  /** Canonical text form (as the kernel reports it); IPv6 possibly with `%scope`. */
  readonly address: string;
  readonly port: number;
}

/**
 * Not exported: only this module constructs them. The private field is a
 * brand check that survives forgery: `#brand in x` is false for every object
 * this constructor did not build, whatever its prototype or fields claim.
 */
class DgramNode implements DgramNodeView {
  readonly #brand = true;
  constructor(
    readonly family: DgramFamily,
    readonly address: string,
    readonly port: number,
  ) {
    Object.freeze(this);
  }
  static is(value: unknown): value is DgramNode {
    return typeof value === 'object' && value !== null && #brand in value && value.#brand;
  }
}

/** Makes an opaque node address. The caller passes canonical address text so that equal nodes compare equal. */
export function makeDgramNode(family: DgramFamily, address: string, port: number): NodeAddress {
  return new DgramNode(family, address, port) as unknown as NodeAddress;
}

/** The view behind a node address made by {@link makeDgramNode}; null for anything else (other APIs, forgeries). */
export function asDgramNode(node: NodeAddress): DgramNodeView | null {
  const value: unknown = node;
  return DgramNode.is(value) ? value : null;
}
