/**
 * The spectator options of the game- and netgame server (`--max-spectators`,
 * and the gameserver's `--spectator-delay`), with their defaults and checks.
 */
import { DEFAULT_MAX_SPECTATORS } from '../join/joinOptions';

/** The longest broadcast delay a server may be started with (s): what it holds back costs memory. */
export const MAX_SPECTATOR_DELAY_S = 120;
/** The most spectator seats a server may have. */
export const MAX_SPECTATOR_SEATS = 1024;

/** A server's spectator seats and delay, checked (one clear line for a bad one). */
export function spectatorSeats(kind: string, options: { maxSpectators?: number; spectatorDelayS?: number }): { maxSpectators: number; spectatorDelayMs: number } {
  const maxSpectators = options.maxSpectators ?? DEFAULT_MAX_SPECTATORS;
  if (!Number.isInteger(maxSpectators) || maxSpectators < 0 || maxSpectators > MAX_SPECTATOR_SEATS) throw new Error(`${kind}: maxSpectators must be a whole number from 0 to ${MAX_SPECTATOR_SEATS}`);
  const delayS = options.spectatorDelayS ?? 0;
  if (!Number.isFinite(delayS) || delayS < 0 || delayS > MAX_SPECTATOR_DELAY_S) throw new Error(`${kind}: spectatorDelayS must be from 0 to ${MAX_SPECTATOR_DELAY_S} seconds`);
  return { maxSpectators, spectatorDelayMs: Math.round(delayS * 1000) };
}
