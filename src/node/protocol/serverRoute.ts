/**
 * Where a server game's datagrams go, from the server's accept line: through
 * a gameserver or netgame server (its UDP port at the TCP peer's address, our
 * session token), which is also the clock and the heartbeat we watch; or, at
 * a slotserver, straight to the players, with the clock at the slotserver's
 * time port (an older slotserver names none: the players follow the lowest
 * slot's clock).
 */
import type { PacketApi } from '../../shared/net/packetApi';
import type { RelayRoute } from '../../shared/session/managedPeer';
import type { JoinAccepted } from '../../shared/servers/joinProtocol';
import type { Endpoint } from '../../shared/servers/joinFields';
import type { WireAddr } from '../../shared/wire/types';

export interface ServerRoute {
  /** Through the server (gameserver, netgame server); absent at a slotserver. */
  relay?: RelayRoute;
  /** Where the common game time comes from, and the server we watch for silence; null: none. */
  clock: WireAddr | null;
}

/** A player's or server's endpoint as a wire address on `api`, or null when `api` cannot reach it (an IPv6 player while we run udp). */
export function endpointAddr(api: PacketApi, e: Endpoint): WireAddr | null {
  try {
    return api.encodeNode(api.resolve(e.address, e.port));
  } catch {
    return null;
  }
}

/** The route the accept line gives (`remote`: the TCP peer's address); null when a relaying server did not say where (udp and token). */
export function serverRoute(api: PacketApi, remote: string | undefined, accepted: JoinAccepted, relayed: boolean): ServerRoute | null {
  if (relayed) {
    if (accepted.udp === undefined || accepted.token === undefined || !remote) return null;
    const server = endpointAddr(api, { address: remote, port: accepted.udp });
    return server ? { relay: { server, token: accepted.token }, clock: server } : null;
  }
  const clock = accepted.time === undefined || !remote ? null : endpointAddr(api, { address: remote, port: accepted.time });
  return { clock };
}
