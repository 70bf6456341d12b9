/**
 * The slot table as this page shows it: who plays in which slot, which one
 * is us, and the network's one-line status, from the host's `net`
 * deliveries. The ships themselves arrive in the host's world views.
 */
import type { NetDelivery, NetPlayer } from '../../../shared/net/gameLink';

export class PlayerTable {
  private table: NetPlayer[] = [];
  private local: number | null = null;
  private statusText = '';
  private watchingNow = false;

  constructor(
    private readonly sinks: {
      /** A chat line arrived. */
      chat(from: string, text: string): void;
      /** The slot table or connection status changed. */
      playersChanged(): void;
    },
  ) {}

  /** The slot table as last delivered (slot order). */
  get players(): readonly NetPlayer[] {
    return this.table;
  }
  /** Our slot, or null while we have none. */
  get localSlot(): number | null {
    return this.local;
  }
  /** The table is a watcher's (a spectator, a player not joined, a demo): the local slot is the player followed, not us. */
  get watching(): boolean {
    return this.watchingNow;
  }
  /** The network's one-line connection status. */
  get status(): string {
    return this.statusText;
  }

  /** The name to print for `slot` ("slot N" if the table does not know it). */
  nameOf(slot: number): string {
    return this.table.find((p) => p.slot === slot)?.name ?? `slot ${slot}`;
  }

  /** Applies one delivery from the host. */
  handle(d: NetDelivery): void {
    if (d.kind === 'players') {
      this.table = [...d.players].sort((a, b) => a.slot - b.slot);
      this.local = d.localSlot;
      this.statusText = d.status;
      this.watchingNow = d.watching === true;
      this.sinks.playersChanged();
    } else if (d.kind === 'chat') {
      this.sinks.chat(d.from, d.text);
    }
  }
}
