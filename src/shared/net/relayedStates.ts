/**
 * A gameserver client's side of relayed partial states (wire v14): what it
 * keeps of the server's Relay datagrams so the server can send each other
 * player's state as the portions that changed.
 *
 * For each relayed player (by slot) it keeps the last RELAYED_KEPT states
 * it took, by that player's own message ids (a relayed datagram keeps them):
 * the bases a relayed partial state names. For the server it keeps which of
 * its Relays came: the newest one's id and a mask of the RELAY_ACK_SPAN
 * before it, which every datagram of ours to the server carries in its link
 * section (`relayAck`). The server builds a player's state on the newest of
 * that player's states in a Relay we acknowledged (node/servers/game/relayLog.ts),
 * so it names only states we hold.
 */
import type { StateBases } from '../wire/shipStateCodec';
import { PacketType, RELAY_ACK_SPAN, type RelayAck, type RemoteEvent, type ShipState } from '../wire/types';
import { idNewer } from './replayWindow';

/** A relayed player's states kept as bases (a base a partial names is at most MAX_BASE_AGE of its ids back; it is sent at least that often). */
export const RELAYED_KEPT = 32;

/** One relayed player's last RELAYED_KEPT states by message id, looked up newest first (a slot's next player may reuse an id its last one had). */
class SlotStates implements StateBases {
  private readonly ids = new Float64Array(RELAYED_KEPT).fill(-1);
  private readonly states: (ShipState | undefined)[] = new Array<ShipState | undefined>(RELAYED_KEPT).fill(undefined);
  private next = 0;

  put(id: number, state: ShipState): void {
    this.ids[this.next] = id;
    this.states[this.next] = state;
    this.next = (this.next + 1) % RELAYED_KEPT;
  }

  at(id: number): ShipState | undefined {
    for (let k = 1; k <= RELAYED_KEPT; k++) {
      const i = (this.next - k + RELAYED_KEPT) % RELAYED_KEPT;
      if (this.ids[i] === id) return this.states[i];
    }
    return undefined;
  }
}

export class RelayedStates {
  private readonly slots = new Map<number, SlotStates>();
  /** The newest Relay's message id taken, and bit i: the Relay newest − 1 − i taken. */
  private newest: number | null = null;
  private mask = 0;

  /** The bases kept for the player in `slot` (what a relayed partial state of it names), or undefined before its first state. */
  bases(slot: number): StateBases | undefined {
    return this.slots.get(slot);
  }

  /**
   * A Relay datagram with message id `relayId` was taken (after its number was
   * admitted): every relayed player's ship state in it is kept as a base, and
   * the Relay counts as received in the next acknowledgement.
   */
  took(relayId: number, events: readonly RemoteEvent[]): void {
    for (const ev of events) {
      if (ev.type !== 'relayed') continue;
      const h = ev.packet.header;
      if (h.type !== PacketType.GameState || h.state === undefined) continue;
      let slot = this.slots.get(ev.slot);
      if (!slot) this.slots.set(ev.slot, (slot = new SlotStates()));
      slot.put(h.messageId, h.state);
    }
    this.received(relayId >>> 0);
  }

  private received(id: number): void {
    if (this.newest === null) {
      this.newest = id;
      this.mask = 0;
    } else if (idNewer(id, this.newest)) {
      const shift = (id - this.newest) >>> 0;
      // The old newest goes to bit shift − 1; each older one shift places up; beyond the span they are forgotten.
      if (shift > RELAY_ACK_SPAN) this.mask = 0;
      else if (shift === RELAY_ACK_SPAN) this.mask = 0x80000000;
      else this.mask = ((this.mask << shift) | (1 << (shift - 1))) >>> 0;
      this.newest = id;
    } else {
      const back = (this.newest - id) >>> 0;
      if (back >= 1 && back <= RELAY_ACK_SPAN) this.mask = (this.mask | (1 << (back - 1))) >>> 0;
    }
  }

  /** What our datagrams to the server acknowledge of its Relays, or undefined before the first. */
  ack(): RelayAck | undefined {
    return this.newest === null ? undefined : { newest: this.newest & 0xffff, mask: this.mask };
  }

  /** The server is another (a new session): nothing of the old one is kept. */
  clear(): void {
    this.slots.clear();
    this.newest = null;
    this.mask = 0;
  }
}
