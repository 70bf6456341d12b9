/**
 * The Node side of a client game session (p2p, slotserver and gameserver
 * clients): the pure {@link SessionPipeline} (src/shared/session) on the
 * packet API table, driven by a timer, with its notices turned into console
 * text and the console commands join, unjoin, say and players (connect and
 * disconnect come from the protocol). Nothing here decides anything about
 * the game or the wire.
 *
 * A stall of this process itself (stopped, suspended, starved: its timer
 * runs late by {@link OWN_STALL_MS} or more) is not the server's silence:
 * the watch on the server starts again, so the player is not told the
 * server stopped responding, and a removal that follows is not excused as
 * the server's stall (serverRejoin.ts) — we were the one who stopped.
 */
import { randomInt } from 'node:crypto';
import type { PlayerPing } from '../../shared/net/gameLink';
import type { NodeAddress } from '../../shared/net/packetApi';
import type { LinkStats, ProtocolContext } from '../../shared/protocol/protocol';
import { VersionNotices } from '../../shared/net/versionNotices';
import type { Membership } from '../../shared/session/membership';
import type { SessionNotice } from '../../shared/session/notices';
import { SessionPipeline, type PlayerRow } from '../../shared/session/pipeline';
import type { SessionSender } from '../../shared/session/sender';
import { SilenceWatch } from '../../shared/session/serverSilence';
import type { Clock } from '../../shared/time/clock';
import { NO_SLOT, type Packet, type WireAddr } from '../../shared/wire/types';
import { clockReportLine, clockStatusLine } from './clockText';
import { sessionCookies } from './cookies';
import { protocolCommands, type ProtocolActions } from './p2pCommands';

export type { Membership } from '../../shared/session/membership';

/** What `join` and `say` answer a spectator: it has no ship and no voice in the game. */
const SPECTATOR_JOIN = 'join: you are watching from a spectator seat; to play, disconnect and connect again as a player';
const SPECTATOR_SAY = 'say: spectators cannot talk to the players';
/** What a player watching a game (connected, not joined) is told once connected. */
export const WATCHING_LINE = 'watching: connected but not joined (fire follows the next player, the missile key the previous; camera free flies the camera; join plays)';

/** Our own timer running this late means this process stalled (the session ticks every 10 ms). */
export const OWN_STALL_MS = 1000;

/** How a protocol sets up its session. */
export interface GameSessionOptions<M extends Membership> {
  /** Builds the membership on the session's outgoing path. */
  member: (transport: SessionSender) => M;
  /** One line describing the connection, for the slot-table delivery. */
  status: () => string;
  /**
   * A linked node stopped acknowledging: by default a console line; a
   * gameserver client disconnects instead.
   */
  linkFailed?: (addr: WireAddr, reason: string) => void;
  /** The gameserver sends our ship through a stargate to another server (a `jumpTicket`): the protocol goes there. */
  jumpOrdered?: (order: Extract<SessionNotice, { kind: 'jump' }>) => void;
  /**
   * The server this client should hear from every second while connected (a
   * gameserver, a slotserver's time port); null or absent: none (p2p). While
   * it is silent the player reads "server not responding (n s)" about once a
   * second, and a line when it answers again.
   */
  server?: () => WireAddr | null;
  /** Timers (a virtual clock in tests). */
  timers?: Clock;
  /** Take datagrams only from nodes that proved their address (p2p and slotserver games; see addressProof.ts). */
  proveAddresses?: boolean;
  /** A lockstep game: flagged datagrams, no ship states (SessionParts.lockstep). */
  lockstep?: boolean;
  /** No ship states (a netgame: the protocol sends its own messages). */
  noShipStates?: boolean;
  /** Lines the `players` listing adds after the slot table (a lockstep game's frame figures). */
  extraPlayerLines?: () => string[];
  /** Game states the protocol takes itself (SessionParts.takeGameState: lockstep's engine, a server's own messages). */
  takeGameState?: (slot: number, packet: Packet) => boolean;
}

export class GameSession<M extends Membership> {
  readonly pipeline: SessionPipeline<M>;
  private readonly versions = new VersionNotices();
  /** Silence of the server (see GameSessionOptions.server). */
  readonly serverSilence = new SilenceWatch();
  /** The gameserver's solar system we are in (as it last said), for the status line; null before it says. */
  solarSystem: string | null = null;
  /** Its stargates, for `players`. */
  private stargates: { to: string; pos: { x: number; y: number; z: number } }[] = [];
  /** This connection only watches (`spectate`): it never joins by itself, whatever cl_autojoin says; `connect` plays again. */
  watchOnly = false;

  constructor(
    private readonly ctx: ProtocolContext,
    private readonly options: GameSessionOptions<M>,
  ) {
    const api = ctx.packetApi;
    this.pipeline = new SessionPipeline<M>({
      packetApi: api,
      self: api.localNode(),
      game: ctx.game,
      clock: { now: () => ctx.game.now() },
      random: () => randomInt(0, 0x10000) / 0x10000,
      member: options.member,
      notify: (n) => this.onNotice(n),
      status: options.status,
      ...(options.proveAddresses ? { proveAddresses: sessionCookies() } : {}),
      ...(options.lockstep ? { lockstep: true } : {}),
      ...(options.noShipStates ? { shipStates: false } : {}),
      ...(options.takeGameState ? { takeGameState: options.takeGameState } : {}),
    });
  }

  get member(): M {
    return this.pipeline.member;
  }

  /**
   * Starts the session: receives on the packet API table, runs the timer
   * every `tickMs`, and adds the console commands. Returns the stop function
   * (timer cleared, commands removed) for the protocol's kill.
   */
  start(own: Pick<ProtocolActions, 'connect' | 'disconnect'>, connectHelp?: string, tickMs = 10): () => void {
    const pipeline = this.pipeline;
    this.ctx.packetApi.onPacket(({ from, data }) => {
      pipeline.receive(from, data);
      this.heardFrom(from);
    });
    let lastTick: number | null = null;
    const tick = () => {
      pipeline.tick();
      // One reading of the clock for the stall and the silence: a stop between two readings would look like the server's silence.
      const now = this.ctx.game.now();
      const stalled = lastTick !== null && now - lastTick >= OWN_STALL_MS;
      lastTick = now;
      this.watchServer(now, stalled);
    };
    // The real timer is not unref'd: a session keeps its process alive, as before.
    const timers = this.options.timers;
    const timer = timers ? timers.setInterval(tick, tickMs) : setInterval(tick, tickMs);
    const removers = protocolCommands(
      {
        ...own,
        join: () => (this.spectatorSeat() ? SPECTATOR_JOIN : this.text(pipeline.whenConnected(() => pipeline.requestJoin()))),
        unjoin: () => this.text(pipeline.whenConnected((m, now) => m.unjoin(now))),
        say: (text) => (this.spectatorSeat() ? SPECTATOR_SAY : this.text(pipeline.say(text))),
        players: () => this.playerLines(),
      },
      connectHelp,
    ).map((def) => this.ctx.addCommand(def));
    return () => {
      if (timers) timers.clearInterval(timer);
      else clearInterval(timer as ReturnType<typeof setInterval>);
      for (const remove of removers) remove();
    };
  }

  linkStats(): LinkStats {
    return this.pipeline.linkStats();
  }

  /** Whether to join once connected: cl_autojoin, unless this connection only watches. */
  autoJoin(): boolean {
    return !this.watchOnly && this.ctx.game.autoJoin();
  }

  /** We hold a spectator's seat (no slot of our own: NO_SLOT), not a player's. */
  spectatorSeat(): boolean {
    return this.pipeline.member.state === 'connected' && this.pipeline.member.slot() === NO_SLOT;
  }

  /** Each player's round trip for the scoreboard (see Protocol.playerPings); the server is the one watched. */
  playerPings(): PlayerPing[] {
    return this.pipeline.playerPings(this.watchedServer());
  }

  /** The server being watched now (connected, and the protocol names one), else null. */
  private watchedServer(): WireAddr | null {
    if (this.pipeline.member.state !== 'connected') return null;
    return this.options.server?.() ?? null;
  }

  /** The timer: starts or stops watching the server, and says when it has been silent for another second (not after our own stall). */
  private watchServer(now: number, ownStall: boolean): void {
    const watch = this.serverSilence;
    if (this.watchedServer() === null) return watch.stop();
    if (!watch.watching || ownStall) watch.start(now);
    const n = watch.tick(now);
    if (n) this.ctx.print(`server not responding (${Math.floor(n.silentMs / 1000)} s)`);
  }

  /** A datagram arrived: from the watched server, it ends any silence. */
  private heardFrom(from: NodeAddress): void {
    const server = this.watchedServer();
    if (server === null || !this.serverSilence.watching) return;
    const key = this.pipeline.addresses.keyOf(from);
    if (key === null || key !== this.pipeline.addresses.key(server)) return;
    const n = this.serverSilence.heard(this.ctx.game.now());
    if (n) this.ctx.print(`server responding again after ${(n.silentMs / 1000).toFixed(1)} s`);
  }

  private text(outcome: 'not-connected' | null): string | null {
    return outcome === null ? null : 'not connected (type connect first)';
  }

  /** The `players` listing: slot, name, address, ping, state; then the clock, reliable messages and distrust. */
  playerLines(): string[] {
    const pipeline = this.pipeline;
    if (pipeline.member.state !== 'connected') return ['not connected'];
    const lines: string[] = [];
    if (this.solarSystem !== null) {
      const gates = this.stargates.map((g) => `${g.to} at (${Math.round(g.pos.x)}, ${Math.round(g.pos.y)}, ${Math.round(g.pos.z)})`);
      lines.push(`solar system ${this.solarSystem}: ${gates.length > 0 ? `stargates to ${gates.join(', ')}` : 'no stargates'}`);
    }
    lines.push(`slot  name              address                  ping    state`);
    for (const p of pipeline.playerRows()) lines.push(playerLine(p));
    lines.push(...(this.options.extraPlayerLines?.() ?? []));
    const clock = pipeline.clock.status();
    lines.push(clockStatusLine(clock, 'source' in clock ? pipeline.describe(clock.source) : ''));
    const c = pipeline.links.counters();
    lines.push(`reliable messages: ${pipeline.links.pending} awaiting acknowledgement, ${c['resent'] ?? 0} resent, ${c['duplicates'] ?? 0} duplicate copies dropped`);
    const { corrected, ignored } = pipeline.plausibility.counts;
    if (corrected + ignored > 0) lines.push(`implausible ship states from other players: ${corrected} clamped, ${ignored} not shown`);
    const { replayed, tooOld } = pipeline.replays;
    if (replayed + tooOld > 0) lines.push(`replayed datagrams dropped: ${replayed} already seen, ${tooOld} older than the replay window`);
    if (pipeline.otherGameKind > 0) lines.push(`datagrams of the other kind of game dropped (p2p and lockstep games never mix): ${pipeline.otherGameKind}`);
    const proof = pipeline.proof?.counts;
    if (proof && proof.unproven > 0) lines.push(`datagrams without our cookie dropped: ${proof.unproven} (forged, broadcast or from a restarted node); challenges sent ${proof.challengesSent}, ${proof.challengesRationed} held back`);
    return lines;
  }

  private onNotice(n: SessionNotice): void {
    const ctx = this.ctx;
    switch (n.kind) {
      case 'chat':
        return ctx.print(`${n.from}: ${n.text}`);
      case 'jump':
        return this.options.jumpOrdered?.(n);
      case 'system':
        this.solarSystem = n.name;
        this.stargates = n.gates;
        // The status line names the system: the view hears it now.
        this.pipeline.deliverPlayers();
        return ctx.print(n.jumped ? `jumped to solar system ${n.name}` : `in solar system ${n.name}`);
      case 'killed':
        return ctx.print(n.killer === null ? `${n.victim} was destroyed` : `${n.victim} was shot down by ${n.killer}`);
      case 'link-failed':
        if (this.options.linkFailed) return this.options.linkFailed(n.addr, n.reason);
        return ctx.print(`${n.who} stopped acknowledging (${n.reason}); treating them as gone`);
      case 'other-version': {
        // Another wire version: the player hears of that peer once (a minute), not once per packet.
        const line = this.versions.line(ctx.packetApi.nodeToString(n.from), n.data, ctx.game.now());
        if (line) ctx.print(line);
        return;
      }
      case 'send-failed':
        return ctx.print(`could not send to ${ctx.packetApi.nodeToString(n.to)}: ${n.message}`);
      case 'clock': {
        // Only a clock that could not be synchronised changes what the player sees; the rest is for net_verbose.
        const line = clockReportLine(n.report, n.who);
        return n.report.kind === 'no-reply' ? ctx.print(line) : ctx.printDetail?.(line);
      }
    }
  }
}

function playerLine(p: PlayerRow): string {
  const ping = p.pingMs === undefined ? '-' : p.pingMs === null ? '?' : `${Math.round(p.pingMs)} ms`;
  return `${String(p.slot).padEnd(5)} ${p.name.padEnd(17)} ${p.address.padEnd(24)} ${ping.padEnd(7)} ${p.joined ? 'joined' : 'connected'}${p.mine ? ' (you)' : ''}`;
}
