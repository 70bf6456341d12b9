/**
 * The netgame protocol: joins a netgame server as a gameserver client joins
 * its server (game packets to the server only; the join itself is
 * serverClient.ts), but the server runs the game: no ship states go to it,
 * only the netgame messages, and the game's client side runs from the join
 * on. `host netgame` starts a netgame server inside this game and joins it
 * (netgameSide.ts).
 */
import type { MatchLimits } from '../../shared/game/match';
import type { LinkStats, ProtocolContext } from '../../shared/protocol/protocol';
import { NETGAME_PORT } from '../../shared/servers/joinProtocol';
import type { ManagedPeer } from '../../shared/session/managedPeer';
import type { SessionPipeline } from '../../shared/session/pipeline';
import type { Packet, WireAddr } from '../../shared/wire/types';
import { NetgameSide } from './netgameSide';
import { ServerClientProtocol, type ServerSessionKind } from './serverClient';

export const NETGAME_PROTOCOL = 'netgame';

export class NetgameProtocol extends ServerClientProtocol {
  /** The game's client side and the server we host (netgameSide.ts). */
  private readonly netgame: NetgameSide;

  /** `matchLimits`: the kill and time limits of a netgame we host. */
  constructor(ctx: ProtocolContext, matchLimits: () => Partial<MatchLimits> = () => ({})) {
    // Our row shows us joined once the server has activated us (the sync gate), not at the accept: netgameSide.ts.
    super(ctx, { name: NETGAME_PROTOCOL, defaultPort: NETGAME_PORT, relayed: true, joinsLater: true, spectatorSeats: true });
    this.netgame = new NetgameSide(ctx, matchLimits);
  }

  protected override sessionKind(): ServerSessionKind {
    // A netgame server runs the game: no ship states go to it, only the netgame messages.
    return { noShipStates: true, extraPlayerLines: () => this.netgame.playerLines() };
  }

  /** `host netgame`: a netgame server inside this game, which we join as its first player (netgameSide.ts). */
  override async hostGame(): Promise<string> {
    if (this.phase !== 'idle' && !this.netgame.hosting) return 'host: disconnect first';
    return this.netgame.host((target) => this.connect(target));
  }

  override async kill(): Promise<void> {
    this.netgame.stopHosting();
    return super.kill();
  }

  override linkStats(): LinkStats {
    const stats = super.linkStats();
    const sync = this.netgame.sync();
    return sync ? { ...stats, sync } : stats;
  }

  protected override disconnect(): string | null {
    if (this.netgame.hosting) {
      // Our players are told by the server's goodbye; we leave with it.
      setTimeout(() => this.netgame.stopHosting(), 200).unref();
    }
    return super.disconnect();
  }

  protected override seated(peer: ManagedPeer, session: SessionPipeline<ManagedPeer>, slot: number, server: () => WireAddr | null): void {
    this.netgame.joined(peer, session, slot, server, () => this.autoJoin());
  }

  protected override fromServer(packet: Packet): void {
    this.netgame.receive(packet);
  }

  protected override leftServer(): void {
    this.netgame.left();
  }
}
