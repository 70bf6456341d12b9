/**
 * The join machine every server protocol shares (slotserver.ts, gameserver.ts,
 * netgame.ts): join over TCP with the join protocol's text lines
 * (serverLink.ts), take the slot and the `add` / `remove` / `name` lines into
 * a ManagedPeer, show the server's welcome, leave with `remove me`, find a
 * server on the LAN when `connect` names none (serverDiscovery.ts), and after
 * a stall connect to the same server again, once (serverRejoin.ts). A
 * protocol says which server it joins (its {@link ServerKind}) and adds what
 * its game needs through the hooks.
 */
import { AUTO_LOOK, sameLook } from '../../shared/wire/shipLook';
import { formatMyShip } from '../../shared/servers/shipLines';
import { platform, arch } from 'node:os';
import type { PlayerPing } from '../../shared/net/gameLink';
import type { CarriedConnect, LinkStats, Protocol, ProtocolContext } from '../../shared/protocol/protocol';
import type { ManagedPeer, ManagedNotice } from '../../shared/session/managedPeer';
import type { SessionPipeline } from '../../shared/session/pipeline';
import { NO_SLOT, type Packet, type WireAddr } from '../../shared/wire/types';
import {
  PROTOCOL_VERSION,
  REMOVE_ME,
  formatRemoveMe,
  leaveReason,
  REMOVING_YOU,
  formatJoin,
  parseServerLine,
  MESSAGE_LINES,
  type JoinAccepted,
} from '../../shared/servers/joinProtocol';
import { WATCHING_LINE, type GameSession } from './gameSession';
import { serverSession, serverStatusLine, type ServerSessionKind } from './serverSession';
import { ServerLink } from './serverLink';
import { parseTarget, resolveConnectTarget } from './serverPick';
import { closedLine, removedLine } from './leaveWords';
import { ServerRemoval } from './serverRemoval';
import { serverRoute } from './serverRoute';
import { listLine, shipLine } from './serverListLines';
import { LanLookup } from './serverDiscovery';
import { howToRejoin, RejoinPolicy, targetText, type ServerTarget } from './serverRejoin';
import { ServerJump, type JumpOrder } from './serverJump';

const TICK_MS = 10;

type Phase = 'idle' | 'connecting' | 'joining' | 'welcome' | 'joined' | 'leaving';

/** Which server a protocol joins. */
export interface ServerKind {
  /** The protocol's name, also the server kind asked for on the LAN (`slotserver`, `gameserver`, `netgame`). */
  readonly name: string;
  /** The join port when `connect` names none. */
  readonly defaultPort: number;
  /** Game packets go to the server only (a gameserver relays them; a netgame server runs the game); false: peer to peer, to the endpoints the server lists. */
  readonly relayed: boolean;
  /** Our row shows us joined only when the protocol asks (`session.requestJoin`: a netgame once its server activated us), not at the accept. */
  readonly joinsLater?: boolean;
  /** The server keeps spectator seats (`spectate:` at the join port, Starlane 1.2): `spectate` takes one; without, it joins as a player and stays unjoined. */
  readonly spectatorSeats?: boolean;
}

export type { ServerSessionKind } from './serverSession';

export abstract class ServerClientProtocol implements Protocol {
  readonly name: string;
  private peer: ManagedPeer | null = null;
  private session: GameSession<ManagedPeer> | null = null;
  private link: ServerLink | null = null;
  private stop: (() => void) | null = null;
  protected phase: Phase = 'idle';
  private target: ServerTarget | null = null;
  private serverName = '';
  private welcomeLeft = 0;
  /** The node that should answer every second while we are joined (the gameserver; the slotserver's time port), null: none. */
  private heartbeat: Uint8Array | null = null;
  /** After a stall: connect to the same server again, once (serverRejoin.ts). */
  private readonly rejoin: RejoinPolicy;
  /** `connect` with no address: the first server of our kind answering on the LAN. */
  private readonly lan: LanLookup;
  /** What the server said as it began closing (`server closing: <reason>`), until the link is gone. */
  private closingReason: string | null = null;
  /** The attempt under way was made by a protocol switch (its failure is worded by it). */
  private carried: CarriedConnect | null = null;
  /** Why the server removed us (its `removed: …` line), until we know how the game ends. */
  private readonly removal: ServerRemoval;
  /** What the connection under way asks the server for: a player's seat, or a spectator's (`spectate`). */
  private seat: 'player' | 'spectator' = 'player';
  /** Through a stargate to another server of a universe (the gameserver's `jumpTicket`; serverJump.ts). */
  private readonly jump: ServerJump;

  protected constructor(
    protected readonly ctx: ProtocolContext,
    private readonly kind: ServerKind,
  ) {
    this.name = kind.name;
    this.removal = new ServerRemoval(kind.name, (line) => ctx.print(line));
    this.rejoin = new RejoinPolicy(ctx, () => this.session?.serverSilence);
    this.lan = new LanLookup(ctx, kind.name);
    this.jump = new ServerJump(kind.name, (line) => ctx.print(line));
  }

  /** What the protocol changes in the session; nothing here. */
  protected sessionKind(): ServerSessionKind {
    return {};
  }

  /** The server gave us slot `slot` (`server`: the node we hear it from, null: none). */
  protected seated(_peer: ManagedPeer, _session: SessionPipeline<ManagedPeer>, _slot: number, _server: () => WireAddr | null): void {}

  /** Whether to join once the game lets us: cl_autojoin, unless this connection only watches (`spectate`). */
  protected autoJoin(): boolean {
    return this.session?.autoJoin() ?? false;
  }

    /** A game state from the server itself (no slot): only a netgame server sends them. */
  protected fromServer(_packet: Packet): void {}

  /** The game at the server is over: left, lost or the protocol killed. */
  protected leftServer(): void {}

  async init(): Promise<void> {
    if (this.peer) return;
    const session = serverSession(
      this.ctx,
      {
        name: this.name,
        relayed: this.kind.relayed,
        status: () => this.status(),
        heartbeat: () => (this.phase === 'welcome' || this.phase === 'joined' ? this.heartbeat : null),
        notice: (n) => this.onNotice(n),
        sendLine: (line) => this.link?.send(line),
        jumpOrdered: (order) => this.jumpTo(order),
        fromServer: (packet) => this.fromServer(packet),
        lost: (reason) => {
          this.ended('lost', `lost contact with the ${this.name} "${this.serverName}": ${reason}; disconnecting`);
          this.disconnect();
        },
      },
      this.sessionKind(),
    );
    this.session = session;
    this.peer = session.member;
    this.stop = session.start(
      { connect: (target) => this.connect(target), disconnect: () => this.disconnect() },
      `connect to a ${this.name} (default port ${this.kind.defaultPort}; with no address, the first one answering on the LAN)`,
      TICK_MS,
    );
  }

  /** `host netgame`: only a netgame can be hosted (netgame.ts). */
  async hostGame(): Promise<string> {
    return `host: only a netgame can be hosted (type protocol netgame first)`;
  }

  async kill(): Promise<void> {
    this.rejoin.pending = false;
    if (this.phase === 'joined') this.ctx.print(`leaving ${this.name} "${this.serverName}"`);
    if (this.link?.isOpen) {
      this.link.send(formatRemoveMe(leaveReason(this.ctx.leavingFor?.() ?? '') ?? undefined));
      this.link.close();
    }
    this.link = null;
    this.leftServer();
    this.phase = 'idle';
    this.peer?.leave();
    this.stop?.();
    this.stop = null;
    this.session?.pipeline.reset();
    this.peer = null;
    this.session = null;
  }

  status(): string {
    const where = this.target ? `${this.target.host}:${this.target.port}` : '';
    const players = this.peer?.players().length ?? 0;
    return serverStatusLine({ name: this.name, phase: this.phase, where, serverName: this.serverName, slot: this.peer?.slot(), players, solarSystem: this.session?.solarSystem ?? null, started: this.peer !== null });
  }

  linkStats(): LinkStats {
    return this.session?.linkStats() ?? { pingMs: null, jitterMs: null, lossPct: null };
  }

  playerPings(): PlayerPing[] {
    return this.session?.playerPings() ?? [];
  }

  connection(): { host?: string; port?: number; name?: string } | null {
    return this.phase === 'joined' && this.target ? { host: this.target.host, port: this.target.port, name: this.serverName } : null;
  }

  connect(text: string | undefined, carried?: CarriedConnect): string | null {
    if (this.phase !== 'idle') return `already ${this.phase === 'joined' ? 'connected' : 'connecting'} (disconnect first)`;
    this.seat = 'player';
    if (this.session) this.session.watchOnly = false;
    return this.open(text, carried);
  }

  /**
   * `spectate`: watches the server's game. A server with spectator seats
   * gives one (no slot, no ship: a seat apart from the players'); any other
   * is joined as a player who stays connected but not joined.
   */
  spectate(text: string | undefined): string | null {
    if (this.phase !== 'idle') return `already ${this.phase === 'joined' ? 'connected' : 'connecting'} (disconnect first)`;
    this.seat = this.kind.spectatorSeats ? 'spectator' : 'player';
    if (this.session) this.session.watchOnly = true;
    return this.open(text);
  }

  /** Connects to `text` (or the first server of our kind on the LAN) for the seat asked for. */
  private open(text: string | undefined, carried?: CarriedConnect): string | null {
    this.carried = carried ?? null;
    const resolved = resolveConnectTarget(this.ctx, this.name, text);
    if (resolved.line) return resolved.line;
    text = resolved.target;
    if (text === undefined) return this.discoverAndConnect();
    const target = parseTarget(text, this.kind.defaultPort);
    if (!target) return `connect: "${text}" is not host[:port]`;
    this.target = target;
    this.phase = 'connecting';
    const link = new ServerLink({
      connected: () => {
        this.phase = 'joining';
        const spectate = this.seat === 'spectator' ? { spectate: true as const } : {};
        link.send(formatJoin({ version: PROTOCOL_VERSION, name: this.ctx.game.playerName(), os: `${platform()}-${arch()}`.slice(0, 31), port: this.ctx.packetApi.localPort(), ...spectate, ...this.jump.joinField() }));
      },
      line: (line) => this.onLine(line),
      closed: (error) => this.onClosed(error),
    });
    this.link = link;
    link.open(target.host, target.port);
    return `connecting to the ${this.name} at ${target.host}:${target.port}${this.session?.watchOnly ? ' to watch' : ''}…`;
  }

  /** `connect` with no address: asks the LAN and joins the first server of our kind that answers, if we are still idle then. */
  private discoverAndConnect(): string | null {
    const session = this.session;
    return this.lan.start({
      stillWanted: () => this.session === session && this.phase === 'idle',
      join: (target, name) => {
        this.ctx.print(`joining ${this.name} "${name}" at ${target}`);
        const joined = this.open(target);
        if (joined !== null) this.ctx.print(joined);
      },
      failed: (reason) => this.ended('failed', reason),
    });
  }

  protected disconnect(): string | null {
    if (this.phase === 'idle' || !this.link) return 'not connected';
    this.phase = 'leaving';
    this.rejoin.pending = false;
    this.link.send(REMOVE_ME);
    const link = this.link;
    // Wait briefly for "removing you"; close regardless.
    setTimeout(() => link.close(), 1000).unref();
    return null;
  }

  private onLine(line: string): void {
    const peer = this.peer;
    const session = this.session?.pipeline;
    if (!peer || !session) return;
    if (this.phase === 'welcome' && this.welcomeLeft > 0) {
      this.welcomeLeft -= 1;
      if (line.trim()) {
        this.ctx.print(`${this.serverName}: ${line}`);
        // Shown on the HUD with the chat, under the server's name.
        this.ctx.game.deliver({ kind: 'chat', slot: NO_SLOT, from: this.serverName, text: line });
      }
      if (this.welcomeLeft === 0) this.phase = 'joined';
      return;
    }
    // The far side of a stargate would not take our ticket: back to the server we came from.
    if (this.phase === 'joining' && this.jump.refused(line)) {
      this.phase = 'leaving';
      this.link?.close();
      return;
    }
    const list = { peer, api: this.ctx.packetApi, print: (l: string) => this.ctx.print(l), playersChanged: () => session.deliverPlayers() };
    if (shipLine(line, list)) return;
    const msg = parseServerLine(line);
    if (listLine(msg, list)) return;
    switch (msg.kind) {
      case 'accepted': {
        this.jump.seated();
        if (!this.takeSeat(peer, session, msg.accepted, this.kind.relayed)) return;
        // Our chosen ship look (none: left to the slot) goes to the server, which passes it on.
        if (!sameLook(peer.ownLook(), AUTO_LOOK)) this.link?.send(formatMyShip(peer.ownLook()));
        this.ctx.print(`joined ${this.name} "${this.serverName}" as slot ${msg.accepted.slot}`);
        session.deliverPlayers();
        if (!this.kind.joinsLater && this.session?.autoJoin()) session.requestJoin();
        else if (this.session?.watchOnly) this.ctx.print(WATCHING_LINE);
        return;
      }
      case 'spectating': {
        // No slot of our own; a netgame's client side runs for a spectator too: it holds the state and steps the moves.
        if (!this.takeSeat(peer, session, { ...msg.accepted, slot: NO_SLOT }, true)) return;
        this.ctx.print(`spectating ${this.name} "${this.serverName}" (fire follows the next player, the missile key the previous; camera free flies the camera)`);
        session.deliverPlayers();
        return;
      }
      case 'reply':
        if (msg.reply === REMOVING_YOU) {
          // Our own `remove me` (phase 'leaving') is answered so too; a server that said it is closing is gone; anything else is the server removing us
          // (the reason it gave in a `removed: …` line ends the line that says so; when the game ends otherwise, that reason is printed as it came).
          if (this.phase === 'leaving' || this.closingReason !== null || this.rejoin.afterStall()) this.removal.flush();
          if (this.phase === 'leaving') this.ctx.print(`disconnected from the ${this.name}`);
          else if (this.closingReason !== null) this.ended('lost', closedLine(this.name, this.serverName, this.closingReason));
          else if (this.rejoin.afterStall()) this.rejoin.later('the server removed you');
          else this.ended('lost', removedLine(this.name, this.removal.take(), howToRejoin(this.target)));
          this.phase = 'leaving';
          this.link?.close();
        } else if (this.phase === 'joining') {
          this.failed(msg.reply);
          this.phase = 'leaving';
          this.link?.close();
        } else {
          this.ctx.print(`${this.name}: ${msg.reply}`);
        }
        return;
      case 'closing':
        // Said once, with the `removing you` that follows (or the link closing).
        this.closingReason = msg.reason;
        return;
      case 'text':
        if (this.phase !== 'joining' && this.removal.heard(line)) return;
        this.ctx.print(`${this.name}: ${line}`);
    }
  }

  /**
   * The server gave us a seat (`accepted.slot`; NO_SLOT: a spectator's): where game packets go and
   * the clock comes from, the seat adopted, the protocol told, the welcome lines next. False
   * (and the link closing) when the accept did not say where to send.
   */
  private takeSeat(peer: ManagedPeer, session: SessionPipeline<ManagedPeer>, accepted: JoinAccepted, relayed: boolean): boolean {
    const route = serverRoute(this.ctx.packetApi, this.link?.remoteAddress, accepted, relayed);
    if (!route) {
      this.failed(`the ${this.name} did not say where to send game packets (udp and token)`);
      this.phase = 'leaving';
      this.link?.close();
      return false;
    }
    const clock = route.clock;
    session.clock.source = clock ? () => clock : null;
    this.heartbeat = clock;
    peer.adopt(accepted.slot, route.relay);
    this.seated(peer, session, accepted.slot, () => this.heartbeat);
    this.serverName = accepted.serverName;
    this.phase = 'welcome';
    this.welcomeLeft = MESSAGE_LINES;
    return true;
  }

  private onClosed(error: string | undefined): void {
    this.removal.flush();
    const was = this.phase;
    const closing = this.closingReason;
    this.closingReason = null;
    this.link = null;
    this.leftServer();
    this.phase = 'idle';
    this.heartbeat = null;
    this.peer?.leave();
    this.session?.pipeline.deliverPlayers();
    const next = this.jump.closed(targetText(this.target));
    if (next?.kind === 'arrive') return this.arrive(next.order);
    if (next?.kind === 'back') {
      const line = this.connect(next.target);
      return line === null ? undefined : this.ctx.print(line);
    }
    if (this.rejoin.pending) return this.connectAgain();
    if (was === 'leaving') return;
    if (closing !== null) return this.ended('lost', closedLine(this.name, this.serverName, closing));
    if (!error) return;
    const where = this.target ? `${this.target.host}:${this.target.port}` : '?';
    if (was === 'connecting' || was === 'joining') this.failed(error);
    else if ((was === 'joined' || was === 'welcome') && this.rejoin.afterStall()) {
      this.rejoin.forget();
      this.ctx.print(`lost connection to the ${this.name} at ${where} after it stopped responding: ${error}; rejoining`);
      this.connectAgain();
    } else this.ended('lost', `lost connection to the ${this.name} at ${where}: ${error}${howToRejoin(this.target)}`);
  }

  /**
   * The gameserver sends our ship through a stargate to another server of its universe: we leave (the
   * others read `jumped to <system>`) and, once the link is closed, join there with the ticket (`arrive`).
   */
  private jumpTo(order: JumpOrder): void {
    if (this.phase !== 'joined' || !this.kind.relayed || this.session?.watchOnly || this.jump.underWay) return;
    this.jump.take(order);
    this.phase = 'leaving';
    this.rejoin.pending = false;
    this.link?.send(formatRemoveMe(leaveReason(`jumped to ${order.system}`) ?? undefined));
    this.link?.close();
  }

  /** Joins the far side of the stargate with the ticket; the clock carries over (the servers of a universe share a time reference). */
  private arrive(order: JumpOrder): void {
    this.session?.pipeline.clock.carryOver(order.clockShift);
    const line = this.connect(ServerJump.address(order));
    if (line !== null) this.ctx.print(line);
  }

  /** `connect` to the server we were on (the link is closed). */
  private connectAgain(): void {
    this.rejoin.pending = false;
    const line = this.connect(targetText(this.target) ?? undefined);
    if (line !== null) this.ctx.print(line);
  }

  /** A connect attempt ended without a game: one line, worded by the protocol switch that made the attempt, if one did. */
  private failed(reason: string): void {
    const carried = this.carried;
    this.carried = null;
    this.ended('failed', carried ? carried.failed(reason) : `connect failed: ${reason}`);
  }

  /** Prints `line` and tells the context the attempt or the game is over (a bot exits on it). */
  private ended(outcome: 'failed' | 'lost', line: string): void {
    this.ctx.print(line);
    const target = targetText(this.target);
    this.ctx.connectionEnded?.(outcome, line, ...(target !== null ? [target] : []));
  }

  private onNotice(n: ManagedNotice): void {
    if (n.kind === 'player-timed-out') this.ctx.print(`lost connection to ${n.player.name} (slot ${n.player.slot} timed out after ${(n.silentMs / 1000).toFixed(1)} s)`);
    if (n.kind === 'player-back') this.ctx.print(`${n.player.name} is back (slot ${n.player.slot})`);
    this.session?.pipeline.deliverPlayers();
  }
}
