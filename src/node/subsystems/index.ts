/**
 * The process's subsystem set: the `packetapi` kind (udp, udp6) and the
 * `protocol` kind (offline), wired so that protocols use the packet API jump
 * table and are restarted on whatever packet API is bound after a switch.
 */
import { DEFAULT_CLIENT_PORT, type PacketApi, type PacketApiOptions } from '../../shared/net/packetApi';
import type { Protocol, ProtocolContext, ProtocolFactory, ProtocolGame } from '../../shared/net/protocol';
import { createIdleGame } from '../../shared/net/idleGame';
import { SubsystemKind, SubsystemRegistry } from '../../shared/subsystems/jumpTable';
import type { CommandDef } from '../../shared/console/registry';
import { UDP_PACKET_API, UdpPacketApi } from '../packet/udp';
import { UDP6_PACKET_API, Udp6PacketApi } from '../packet/udp6';
import { OFFLINE_PROTOCOL, OfflineProtocol } from '../protocol/offline';
import { P2P_PROTOCOL, P2pProtocol } from '../protocol/p2p';
import { GAMESERVER_PROTOCOL, SLOTSERVER_PROTOCOL, ServerClientProtocol } from '../protocol/serverClient';
import type { P2pConfig } from '../../shared/p2p';
import { ConditionedPacketApi, type Traffic } from '../../shared/net/conditionedPacketApi';
import { NO_CONDITIONS, type LinkConditions } from '../../shared/net/linkConditions';

/** Kind name of the packet API layer (as typed in the console). */
export const PACKET_API_KIND = 'packetapi';
/** Kind name of the protocol layer. */
export const PROTOCOL_KIND = 'protocol';

/** Packet API implementation names, default first (for console completion). */
export const PACKET_API_NAMES = [UDP_PACKET_API, UDP6_PACKET_API] as const;
/** Protocol implementation names, default first. */
export const PROTOCOL_NAMES = [OFFLINE_PROTOCOL, P2P_PROTOCOL, SLOTSERVER_PROTOCOL, GAMESERVER_PROTOCOL] as const;
/** Kind → implementation names, for completing `<kind> <name>` commands. */
export const SUBSYSTEM_NAMES: Readonly<Record<string, readonly string[]>> = {
  [PACKET_API_KIND]: PACKET_API_NAMES,
  [PROTOCOL_KIND]: PROTOCOL_NAMES,
};

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
  /** Adds a console command for a protocol (see ProtocolContext.addCommand). Default: commands are not offered. */
  addCommand?: ((def: CommandDef) => () => void) | undefined;
  /** The game the protocols carry. Default: an idle game (no ship). */
  game?: ProtocolGame | undefined;
  /** `connect <n>` support and protocol switching (see ProtocolContext); hosts provide them, bots need not. */
  pickServer?: ProtocolContext['pickServer'];
  switchTo?: ProtocolContext['switchTo'];
  /** Told when a connect attempt fails or a game is lost (see ProtocolContext.connectionEnded); a bot exits on it. */
  connectionEnded?: ProtocolContext['connectionEnded'];
  /** Peer-to-peer settings, read each time p2p is bound (e.g. maxPlayers from a cvar). */
  p2pConfig?: (() => Partial<P2pConfig>) | undefined;
  /** Non-fatal subsystem trouble (failed kill, failed restart). Default: dropped. */
  log?: ((line: string) => void) | undefined;
  /** Fake network conditions for the link conditioner, read per datagram (the net_fake* cvars, the bot's --fake-*). Default: none. */
  linkConditions?: (() => LinkConditions) | undefined;
  /** Seed of the link conditioner's PRNG, so a conditioned run can be repeated. Default 1. */
  linkSeed?: number | undefined;
}

/** The subsystem registry plus the link conditioner's traffic counters (for the net graph). */
export type NetSubsystems = SubsystemRegistry & {
  /** Cumulative datagrams and bytes the protocols moved through the packet API, both directions. */
  traffic(): Traffic;
};

/**
 * Builds the registry with both kinds registered and nothing bound; the caller
 * binds (e.g. `kind('packetapi').bind('udp')`, then `kind('protocol').bind('offline')`)
 * and owns shutdown through `killAll()`.
 *
 * Wiring: each protocol receives the packet API *table*. After every
 * successful packet API bind (or restore after a failed one), a bound
 * protocol is re-bound so that its `init` registers its handlers on the new
 * implementation; the packet API bind resolves only after that. A protocol
 * restart failure is reported through `log`, not as a packet API failure.
 *
 * Protocols do not see the table itself but a {@link ConditionedPacketApi}
 * around it (a pass-through while no fake conditions are set). Whenever a
 * packet API implementation is killed (rebind, restart, shutdown) the
 * conditioner's waiting datagrams are dropped first, so none is sent on a
 * new socket or delivered from a dead one and no timer outlives the set.
 */
export function createSubsystems(options: SubsystemOptions = {}): NetSubsystems {
  const log = options.log ?? ((): void => undefined);
  const port = (): number => {
    const p = options.clientPort;
    return typeof p === 'function' ? p() : (p ?? DEFAULT_CLIENT_PORT);
  };

  // Filled in right below; the factories only run at bind time, after that.
  let conditioned: ConditionedPacketApi | null = null;
  /** An implementation whose kill first drops what the conditioner holds for it. */
  const cancellingOnKill = (api: PacketApi): PacketApi => {
    const kill = api.kill.bind(api);
    api.kill = () => {
      conditioned?.cancelPending();
      return kill();
    };
    return api;
  };
  const packetApi = new SubsystemKind<PacketApi>(
    PACKET_API_KIND,
    {
      [UDP_PACKET_API]: () => cancellingOnKill(new UdpPacketApi()),
      [UDP6_PACKET_API]: () => cancellingOnKill(new Udp6PacketApi()),
    },
    {
      initOptions: (): PacketApiOptions => {
        const o: PacketApiOptions = { port: port() };
        if (options.bindAddress !== undefined) o.bindAddress = options.bindAddress;
        if (options.broadcastAddress !== undefined) o.broadcastAddress = options.broadcastAddress;
        if (options.lanInterfaces !== undefined) o.lanInterfaces = options.lanInterfaces;
        return o;
      },
      log,
    },
  );

  const linkConditions = options.linkConditions ?? (() => NO_CONDITIONS);
  conditioned = new ConditionedPacketApi(packetApi.table, { conditions: linkConditions, seed: options.linkSeed ?? 1 });
  const context: ProtocolContext = {
    packetApi: conditioned,
    print: options.print ?? ((): void => undefined),
    addCommand: options.addCommand ?? (() => () => undefined),
    ...(options.pickServer ? { pickServer: options.pickServer } : {}),
    ...(options.switchTo ? { switchTo: options.switchTo } : {}),
    ...(options.connectionEnded ? { connectionEnded: options.connectionEnded } : {}),
    game: options.game ?? createIdleGame(() => performance.now()),
    discoveryPort: typeof options.clientPort === 'function' ? options.clientPort() : (options.clientPort || DEFAULT_CLIENT_PORT),
    lan: {
      ...(options.broadcastAddress !== undefined ? { broadcastAddress: options.broadcastAddress } : {}),
      ...(options.lanInterfaces !== undefined ? { lanInterfaces: options.lanInterfaces } : {}),
    },
  };
  const protocolFactories: Record<string, ProtocolFactory> = {
    [OFFLINE_PROTOCOL]: (ctx) => new OfflineProtocol(ctx),
    [P2P_PROTOCOL]: (ctx) => new P2pProtocol(ctx, options.p2pConfig?.() ?? {}),
    [SLOTSERVER_PROTOCOL]: (ctx) => new ServerClientProtocol(ctx, SLOTSERVER_PROTOCOL),
    [GAMESERVER_PROTOCOL]: (ctx) => new ServerClientProtocol(ctx, GAMESERVER_PROTOCOL),
  };
  const protocol = new SubsystemKind<Protocol>(
    PROTOCOL_KIND,
    Object.fromEntries(Object.entries(protocolFactories).map(([name, make]) => [name, () => make(context)])),
    { log },
  );

  packetApi.onChange(async () => {
    const current = protocol.bound();
    if (current === null) return;
    const result = await protocol.bind(current);
    if (!result.ok) log(`protocol restart after packet API change failed: ${result.error}`);
  });

  const link = conditioned;
  return Object.assign(new SubsystemRegistry().add(packetApi).add(protocol), { traffic: () => link.traffic() });
}
