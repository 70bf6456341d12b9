/**
 * A small gameserver client for tests and the benchmark: joins over TCP with
 * the join protocol (lines read one at a time), then talks UDP through
 * node:dgram with the session token from the accept line. It answers the
 * server's pings, decodes every datagram it receives and keeps them.
 * Options: `localAddress` binds both sockets to another loopback address
 * (127.0.0.x plays a distinct host, so the server's per-host seat limit
 * applies per address); `link` acknowledges the server's reliable messages
 * through the real client's link layer (serverLink.ts) instead of the
 * immediate acknowledgements of `answerReliable`.
 */
import dgram from 'node:dgram';
import { decodePacket, encodePacket } from '../../src/shared/wire/codec';
import { MAX_ACK_IDS, PacketType, type LinkSection, type Packet, type PacketHeader, type ReliableGameEvent, type RemoteEvent, type ShipState } from '../../src/shared/wire/types';
import { formatJoin, parseJoinAccepted, parseSpectateAccepted, type JoinAccepted } from '../../src/shared/servers/joinProtocol';
import { NO_SLOT } from '../../src/shared/wire/types';
import type { Vec3 } from '../../src/shared/sim/types';
import { LineClient } from './lineClient';
import { carriesLinkEvents, ServerLink } from './serverLink';
import { RelayedStates } from '../../src/shared/net/relayedStates';

export { LineClient };

/** A received datagram, decoded, with the local clock (performance.now) at arrival. */
export interface Received {
  packet: Packet;
  at: number;
  bytes: number;
  /** The datagram as it came. */
  raw: Uint8Array;
}

/** A plausible ship state at `pos` (identity rotation, flying along −Z). */
export const shipAt = (pos: Vec3): ShipState => ({
  pos,
  rot: { x: 0, y: 0, z: 0, w: 1 },
  vel: { x: 0, y: 0, z: -10 },
  angVel: { x: 0, y: 0, z: 0 },
  energy: 100,
  damage: 0,
});

/** How {@link GameClient.join} connects. */
export interface JoinOptions {
  tcpPort: number;
  name: string;
  /** The line protocol version it joins with (default 1.0, the 1998 lines; 1.1 hears why others left). */
  version?: string;
  host?: string;
  /** Answer the server's pings (default true). */
  answerPings?: boolean;
  /** Acknowledge every reliable message at once, as a Starlane client does (default true; false: a client that knows nothing of them). */
  answerReliable?: boolean;
  /**
   * Takes every datagram raw instead of decoding and keeping it (`received`
   * stays empty; pings are still decoded and answered): for load tests that
   * only scan bytes.
   */
  raw?: (bytes: Uint8Array, at: number) => void;
  /** Local address both sockets bind to (default: `host`); another 127.0.0.x is another host to the server. */
  localAddress?: string;
  /**
   * Acknowledge reliable messages as a Starlane client's session does, through
   * its link layer (acknowledgements ride on this client's own datagrams, a
   * Reliable packet only when none went within the ack delay; default false).
   * Replaces `answerReliable`; in `raw` mode only datagrams carrying link
   * events are decoded.
   */
  link?: boolean;
  /**
   * Acknowledge the server's Relays as a Starlane client does (wire v14):
   * every GameState this client sends carries a relay acknowledgement, and
   * relayed partial states are completed from the bases kept of each player
   * (the client's own net/relayedStates.ts). Default false: the server then
   * sends every state full.
   */
  relayAcks?: boolean;
  /** Takes a spectator's seat (`version: 1.2 spectate:`) instead of a player's: its slot is then NO_SLOT. */
  spectate?: boolean;
}

/** How often a `link` client checks whether its link owes the server a Reliable packet (ms). */
const LINK_TICK_MS = 20;

/** A joined gameserver client. */
export class GameClient {
  readonly received: Received[] = [];
  /** Datagrams this client sent (every kind). */
  datagramsSent = 0;
  /** While true the client sends nothing at all (no pongs, no acknowledgements, and `sendRaw` drops what it is given). */
  muted = false;
  /** The reliable link to the server (with the `link` option). */
  readonly link: ServerLink | null;
  private messageId = 0;
  private linkTimer: NodeJS.Timeout | undefined;
  /** With `relayAcks`: the Relays taken and the relayed players' bases (null without). */
  readonly relayStates: RelayedStates | null;
  /** Datagrams this client could not decode, by reason. */
  readonly drops: Record<string, number> = {};
  /**
   * Relays carrying states that this client is to lose while still
   * acknowledging them (a lying or broken client: the server then builds on
   * states it does not hold).
   */
  loseRelays = 0;
  /** Relays lost so (acknowledged, not taken). */
  relaysLost = 0;

  private constructor(
    readonly tcp: LineClient,
    readonly udp: dgram.Socket,
    readonly accepted: JoinAccepted & { udp: number; token: number },
    readonly welcome: string[],
    readonly host: string,
    answerPings: boolean,
    raw?: (bytes: Uint8Array, at: number) => void,
    answerReliable = true,
    link = false,
    relayAcks = false,
  ) {
    this.link = link ? new ServerLink() : null;
    this.relayStates = relayAcks ? new RelayedStates() : null;
    if (this.link) {
      const l = this.link;
      this.linkTimer = setInterval(() => {
        const now = performance.now();
        if (!this.muted && l.owed(now)) this.sendRaw(this.packet({ type: PacketType.Reliable, joined: false }));
      }, LINK_TICK_MS).unref();
    }
    udp.on('message', (msg) => {
      const at = performance.now();
      if (raw) raw(msg, at);
      if (raw && msg[3] !== PacketType.Ping && !(this.link && carriesLinkEvents(msg))) return;
      const states = this.relayStates;
      const r = decodePacket(msg, states ? { at: () => undefined, relayed: (slot) => states.bases(slot) } : undefined);
      if (!r.ok) {
        this.drops[r.reason] = (this.drops[r.reason] ?? 0) + 1;
        return;
      }
      const h = r.packet.header;
      if (states && h.type === PacketType.Relay) {
        const lost = this.loseRelays > 0 && r.packet.events.some((e) => e.type === 'relayed' && e.packet.header.state !== undefined);
        if (lost) {
          // Acknowledged, but none of its states kept, and not taken.
          this.loseRelays -= 1;
          this.relaysLost += 1;
          states.took(h.messageId, []);
          return;
        }
        states.took(h.messageId, r.packet.events);
      }
      if (!raw) this.received.push({ packet: r.packet, at, bytes: msg.length, raw: Uint8Array.from(msg) });
      if (answerPings && h.type === PacketType.Ping) this.sendRaw(this.packet({ type: PacketType.Pong, gameTime: h.gameTime }));
      if (this.link) this.link.incoming(r.packet, at);
      else if (answerReliable) {
        // The server's own messages ride in the Relay's link section, the players' in their relayed packets' sections.
        const idsOf = (p: Packet) => (p.link?.messages ?? []).map((m) => m.id);
        const ids = [...idsOf(r.packet), ...r.packet.events.flatMap((e) => (e.type === 'relayed' ? idsOf(e.packet) : []))];
        if (ids.length > 0) this.sendRaw(this.packet({ type: PacketType.Reliable, joined: false, link: { acks: ids.slice(0, MAX_ACK_IDS) } }));
      }
    });
  }

  /** Opens a UDP socket on loopback, joins with its port and reads the accept and the four message lines. */
  static async join(o: JoinOptions): Promise<GameClient> {
    const host = o.host ?? '127.0.0.1';
    const udp = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => udp.bind(0, o.localAddress ?? host, () => resolve()));
    const tcp = await LineClient.open(o.tcpPort, host, o.localAddress);
    tcp.send(formatJoin({ version: o.spectate ? '1.2' : (o.version ?? '1.0'), name: o.name, os: 'test-os', port: udp.address().port, ...(o.spectate ? { spectate: true as const } : {}) }));
    const line = await tcp.next();
    const watching = o.spectate ? parseSpectateAccepted(line) : null;
    const accepted = watching ? { name: watching.name, serverName: watching.serverName, slot: NO_SLOT, udp: watching.udp, token: watching.token } : parseJoinAccepted(line);
    if (!accepted || accepted.udp === undefined || accepted.token === undefined) {
      tcp.socket.destroy();
      udp.close();
      throw new Error(`join refused: ${line}`);
    }
    const welcome = [await tcp.next(), await tcp.next(), await tcp.next(), await tcp.next()];
    return new GameClient(tcp, udp, accepted as JoinAccepted & { udp: number; token: number }, welcome, host, o.answerPings ?? true, o.raw, o.answerReliable ?? true, o.link ?? false, o.relayAcks ?? false);
  }

  get slot(): number {
    return this.accepted.slot;
  }
  get token(): number {
    return this.accepted.token;
  }
  get udpPort(): number {
    return this.udp.address().port;
  }

  /** A packet from this client: GameState by default, its slot, token and next message id, at `pos`; with `link`, that link section. */
  packet(o: Partial<PacketHeader> & { pos?: Vec3; events?: RemoteEvent[]; link?: LinkSection } = {}): Packet {
    const { pos, events, link: given, ...header } = o;
    // With `relayAcks`, a GameState acknowledges the Relays taken.
    const relayAck = (header.type ?? PacketType.GameState) === PacketType.GameState ? this.relayStates?.ack() : undefined;
    const link = relayAck === undefined ? given : { ...given, relayAck };
    return {
      header: {
        type: PacketType.GameState,
        senderSlot: this.slot,
        messageId: ++this.messageId,
        gameTime: Math.floor(performance.now()) >>> 0,
        joined: true,
        state: shipAt(pos ?? { x: 0, y: 0, z: 0 }),
        token: this.token,
        ...header,
      },
      events: events ?? [],
      ...(link === undefined ? {} : { link }),
    };
  }

  /** Encodes and sends a packet to the server's UDP port (from this client's socket); with `link`, what the link owes rides along. */
  sendRaw(packet: Packet): void {
    if (this.muted) return;
    const out = this.link ? this.link.withEnvelopes(packet, performance.now()) : packet;
    this.udp.send(encodePacket(out), this.accepted.udp, this.host);
    this.datagramsSent += 1;
  }

  /** Sends a GameState at `pos` with `events` (and a link section of reliable messages); returns its message id. */
  sendState(pos: Vec3, events: RemoteEvent[] = [], link?: LinkSection): number {
    const p = this.packet({ pos, events, ...(link === undefined ? {} : { link }) });
    this.sendRaw(p);
    return p.header.messageId;
  }

  /**
   * Sends a NodeAlive (not joined): the first datagram tells the server where
   * this client receives, so a client says hello before it can get relays.
   */
  hello(): void {
    this.sendRaw(this.packet({ type: PacketType.NodeAlive, joined: false }));
  }

  /** Received Relay packets. */
  relays(): Received[] {
    return this.received.filter((r) => r.packet.header.type === PacketType.Relay);
  }

  /** Every relayed inner packet received so far, in order. */
  relayed(): { slot: number; packet: Packet; at: number }[] {
    const out: { slot: number; packet: Packet; at: number }[] = [];
    for (const r of this.relays()) for (const e of r.packet.events) if (e.type === 'relayed') out.push({ slot: e.slot, packet: e.packet, at: r.at });
    return out;
  }

  /**
   * The reliable messages the server itself sent this client (the match
   * state, the arena's extras and who got them: a Relay's own link section,
   * not a relayed player's), each once (a resent message keeps its id), in
   * the order they arrived.
   */
  serverMessages(): ReliableGameEvent[] {
    const seen = new Set<number>();
    const out: ReliableGameEvent[] = [];
    for (const r of this.relays()) {
      for (const m of r.packet.link?.messages ?? []) {
        if (seen.has(m.id)) continue;
        seen.add(m.id);
        out.push(m.event);
      }
    }
    return out;
  }

  /** Polls `check` until it is true (fails after `ms`). */
  async until(check: () => boolean, ms = 10_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  close(): void {
    clearInterval(this.linkTimer);
    this.tcp.socket.destroy();
    try {
      this.udp.close();
    } catch {
      /* already closed */
    }
  }
}
