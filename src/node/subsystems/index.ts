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
  /** Peer-to-peer settings, read each time p2p is bound (e.g. maxPlayers from a cvar). */
  p2pConfig?: (() => Partial<P2pConfig>) | undefined;
  /** Non-fatal subsystem trouble (failed kill, failed restart). Default: dropped. */
  log?: ((line: string) => void) | undefined;
}

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
 */
export function createSubsystems(options: SubsystemOptions = {}): SubsystemRegistry {
  const log = options.log ?? ((): void => undefined);
  const port = (): number => {
    const p = options.clientPort;
    return typeof p === 'function' ? p() : (p ?? DEFAULT_CLIENT_PORT);
  };

  const packetApi = new SubsystemKind<PacketApi>(
    PACKET_API_KIND,
    { [UDP_PACKET_API]: () => new UdpPacketApi(), [UDP6_PACKET_API]: () => new Udp6PacketApi() },
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

  const context: ProtocolContext = {
    packetApi: packetApi.table,
    print: options.print ?? ((): void => undefined),
    addCommand: options.addCommand ?? (() => () => undefined),
    ...(options.pickServer ? { pickServer: options.pickServer } : {}),
    ...(options.switchTo ? { switchTo: options.switchTo } : {}),
    game: options.game ?? createIdleGame(() => performance.now()),
    discoveryPort: typeof options.clientPort === 'function' ? options.clientPort() : (options.clientPort || DEFAULT_CLIENT_PORT),
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

  return new SubsystemRegistry().add(packetApi).add(protocol);
}
