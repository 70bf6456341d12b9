/**
 * The gameserver protocol (TCP 6581): game packets go to the server only
 * (UDP port and session token from the join reply), which relays the
 * others' to us, pings us every second and is our clock; if it stops
 * acknowledging, the game is over for us. The join itself is serverClient.ts.
 */
import type { ProtocolContext } from '../../shared/protocol/protocol';
import { GAMESERVER_PORT } from '../../shared/servers/joinProtocol';
import { ServerClientProtocol } from './serverClient';

export const GAMESERVER_PROTOCOL = 'gameserver';

export class GameserverProtocol extends ServerClientProtocol {
  constructor(ctx: ProtocolContext) {
    super(ctx, { name: GAMESERVER_PROTOCOL, defaultPort: GAMESERVER_PORT, relayed: true, spectatorSeats: true });
  }
}
