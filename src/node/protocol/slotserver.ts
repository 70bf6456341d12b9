/**
 * The slotserver protocol (TCP 6582): the server gives out the slots and the
 * player list; game packets go peer to peer exactly as in p2p (the shared
 * session pipeline), to the endpoints the server lists, and the clock is the
 * slotserver's time port. The join itself is serverClient.ts.
 */
import type { ProtocolContext } from '../../shared/protocol/protocol';
import { SLOTSERVER_PORT } from '../../shared/servers/joinProtocol';
import { ServerClientProtocol, type ServerSessionKind } from './serverClient';

export const SLOTSERVER_PROTOCOL = 'slotserver';

export class SlotserverProtocol extends ServerClientProtocol {
  constructor(ctx: ProtocolContext) {
    super(ctx, { name: SLOTSERVER_PROTOCOL, defaultPort: SLOTSERVER_PORT, relayed: false });
  }

  protected override sessionKind(): ServerSessionKind {
    // Slotserver players send to each other directly: each proves its address to the others (a gameserver's session token does that job there).
    return { proveAddresses: true };
  }
}
