/**
 * The `slotserver` protocol: a slotserver (TCP 6582) hands out slots and
 * tells everyone who is playing; game packets go peer to peer exactly as in
 * p2p (the shared GameSession), to the endpoints the server lists.
 */
import { platform, arch } from 'node:os';
import type { Protocol, ProtocolContext } from '../../shared/net/protocol';
import { ManagedPeer, type ManagedNotice } from '../../shared/net/managedPeer';
import {
  PROTOCOL_VERSION,
  REMOVE_ME,
  REMOVING_YOU,
  SLOTSERVER_PORT,
  formatJoin,
  formatNewName,
  parseServerLine,
  MESSAGE_LINES,
  type Endpoint,
} from '../../shared/servers/joinProtocol';
import { GameSession } from './gameSession';
import { protocolCommands } from './p2pCommands';
import { ServerLink } from './serverLink';
import { resolveConnectTarget } from './serverPick';

export const SLOTSERVER_PROTOCOL = 'slotserver';
const TICK_MS = 10;

/** `host[:port]`, `[v6]:port` or `v6` → host and port (default 6582); null when malformed. */
export function parseTarget(text: string, defaultPort = SLOTSERVER_PORT): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text) ?? /^([^:\s]+)(?::(\d+))?$/.exec(text);
  const host = m?.[1] ?? (text.includes(':') && !/\s/.test(text) ? text : undefined);
  const port = m?.[2] === undefined ? defaultPort : Number(m[2]);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host, port };
}

type Phase = 'idle' | 'connecting' | 'joining' | 'welcome' | 'joined' | 'leaving';

export class SlotserverProtocol implements Protocol {
  readonly name = SLOTSERVER_PROTOCOL;
  private peer: ManagedPeer | null = null;
  private session: GameSession | null = null;
  private link: ServerLink | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private removers: (() => void)[] = [];
  private phase: Phase = 'idle';
  private target: { host: string; port: number } | null = null;
  private serverName = '';
  private welcomeLeft = 0;

  constructor(private readonly ctx: ProtocolContext) {}

  async init(): Promise<void> {
    if (this.peer) return;
    const api = this.ctx.packetApi;
    const session = new GameSession(this.ctx, api.localNode(), () => this.status());
    const peer = new ManagedPeer(
      api.encodeNode(session.self),
      this.ctx.game.playerName(),
      (to, packet) => session.sendTo(to, packet),
      (n) => this.onNotice(n),
      (name) => this.link?.send(formatNewName(name)),
    );
    session.member = peer;
    this.session = session;
    this.peer = peer;
    api.onPacket(({ from, data }) => session.handlePacket(from, data));
    this.timer = setInterval(() => session.tick(), TICK_MS);
    this.removers = protocolCommands({
      connect: (target) => this.connect(target),
      disconnect: () => this.disconnect(),
      join: () => session.whenConnected((m, now) => m.join(now)),
      unjoin: () => session.whenConnected((m, now) => m.unjoin(now)),
      say: (text) => session.say(text),
      players: () => session.playerLines(),
    }, 'connect to a slotserver (default port 6582)').map((def) => this.ctx.addCommand(def));
  }

  async kill(): Promise<void> {
    if (this.phase === 'joined') this.ctx.print(`leaving slotserver "${this.serverName}"`);
    if (this.link?.isOpen) {
      this.link.send(REMOVE_ME);
      this.link.close();
    }
    this.link = null;
    this.phase = 'idle';
    this.peer?.leave();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const remove of this.removers.splice(0)) remove();
    this.session?.reset();
    this.peer = null;
    this.session = null;
  }

  status(): string {
    const where = this.target ? `${this.target.host}:${this.target.port}` : '';
    switch (this.phase) {
      case 'joined':
        return `joined slotserver "${this.serverName}" at ${where} as slot ${this.peer?.slot()}, ${this.peer?.players().length ?? 0} players`;
      case 'connecting':
      case 'joining':
      case 'welcome':
        return `connecting to the slotserver at ${where}`;
      case 'leaving':
        return 'leaving the slotserver';
      default:
        return this.peer ? 'not connected (type connect host[:port])' : 'not started';
    }
  }

  private connect(text: string | undefined): string | null {
    if (this.phase !== 'idle') return `already ${this.phase === 'joined' ? 'connected' : 'connecting'} (disconnect first)`;
    const resolved = resolveConnectTarget(this.ctx, this.name, text);
    if (resolved.line) return resolved.line;
    text = resolved.target;
    const target = text === undefined ? this.target : parseTarget(text);
    if (!target) return text === undefined ? 'connect: which slotserver? (connect host[:port])' : `connect: "${text}" is not host[:port]`;
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
    return `connecting to the slotserver at ${target.host}:${target.port}…`;
  }

  private disconnect(): string | null {
    if (this.phase === 'idle' || !this.link) return 'not connected';
    this.phase = 'leaving';
    this.link.send(REMOVE_ME);
    const link = this.link;
    // Wait briefly for "removing you"; close regardless.
    setTimeout(() => link.close(), 1000).unref();
    return null;
  }

  private endpointAddr(e: Endpoint): Uint8Array | null {
    try {
      return this.ctx.packetApi.encodeNode(this.ctx.packetApi.resolve(e.address, e.port));
    } catch {
      return null; // e.g. an IPv6 player while we run udp: we cannot reach them
    }
  }

  private onLine(line: string): void {
    const peer = this.peer;
    const session = this.session;
    if (!peer || !session) return;
    if (this.phase === 'welcome' && this.welcomeLeft > 0) {
      this.welcomeLeft -= 1;
      if (line.trim()) this.ctx.print(`${this.serverName}: ${line}`);
      if (this.welcomeLeft === 0) this.phase = 'joined';
      return;
    }
    const msg = parseServerLine(line);
    switch (msg.kind) {
      case 'accepted':
        peer.adopt(msg.accepted.slot);
        this.serverName = msg.accepted.serverName;
        this.phase = 'welcome';
        this.welcomeLeft = MESSAGE_LINES;
        this.ctx.print(`joined slotserver "${this.serverName}" as slot ${msg.accepted.slot}`);
        session.deliverPlayers();
        if (this.ctx.game.autoJoin()) peer.join(this.ctx.game.now());
        return;
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
        if (gone) this.ctx.print(`${gone.name} disconnected`);
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
          this.ctx.print('disconnected from the slotserver');
          this.link?.close();
        } else if (this.phase === 'joining') {
          this.ctx.print(`connect failed: ${msg.reply}`);
          this.phase = 'leaving';
          this.link?.close();
        } else {
          this.ctx.print(`slotserver: ${msg.reply}`);
        }
        return;
      case 'text':
        this.ctx.print(`slotserver: ${line}`);
    }
  }

  private onClosed(error: string | undefined): void {
    const was = this.phase;
    this.link = null;
    this.phase = 'idle';
    this.peer?.leave();
    this.session?.deliverPlayers();
    if (!error || was === 'leaving') return;
    const where = this.target ? `${this.target.host}:${this.target.port}` : 'the slotserver';
    this.ctx.print(was === 'connecting' ? `connect failed: ${error}` : `lost connection to the slotserver at ${where}: ${error}`);
  }

  private onNotice(n: ManagedNotice): void {
    if (n.kind === 'game-state') this.session?.onGameState(n.slot, n.packet);
    else this.session?.deliverPlayers();
  }
}
