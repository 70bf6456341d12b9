/**
 * A gameserver in process, on a memory LAN and a virtual clock: the real
 * forwarding core of src/node/servers — GameDatagrams (every datagram
 * admitted, decoded, judged by the ClientGuard and the RuleGuard, relayed),
 * the Forwarder (seats, distance filter, priorities, Relay packing, reliable
 * messages hop by hop), ServerTimeService (the common game time), the
 * MatchReferee and the ArenaOwner — wired as `startGameserver`
 * (gameserver.ts) wires them, with two stand-ins:
 *
 * - **the UDP port** is a MemoryEnd (memoryNet.ts) wrapped to look like a
 *   ServerUdp (`onDatagram`, `send`, `port`): the real one binds a socket,
 *   and a socket's datagrams arrive on the real event loop, not the virtual
 *   clock, so nothing played on it would repeat;
 * - **the TCP join** is {@link MemoryGameserver.seat}: the seat, its token
 *   and the client's relay route are handed out directly (what the join
 *   server's `joined` hook and the client's accept line do), since the join
 *   server listens on a real TCP port.
 *
 * The tick (silence timeouts, reliable links, pings, the referee, the arena,
 * the flush) runs as in gameserver.ts on the virtual clock, and so does the
 * flush on arrival's gathering (gatherMs, 4 ms by default). With
 * `gatherMs: 0` GameDatagrams relays "on arrival" with `setImmediate`, which
 * the virtual clock does not drive: whoever advances the clock must then let
 * the event loop turn between steps (`await new Promise(setImmediate)`).
 */
import pino from 'pino';
import { Forwarder } from '../../src/node/servers/game/forwarder';
import { GameDatagrams } from '../../src/node/servers/game/gameDatagrams';
import { BacklogProbe } from '../../src/node/servers/game/receiveBacklog';
import { resolveGameserverOptions, type GameserverOptions } from '../../src/node/servers/game/gameserverOptions';
import { DiscoveryResponder } from '../../src/node/servers/common/discoveryResponder';
import { A2sResponder } from '../../src/node/servers/common/a2sResponder';
import { MatchReferee } from '../../src/node/servers/game/matchReferee';
import { ArenaOwner } from '../../src/node/servers/game/arenaOwner';
import type { ServerUdp, UdpEndpoint } from '../../src/node/servers/common/serverUdp';
import { SourceGuard } from '../../src/node/servers/common/strikes';
import { ServerTimeService } from '../../src/node/servers/common/timeService';
import type { ClientSeat } from '../../src/node/servers/game/seat';
import { EXTRA_KINDS } from '../../src/shared/game/combat';
import { RULES } from '../../src/shared/game/rules';
import type { PacketApi } from '../../src/shared/net/packetApi';
import type { RelayRoute } from '../../src/shared/session/managedPeer';
import { MAX_WIRE_SLOTS, PacketType, type ReliableGameEvent } from '../../src/shared/wire/types';
import { matchPages } from '../../src/shared/game/matchSync';
import type { MemoryNet } from './memoryNet';
import type { VirtualClock } from './virtualClock';
import { oneRoom } from './oneRoom';

/** What a memory gameserver's options may set (the socket and TCP ones have no meaning here). */
export type MemoryGameserverOptions = Pick<GameserverOptions, 'killLimit' | 'timeLimitS' | 'filterRadius' | 'tickHz' | 'flush' | 'gatherMs' | 'timeoutMs' | 'strikeLimit'>;

/** Datagrams sent to one of these is "from" the memory end's dotted address: the seat's TCP address. */
const addressOf = (api: PacketApi, node: UdpEndpoint['node']): string => api.nodeToString(node).replace(/:\d+$/, '');

export class MemoryGameserver {
  readonly api: PacketApi;
  readonly datagrams: GameDatagrams;
  readonly fwd: Forwarder;
  /** Players dropped (for bad data or silence), with the reason. */
  readonly kicked: { slot: number; reason: string }[] = [];
  private readonly tick: unknown;

  constructor(
    net: MemoryNet,
    private readonly clock: VirtualClock,
    options: MemoryGameserverOptions = {},
    wrap: (api: PacketApi) => PacketApi = (a) => a,
  ) {
    const api = wrap(net.add());
    this.api = api;
    const log = pino({ level: 'silent' });
    const config = resolveGameserverOptions({ name: 'memory', log, ...options });
    const t0 = clock.now();
    const now = () => clock.now() - t0;
    const udp = {
      port: api.localPort(),
      onDatagram(handler: (data: Uint8Array, from: UdpEndpoint) => void) {
        api.onPacket(({ from, data }) => handler(data, { node: from, address: addressOf(api, from), port: api.localPort() }));
      },
      send(to: UdpEndpoint, data: Uint8Array) {
        try {
          api.send(to.node, data);
          return true;
        } catch {
          return false;
        }
      },
    } as unknown as ServerUdp;
    const sources = new SourceGuard({ datagramsPerSecond: config.udpRate, strangersPerSecond: config.strangerRate, strikes: { limit: config.sourceStrikeLimit, windowMs: 10_000 }, blockMs: config.blockMs });
    const fwd = new Forwarder({ radius: config.radius, outdatedMs: config.outdatedMs, budget: config.budget, queueCap: config.queueCap, levelOfDetail: config.levelOfDetail });
    this.fwd = fwd;
    const time = new ServerTimeService(udp, now);
    const discovery = new DiscoveryResponder({ udp, log, info: () => null });
    const a2s = new A2sResponder({ udp, log, clock: now, source: { info: () => null, players: () => [], rules: () => [] } });
    const datagrams = new GameDatagrams({
      udp,
      rooms: oneRoom(fwd),
      sources,
      a2s,
      discovery,
      time,
      backlog: new BacklogProbe(),
      config,
      log,
      clock: now,
      timers: clock,
      kick: (s, reason) => {
        this.kicked.push({ slot: s.slot, reason });
        fwd.remove(s.slot);
      },
    });
    this.datagrams = datagrams;
    udp.onDatagram((msg, from) => datagrams.onDatagram(msg, from));
    // As gameserver.ts: the match referee counts the kills players announce, the arena owner spawns extras and breaks asteroids.
    const referee = new MatchReferee({ killLimit: options.killLimit, timeLimitS: options.timeLimitS }, now());
    this.referee = referee;
    fwd.onOwnKill = (victim, killer, at) => referee.kill(victim, killer, at);
    fwd.onExtraTaken = (winner, type) => {
      const x = RULES.extras;
      if (EXTRA_KINDS[type] === 'missiles') datagrams.rules.grantAmmo(winner, x.missilePack, 0);
      else if (EXTRA_KINDS[type] === 'mines') datagrams.rules.grantAmmo(winner, 0, x.minePack);
    };
    const arena = new ArenaOwner(referee.currentRound);
    this.arena = arena;
    const sayArena = (events: ReliableGameEvent[], at: number): void => {
      for (const ev of events) {
        if (ev.type === 'createExtra') fwd.serverExtra(ev.id, ev.pos, ev.kind);
        else if (ev.type === 'killObject') fwd.forget(ev.id);
        for (const s of fwd.clients.values()) fwd.sayToSeat(s, ev, at);
      }
    };
    fwd.onLaser = (slot, ev) => arena.laser(slot, ev);
    fwd.onServerClaim = (slot, id, at) => {
      const r = arena.claim(slot, id);
      if (r.won !== undefined) fwd.onExtraTaken?.(slot, r.won);
      sayArena([r.answer], at);
    };
    let lastPing = now();
    this.tick = clock.setInterval(() => {
      const at = now();
      for (const s of [...fwd.clients.values()]) {
        if (at - s.lastHeard > config.timeoutMs) this.drop(s, 'timed out');
        else {
          const unacked = s.link.check(at);
          if (unacked) this.drop(s, `stopped acknowledging reliable messages (${unacked})`);
        }
      }
      datagrams.pruneEndpoints();
      const ping = at - lastPing >= config.pingEvery;
      if (ping) lastPing = at;
      for (const s of fwd.clients.values()) {
        s.budget = config.budget;
        if (ping && s.udp) {
          datagrams.send(s, { header: datagrams.header(s, PacketType.Ping, s.connection.roundTrip.ping(at)), events: [] });
        }
      }
      referee.tick(at);
      sayArena(arena.advance(referee.currentRound, referee.playedMs(at)), at);
      const said = referee.due(at);
      if (said) for (const s of fwd.clients.values()) for (const page of matchPages(said, MAX_WIRE_SLOTS)) fwd.sayToSeat(s, { type: 'matchState', ...page }, at);
      fwd.releaseHeld(at);
      datagrams.flushAll();
    }, 1000 / config.tickHz);
    this.now = now;
  }

  private readonly referee: MatchReferee;
  private readonly arena: ArenaOwner;
  private readonly now: () => number;

  /** The server's wire address (where relayed clients send). */
  get address(): Uint8Array {
    return this.api.encodeNode(this.api.localNode());
  }

  /**
   * Seats the client at `client` (its packet API) in `slot` under `name`, as
   * the join server's `joined` hook does; returns the relay route its accept
   * line would carry.
   */
  seat(slot: number, client: PacketApi, name: string): RelayRoute {
    const at = this.now();
    const address = addressOf(client, client.localNode());
    let token = 0x5eed0000 + slot * 0x1111;
    const s = this.fwd.add(slot, address, () => token++ >>> 0, at);
    this.referee.join(slot, name);
    for (const page of matchPages(this.referee.announcement(at), MAX_WIRE_SLOTS)) this.fwd.sayToSeat(s, { type: 'matchState', ...page }, at);
    for (const ev of this.arena.forNewcomer()) this.fwd.sayToSeat(s, ev, at);
    return { server: this.address, token: s.token };
  }

  /** Strikes counted against the seats, by kind. */
  strikes(): Record<string, number> {
    return Object.fromEntries(this.datagrams.strikeKinds);
  }

  close(): void {
    this.clock.clearInterval(this.tick);
    this.datagrams.close();
  }

  private drop(s: ClientSeat, reason: string): void {
    this.kicked.push({ slot: s.slot, reason });
    this.fwd.remove(s.slot);
    this.referee.leave(s.slot);
  }
}
