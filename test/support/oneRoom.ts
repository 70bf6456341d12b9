/**
 * One forwarder as the seats of a gameserver with a single solar system and
 * no stargates (what gameDatagrams.ts needs of galaxyRooms.ts), for tests
 * that drive a GameDatagrams over a Forwarder they seat players in.
 */
import type { Forwarder } from '../../src/node/servers/game/forwarder';
import type { SeatRooms } from '../../src/node/servers/game/gameDatagrams';
import type { ClientSeat } from '../../src/node/servers/game/seat';

export function oneRoom(fwd: Forwarder): SeatRooms {
  return {
    tokens: fwd.byToken,
    hasPlayer: (slot) => fwd.clients.has(slot),
    players: () => fwd.clients.values(),
    spectators: fwd.stand.seats,
    forwarderOf: () => fwd,
    seated: (s: ClientSeat) => fwd.seated(s),
    undirty: (s) => fwd.dirty.delete(s),
    takeDirty: (flush) => fwd.takeDirty(flush),
    stateTaken: () => undefined,
  };
}
