/**
 * The `p2p` protocol: Parsec's peer-to-peer game on a LAN. The start-up
 * and slot table live in the pure core (src/shared/p2p); the shared
 * GameSession sends and receives the game (its connection per node numbers
 * and admits every datagram); this adapter adds LAN broadcast, the timer,
 * the console commands and the p2p notices.
 */
import { leftLine } from './leaveWords';
import type { PlayerPing } from '../../shared/net/gameLink';
import type { LinkStats, Protocol, ProtocolContext } from '../../shared/protocol/protocol';
import { CLIENT_PORT_FALLBACK_RANGE } from '../../shared/net/packetApi';
import { P2pPeer, type P2pConfig, type P2pNotice } from '../../shared/p2p';
import { GameSession, type GameSessionOptions, WATCHING_LINE } from './gameSession';
import { resolveConnectTarget } from './serverPick';

export const P2P_PROTOCOL = 'p2p';
/** How often the core's timers run. */
const TICK_MS = 10;

export class P2pProtocol implements Protocol {
  readonly name: string = P2P_PROTOCOL;
  protected peer: P2pPeer | null = null;
  protected session: GameSession<P2pPeer> | null = null;
  private stop: (() => void) | null = null;

  /** `config` is read at each init and at each connect, so a changed setting (net_maxplayers) applies to the next game. */
  constructor(
    protected readonly ctx: ProtocolContext,
    private readonly config: () => Partial<P2pConfig> = () => ({}),
  ) {}

  /** What a lockstep game changes in the session (see LockstepProtocol); nothing here. */
  protected sessionKind(): Pick<GameSessionOptions<P2pPeer>, 'lockstep' | 'extraPlayerLines' | 'takeGameState'> & { p2p?: Partial<P2pConfig> } {
    return {};
  }

  /** The slot table changed (after the game view heard it). */
  protected tableChanged(): void {}

  /** The session is up (after init) or about to go (before kill). */
  protected started(): void {}
  protected stopping(): void {}

  /** Received datagrams the codec refused, by reason (empty before init). */
  get drops(): Record<string, number> {
    return this.session?.pipeline.drops.snapshot() ?? {};
  }

  async init(): Promise<void> {
    if (this.peer) return;
    const game = this.ctx.game;
    const kind = this.sessionKind();
    const session = new GameSession(this.ctx, {
      status: () => this.status(),
      proveAddresses: true,
      ...(kind.lockstep ? { lockstep: true } : {}),
      ...(kind.extraPlayerLines ? { extraPlayerLines: kind.extraPlayerLines } : {}),
      ...(kind.takeGameState ? { takeGameState: kind.takeGameState } : {}),
      member: (transport) =>
        new P2pPeer(
          this.ctx.packetApi.encodeNode(this.ctx.packetApi.localNode()),
          game.playerName(),
          {
            send: (to, packet) => transport.send(to, packet),
            broadcast: (packet) => transport.broadcast(packet, (bytes) => this.broadcast(bytes)),
            keyOf: (addr) => transport.keyOf(addr),
            proven: (addr) => transport.proven(addr),
          },
          (notice) => this.onNotice(notice),
          this.peerConfig(),
        ),
    });
    this.session = session;
    this.peer = session.member;
    this.stop = session.start({ connect: (target) => this.connect(target), disconnect: () => this.disconnect() }, undefined, TICK_MS);
    this.started();
  }

  /** The settings' p2p config with what this kind of game adds. */
  private peerConfig(): Partial<P2pConfig> {
    return { ...this.config(), ...this.sessionKind().p2p };
  }

  async kill(): Promise<void> {
    if (this.peer) this.stopping();
    const peer = this.peer;
    if (peer && peer.state !== 'idle') {
      if (peer.state === 'connected') this.ctx.print('leaving the peer-to-peer game');
      // Best effort: the packet API may already be swapped or gone.
      try {
        peer.disconnect(this.ctx.game.now(), this.ctx.leavingFor?.() ?? undefined);
      } catch {
        /* nothing left to tell */
      }
    }
    this.stop?.();
    this.stop = null;
    this.session?.pipeline.reset();
    this.peer = null;
    this.session = null;
  }

  linkStats(): LinkStats {
    return this.session?.linkStats() ?? { pingMs: null, jitterMs: null, lossPct: null };
  }

  playerPings(): PlayerPing[] {
    return this.session?.playerPings() ?? [];
  }

  status(): string {
    const peer = this.peer;
    if (!peer) return 'not started';
    const n = peer.players().length;
    switch (peer.state) {
      case 'connected':
        return `connected as slot ${peer.slot()}, ${n} player${n === 1 ? '' : 's'}`;
      case 'connecting':
      case 'slave':
        return 'looking for a game on the LAN';
      case 'failed':
        return 'not connected (last attempt failed)';
      default:
        return 'not connected (type connect)';
    }
  }

  connection(): { host?: string; port?: number } | null {
    return this.peer?.state === 'connected' ? {} : null;
  }

  connect(target?: string): string {
    if (this.session && this.peer?.state === 'idle') this.session.watchOnly = false;
    return this.lookForGame(target);
  }

  /** `spectate`: finds the game as `connect` does, and watches it connected but not joined. */
  spectate(target?: string): string {
    if (this.session && this.peer?.state === 'idle') this.session.watchOnly = true;
    return this.lookForGame(target);
  }

  private lookForGame(target?: string): string {
    const peer = this.peer;
    if (!peer) return 'p2p is not running';
    const resolved = resolveConnectTarget(this.ctx, this.name, target);
    if (resolved.line) return resolved.line;
    if (resolved.target !== undefined) this.ctx.print(`connect: the peer-to-peer protocol finds games by LAN broadcast; the address "${resolved.target}" is not used`);
    if (peer.state === 'connected') return `already connected as slot ${peer.slot()}`;
    if (peer.state === 'connecting' || peer.state === 'slave') return 'already looking for a game';
    try {
      peer.connect(this.ctx.game.now(), this.peerConfig());
    } catch (err) {
      return `connect: ${err instanceof Error ? err.message : String(err)}`;
    }
    return 'looking for a peer-to-peer game on the LAN…';
  }

  protected disconnect(): string {
    const peer = this.peer;
    if (!peer || peer.state === 'idle') return 'not connected';
    peer.disconnect(this.ctx.game.now());
    this.ctx.game.events.clear();
    return 'disconnected';
  }

  /** LAN broadcast to the discovery port and the ports above it, so a second instance on one machine hears it too. */
  private broadcast(bytes: Uint8Array): void {
    for (let i = 0; i <= CLIENT_PORT_FALLBACK_RANGE; i++) {
      const port = this.ctx.discoveryPort + i;
      if (port > 65535) break;
      try {
        this.ctx.packetApi.broadcast(port, bytes);
      } catch {
        /* counted by the packet API; discovery retries on its own schedule */
      }
    }
  }

  private onNotice(n: P2pNotice): void {
    const session = this.session?.pipeline;
    const game = this.ctx.game;
    if (!session) return;
    switch (n.kind) {
      case 'connected':
        this.ctx.print(`connected to the peer-to-peer game as slot ${n.slot} (${n.players.length} player${n.players.length === 1 ? '' : 's'})`);
        session.deliverPlayers();
        if (this.session?.autoJoin()) session.requestJoin();
        else if (this.session?.watchOnly) this.ctx.print(WATCHING_LINE);
        break;
      case 'failed':
        this.ctx.print(`connect failed: ${n.message}`);
        session.deliverPlayers();
        this.ctx.connectionEnded?.('failed', n.message);
        break;
      case 'player-added':
        this.ctx.print(`${n.player.name} connected (slot ${n.player.slot})`);
        session.deliverPlayers();
        break;
      case 'player-removed':
        this.ctx.print(n.reason === 'timeout' ? `lost connection to ${n.player.name} (slot ${n.player.slot} timed out)` : leftLine(n.player.name, n.why ?? 'left'));
        session.deliverPlayers();
        break;
      case 'renamed':
        this.ctx.print(`${n.holder.name} (slot ${n.holder.slot}) already has the name ${n.wanted} in this game: you play as ${n.name} here (type name <new name> to choose another)`);
        session.deliverPlayers();
        // The reliable name message reaches everyone even if the NodeAlive carrying it is lost (queued once the table says we are connected).
        game.events.playerName(n.name, game.now());
        break;
      case 'player-changed':
      case 'disconnected':
        session.deliverPlayers();
        break;
    }
    this.tableChanged();
  }
}
