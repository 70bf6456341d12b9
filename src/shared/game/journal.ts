/**
 * What a recording hears of a ClientGame: every call that changes it, with
 * the arguments it was given, after the call has run. The game is
 * deterministic, so a copy of it at the start of a recording (a snapshot)
 * with these calls made again in the same order is the same game, tick for
 * tick — which is how a client demo replays (src/shared/demo). Nothing else
 * changes a ClientGame: its outputs (notices, outcomes, views) are read, not
 * journaled.
 */
import type { SteppedFrame } from './frameSync';
import type { GamePlayer } from './clientTypes';
import type { MatchLimits } from './match';
import type { ShipInput } from '../sim/types';
import type { RemoteEvent, ShipState } from '../wire/types';
import type { ClientGame } from './clientGame';

export interface GameJournal {
  step(game: ClientGame, input: ShipInput, nowMs: number, botInputs: ReadonlyMap<number, ShipInput> | undefined): void;
  showSynced(game: ClientGame, frames: readonly SteppedFrame[], slot: number): void;
  applyPlayers(game: ClientGame, players: readonly GamePlayer[], localSlot: number | null): void;
  applyState(game: ClientGame, slot: number, state: ShipState, nowMs: number, ageMs: number): void;
  applyEvent(game: ClientGame, slot: number, event: RemoteEvent, nowMs: number, ageMs: number): void;
  addBot(game: ClientGame): void;
  removeBot(game: ClientGame, slot: number | undefined): void;
  setMatchLimits(game: ClientGame, limits: Partial<MatchLimits>): void;
  convergeMs(game: ClientGame, ms: number): void;
}
