/**
 * The client/server protocols. Both join over TCP with the same text lines
 * and get the player list from the server:
 * - `slotserver` (TCP 6582): game packets go peer to peer exactly as in p2p
 *   (the shared session pipeline), to the endpoints the server lists;
 * - `gameserver` (TCP 6581): game packets go to the server only (UDP port and
 *   session token from the join reply), which relays the others' to us.
 */
import { AUTO_LOOK, sameLook } from '../../shared/wire/shipLook';
import { formatMyShip, parseShipUpdate } from '../../shared/servers/shipLines';
import { platform, arch } from 'node:os';
import type { PlayerPing } from '../../shared/net/gameLink';
import type { MatchLimits } from '../../shared/game/match';
import type { CarriedConnect, LinkStats, Protocol, ProtocolContext } from '../../shared/protocol/protocol';
import { ManagedPeer, type ManagedNotice } from '../../shared/session/managedPeer';
import { NO_SLOT } from '../../shared/wire/types';
import { NETGAME_PORT } from '../../shared/servers/joinProtocol';
import { NetgameSide } from './netgameSide';
import {
  PROTOCOL_VERSION,
  REMOVE_ME,
  formatRemoveMe,
  leaveReason,
  REMOVING_YOU,
  SLOTSERVER_PORT,
  formatJoin,
  formatNewName,
  parseServerLine,
  MESSAGE_LINES,
  type Endpoint,
} from '../../shared/servers/joinProtocol';
import { GameSession } from './gameSession';
import { ServerLink } from './serverLink';
import { parseTarget, resolveConnectTarget } from './serverPick';

export { parseTarget } from './serverPick';
import { closedLine, leftLine } from './leaveWords';
import { endpointAddr, serverRoute } from './serverRoute';
import { discoverServer } from './serverDiscovery';

export const SLOTSERVER_PROTOCOL = 'slotserver';
export const GAMESERVER_PROTOCOL = 'gameserver';
export const NETGAME_PROTOCOL = 'netgame';
/** Parsec's gameserver join port. */
export const GAMESERVER_PORT = 6581;
export type ServerMode = typeof SLOTSERVER_PROTOCOL | typeof GAMESERVER_PROTOCOL | typeof NETGAME_PROTOCOL;
const TICK_MS = 10;

type Phase = 'idle' | 'connecting' | 'joining' | 'welcome' | 'joined' | 'leaving';

export class ServerClientProtocol implements Protocol {
  private peer: ManagedPeer | null = null;
  private session: GameSession<ManagedPeer> | null = null;
  private link: ServerLink | null = null;
  private stop: (() => void) | null = null;
  private phase: Phase = 'idle';
  private target: { host: string; port: number } | null = null;
  private serverName = '';
  private welcomeLeft = 0;
  /** The node that should answer every second while we are joined (the gameserver; the slotserver's time port), null: none. */
  private heartbeat: Uint8Array | null = null;
  /** In a netgame: the game's client side and the server we host (netgameSide.ts). */
  private readonly netgame: NetgameSide;
  /** Set when the server dropped us after a stall: connect again to the same server once the link is closed. */
  private rejoin = false;
  /** What the server said as it began closing (`server closing: <reason>`), until the link is gone. */
  private closingReason: string | null = null;
  /** The attempt under way was made by a protocol switch (its failure is worded by it). */
  private carried: CarriedConnect | null = null;

  constructor(
    private readonly ctx: ProtocolContext,
    readonly name: ServerMode,
    matchLimits: () => Partial<MatchLimits> = () => ({}),
  ) {
    this.netgame = new NetgameSide(ctx, matchLimits);
  }

  private get defaultPort(): number {
    return this.name === GAMESERVER_PROTOCOL ? GAMESERVER_PORT : this.name === NETGAME_PROTOCOL ? NETGAME_PORT : SLOTSERVER_PORT;
  }

  /** Game packets go to the server only (a gameserver relays them; a netgame server runs the game). */
  private get relayed(): boolean {
    return this.name !== SLOTSERVER_PROTOCOL;
  }

  async init(): Promise<void> {
    if (this.peer) return;
    const api = this.ctx.packetApi;
    const session = new GameSession(this.ctx, {
      status: () => this.status(),
      // One membership for the protocol's life: peer to peer at a slotserver; `adopt` routes it through a gameserver.
      // A gameserver pings us each second and answers time sync; a slotserver's time port answers time sync.
      server: () => (this.phase === 'welcome' || this.phase === 'joined' ? this.heartbeat : null),
      // Slotserver players send to each other directly: each proves its address to the others (a gameserver's session token does that job there).
      proveAddresses: this.name === SLOTSERVER_PROTOCOL,
      member: (transport) => {
        const member = new ManagedPeer(
          api.encodeNode(api.localNode()),
          this.ctx.game.playerName(),
          (to, packet) => transport.send(to, packet),
          (n) => this.onNotice(n),
          (name) => this.link?.send(formatNewName(name)),
          (addr) => transport.keyOf(addr),
        );
        member.onLookChange = (look) => this.link?.send(formatMyShip(look));
        return member;
      },
      // A netgame server runs the game: no ship states go to it, only the netgame messages.
      ...(this.name === NETGAME_PROTOCOL ? { noShipStates: true, extraPlayerLines: () => this.netgame.playerLines() } : {}),
      // Through a gameserver (or a netgame server) the only link is the server: if it stops acknowledging, the game is over for us.
      ...(this.relayed
        ? {
            linkFailed: (_addr: Uint8Array, reason: string) => {
              this.ended('lost', `lost contact with the ${this.name} "${this.serverName}": ${reason}; disconnecting`);
              this.disconnect();
            },
          }
        : {}),
    });
    this.session = session;
    this.peer = session.member;
    this.stop = session.start(
      { connect: (target) => this.connect(target), disconnect: () => this.disconnect() },
      `connect to a ${this.name} (default port ${this.defaultPort}; with no address, the first one answering on the LAN)`,
      TICK_MS,
    );
  }

  /** `host netgame`: a netgame server inside this game, which we join as its first player (netgameSide.ts). */
  async hostGame(): Promise<string> {
    if (this.name !== NETGAME_PROTOCOL) return `host: only a netgame can be hosted (type protocol netgame first)`;
    if (this.phase !== 'idle' && !this.netgame.hosting) return 'host: disconnect first';
    return this.netgame.host((target) => this.connect(target));
  }

  async kill(): Promise<void> {
    this.netgame.stopHosting();
    this.rejoin = false;
    if (this.phase === 'joined') this.ctx.print(`leaving ${this.name} "${this.serverName}"`);
    if (this.link?.isOpen) {
      this.link.send(formatRemoveMe(leaveReason(this.ctx.leavingFor?.() ?? '') ?? undefined));
      this.link.close();
    }
    this.link = null;
    this.netgame.left();
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
    switch (this.phase) {
      case 'joined':
        return `joined ${this.name} "${this.serverName}" at ${where} as slot ${this.peer?.slot()}, ${this.peer?.players().length ?? 0} players`;
      case 'connecting':
      case 'joining':
      case 'welcome':
        return `connecting to the ${this.name} at ${where}`;
      case 'leaving':
        return `leaving the ${this.name}`;
      default:
        return this.peer ? 'not connected (type connect host[:port])' : 'not started';
    }
  }

  linkStats(): LinkStats {
    const stats = this.session?.linkStats() ?? { pingMs: null, jitterMs: null, lossPct: null };
    const sync = this.netgame.sync();
    return sync ? { ...stats, sync } : stats;
  }

  playerPings(): PlayerPing[] {
    return this.session?.playerPings() ?? [];
  }

  connection(): { host?: string; port?: number; name?: string } | null {
    return this.phase === 'joined' && this.target ? { host: this.target.host, port: this.target.port, name: this.serverName } : null;
  }

  connect(text: string | undefined, carried?: CarriedConnect): string | null {
    if (this.phase !== 'idle') return `already ${this.phase === 'joined' ? 'connected' : 'connecting'} (disconnect first)`;
    this.carried = carried ?? null;
    const resolved = resolveConnectTarget(this.ctx, this.name, text);
    if (resolved.line) return resolved.line;
    text = resolved.target;
    if (text === undefined) return this.discoverAndConnect();
    const target = parseTarget(text, this.defaultPort);
    if (!target) return `connect: "${text}" is not host[:port]`;
    this.target = target;
    this.phase = 'connecting';
    const link = new ServerLink({
      connected: () => {
        this.phase = 'joining';
        link.send(formatJoin({ version: PROTOCOL_VERSION, name: this.ctx.game.playerName(), os: `${platform()}-${arch()}`.slice(0, 31), port: this.ctx.packetApi.localPort() }));
      },
      line: (line) => this.onLine(line),
      closed: (error) => this.onClosed(error),
    });
    this.link = link;
    link.open(target.host, target.port);
    return `connecting to the ${this.name} at ${target.host}:${target.port}…`;
  }

  /** True while a `connect` without an address is asking the LAN. */
  private discovering = false;

  /**
   * `connect` with no address: asks the LAN (udp broadcast or udp6
   * multicast), prints every server that answered, and joins the first one of
   * this protocol's kind. The answer comes about a second later; if the
   * protocol was killed or connected elsewhere meanwhile, it is dropped.
   */
  private discoverAndConnect(): string | null {
    if (this.discovering) return 'connect: already looking for servers on the LAN';
    const session = this.session;
    this.discovering = true;
    const done = (): boolean => {
      this.discovering = false;
      return this.session === session && this.phase === 'idle';
    };
    const { started, line } = discoverServer(this.ctx, {
      kind: this.name,
      stillWanted: done,
      join: (target, name) => {
        this.ctx.print(`joining ${this.name} "${name}" at ${target}`);
        const joined = this.connect(target);
        if (joined !== null) this.ctx.print(joined);
      },
      failed: (reason) => this.ended('failed', reason),
    });
    this.discovering = started;
    return line;
  }


  private disconnect(): string | null {
    if (this.netgame.hosting) {
      // Our players are told by the server's goodbye; we leave with it.
      setTimeout(() => this.netgame.stopHosting(), 200).unref();
    }
    if (this.phase === 'idle' || !this.link) return 'not connected';
    this.phase = 'leaving';
    this.rejoin = false;
    this.link.send(REMOVE_ME);
    const link = this.link;
    // Wait briefly for "removing you"; close regardless.
    setTimeout(() => link.close(), 1000).unref();
    return null;
  }

  private endpointAddr(e: Endpoint): Uint8Array | null {
    return endpointAddr(this.ctx.packetApi, e);
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
    const ship = parseShipUpdate(line);
    if (ship) {
      const addr = this.endpointAddr(ship.endpoint);
      if (addr) peer.heardLook(addr, ship.look);
      return;
    }
    const msg = parseServerLine(line);
    switch (msg.kind) {
      case 'accepted': {
        const route = serverRoute(this.ctx.packetApi, this.link?.remoteAddress, msg.accepted, this.relayed);
        if (!route) {
          this.failed(`the ${this.name} did not say where to send game packets (udp and token)`);
          this.phase = 'leaving';
          this.link?.close();
          return;
        }
        const clock = route.clock;
        session.clock.source = clock ? () => clock : null;
        this.heartbeat = clock;
        peer.adopt(msg.accepted.slot, route.relay);
        // Our chosen ship look (none: left to the slot) goes to the server, which passes it on.
        if (!sameLook(peer.ownLook(), AUTO_LOOK)) this.link?.send(formatMyShip(peer.ownLook()));
        if (this.name === NETGAME_PROTOCOL) this.netgame.joined(peer, session, msg.accepted.slot, () => this.heartbeat);
        this.serverName = msg.accepted.serverName;
        this.phase = 'welcome';
        this.welcomeLeft = MESSAGE_LINES;
        this.ctx.print(`joined ${this.name} "${this.serverName}" as slot ${msg.accepted.slot}`);
        session.deliverPlayers();
        if (this.ctx.game.autoJoin()) session.requestJoin();
        return;
      }
      case 'add': {
        const addr = this.endpointAddr(msg.add.endpoint);
        const added = addr ? peer.add(msg.add.slot, addr, msg.add.name) : null;
        if (added) this.ctx.print(`${added.name} connected (slot ${added.slot})`);
        session.deliverPlayers();
        return;
      }
      case 'remove': {
        const addr = this.endpointAddr(msg.endpoint);
        const gone = addr ? peer.remove(addr) : null;
        if (gone) this.ctx.print(leftLine(gone.name, msg.reason));
        session.deliverPlayers();
        return;
      }
      case 'name': {
        const addr = this.endpointAddr(msg.rename.endpoint);
        if (addr) peer.rename(addr, msg.rename.name);
        return;
      }
      case 'reply':
        if (msg.reply === REMOVING_YOU) {
          // Our own `remove me` (phase 'leaving') is answered so too; a server that said it is closing is gone; anything else is the server removing us.
          if (this.phase === 'leaving') this.ctx.print(`disconnected from the ${this.name}`);
          else if (this.closingReason !== null) this.ended('lost', closedLine(this.name, this.serverName, this.closingReason));
          else if (this.afterStall()) this.rejoinLater('the server removed you');
          else this.ended('lost', `disconnected from the ${this.name}: the server removed you${this.howToRejoin()}`);
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
        this.ctx.print(`${this.name}: ${line}`);
    }
  }

  private onClosed(error: string | undefined): void {
    const was = this.phase;
    const closing = this.closingReason;
    this.closingReason = null;
    this.link = null;
    this.netgame.left();
    this.phase = 'idle';
    this.heartbeat = null;
    this.peer?.leave();
    this.session?.pipeline.deliverPlayers();
    if (this.rejoin) return this.connectAgain();
    if (was === 'leaving') return;
    if (closing !== null) return this.ended('lost', closedLine(this.name, this.serverName, closing));
    if (!error) return;
    const where = this.target ? `${this.target.host}:${this.target.port}` : '?';
    if (was === 'connecting' || was === 'joining') this.failed(error);
    else if ((was === 'joined' || was === 'welcome') && this.afterStall()) {
      this.session?.serverSilence.forget();
      this.ctx.print(`lost connection to the ${this.name} at ${where} after it stopped responding: ${error}; rejoining`);
      this.connectAgain();
    } else this.ended('lost', `lost connection to the ${this.name} at ${where}: ${error}${this.howToRejoin()}`);
  }

  /** `connect` to the server we were on (the link is closed). */
  private connectAgain(): void {
    this.rejoin = false;
    const line = this.connect(this.targetText() ?? undefined);
    if (line !== null) this.ctx.print(line);
  }

  /** The server we were on as `connect` takes it (`[v6]:port`, `host:port`). */
  private targetText(): string | null {
    const t = this.target;
    return t ? `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}` : null;
  }

  /** Whether a stall excuses the removal or the lost link (serverSilence.ts): then we rejoin, once per stall. */
  private afterStall(): boolean {
    return this.session?.serverSilence.excuses(this.ctx.game.now()) ?? false;
  }

  /** Dropped after a stall: say so, and connect again to the same server once the link has closed. */
  private rejoinLater(what: string): void {
    const ms = this.session?.serverSilence.recentSilenceMs(this.ctx.game.now()) ?? null;
    this.session?.serverSilence.forget();
    this.ctx.print(`${what} after it stopped responding${ms === null ? '' : ` for ${(ms / 1000).toFixed(0)} s`}; rejoining`);
    this.rejoin = true;
  }

  /** How to get back in, for the line that ends a game. */
  private howToRejoin(): string {
    return this.target ? ` (type connect ${this.targetText()} to join again)` : '';
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
    const target = this.targetText();
    this.ctx.connectionEnded?.(outcome, line, ...(target !== null ? [target] : []));
  }

  private onNotice(n: ManagedNotice): void {
    if (n.kind === 'game-state') {
      if (n.slot === NO_SLOT) return this.netgame.receive(n.packet);
      return this.session?.pipeline.onGameState(n.slot, n.packet);
    }
    if (n.kind === 'player-timed-out') this.ctx.print(`lost connection to ${n.player.name} (slot ${n.player.slot} timed out after ${(n.silentMs / 1000).toFixed(1)} s)`);
    if (n.kind === 'player-back') this.ctx.print(`${n.player.name} is back (slot ${n.player.slot})`);
    this.session?.pipeline.deliverPlayers();
  }
}

/** The slotserver protocol (kept as a name for callers and tests). */
export class SlotserverProtocol extends ServerClientProtocol {
  constructor(ctx: ProtocolContext) {
    super(ctx, SLOTSERVER_PROTOCOL);
  }
}
