/**
 * What the netgame protocol (netgame.ts) adds to the server join:
 * the game's client side from the join on (netgameLink.ts), and the netgame
 * server this game hosts (`host netgame`, netgameHost.ts), closed when we
 * leave.
 */
import type { MatchLimits } from '../../shared/game/match';
import type { ManagedPeer } from '../../shared/session/managedPeer';
import type { ProtocolContext } from '../../shared/protocol/protocol';
import type { SessionPipeline } from '../../shared/session/pipeline';
import type { Packet, WireAddr } from '../../shared/wire/types';
import type { RunningNetgameServer } from '../servers/netgame/netgameServer';
import { startHostedNetgame } from './netgameHost';
import { NetgameLink } from './netgameLink';

export class NetgameSide {
  private link: NetgameLink | null = null;
  private hosted: RunningNetgameServer | null = null;

  /** `matchLimits`: the kill and time limits of a netgame we host (the `killlimit` and `timelimit` cvars). */
  constructor(
    private readonly ctx: ProtocolContext,
    private readonly matchLimits: () => Partial<MatchLimits>,
  ) {}

  /** We have a seat (slot `slot`) at the netgame server `server`: the game's client side starts. */
  joined(peer: ManagedPeer, session: SessionPipeline<ManagedPeer>, slot: number, server: () => WireAddr | null, autoJoin: () => boolean): void {
    this.link?.close();
    const now = () => this.ctx.game.now();
    this.link = new NetgameLink(this.ctx, {
      // The netgame's messages carry no ship state and no game time: their frames are their clock (wire v10).
      send: (events) => peer.sendGameState(now(), {}, events),
      roster: (slots) => {
        if (peer.markJoined(slots)) session.deliverPlayers();
      },
      nameOf: (s) => session.nameOf(s),
      rttMs: () => session.playerPings(server()).find((p) => p.slot === slot)?.ms ?? null,
      // Our own row shows us playing once our ship is in the game, not at the join (the sync gate).
      activated: () => {
        if (autoJoin()) session.requestJoin();
      },
    });
  }

  /** The server's messages (the outer events of its Relay packets). */
  receive(packet: Packet): void {
    this.link?.receive(packet);
  }

  /** The game left (disconnect, lost, protocol switch): the shared state no longer runs it. */
  left(): void {
    this.link?.close();
    this.link = null;
  }

  /** The figures for `players` (empty when not in a netgame). */
  playerLines(): string[] {
    return this.link ? [`netgame: ${this.link.summary()}`] : [];
  }

  /** The figures for the net graph, or undefined. */
  sync(): string | undefined {
    return this.link ? `netgame ${this.link.summary()}` : undefined;
  }

  /** Whether we host a netgame server now. */
  get hosting(): boolean {
    return this.hosted !== null;
  }

  /** `host netgame`: starts the server and joins it through `connect`; resolves with the console line. */
  async host(connect: (target: string) => string | null): Promise<string> {
    if (this.hosted) return `already hosting a netgame on tcp ${this.hosted.ports.tcp}`;
    const { server, name, moved } = await startHostedNetgame(this.ctx.game.playerName(), this.matchLimits());
    this.hosted = server;
    const line = connect(`127.0.0.1:${server.ports.tcp}`);
    if (line !== null) this.ctx.print(line);
    return `hosting netgame "${name}" on tcp ${server.ports.tcp}, udp ${server.ports.udp}${moved}: others join with protocol netgame, then connect <this machine's address>:${server.ports.tcp} (or connect, to find it on the LAN)`;
  }

  /** Closes the netgame server we host, telling its players. */
  stopHosting(): void {
    const hosted = this.hosted;
    this.hosted = null;
    if (hosted) void hosted.close('its host left the game');
  }
}
