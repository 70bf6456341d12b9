/**
 * Building control packets and reading the events the protocol uses
 * (connectQueue, playerList, playerName), plus the text helpers for notices.
 * Control packets carry membership messages and the sender's name and leave
 * reason (ControlPacketEvent, wire/channels.ts); game states are the game's.
 */
import type { UnnumberedPacket } from '../net/connection';
import { isLeaveReason } from '../net/leaveReason';
import { AUTO_LOOK, sameLook, type ShipLook } from '../wire/shipLook';
import { MAX_NAME_LENGTH, MAX_QUEUE, type Packet, type PacketType, type PlayerEntry, type RemoteEvent, type ShipState, type WireAddr } from '../wire/types';
import type { ControlPacketEvent, MembershipMessage, WorldMessage } from '../wire/channels';

/** A ship state of all zeros with the identity rotation (a stand-in where a state must be shown but none was sent). */
export const NEUTRAL_STATE: ShipState = Object.freeze({
  pos: Object.freeze({ x: 0, y: 0, z: 0 }),
  rot: Object.freeze({ x: 0, y: 0, z: 0, w: 1 }),
  vel: Object.freeze({ x: 0, y: 0, z: 0 }),
  angVel: Object.freeze({ x: 0, y: 0, z: 0 }),
  energy: 0,
  damage: 0,
});

/** A control packet as a membership sends it: the base header only (no game time, no ship state; wire v10), numbered by its connection as it leaves. */
export function outgoingControl(type: PacketType, senderSlot: number, joined: boolean, events: ControlPacketEvent[]): UnnumberedPacket {
  return { header: { type, senderSlot, joined }, events };
}

/** A control packet as it arrives, numbered `messageId` (what tests and readers build; any events, as a hostile sender's may hold). */
export function controlPacket(type: PacketType, senderSlot: number, messageId: number, joined: boolean, events: RemoteEvent[]): Packet {
  return { header: { type, senderSlot, joined, messageId: messageId >>> 0 }, events };
}

/** A connectQueue event; at most MAX_QUEUE addresses fit, extra ones are left out (they are retried by their own requests). */
export function queueEvent(addrs: readonly WireAddr[]): MembershipMessage {
  return { type: 'connectQueue', addrs: addrs.slice(0, MAX_QUEUE) };
}

/** A playerList event (the slot table as the wire carries it). */
export function playerListEvent(players: readonly PlayerEntry[]): MembershipMessage {
  return { type: 'playerList', players: [...players] };
}

/** A playerName event with the sender's own name. */
export function nameEvent(name: string): Extract<WorldMessage, { type: 'playerName' }> {
  return { type: 'playerName', name };
}

/**
 * The events that say who we are, for every packet that carries our name
 * (ConnectRequest, SlotRequest, NodeAlive): the name, then our ship look
 * when we chose one (none: left to the slot, so a player who never chose
 * sends the 1998 bytes).
 */
export function identityEvents(name: string, look: ShipLook): ControlPacketEvent[] {
  const events: ControlPacketEvent[] = [nameEvent(name)];
  if (!sameLook(look, AUTO_LOOK)) events.push({ type: 'playerLook', design: look.design, colour: look.colour });
  return events;
}

/**
 * The ship look a packet says its sender chose: its playerLook event, or
 * AUTO_LOOK for a packet that names the sender without one (the sender left
 * its look to the slot); null when the packet names nobody.
 */
export function lookOf(p: Packet): ShipLook | null {
  let look: ShipLook | null = null;
  let named = false;
  for (const e of p.events) {
    if (e.type === 'playerLook') look = { design: e.design, colour: e.colour };
    else if (e.type === 'playerName') named = true;
  }
  return look ?? (named ? AUTO_LOOK : null);
}

/** The first connectQueue event's addresses (empty if none). */
export function queueOf(p: Packet): WireAddr[] {
  for (const e of p.events) if (e.type === 'connectQueue') return e.addrs;
  return [];
}

/** The first playerList event's entries, or null if the packet has none. */
export function playersOf(p: Packet): PlayerEntry[] | null {
  for (const e of p.events) if (e.type === 'playerList') return e.players;
  return null;
}

/** The reason a Disconnect gives (its one sendText event, when that is a valid leave reason), or undefined. */
export function disconnectReason(p: Packet): string | undefined {
  const text = p.events.find((e) => e.type === 'sendText');
  return text?.type === 'sendText' && isLeaveReason(text.text) ? text.text : undefined;
}

/** The last playerName event's name (the newest, should a packet carry several), or null. */
export function nameOf(p: Packet): string | null {
  let name: string | null = null;
  for (const e of p.events) if (e.type === 'playerName') name = e.name;
  return name;
}

/**
 * Makes `raw` a valid wire name (1..MAX_NAME_LENGTH printable ASCII, no
 * leading or trailing space): other characters become '?', the rest is cut.
 * An empty result becomes `fallback`.
 */
export function sanitizeName(raw: string, fallback: string): string {
  let s = '';
  for (const ch of raw) {
    const c = ch.codePointAt(0) ?? 0;
    s += c >= 0x20 && c <= 0x7e ? ch : '?';
  }
  s = s.trim().slice(0, MAX_NAME_LENGTH).trim();
  return s.length > 0 ? s : fallback;
}

/** Human form of a serialised node address for messages: "10.0.0.1:6526" or "[fe80:0:…]:6526". */
export function formatAddr(a: WireAddr): string {
  const port = (x: number, y: number) => ((a[x] ?? 0) << 8) | (a[y] ?? 0);
  if (a.length === 7 && a[0] === 4) return `${a[1]}.${a[2]}.${a[3]}.${a[4]}:${port(5, 6)}`;
  if (a.length === 19 && a[0] === 6) {
    const groups: string[] = [];
    for (let i = 1; i < 17; i += 2) groups.push(port(i, i + 1).toString(16));
    return `[${groups.join(':')}]:${port(17, 18)}`;
  }
  return `<${[...a].map((b) => b.toString(16).padStart(2, '0')).join('')}>`;
}

/** The console line for a refused connect: "game full (4 of 4 slots taken)". */
export function gameFullMessage(taken: number): string {
  return `game full (${taken} of ${taken} slots taken)`;
}
