/**
 * The one admission ladder of Starlane's game datagrams, climbed alike by a
 * client session (session/pipeline.ts) and by both UDP servers
 * (node/servers/common/seatAdmission.ts) — Quake III's one Netchan_Process
 * under client and server, with thin per-side wrappers. What a side's port
 * also serves (time sync, LAN discovery, proof-of-address challenges) is
 * taken off before; a game datagram then climbs, in this order:
 *
 *   decode    the codec's reason (counted in the side's DropCounters); a
 *             partial ship state is completed from the source's states
 *   sender    the side's word on who sent it and how that is proven: a
 *             server's token, seat, address, port and slot; a client's game
 *             kind and proof of address (its cookie)
 *   type      the packet types the side takes from that sender, if it limits them
 *   sequence  the sender's Connection (net/connection.ts): each number is taken
 *             once, and the side says what a late or old one is worth
 *   body      the side's last word on the packet (a gameserver wants a
 *             GameState's ship and time)
 *
 * The first rung that refuses names the drop, and the side counts it where
 * its status page or console reads it. Nothing here throws on what a datagram
 * holds: the codec reports, the rungs return.
 */
import { decodePacket, type DropCounters } from '../wire/codec';
import type { StateBases } from '../wire/shipStateCodec';
import type { DropReason } from '../wire/stream';
import type { Packet } from '../wire/types';

/** A rung's refusal: the reason (as counted), and whether it is no offence of the source (a backlog, not an attack). */
export interface Refusal {
  ok: false;
  reason: string;
  excused: boolean;
}

/** What a rung passes up: its value, or its refusal. */
export type Rung<T> = { ok: true; value: T } | Refusal;

/** A refusal with `reason`. */
export function refuse(reason: string, excused = false): Refusal {
  return { ok: false, reason, excused };
}

/** A rung passed with `value`. */
export function pass<T>(value: T): Rung<T> {
  return { ok: true, value };
}

/** How one side configures the ladder: `S` is what it knows of a sender, `Q` the datagram's place in its sequence. */
export interface AdmissionRules<S, Q> {
  /** Where undecodable datagrams are counted, by the codec's reason. */
  readonly codecDrops: DropCounters;
  /** Told of each undecodable datagram after it is counted (a client tells its player of another wire version). */
  undecodable?(reason: DropReason): void;
  /** The ship states held from the datagram's source, which its partial states build on (none: a partial state is `unknown-base`). */
  bases?(): StateBases | undefined;
  /** Who sent the decoded packet, and is it proven so. */
  sender(packet: Packet): Rung<S>;
  /** The packet types taken from a sender (none given: every type), and the reason for the others. */
  readonly types?: { readonly allowed: ReadonlySet<number>; readonly drop: string };
  /** The sender's connection takes the packet's number: its place, or the refusal (a replay). */
  sequence(sender: S, packet: Packet): Rung<Q>;
  /** The side's last check of the packet itself (null: taken). */
  body?(sender: S, packet: Packet): Refusal | null;
  /** Counts a rung's refusal where the side reads it (the codec's are counted in `codecDrops`). */
  refused(refusal: Refusal): void;
}

/** A datagram that climbed the whole ladder. */
export interface Admitted<S, Q> {
  ok: true;
  sender: S;
  packet: Packet;
  seq: Q;
}

export type Admission<S, Q> = Admitted<S, Q> | Refusal;

/** Runs `bytes` up the ladder `rules` configure; a refusal is counted where it falls. */
export function admitDatagram<S, Q>(bytes: Uint8Array, rules: AdmissionRules<S, Q>): Admission<S, Q> {
  const decoded = decodePacket(bytes, rules.bases?.());
  if (!decoded.ok) {
    rules.codecDrops.count(decoded.reason);
    rules.undecodable?.(decoded.reason);
    return refuse(decoded.reason);
  }
  const packet = decoded.packet;
  const sender = rules.sender(packet);
  if (!sender.ok) return refused(rules, sender);
  if (rules.types && !rules.types.allowed.has(packet.header.type)) return refused(rules, refuse(rules.types.drop));
  const seq = rules.sequence(sender.value, packet);
  if (!seq.ok) return refused(rules, seq);
  const body = rules.body?.(sender.value, packet) ?? null;
  if (body) return refused(rules, body);
  return { ok: true, sender: sender.value, packet, seq: seq.value };
}

function refused<S, Q>(rules: AdmissionRules<S, Q>, refusal: Refusal): Refusal {
  rules.refused(refusal);
  return refusal;
}
