/**
 * The replicated slot table (slot → node) and the deterministic slot
 * assignment every answering peer uses.
 */
import { addrKey, compareAddr } from '../wire/addr';
import type { PlayerEntry, WireAddr } from '../wire/types';

/** One row of the table as a peer keeps it: the wire entry plus bookkeeping. */
export interface TableEntry extends PlayerEntry {
  /** The node's identity (SlotTable.keyOf of addr). */
  key: string;
  /** When a fresh packet from this node last arrived (or it was added). Unused for the own row. */
  lastHeard: number;
}

/** Placeholder for a node whose name has not arrived yet (valid on the wire: 1..16 printable ASCII). */
export const UNKNOWN_NAME = 'unnamed';

/** A copy of an entry as the public PlayerEntry (fresh addr bytes, no bookkeeping). */
export function toPlayer(e: PlayerEntry): PlayerEntry {
  return { slot: e.slot, addr: Uint8Array.from(e.addr), name: e.name, joined: e.joined };
}

/** Sorts addresses highest first and drops duplicates (the order answers and ranks use). */
export function sortDescUnique(addrs: Iterable<WireAddr>, keyOf: (addr: WireAddr) => string = addrKey): WireAddr[] {
  const byKey = new Map<string, WireAddr>();
  for (const a of addrs) byKey.set(keyOf(a), a);
  return [...byKey.values()].sort((a, b) => compareAddr(b, a));
}

/**
 * Slot table of one game. Invariants: at most one entry per slot and per
 * address; slots are 0..MAX_SLOTS-1.
 */
export class SlotTable {
  private readonly bySlot = new Map<number, TableEntry>();
  private readonly byKey = new Map<string, TableEntry>();

  constructor(
    /** A node's identity from its wire address (the peer's; default the bytes). */
    readonly keyOf: (addr: WireAddr) => string = addrKey,
  ) {}

  /** Number of rows. */
  get size(): number {
    return this.bySlot.size;
  }

  /** The row holding `slot`, if any. */
  atSlot(slot: number): TableEntry | undefined {
    return this.bySlot.get(slot);
  }

  /** The row of the node with identity `key`, if any. */
  byAddrKey(key: string): TableEntry | undefined {
    return this.byKey.get(key);
  }

  /** Whether the node with identity `key` has a row. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Adds a row; throws if its slot or address is taken (callers resolve conflicts first). */
  add(entry: TableEntry): void {
    if (this.bySlot.has(entry.slot) || this.byKey.has(entry.key)) throw new Error(`slot table: slot ${entry.slot} or ${entry.key} already present`);
    this.bySlot.set(entry.slot, entry);
    this.byKey.set(entry.key, entry);
  }

  /** Removes the row of `key` and returns it (undefined if absent). */
  remove(key: string): TableEntry | undefined {
    const e = this.byKey.get(key);
    if (!e) return undefined;
    this.byKey.delete(key);
    this.bySlot.delete(e.slot);
    return e;
  }

  /** Removes every row. */
  clear(): void {
    this.bySlot.clear();
    this.byKey.clear();
  }

  /** Rows in no particular order (live objects, cheap: for scans where order does not matter). */
  rows(): IterableIterator<TableEntry> {
    return this.bySlot.values();
  }

  /** Rows sorted by slot (live objects: do not hand them out). */
  entries(): TableEntry[] {
    return [...this.bySlot.values()].sort((a, b) => a.slot - b.slot);
  }

  /** Public copies of the rows, sorted by slot. */
  toPlayers(): PlayerEntry[] {
    return this.entries().map(toPlayer);
  }

  /**
   * Rank of `key` among the rows by address, highest address = 0 (the
   * order in which connected peers answer a connect request). -1 if absent.
   */
  rankOf(key: string): number {
    const sorted = sortDescUnique(this.entries().map((e) => e.addr), this.keyOf);
    return sorted.findIndex((a) => this.keyOf(a) === key);
  }
}

/** What an answering peer decides for a set of requesting nodes. */
export interface AssignmentPlan {
  /** Requesters already in the table: they keep their slots (a repeated or restarted request). */
  kept: WireAddr[];
  /** New rows: the lowest free slots, given out highest address first. */
  added: { addr: WireAddr; slot: number }[];
  /** Requesters that did not fit (they get GameFull). */
  full: WireAddr[];
}

/**
 * Deterministic slot assignment: requesters are taken highest address first;
 * a node already in the table keeps its slot, a new one gets the lowest free
 * slot below `maxPlayers`, and the rest are full. Two peers with the same
 * table and the same requesters therefore produce the same plan, which is
 * what makes a duplicated answer harmless.
 */
export function planAssignment(table: SlotTable, requested: Iterable<WireAddr>, maxPlayers: number): AssignmentPlan {
  const plan: AssignmentPlan = { kept: [], added: [], full: [] };
  const taken = new Set<number>();
  for (const e of table.entries()) taken.add(e.slot);
  for (const addr of sortDescUnique(requested, table.keyOf)) {
    if (table.has(table.keyOf(addr))) {
      plan.kept.push(addr);
      continue;
    }
    let slot = 0;
    while (slot < maxPlayers && taken.has(slot)) slot++;
    if (slot >= maxPlayers) {
      plan.full.push(addr);
      continue;
    }
    taken.add(slot);
    plan.added.push({ addr, slot });
  }
  return plan;
}
