import { GameCodeInterface } from '../net/gameCode';
import type { ProtocolGame } from './protocol';

/**
 * A game with no ship and nobody watching: protocols still connect, keep
 * slots alive and answer others. Used where no game view exists (tests of
 * the subsystem table, a host before its renderer reports).
 */
export function createIdleGame(now: () => number, name = 'pilot'): ProtocolGame {
  return {
    localShip: () => null,
    events: new GameCodeInterface(),
    deliver: () => undefined,
    playerName: () => name,
    sendFrequency: () => 20,
    autoJoin: () => false,
    now,
  };
}
