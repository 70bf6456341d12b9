/**
 * A session's Ping/Pong (pipeline.ts): it pings the nodes it has links to
 * once a second, answers pings only from members of its game (no reflection
 * for strangers), and turns the round trips and the gaps in message ids into
 * the figures `players`, the scoreboard and the net graph show.
 */
import type { PlayerPing } from '../net/gameLink';
import { LossMeter } from '../net/lossMeter';
import type { NodeAddress, PacketApi } from '../net/packetApi';
import { PingTable } from '../net/pingTable';
import type { LinkStats } from '../protocol/protocol';
import type { UnnumberedHeader } from '../net/connection';
import { NO_SLOT, PacketType, type PacketHeader, type WireAddr } from '../wire/types';
import type { AddressBook } from './addressBook';
import type { Membership } from './membership';
import type { PlayerRow } from './parts';
import type { SessionSender } from './sender';
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
}

export class SessionPings {
  private readonly table = new PingTable();
  private readonly loss = new LossMeter();

  constructor(private readonly p: PingParts) {}

  /** A numbered datagram from `fromKey` (its gaps show loss). */
  numbered(fromKey: string, messageId: number, now: number): void {
    this.loss.record(fromKey, messageId, now);
  }

  /** Pings the peers when a second has passed. */
  tick(now: number): void {
    if (this.table.due(now)) this.pingPeers(now);
  }

  /** Link quality for the net graph. */
  linkStats(): LinkStats {
    return { ...this.table.summary(), lossPct: this.loss.lossPct(this.p.now()) };
  }

  /** The rows of the `players` listing (empty when not connected). */
  playerRows(): PlayerRow[] {
    const member = this.p.member;
    if (member.state !== 'connected') return [];
    return member.players().map((p) => {
      const mine = p.slot === member.slot();
      const key = this.p.addresses.key(p.addr);
      const rtt = key === null ? undefined : this.table.get(key);
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
      const ms = p.slot === mine ? (server === null ? undefined : this.roundTripTo(server)) : pinged.has(id) ? this.table.get(id) : undefined;
      if (ms !== undefined) out.push({ slot: p.slot, ms: Math.round(ms) });
    }
    return out;
  }

  /** Our round trip to `server`: Ping/Pong when measured, else the time sync's when the clock synchronises with it. */
  private roundTripTo(server: WireAddr): number | undefined {
    const id = this.p.addresses.identity(server);
    const pinged = this.table.get(id);
    if (pinged !== undefined) return pinged;
    const clock = this.p.clock.status();
    return clock.kind === 'sync' && this.p.addresses.identity(clock.source) === id && Number.isFinite(clock.rttMs) ? clock.rttMs : undefined;
  }

  /** Pings are answered only between members of the same game (no reflection for strangers). */
  onPing(from: NodeAddress, fromKey: string, header: PacketHeader): void {
    const member = this.p.member;
    if (member.state !== 'connected') return;
    if (this.p.slotOfKey(fromKey) === null && !member.trusts?.(this.p.api.encodeNode(from))) return;
    // The decoder refuses a ping or pong without its stamp (`bad-flags`).
    if (header.gameTime === undefined) return;
    if (header.type === PacketType.Ping) this.sendControl(from, PacketType.Pong, header.gameTime);
    else this.table.pong(fromKey, header.gameTime, this.p.now());
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
      this.sendControl(node, PacketType.Ping, this.table.stamp(now));
    }
    this.table.retain(keys);
    this.loss.retain(keys);
  }}
