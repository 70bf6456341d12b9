/**
 * Tunables of the peer-to-peer protocol core and their validation.
 * STATE-MACHINE.md (next to this file) explains how each one enters the
 * start-up time bound.
 */
import { MAX_SLOTS } from '../wire/types';

/** Timers and limits of one peer. All durations are in ms of the caller's clock. */
export interface P2pConfig {
  /** Slots in the game (2..MAX_SLOTS); the 1998 design had 4. Every peer of one game should use the same value. */
  maxPlayers: number;
  /** How many times a starting node broadcasts its ConnectRequest (≥ 1). */
  connectRequestRepeats: number;
  /** Time between those broadcasts. */
  connectRequestIntervalMs: number;
  /**
   * How long the connect loop listens before a node that heard of nobody with
   * higher status starts the game itself (as temporary master). Must exceed
   * (repeats − 1) × interval so every broadcast is out before the decision;
   * the default adds 100 ms of margin for latency.
   */
  startupWindowMs: number;
  /** A slave that has had no slot assignment for this long since becoming a slave gives up ('slave-timeout'). */
  slaveTimeoutMs: number;
  /** A slave re-sends its SlotRequest at this interval until it is answered (repairs lost requests and replies). */
  slotRequestIntervalMs: number;
  /**
   * A connected peer of rank r (0 = highest address in its table) answers a
   * connect request after r × this, unless it snoops another peer's answer
   * first. Should exceed the largest one-way latency, or two peers may both
   * answer (harmless: they assign the same slot, see STATE-MACHINE.md).
   */
  replyWaitIntervalMs: number;
  /** A connected peer sends NodeAlive when it has sent nothing to the others for this long (always the case while not joined). */
  aliveIntervalMs: number;
  /** A peer not heard from for this long is removed ('timeout') and its slot freed. */
  aliveTimeoutMs: number;
  /**
   * Whether a GameState overtaken by a newer one from the same sender still
   * reaches the game (a 'game-state' notice). Parsec games drop it (a newer
   * ship state replaces it); lockstep games keep it (its inputs and state
   * chunks are still needed).
   */
  keepOvertakenGameStates: boolean;
}

/** Extra listening time in the default start-up window after the last broadcast is due. */
export const STARTUP_MARGIN_MS = 100;

/** The defaults (4 players, 3 broadcasts 150 ms apart, a 550 ms window, 2 s slave timeout, 60 ms reply wait, 500 ms / 3 s alive). */
export const DEFAULT_P2P_CONFIG: P2pConfig = Object.freeze({
  maxPlayers: 4,
  connectRequestRepeats: 3,
  connectRequestIntervalMs: 150,
  startupWindowMs: 3 * 150 + STARTUP_MARGIN_MS,
  slaveTimeoutMs: 2000,
  slotRequestIntervalMs: 100,
  replyWaitIntervalMs: 60,
  aliveIntervalMs: 500,
  aliveTimeoutMs: 3000,
  keepOvertakenGameStates: false,
});

function check(ok: boolean, what: string): void {
  if (!ok) throw new RangeError(`p2p config: ${what}`);
}

/**
 * Fills in defaults and validates. When the repeats or the interval are given
 * but the window is not, the window is derived from them (repeats × interval
 * + STARTUP_MARGIN_MS) rather than taken from the defaults, so it stays
 * consistent. Throws RangeError naming the first bad field.
 */
export function resolveConfig(partial: Partial<P2pConfig> = {}): P2pConfig {
  const defined = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<P2pConfig>;
  const merged: P2pConfig = { ...DEFAULT_P2P_CONFIG, ...defined };
  if (defined.startupWindowMs === undefined) {
    merged.startupWindowMs = merged.connectRequestRepeats * merged.connectRequestIntervalMs + STARTUP_MARGIN_MS;
  }
  const c = merged;
  check(Number.isInteger(c.maxPlayers) && c.maxPlayers >= 2 && c.maxPlayers <= MAX_SLOTS, `maxPlayers must be an integer 2..${MAX_SLOTS}, not ${c.maxPlayers}`);
  check(Number.isInteger(c.connectRequestRepeats) && c.connectRequestRepeats >= 1, `connectRequestRepeats must be an integer ≥ 1, not ${c.connectRequestRepeats}`);
  for (const key of ['connectRequestIntervalMs', 'startupWindowMs', 'slaveTimeoutMs', 'slotRequestIntervalMs', 'aliveIntervalMs', 'aliveTimeoutMs'] as const) {
    check(Number.isFinite(c[key]) && c[key] > 0, `${key} must be a positive number of ms, not ${c[key]}`);
  }
  check(Number.isFinite(c.replyWaitIntervalMs) && c.replyWaitIntervalMs >= 0, `replyWaitIntervalMs must be ≥ 0, not ${c.replyWaitIntervalMs}`);
  check(
    c.startupWindowMs > (c.connectRequestRepeats - 1) * c.connectRequestIntervalMs,
    `startupWindowMs (${c.startupWindowMs}) must exceed (repeats − 1) × interval (${(c.connectRequestRepeats - 1) * c.connectRequestIntervalMs}) so every broadcast goes out inside the window`,
  );
  check(c.aliveTimeoutMs > c.aliveIntervalMs, `aliveTimeoutMs (${c.aliveTimeoutMs}) must exceed aliveIntervalMs (${c.aliveIntervalMs})`);
  return merged;
}
