/**
 * The process's subsystem set: the `packetapi` kind (udp, udp6), the
 * `protocol` kind (offline, p2p, slotserver, gameserver, lockstep, netgame)
 * and the `sound` kind (webaudio, none), each held typed, wired so that
 * protocols use the packet API jump table, stop before the packet API under
 * them is killed and start again on whatever is bound after.
 */
import { DEFAULT_CLIENT_PORT, type PacketApi, type PacketApiOptions } from '../../shared/net/packetApi';
import type { Protocol, ProtocolContext, ProtocolFactory, ProtocolGame } from '../../shared/protocol/protocol';
import { createIdleGame } from '../../shared/protocol/idleGame';
import { SubsystemKind } from '../../shared/subsystems/jumpTable';
import { SubsystemRegistry } from '../../shared/subsystems/registry';
import type { CommandDef } from '../../shared/console/registry';
import { UDP_PACKET_API, UdpPacketApi } from '../packet/udp';
import { UDP6_PACKET_API, Udp6PacketApi } from '../packet/udp6';
import { OFFLINE_PROTOCOL, OfflineProtocol } from '../protocol/offline';
import { P2P_PROTOCOL, P2pProtocol } from '../protocol/p2p';
import { LOCKSTEP_PROTOCOL, LockstepProtocol, type LockstepSettings } from '../protocol/lockstep';
import { SLOTSERVER_PROTOCOL, SlotserverProtocol } from '../protocol/slotserver';
import { GAMESERVER_PROTOCOL, GameserverProtocol } from '../protocol/gameserver';
import { NETGAME_PROTOCOL, NetgameProtocol } from '../protocol/netgame';
import type { P2pConfig } from '../../shared/p2p';
import { ConditionedPacketApi, type Traffic } from '../../shared/net/conditionedPacketApi';
import { NO_CONDITIONS, type LinkConditions } from '../../shared/net/linkConditions';
import { createSoundKind, SOUND_KIND, type SoundPort, type SoundSystem } from './sound';

/** Kind name of the packet API layer (as typed in the console). */
export const PACKET_API_KIND = 'packetapi';
/** Kind name of the protocol layer. */
export const PROTOCOL_KIND = 'protocol';
/** The kind names a player types (`packetapi udp6`, `protocol p2p`, `sound none`, `subsystems`). */
export type NetKindName = typeof PACKET_API_KIND | typeof PROTOCOL_KIND | typeof SOUND_KIND;

/** Packet API implementation names, default first (for console completion). */
export const PACKET_API_NAMES = [UDP_PACKET_API, UDP6_PACKET_API] as const;
/** Protocol implementation names, default first. */
export const PROTOCOL_NAMES = [OFFLINE_PROTOCOL, P2P_PROTOCOL, SLOTSERVER_PROTOCOL, GAMESERVER_PROTOCOL, LOCKSTEP_PROTOCOL, NETGAME_PROTOCOL] as const;

export interface SubsystemOptions {
  /** Port the packet API asks for at each (re)bind; a function is read every time. Default {@link DEFAULT_CLIENT_PORT}. */
  clientPort?: number | (() => number) | undefined;
  /** Local address to bind; default: all interfaces of the family. */
  bindAddress?: string | undefined;
  /** udp broadcast address (see PacketApiOptions.broadcastAddress). */
  broadcastAddress?: string | undefined;
  /** udp6 multicast interfaces (see PacketApiOptions.lanInterfaces). */
  lanInterfaces?: readonly string[] | undefined;
  /** Console output for protocols. Default: dropped. */
  print?: ((line: string) => void) | undefined;
  /** Why the player leaves now (see ProtocolContext.leavingFor). */
  leavingFor?: (() => string | null) | undefined;
  /** Connection internals for protocols (see ProtocolContext.printDetail). Default: dropped. */
  printDetail?: ((line: string) => void) | undefined;
  /** Adds a console command for a protocol (see ProtocolContext.addCommand). Default: commands are not offered. */
  addCommand?: ((def: CommandDef) => () => void) | undefined;
  /** The game the protocols carry. Default: an idle game (no ship). */
  game?: ProtocolGame | undefined;
  /** `connect <n>` support and protocol switching (see ProtocolContext); hosts provide them, bots need not. */
  pickServer?: ProtocolContext['pickServer'];
  switchTo?: ProtocolContext['switchTo'];
  /** Told when a connect attempt fails or a game is lost (see ProtocolContext.connectionEnded); a bot exits on it. */
  connectionEnded?: ProtocolContext['connectionEnded'];
  /** Peer-to-peer settings, read each time p2p starts and each time it connects (e.g. maxPlayers from a cvar). */
  p2pConfig?: (() => Partial<P2pConfig>) | undefined;
  /** Lockstep games' settings (input lead, limits of a match this node starts; a netgame this node hosts takes the same limits). */
  lockstep?: (() => LockstepSettings) | undefined;
  frameHash?: ProtocolContext['frameHash'];
  /** Non-fatal subsystem trouble (failed kill, failed restart). Default: dropped. */
  log?: ((line: string) => void) | undefined;
  /** Fake network conditions for the link conditioner, read per datagram (the net_fake* cvars, the bot's --fake-*). Default: none. */
  linkConditions?: (() => LinkConditions) | undefined;
  /** Seed of the link conditioner's PRNG, so a conditioned run can be repeated. Default 1. */
  linkSeed?: number | undefined;
  /** The game's ticks and the pages, for the sound kind's `webaudio`; without it the kind offers only `none` (bots, servers). */
  sound?: SoundPort | undefined;
}

/**
 * The kinds, typed (`subsystems.protocol.table.status()`, no look-up by
 * name), and the registry of them by the names players type (describe,
 * killAll: the sound, then the protocol, then the packet API), plus the link conditioner's traffic counters.
 */
export type NetSubsystems = SubsystemRegistry<NetKindName> & {
  /** The packet API layer: `udp` or `udp6`. */
  readonly packetApi: SubsystemKind<PacketApi, typeof PACKET_API_KIND>;
  /** The protocol layer on top of it: `offline`, `p2p`, `slotserver` or `gameserver`. */
  readonly protocol: SubsystemKind<Protocol, typeof PROTOCOL_KIND>;
  /** The game's sound (sound.ts): `webaudio` or `none` (the host binds the saved choice, a bot `none`). */
  readonly sound: SubsystemKind<SoundSystem, typeof SOUND_KIND>;
  /** Cumulative datagrams and bytes the protocols moved through the packet API, both directions. */
  traffic(): Traffic;
};

/**
 * Builds the set with every kind and nothing bound; the caller binds (e.g.
 * `packetApi.bind('udp')`, then `protocol.bind('offline')`) and owns shutdown
 * through `killAll()`.
 *
 * Wiring: each protocol receives the packet API *table*. Before the packet
 * API kills an implementation (switch, restart, a failed start, shutdown) its
 * `beforeKill` hook stops the bound protocol, while the old socket can still
 * carry the protocol's goodbye; after the bind (whatever its outcome) its
 * `afterBind` hook starts that protocol again, so its `init` registers its
 * handlers on the implementation bound now. The packet API bind resolves only
 * after that. A protocol restart failure is reported through `log`, not as a
 * packet API failure.
 *
 * Protocols do not see the table itself but a {@link ConditionedPacketApi}
 * around it (a pass-through while no fake conditions are set). Once the
 * protocol has stopped and before the packet API implementation is killed,
 * the conditioner's waiting datagrams are dropped, so none is sent on a new
 * socket or delivered from a dead one and no timer outlives the set.
 */
export function createSubsystems(options: SubsystemOptions = {}): NetSubsystems {
  const log = options.log ?? ((): void => undefined);
  const port = (): number => {
    const p = options.clientPort;
    return typeof p === 'function' ? p() : (p ?? DEFAULT_CLIENT_PORT);
  };

  // The hooks below use `protocol` and `link`, made further down: hooks only run at bind time, after that.
  /** The protocol the last packet API kill stopped, to start again on whatever is bound after it. */
  let stopped: string | null = null;
  const packetApi = new SubsystemKind<PacketApi, typeof PACKET_API_KIND>(
    PACKET_API_KIND,
    {
      [UDP_PACKET_API]: () => new UdpPacketApi(),
      [UDP6_PACKET_API]: () => new Udp6PacketApi(),
    },
    {
      initOptions: (): PacketApiOptions => {
        const o: PacketApiOptions = { port: port() };
        if (options.bindAddress !== undefined) o.bindAddress = options.bindAddress;
        if (options.broadcastAddress !== undefined) o.broadcastAddress = options.broadcastAddress;
        if (options.lanInterfaces !== undefined) o.lanInterfaces = options.lanInterfaces;
        return o;
      },
      // The protocol goes first, through the socket that is about to close; then what the conditioner still holds for it.
      beforeKill: async () => {
        stopped = (await protocol.unbind()) ?? stopped;
        link.cancelPending();
      },
      afterBind: async () => {
        const name = stopped;
        stopped = null;
        if (name === null || protocol.bound() !== null) return;
        const result = await protocol.bind(name);
        if (!result.ok) log(`protocol restart after packet API change failed: ${result.error}`);
      },
      log,
    },
  );

  const linkConditions = options.linkConditions ?? (() => NO_CONDITIONS);
  const link = new ConditionedPacketApi(packetApi.table, { conditions: linkConditions, seed: options.linkSeed ?? 1 });
  const context: ProtocolContext = {
    packetApi: link,
    print: options.print ?? ((): void => undefined),
    ...(options.printDetail ? { printDetail: options.printDetail } : {}),
    ...(options.leavingFor ? { leavingFor: options.leavingFor } : {}),
    addCommand: options.addCommand ?? (() => () => undefined),
    ...(options.pickServer ? { pickServer: options.pickServer } : {}),
    ...(options.switchTo ? { switchTo: options.switchTo } : {}),
    ...(options.connectionEnded ? { connectionEnded: options.connectionEnded } : {}),
    ...(options.frameHash ? { frameHash: options.frameHash } : {}),
    game: options.game ?? createIdleGame(() => performance.now()),
    discoveryPort: typeof options.clientPort === 'function' ? options.clientPort() : (options.clientPort || DEFAULT_CLIENT_PORT),
    lan: {
      ...(options.broadcastAddress !== undefined ? { broadcastAddress: options.broadcastAddress } : {}),
      ...(options.lanInterfaces !== undefined ? { lanInterfaces: options.lanInterfaces } : {}),
    },
  };
  const protocolFactories: Record<string, ProtocolFactory> = {
    [OFFLINE_PROTOCOL]: (ctx) => new OfflineProtocol(ctx),
    [P2P_PROTOCOL]: (ctx) => new P2pProtocol(ctx, options.p2pConfig),
    [SLOTSERVER_PROTOCOL]: (ctx) => new SlotserverProtocol(ctx),
    [GAMESERVER_PROTOCOL]: (ctx) => new GameserverProtocol(ctx),
    [LOCKSTEP_PROTOCOL]: (ctx) => new LockstepProtocol(ctx, options.p2pConfig, options.lockstep),
    [NETGAME_PROTOCOL]: (ctx) => new NetgameProtocol(ctx, () => options.lockstep?.().matchLimits ?? {}),
  };
  const protocol = new SubsystemKind<Protocol, typeof PROTOCOL_KIND>(
    PROTOCOL_KIND,
    Object.fromEntries(Object.entries(protocolFactories).map(([name, make]) => [name, () => make(context)])),
    { log },
  );

  const sound = createSoundKind(options.sound, log);

  return Object.assign(new SubsystemRegistry<NetKindName>([packetApi, protocol, sound]), {
    packetApi,
    protocol,
    sound,
    traffic: () => link.traffic(),
  });
}
