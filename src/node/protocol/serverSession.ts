/**
 * The game session a server client plays through (serverClient.ts): one
 * ManagedPeer for the protocol's life (peer to peer at a slotserver; through
 * a gameserver or a netgame server once adopted), the server it must hear
 * from each second, the server's own messages kept from the game, and the
 * status line the player reads. What the client decides stays there; this
 * builds the session from its hooks.
 */
import type { ProtocolContext } from '../../shared/protocol/protocol';
import { ManagedPeer, type ManagedNotice } from '../../shared/session/managedPeer';
import { formatNewName } from '../../shared/servers/joinProtocol';
import { formatMyShip } from '../../shared/servers/shipLines';
import { NO_SLOT, type Packet } from '../../shared/wire/types';
import { GameSession, type GameSessionOptions } from './gameSession';
import type { JumpOrder } from './serverJump';

/** What the client tells the session it builds. */
export interface ServerSessionHooks {
  /** The protocol's name (`gameserver`). */
  name: string;
  /** Game packets go to the server only (a gameserver, a netgame server): its silence ends the game. */
  relayed: boolean;
  status(): string;
  /** The node that must answer each second while we are at the server (null: none now). */
  heartbeat(): Uint8Array | null;
  notice(n: ManagedNotice): void;
  /** A line to the server over the join link (a new name, our ship's look), if one is open. */
  sendLine(line: string): void;
  jumpOrdered(order: JumpOrder): void;
  /** A game state from the server itself (no slot). */
  fromServer(packet: Packet): void;
  /** The server stopped acknowledging (relayed games only): the game is over for us. */
  lost(reason: string): void;
}

export type ServerSessionKind = Pick<GameSessionOptions<ManagedPeer>, 'proveAddresses' | 'noShipStates' | 'extraPlayerLines'>;

export function serverSession(ctx: ProtocolContext, hooks: ServerSessionHooks, kind: ServerSessionKind): GameSession<ManagedPeer> {
  const api = ctx.packetApi;
  return new GameSession(ctx, {
    status: () => hooks.status(),
    // A gameserver pings us each second and answers time sync; a slotserver's time port answers time sync.
    server: () => hooks.heartbeat(),
    member: (transport) => {
      const member = new ManagedPeer(
        api.encodeNode(api.localNode()),
        ctx.game.playerName(),
        (to, packet) => transport.send(to, packet),
        (n) => hooks.notice(n),
        (name) => hooks.sendLine(formatNewName(name)),
        (addr) => transport.keyOf(addr),
      );
      member.onLookChange = (look) => hooks.sendLine(formatMyShip(look));
      return member;
    },
    ...kind,
    // A gameserver of a universe sends our ship to another server (a jump): we go there.
    jumpOrdered: (order) => hooks.jumpOrdered(order),
    // The server's own messages (slot NO_SLOT: a gameserver's match, a netgame's moves and states) are the protocol's; the players' go to the game.
    takeGameState: (slot: number, packet: Packet) => {
      if (slot !== NO_SLOT) return false;
      hooks.fromServer(packet);
      return true;
    },
    // Through a gameserver (or a netgame server) the only link is the server: if it stops acknowledging, the game is over for us.
    ...(hooks.relayed ? { linkFailed: (_addr: Uint8Array, reason: string) => hooks.lost(reason) } : {}),
  });
}

/** Where a server client stands, in the status line's words. */
export interface ServerStanding {
  name: string;
  phase: 'idle' | 'connecting' | 'joining' | 'welcome' | 'joined' | 'leaving';
  /** `host:port` of the server asked, '' before any. */
  where: string;
  serverName: string;
  /** Our slot (NO_SLOT: a spectator's seat), undefined before the session. */
  slot: number | null | undefined;
  /** Rows of the slot table, ourselves included. */
  players: number;
  solarSystem: string | null;
  started: boolean;
}

/** The status line: joined where, as which slot, with how many players, in which solar system; or how far the join is. */
export function serverStatusLine(s: ServerStanding): string {
  switch (s.phase) {
    case 'joined': {
      const system = s.solarSystem ? `, in solar system ${s.solarSystem}` : '';
      if (s.slot === NO_SLOT) return `spectating ${s.name} "${s.serverName}" at ${s.where}, ${Math.max(0, s.players - 1)} players${system}`;
      return `joined ${s.name} "${s.serverName}" at ${s.where} as slot ${s.slot}, ${s.players} players${system}`;
    }
    case 'connecting':
    case 'joining':
    case 'welcome':
      return `connecting to the ${s.name} at ${s.where}`;
    case 'leaving':
      return `leaving the ${s.name}`;
    default:
      return s.started ? 'not connected (type connect host[:port])' : 'not started';
  }
}
