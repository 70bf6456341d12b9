/**
 * The client-list lines a slot-, game- or netgame server sends every
 * player (and spectator) once seated: `add`, `remove`, `name` and `ship`,
 * applied to the ManagedPeer's table, with the console line a player reads.
 */
import type { PacketApi } from '../../shared/net/packetApi';
import type { ServerLine } from '../../shared/servers/joinProtocol';
import { parseShipUpdate } from '../../shared/servers/shipLines';
import type { ManagedPeer } from '../../shared/session/managedPeer';
import { leftLine } from './leaveWords';
import { endpointAddr } from './serverRoute';

/** What a client-list line needs: the table, the packet API (endpoints to addresses), the console, and the game told of a new table. */
export interface ListParts {
  peer: ManagedPeer;
  api: PacketApi;
  print(line: string): void;
  playersChanged(): void;
}

/** A `ship ip:` line: the player's look, heard; false for any other line. */
export function shipLine(line: string, p: ListParts): boolean {
  const ship = parseShipUpdate(line);
  if (!ship) return false;
  const addr = endpointAddr(p.api, ship.endpoint);
  if (addr) p.peer.heardLook(addr, ship.look);
  return true;
}

/** An `add`, `remove` or `name` line applied to the table; false for any other kind. */
export function listLine(msg: ServerLine, p: ListParts): boolean {
  switch (msg.kind) {
    case 'add': {
      const addr = endpointAddr(p.api, msg.add.endpoint);
      const added = addr ? p.peer.add(msg.add.slot, addr, msg.add.name) : null;
      if (added) p.print(`${added.name} connected (slot ${added.slot})`);
      p.playersChanged();
      return true;
    }
    case 'remove': {
      const addr = endpointAddr(p.api, msg.endpoint);
      const gone = addr ? p.peer.remove(addr) : null;
      if (gone) p.print(leftLine(gone.name, msg.reason));
      p.playersChanged();
      return true;
    }
    case 'name': {
      const addr = endpointAddr(p.api, msg.rename.endpoint);
      if (addr) p.peer.rename(addr, msg.rename.name);
      return true;
    }
    default:
      return false;
  }
}
