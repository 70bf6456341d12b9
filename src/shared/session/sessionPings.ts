/**
 * A session's Ping/Pong (pipeline.ts): it pings the nodes it has links to
 * once a second, answers pings only from members of its game (no reflection
 * for strangers), and turns the round trips and the gaps in message ids into
 * the figures `players`, the scoreboard and the net graph show.
 */
import type { PlayerPing } from '../net/gameLink';
import { lossPct } from '../net/lossMeter';
import type { NodeAddress, PacketApi } from '../net/packetApi';
import { pingStamp, PingSchedule, roundTripSummary } from '../net/roundTrip';
import type { LinkStats } from '../protocol/protocol';
import type { UnnumberedHeader } from '../net/connection';
import { NO_SLOT, PacketType, type PacketHeader, type WireAddr } from '../wire/types';
import type { AddressBook } from './addressBook';
import type { Membership } from './membership';
import type { PlayerRow } from './parts';
import type { SessionSender } from './sender';
import type { SessionConnections } from './connections';
import type { SessionClock } from './sessionClock';

/** What the pings read. */
export interface PingParts {
  member: Membership;
  addresses: AddressBook;
  api: PacketApi;
  clock: SessionClock;
  sender: SessionSender;
  now(): number;
  /** The nodes with reliable links (the ones we ping). */
  targets(): WireAddr[];
  /** The slot of the member whose node has the packet API key `key`, or null for a stranger. */
  slotOfKey(key: string): number | null;
  /** The session token every datagram to a gameserver carries. */
  tokenField(): { token?: number };
  /** The connection of each node: where its round trip and loss are kept. */
  connections: SessionConnections;
}

export class SessionPings {
  private readonly schedule = new PingSchedule();
  /** The nodes we ping (their round trips and loss are the figures shown). */
  private pinged: ReadonlySet<string> = new Set();

  constructor(private readonly p: PingParts) {}

  /** A numbered datagram from `fromKey` (its gaps show loss). */
  numbered(fromKey: string, messageId: number, now: number): void {
    this.p.connections.get(fromKey)?.loss.record(messageId, now);
  }

  /** Pings the peers when a second has passed. */
  tick(now: number): void {
    if (this.schedule.due(now)) this.pingPeers(now);
  }

  /** Link quality for the net graph. */
  linkStats(): LinkStats {
    const shown = [...this.p.connections.entries()].filter(([key]) => this.pinged.has(key)).map(([, c]) => c);
    const heard = [...this.p.connections.entries()].map(([, c]) => c.loss);
    return { ...roundTripSummary(shown.map((c) => c.roundTrip)), lossPct: lossPct(heard, this.p.now()) };
  }

  /** The rows of the `players` listing (empty when not connected). */
  playerRows(): PlayerRow[] {
    const member = this.p.member;
    if (member.state !== 'connected') return [];
    return member.players().map((p) => {
      const mine = p.slot === member.slot();
      const key = this.p.addresses.key(p.addr);
      const rtt = key === null ? undefined : this.rttOf(key);
      return { slot: p.slot, name: p.name, address: this.p.addresses.text(p.addr), pingMs: mine ? undefined : (rtt ?? null), joined: p.joined, mine };
    });
  }

  /**
   * Each player's round trip for the scoreboard, whole ms (the rule is
   * `Protocol.playerPings`'s; empty when not connected). `server` is the node
   * the client's game hangs on — a gameserver, a slotserver's time port —
   * or null peer to peer. Our own slot: the Ping/Pong round trip to the
   * server when it answers Pings (a gameserver), else the time-sync round
   * trip when the clock synchronises with it (a slotserver's time port
   * answers only time sync). Another player: the Ping/Pong round trip, only
   * for players we ping ourselves — every other member peer to peer and at a
   * slotserver, nobody but the server through a gameserver. Players without
   * a figure yet (no Pong) are left out.
   */
  playerPings(server: WireAddr | null): PlayerPing[] {
    const member = this.p.member;
    const mine = member.slot();
    if (member.state !== 'connected' || mine === null) return [];
    const pinged = new Set(this.p.targets().map((addr) => this.p.addresses.identity(addr)));
    const out: PlayerPing[] = [];
    for (const p of member.players()) {
      const id = this.p.addresses.identity(p.addr);
      const ms = p.slot === mine ? (server === null ? undefined : this.roundTripTo(server)) : pinged.has(id) ? this.rttOf(id) : undefined;
      if (ms !== undefined) out.push({ slot: p.slot, ms: Math.round(ms) });
    }
    return out;
  }

  /** Our round trip to `server`: Ping/Pong when measured, else the time sync's when the clock synchronises with it. */
  private roundTripTo(server: WireAddr): number | undefined {
    const id = this.p.addresses.identity(server);
    const pinged = this.rttOf(id);
    if (pinged !== undefined) return pinged;
    const clock = this.p.clock.status();
    return clock.kind === 'sync' && this.p.addresses.identity(clock.source) === id && Number.isFinite(clock.rttMs) ? clock.rttMs : undefined;
  }

  /** The smoothed round trip to the node with key `key`, if measured. */
  private rttOf(key: string): number | undefined {
    return this.p.connections.get(key)?.roundTrip.ms;
  }

  /** Pings are answered only between members of the same game (no reflection for strangers). */
  onPing(from: NodeAddress, fromKey: string, header: PacketHeader): void {
    const member = this.p.member;
    if (member.state !== 'connected') return;
    if (this.p.slotOfKey(fromKey) === null && !member.trusts?.(this.p.api.encodeNode(from))) return;
    // The decoder refuses a ping or pong without its stamp (`bad-flags`).
    if (header.gameTime === undefined) return;
    if (header.type === PacketType.Ping) this.sendControl(from, PacketType.Pong, header.gameTime);
    else this.p.connections.get(fromKey)?.roundTrip.sample(header.gameTime, this.p.now());
  }

  private sendControl(to: NodeAddress, type: PacketType, gameTime: number): void {
    // A gameserver takes nothing without the session token, pings and pongs included.
    const header: UnnumberedHeader = { type, senderSlot: this.p.member.slot() ?? NO_SLOT, gameTime, joined: false, ...this.p.tokenField() };
    this.p.sender.sendTo(to, { header, events: [] });
  }

  private pingPeers(now: number): void {
    const keys = new Set<string>();
    for (const addr of this.p.targets()) {
      const node = this.p.addresses.node(addr);
      const key = this.p.addresses.key(addr);
      if (!node || key === null) continue;
      keys.add(key);
      this.sendControl(node, PacketType.Ping, pingStamp(now));
    }
    // Nodes no longer pinged (they left) are forgotten: their round trip and the gaps in their ids.
    for (const [key, c] of this.p.connections.entries()) {
      if (keys.has(key)) continue;
      c.roundTrip.clear();
      c.loss.clear();
    }
    this.pinged = keys;
  }}
