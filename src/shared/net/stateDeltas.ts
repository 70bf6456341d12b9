/**
 * Partial ship states on one connection (Quake III's deltas against what the
 * receiver acknowledged; Retro Tank's portions): what each side remembers so
 * a ship state can leave out the portions the receiver already holds
 * (wire/shipStateCodec.ts).
 *
 * Receiving, it keeps the last RECEIVED_KEPT states it took from the node by
 * message id (the bases the node's partial states name) and the newest one's
 * id, which our datagrams to the node acknowledge (the link section's
 * `stateAck`). Sending, it keeps the quantised states of our last SENT_KEPT
 * state datagrams by id and the newest the node acknowledged: a state goes
 * partial against that one while it is at most MAX_BASE_AGE ids back, else
 * full. So a receiver that lost its bases (it forgot the node, or its
 * acknowledgements stopped coming) drops a few partial states as
 * `unknown-base` and is repaired by a full state within MAX_BASE_AGE of our
 * datagrams.
 */
import type { QuantisedState, StateBase, StateBases } from '../wire/shipStateCodec';
import { RelayedStates } from './relayedStates';
import type { ShipState } from '../wire/types';

/** States taken from the node kept as bases (by message id). */
export const RECEIVED_KEPT = 32;
/** Our sent states kept, to build on when one is acknowledged. */
export const SENT_KEPT = 32;
/** A base more ids back than this is not built on: the state goes full (bounds the repair of a receiver that lost its bases). */
export const MAX_BASE_AGE = 16;

/** A ring of the last `size` (id, value) pairs, looked up by id. */
class IdRing<T> {
  private readonly ids: number[];
  private readonly values: (T | undefined)[];
  private at = 0;

  constructor(size: number) {
    this.ids = new Array<number>(size).fill(-1);
    this.values = new Array<T | undefined>(size).fill(undefined);
  }

  put(id: number, value: T): void {
    this.ids[this.at] = id;
    this.values[this.at] = value;
    this.at = (this.at + 1) % this.ids.length;
  }

  get(id: number): T | undefined {
    const i = this.ids.indexOf(id);
    return i < 0 ? undefined : this.values[i];
  }

  /** The kept id whose low 16 bits are `low`, or undefined (ids kept are within a few hundred of each other: at most one matches). */
  idWithLow16(low: number): number | undefined {
    for (const id of this.ids) if (id >= 0 && (id & 0xffff) === low) return id;
    return undefined;
  }

  clear(): void {
    this.ids.fill(-1);
    this.values.fill(undefined);
  }
}

/** Whether u32 id `a` is newer than `b` (serial-number arithmetic, as the replay window's). */
const newer = (a: number, b: number): boolean => a !== b && ((a - b) >>> 0) < 0x80000000;

export class StateDeltas implements StateBases {
  private readonly received = new IdRing<ShipState>(RECEIVED_KEPT);
  private newestReceived: number | null = null;
  private readonly sent = new IdRing<QuantisedState>(SENT_KEPT);
  private acked: number | null = null;
  /** Partial states we sent, and full ones (figures for bench:codec and the tests). */
  readonly counts = { partial: 0, full: 0 };
  /** When the node is a gameserver: its Relays taken and the relayed players' states kept as bases (relayedStates.ts). */
  readonly relays = new RelayedStates();

  /** The bases kept for the relayed player in `slot` (StateBases). */
  relayed(slot: number): StateBases | undefined {
    return this.relays.bases(slot);
  }

  /** The state that came in message `id`, if kept: what a partial state from the node names (StateBases). */
  at(id: number): ShipState | undefined {
    return this.received.get(id);
  }

  /** We took `state` from the node in message `id` (after its number was admitted). */
  took(id: number, state: ShipState): void {
    this.received.put(id, state);
    if (this.newestReceived === null || newer(id, this.newestReceived)) this.newestReceived = id;
  }

  /** What our datagrams to the node acknowledge (the low 16 bits of the newest state's id), or undefined before its first state. */
  stateAck(): number | undefined {
    return this.newestReceived === null ? undefined : this.newestReceived & 0xffff;
  }

  /** The node acknowledged the state we sent with id ending in `low16`. */
  onStateAck(low16: number): void {
    const id = this.sent.idWithLow16(low16);
    if (id !== undefined && (this.acked === null || newer(id, this.acked))) this.acked = id;
  }

  /** The base a state sent in message `id` builds on: the newest acknowledged within MAX_BASE_AGE ids; undefined: send it full. */
  baseFor(id: number): StateBase | undefined {
    if (this.acked === null) return undefined;
    const distance = (id - this.acked) >>> 0;
    if (distance < 1 || distance > MAX_BASE_AGE) return undefined;
    const sent = this.sent.get(this.acked);
    return sent ? { distance, sent } : undefined;
  }

  /** We sent the state quantised as `q` in message `id`, partial or not. */
  didSend(id: number, q: QuantisedState, partial: boolean): void {
    this.sent.put(id, q);
    if (partial) this.counts.partial += 1;
    else this.counts.full += 1;
  }

  /** The node left: what it sent and acknowledged is forgotten (our next state to it is full). */
  forget(): void {
    this.received.clear();
    this.newestReceived = null;
    this.sent.clear();
    this.acked = null;
    this.relays.clear();
  }
}
