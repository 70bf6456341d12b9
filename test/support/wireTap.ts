/**
 * Reads datagrams off the wire as their receiver would (wire v13): a partial
 * ship state names a base by message id, so a tap keeps, per flow (one
 * sender to one receiver), the states it read, and completes each partial
 * state from them. A tap sees every datagram sent, so it holds every base a
 * receiver could.
 */
import { StateDeltas } from '../../src/shared/net/stateDeltas';
import { decodePacket, type DecodeResult } from '../../src/shared/wire/codec';
import { PacketType } from '../../src/shared/wire/types';

export class WireTap {
  private readonly flows = new Map<string, StateDeltas>();

  /** `data` decoded as the receiver of flow `flow` (e.g. the destination's key) would. */
  decode(flow: string, data: Uint8Array): DecodeResult {
    let bases = this.flows.get(flow);
    if (!bases) {
      bases = new StateDeltas();
      this.flows.set(flow, bases);
    }
    const r = decodePacket(data, bases);
    if (r.ok && r.packet.header.type === PacketType.GameState && r.packet.header.state) bases.took(r.packet.header.messageId, r.packet.header.state);
    return r;
  }
}
