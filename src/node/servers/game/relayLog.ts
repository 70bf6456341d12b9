/**
 * What a gameserver remembers of its Relays to one client, so it can send
 * the client the other players' states partial (wire v14; Quake III's deltas
 * against what the receiver acknowledged).
 *
 * Each Relay datagram's entry lists the relayed players' states it carried
 * (slot, the seat's id, the state's own message id). When the client's
 * datagrams acknowledge Relays (the link section's `relayAck`: the newest
 * id and a mask of the 32 before it), each acknowledged entry is taken once:
 * for every player in it, the newest of its states the client is known to
 * hold. A player's next state to this client is then built on that one
 * (ClientSeat.relayedStateFor). Everything is in typed arrays sized once:
 * no object per Relay or per state.
 *
 * A client that acknowledges nothing gets every state full; one that
 * acknowledges Relays it never got hurts only itself (it drops the partial
 * states built on them as `unknown-base` until a full one comes), and an
 * acknowledgement costs at most RELAY_ACK_SPAN + 1 entries of work.
 */
import { idNewer } from '../../../shared/net/replayWindow';
import { NO_SLOT, RELAY_ACK_SPAN, type RelayAck } from '../../../shared/wire/types';

/** Relays remembered (a power of two that divides 2^16, so a 16-bit id finds its entry): the acknowledgement's span and some reordering. */
export const RELAYS_KEPT = 64;
/** Most states one entry records; a Relay with more (it never has: 1,200 bytes hold fewer of the smallest) leaves the rest unrecorded, so they are not built on. */
export const STATES_PER_RELAY = 64;

export class RelayLog {
  /** Per entry: the Relay's message id (−1: none, or already taken). */
  private readonly ids = new Float64Array(RELAYS_KEPT).fill(-1);
  private readonly counts = new Uint8Array(RELAYS_KEPT);
  private readonly slots = new Uint8Array(RELAYS_KEPT * STATES_PER_RELAY);
  private readonly seats = new Uint32Array(RELAYS_KEPT * STATES_PER_RELAY);
  private readonly stateIds = new Uint32Array(RELAYS_KEPT * STATES_PER_RELAY);
  /** The entry being filled, −1 for none. */
  private open = -1;
  /** Per slot: the seat id and message id of that player's newest state the client acknowledged (seat −1: none). */
  private readonly ackedSeat = new Float64Array(NO_SLOT + 1).fill(-1);
  private readonly ackedId = new Uint32Array(NO_SLOT + 1);
  /** Relays acknowledged, each counted once (a repeated acknowledgement, or one of a Relay not remembered, counts nothing). */
  acknowledged = 0;

  /** The Relay with message id `relayId` is being filled: the states added next are its. */
  begin(relayId: number): void {
    const i = relayId & (RELAYS_KEPT - 1);
    this.ids[i] = relayId >>> 0;
    this.counts[i] = 0;
    this.open = i;
  }

  /** The Relay being filled carries the state with message id `stateId` of the player in `slot` (seat `seat`). */
  add(slot: number, seat: number, stateId: number): void {
    const i = this.open;
    if (i < 0) return;
    const n = this.counts[i] as number;
    if (n >= STATES_PER_RELAY) return;
    const at = i * STATES_PER_RELAY + n;
    this.slots[at] = slot;
    this.seats[at] = seat;
    this.stateIds[at] = stateId;
    this.counts[i] = n + 1;
  }

  /** The Relay being filled is finished (nothing more is added to it). */
  end(): void {
    this.open = -1;
  }

  /** The client's acknowledgement of Relays: each one named and remembered is taken, once. */
  acknowledge(ack: RelayAck): void {
    for (let k = 0; k <= RELAY_ACK_SPAN; k++) {
      if (k > 0 && ((ack.mask >>> (k - 1)) & 1) === 0) continue;
      const low = (ack.newest - k) & 0xffff;
      const i = low & (RELAYS_KEPT - 1);
      const id = this.ids[i] as number;
      if (id < 0 || (id & 0xffff) !== low) continue;
      this.take(i);
      this.ids[i] = -1;
      if (this.open === i) this.open = -1;
      this.acknowledged += 1;
    }
  }

  private take(i: number): void {
    const n = this.counts[i] as number;
    for (let at = i * STATES_PER_RELAY, end = at + n; at < end; at++) {
      const slot = this.slots[at] as number;
      const seat = this.seats[at] as number;
      const id = this.stateIds[at] as number;
      if (this.ackedSeat[slot] !== seat || idNewer(id, this.ackedId[slot] as number)) {
        this.ackedSeat[slot] = seat;
        this.ackedId[slot] = id;
      }
    }
  }

  /** The message id of the newest state of the player in `slot` (seat `seat`) the client holds, or −1. */
  ackedOf(slot: number, seat: number): number {
    return this.ackedSeat[slot] === seat ? (this.ackedId[slot] as number) : -1;
  }
}
