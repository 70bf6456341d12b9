/**
 * A client session's side of the one admission ladder (net/admission.ts,
 * which both UDP servers climb too, node/servers/common/seatAdmission.ts).
 * The pipeline (pipeline.ts) takes time-sync and challenge datagrams off
 * first; a game datagram then climbs:
 *
 *   decode    the codec's reason, counted in the pipeline's drops (a datagram
 *             of another wire version also tells the player, once per peer)
 *   sender    our kind of game (p2p datagrams never reach a lockstep session
 *             nor the other way round: `otherGameKind`), and, where the session
 *             proves addresses, our cookie for its source — without it the
 *             datagram is nobody's word (a forgery, or a broadcast) and a
 *             challenge goes back instead; a node in no game answers nothing
 *   sequence  the sender's connection (connections.ts): a number is taken once,
 *             the rest goes up with its place (newest, late, too old)
 *
 * and reaches the pipeline with the sender's packet API key and its Arrival.
 * The connection then keeps the packet's ship state as a base for the
 * node's partial states and takes its acknowledgement of ours
 * (net/stateDeltas.ts), and keeps a gameserver Relay's players' states as
 * bases of their relayed partial ones (net/relayedStates.ts); a partial
 * state was completed from the source's kept states as it was decoded.
 */
import { admitDatagram, pass, refuse, type Admission, type AdmissionRules, type Rung } from '../net/admission';
import type { Arrival } from '../net/connection';
import type { NodeAddress } from '../net/packetApi';
import type { DropCounters } from '../wire/codec';
import { PacketType, type Packet } from '../wire/types';
import type { AddressProof } from './addressProof';
import type { SessionConnections } from './connections';
import type { SessionNotice } from './notices';

/** What the client's rungs read. */
export interface ClientAdmissionParts {
  /** Where undecodable datagrams are counted. */
  readonly drops: DropCounters;
  readonly connections: SessionConnections;
  /** Proof of address (p2p and slotserver games), or null. */
  readonly proof: AddressProof | null;
  /** True in a lockstep session: only lockstep datagrams are its kind. */
  readonly lockstep: boolean;
  notify(notice: SessionNotice): void;
  /** Sends a challenge back (raw bytes). */
  sendRaw(to: NodeAddress, bytes: Uint8Array): void;
  now(): number;
  /** Whether the membership is connected to a game (numbers of session datagrams are held to the window then). */
  connected(): boolean;
}

/** The datagram climbing now. */
interface Climbing {
  from: NodeAddress;
  fromKey: string;
  data: Uint8Array;
  /** The membership is in no game and looking for none: it answers nothing. */
  inactive: boolean;
}

export class ClientAdmission {
  /** Datagrams of the other kind of game (a p2p datagram in a lockstep session or the other way round): dropped. */
  otherGameKind = 0;
  private climbing: Climbing = { from: null as unknown as NodeAddress, fromKey: '', data: new Uint8Array(0), inactive: true };
  private readonly ladder: AdmissionRules<string, Arrival>;

  constructor(private readonly parts: ClientAdmissionParts) {
    this.ladder = {
      codecDrops: parts.drops,
      undecodable: (reason) => {
        if (reason === 'bad-version') parts.notify({ kind: 'other-version', from: this.climbing.from, data: this.climbing.data });
      },
      bases: () => parts.connections.get(this.climbing.fromKey)?.states,
      sender: (packet) => this.senderOf(packet),
      sequence: (key, { header }) => {
        const arrival = parts.connections.admit(key, header.type, header.messageId, parts.now(), parts.connected());
        return arrival === null ? refuse('replayed') : pass(arrival);
      },
      // The replays are counted by the connections, unproven datagrams by the proof; the other kind of game here.
      refused: (r) => {
        if (r.reason === 'other-game-kind') this.otherGameKind += 1;
      },
    };
  }

  /** Runs a datagram from `from` (packet API key `fromKey`) up the ladder. */
  admit(from: NodeAddress, fromKey: string, data: Uint8Array, inactive: boolean): Admission<string, Arrival> {
    this.climbing = { from, fromKey, data, inactive };
    const admitted = admitDatagram(data, this.ladder);
    if (admitted.ok) {
      const { header, link } = admitted.packet;
      const deltas = this.parts.connections.get(admitted.sender)?.states;
      if (deltas && header.state && header.type === PacketType.GameState) deltas.took(header.messageId, header.state);
      if (deltas && link?.stateAck !== undefined) deltas.onStateAck(link.stateAck);
      // A gameserver's Relay: its players' states are bases for their next partial ones, and the Relay is acknowledged.
      if (deltas && header.type === PacketType.Relay) deltas.relays.took(header.messageId, admitted.packet.events);
    }
    return admitted;
  }

  /** The sender rung: our kind of game, and our cookie for its source where the session proves addresses. */
  private senderOf(packet: Packet): Rung<string> {
    const { from, fromKey, inactive } = this.climbing;
    const { proof } = this.parts;
    if ((packet.header.lockstep === true) !== this.parts.lockstep) return refuse('other-game-kind');
    if (proof) {
      if (inactive) return refuse('inactive');
      const gate = proof.gate(fromKey, packet.header.token, this.parts.now());
      if (gate.challenge) this.parts.sendRaw(from, gate.challenge);
      if (!gate.take) return refuse('unproven');
    }
    return pass(fromKey);
  }
}
