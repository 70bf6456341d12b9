/**
 * The membership of a gameserver game: like a slotserver game the server
 * runs the slot table, but every packet goes to the server only (with the
 * session token from the TCP join) and the others' states come back bundled
 * in Relay packets, which are unpacked here and filtered per player.
 */
import { addrEquals } from '../wire/addr';
import { PacketType, type Packet, type WireAddr } from '../wire/types';
import { ManagedPeer, type ManagedNotice } from './managedPeer';

export class RelayPeer extends ManagedPeer {
  constructor(
    self: WireAddr,
    name: string,
    send: (to: WireAddr, packet: Packet) => void,
    notify: (n: ManagedNotice) => void,
    onRename: (name: string) => void,
    /** The gameserver's UDP address and our session token. */
    private readonly server: WireAddr,
    private readonly token: number,
  ) {
    super(self, name, send, notify, onRename);
  }

  /** Only the server is heard; each relayed player packet counts as that player's own. */
  override receive(from: WireAddr, packet: Packet, now: number): void {
    if (this.state !== 'connected' || !addrEquals(from, this.server) || packet.header.type !== PacketType.Relay) return;
    for (const event of packet.events) {
      if (event.type !== 'relayed' || event.slot === this.mySlot) continue;
      const entry = this.table.get(event.slot);
      if (!entry) continue;
      // Keyed by slot: the players' own addresses never reach us in this mode.
      if (event.packet.header.joined) this.accept(entry, `slot:${event.slot}`, event.packet, now);
      // The server sends a player's events without a fresh state (chat beyond the filter radius,
      // events that waited a tick) as joined = 0 with its newest id: not a new state, not an unjoin.
      else if (event.packet.events.length > 0) this.notify({ kind: 'game-state', slot: event.slot, packet: event.packet });
    }
  }

  override trusts(from: WireAddr): boolean {
    return addrEquals(from, this.server);
  }

  /** Reliable messages go to the server, which acknowledges them and sends them on to the others itself. */
  linkTargets(): WireAddr[] {
    return [this.server];
  }

  get sessionToken(): number {
    return this.token;
  }

  /** Everything goes to the server, carrying the session token. */
  protected override toOthers(packet: Packet): void {
    this.send(this.server, { ...packet, header: { ...packet.header, token: this.token } });
  }
}
