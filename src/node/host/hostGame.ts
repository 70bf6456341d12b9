/**
 * The game as the host's protocols see it (ProtocolGame), fed by the
 * renderer's per-frame reports: the latest local ship, the game-code
 * interface queue, and deliveries back to the renderer as `net` events —
 * remembered as a {@link NetPicture} for pages that attach later.
 */
import { GameCodeInterface } from '../../shared/net/gameCode';
import type { LocalGameUpdate, NetDelivery } from '../../shared/net/gameLink';
import type { ProtocolGame } from '../../shared/net/protocol';
import type { ShipState } from '../../shared/wire/types';
import { NetPicture } from '../../shared/net/netPicture';

export interface HostGameOptions {
  playerName(): string;
  sendFrequency(): number;
  autoJoin(): boolean;
  deliver(delivery: NetDelivery): void;
  now?: () => number;
}

export class HostGame implements ProtocolGame {
  readonly events = new GameCodeInterface();
  private ship: ShipState | null = null;
  private lastShip: ShipState | null = null;
  private lastTick = -1;
  private readonly picture = new NetPicture();

  constructor(private readonly options: HostGameOptions) {}

  /**
   * Takes one frame's report. Updates older than the last one seen (a
   * reordered or replayed batch) are ignored; events become remote events.
   */
  update(update: LocalGameUpdate): void {
    if (update.tick < this.lastTick) return;
    this.lastTick = update.tick;
    this.ship = update.ship;
    if (update.ship) this.lastShip = update.ship;
    const now = this.now();
    for (const e of update.events) {
      if (e.type === 'laser') this.events.createLaser(e.localId, e.pos, e.vel, e.ttl, now);
      else this.events.killOwnShip(e.killerSlot, now);
    }
  }

  /**
   * A page (re)attached: its game starts again from tick 0, so the frames it
   * reports are taken from now on, not ignored as older than the last page's.
   * Returns what that page must be told to see the network as it stands.
   */
  pageAttached(): NetDelivery[] {
    this.lastTick = -1;
    return this.picture.replay(this.now());
  }

  /** While the ship is destroyed the last state goes out with damage 100, so peers keep it where it died. */
  localShip(): ShipState | null {
    if (this.ship) return this.ship;
    return this.lastShip ? { ...this.lastShip, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, damage: 100 } : null;
  }

  deliver(delivery: NetDelivery): void {
    this.picture.record(delivery, this.now());
    this.options.deliver(delivery);
  }

  playerName(): string {
    return this.options.playerName();
  }

  sendFrequency(): number {
    return this.options.sendFrequency();
  }

  autoJoin(): boolean {
    return this.options.autoJoin();
  }

  now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }
}
