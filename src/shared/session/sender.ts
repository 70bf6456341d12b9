/**
 * The session's one outgoing path. Every datagram a client session sends —
 * the membership's packets (game states, node-alives, p2p start-up), Reliable
 * packets, pings and pongs — goes through `send`:
 *
 *   target's cached node → header measured → game events (sizes known) →
 *   the link layer's section for that target fills the room left, with the
 *   acknowledgement of the target's newest ship state →
 *   numbered by the target's connection (connections.ts) →
 *   a ship state goes partial against the state of ours the target
 *   acknowledged (net/stateDeltas.ts) →
 *   encoded once at the summed size → packet API.
 *
 * What comes in is unnumbered (UnnumberedPacket: the type has no
 * `messageId`); the connection writes the number last, so only datagrams that
 * really leave use numbers up and a gap at the receiver is a lost datagram.
 *
 * Per target, the header, its link section and the game events share one
 * 512-byte budget; the game events were already limited to leave
 * LINK_RESERVE_BYTES for the link section (wire v11: acknowledgements and
 * reliable messages are the header's, not events). Time-sync datagrams are bytes of their own (`sendBytes`).
 *
 * A send that fails is reported to the observer (the adapter prints it),
 * never thrown: a lost datagram is repaired by the protocol.
 */
import type { LinkLayer } from '../net/linkLayer';
import { MAX_DATAGRAM_BYTES, type NodeAddress, type PacketApi } from '../net/packetApi';
import type { Connection, UnnumberedPacket } from '../net/connection';
import type { LinkSection, WireAddr } from '../wire/types';
import { LINK_BYTE_SIZE, RELAY_ACK_SIZE, STATE_ACK_SIZE } from '../wire/codec';
import { FULL_STATE_SIZE, measureState, quantiseState, type StateBase } from '../wire/shipStateCodec';
import type { AddressBook } from './addressBook';
import { EventSizes, type DatagramCodec } from './datagram';
import { HOLD_MS, type AddressProof } from './addressProof';
import type { SessionConnections } from './connections';

/** What the sender reports instead of throwing. */
export interface SendFailure {
  to: NodeAddress;
  message: string;
}

/** A broadcast's tokened copies go to proven nodes heard from within this long. */
const BROADCAST_COPIES_WITHIN_MS = 10_000;

export class SessionSender {
  readonly sizes: EventSizes;
  /** Datagrams not sent because the wire address is no node of this packet API. */
  unroutable = 0;
  private lastBroadcast: { packet: UnnumberedPacket; at: number; seriesAt: number } | null = null;

  constructor(
    private readonly api: PacketApi,
    readonly addresses: AddressBook,
    private readonly links: LinkLayer,
    private readonly codec: DatagramCodec,
    private readonly now: () => number,
    private readonly failed: (f: SendFailure) => void,
    /** One connection per node: each datagram's `messageId`, the next number of its link (the receiver's connection reads it). */
    private readonly connections: SessionConnections,
    /** Proof of address (p2p and slotserver games): every datagram carries its target's cookie, and none goes to a node without one. */
    readonly proof: AddressProof | null = null,
  ) {
    this.sizes = new EventSizes(codec);
  }

  /** A node's identity from its wire address, as the packet API compares nodes (for the membership's tables). */
  keyOf(addr: WireAddr): string {
    return this.addresses.identity(addr);
  }

  /** Whether the node at `to` has proven its address (always, when the session does not ask for proof). */
  proven(to: WireAddr): boolean {
    if (!this.proof) return true;
    const key = this.addresses.key(to);
    return key !== null && this.proof.proven(key);
  }

  /**
   * A LAN broadcast of `packet` (p2p start-up): the untokened bytes to
   * `toLan` (numbered on the broadcast's own connection: a number no receiver
   * reads, see connections.ts), and, when the session asks for proof, a
   * tokened copy to every proven node heard from lately (the only copy those
   * nodes take, numbered on its link).
   */
  broadcast(packet: UnnumberedPacket, toLan: (bytes: Uint8Array) => void): void {
    const bytes = this.codec.encode(this.connections.numberBroadcast(packet), this.codec.baseSize(packet.header) + this.sizes.sum(packet.events));
    toLan(bytes);
    if (!this.proof) return;
    const now = this.now();
    const b = this.lastBroadcast;
    // A series of broadcasts (the start-up's repeats) is timed from its first: a challenge may answer any of them.
    this.lastBroadcast = { packet, at: now, seriesAt: b && now - b.at <= HOLD_MS ? b.seriesAt : now };
    for (const node of this.proof.recentNodes(now, BROADCAST_COPIES_WITHIN_MS)) this.transmit(node, packet, null, false, true);
  }

  /**
   * While we broadcast (the last one within HOLD_MS), ms since the first
   * broadcast of the series: a challenge that arrives now took at most that
   * long to come back (never less than the round trip, which timing from the
   * latest repeat could give); else null.
   */
  sinceBroadcast(): number | null {
    const b = this.lastBroadcast;
    const now = this.now();
    return b && now - b.at <= HOLD_MS ? now - b.seriesAt : null;
  }

  /** A node has just proven its address: what waited for it goes now (the packet held for it, the broadcast of a moment ago). */
  flushProven(key: string, node: NodeAddress): void {
    const proof = this.proof;
    if (!proof) return;
    const now = this.now();
    const held = proof.takeHeld(key, now);
    if (held) this.send(held.to, held.packet);
    const b = this.lastBroadcast;
    if (b && now - b.at <= HOLD_MS) this.transmit(node, b.packet, null, false, true);
  }

  /** Sends `packet` to the member (or stranger) at wire address `to`, with that node's link envelopes. */
  send(to: WireAddr, packet: UnnumberedPacket): void {
    const node = this.addresses.node(to);
    if (!node) {
      this.unroutable += 1;
      return;
    }
    this.transmit(node, packet, to, false);
  }

  /**
   * A Reliable packet to `to` carrying only what its link owes (acknowledgements,
   * due messages); nothing is sent when the link has nothing.
   */
  sendEnvelopes(to: WireAddr, packet: UnnumberedPacket): void {
    const node = this.addresses.node(to);
    if (node) this.transmit(node, packet, to, true);
  }

  /** A control packet (ping, pong) straight to a node: no envelopes; a failure is only a missing sample. */
  sendTo(node: NodeAddress, packet: UnnumberedPacket): void {
    this.transmit(node, packet, null, false, true);
  }

  /** Raw bytes (a time-sync datagram) to `to`; a failure is only a missing sample. */
  sendBytes(to: WireAddr, bytes: Uint8Array, node?: NodeAddress): void {
    const target = node ?? this.addresses.node(to);
    if (target) this.sendRaw(target, bytes);
  }

  /** Raw bytes (a time-sync or challenge datagram) to a node; a failure is only a missing sample or a challenge repeated later. */
  sendRaw(node: NodeAddress, bytes: Uint8Array): void {
    try {
      this.api.send(node, bytes);
    } catch {
      /* a lost sample or answer is repaired by the next one */
    }
  }

  private transmit(node: NodeAddress, packet: UnnumberedPacket, linkTo: WireAddr | null, onlyWithEnvelopes: boolean, quiet = false): void {
    const key = this.api.nodeKey(node);
    if (this.proof) {
      const token = this.proof.tokenFor(key);
      if (token === undefined) {
        // No datagram of ours to a node before it proves its address: the packet waits, a 12-byte challenge goes.
        const challenge = this.proof.hold(key, linkTo && !onlyWithEnvelopes ? { to: linkTo, packet } : null, this.now());
        if (challenge) this.sendRaw(node, challenge);
        return;
      }
      packet = { header: { ...packet.header, token }, events: packet.events };
    }
    let size = this.codec.baseSize(packet.header) + this.sizes.sum(packet.events);
    let out: UnnumberedPacket = { header: packet.header, events: packet.events };
    if (linkTo) {
      // The acknowledgements of the node's newest ship state, and of a gameserver's Relays, ride in the link section: their bytes are kept out of the envelopes' room.
      const states = this.connections.get(key)?.states;
      const stateAck = states?.stateAck();
      const relayAck = states?.relays.ack();
      const acked: LinkSection = {};
      if (stateAck !== undefined) acked.stateAck = stateAck;
      if (relayAck !== undefined) acked.relayAck = relayAck;
      const ackBytes = (stateAck === undefined ? 0 : STATE_ACK_SIZE) + (relayAck === undefined ? 0 : RELAY_ACK_SIZE);
      const env = this.links.envelopes(linkTo, packet.header.type, MAX_DATAGRAM_BYTES - size - LINK_BYTE_SIZE - ackBytes, this.now());
      if (env.link) {
        out = { header: packet.header, events: packet.events, link: ackBytes === 0 ? env.link : { ...env.link, ...acked } };
        size += env.size + ackBytes;
      } else if (onlyWithEnvelopes) return;
      else if (ackBytes > 0) {
        out = { header: packet.header, events: packet.events, link: acked };
        size += LINK_BYTE_SIZE + ackBytes;
      }
    }
    // Numbered last, so only datagrams that really leave use up numbers (a gap is a lost datagram).
    const numbered = this.connections.number(key, out);
    try {
      // A ship state goes partial against the newest of ours the node acknowledged (full without one).
      const state = numbered.header.state;
      let base: StateBase | undefined;
      if (state) {
        const deltas = (this.connections.get(key) as Connection).states;
        base = deltas.baseFor(numbered.header.messageId);
        // A partial state that saves nothing (a fighting ship changes nearly every portion) goes full: the same bytes, no base to need.
        const partialSize = base ? measureState(state, base) : FULL_STATE_SIZE;
        if (partialSize >= FULL_STATE_SIZE) base = undefined;
        else size -= FULL_STATE_SIZE - partialSize;
        deltas.didSend(numbered.header.messageId, quantiseState(state), base !== undefined);
      }
      this.api.send(node, this.codec.encode(numbered, size, base));
    } catch (err) {
      if (!quiet) this.failed({ to: node, message: (err as Error).message });
    }
  }
}
