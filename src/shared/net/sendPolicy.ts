/**
 * When to send the next game-state packet: at most `sendfreq` times a second,
 * and — Parsec's simple dead reckoning — only when something a receiver could
 * not predict changed (velocity, orientation, rotation, energy, damage) or an
 * event is waiting, with a keep-alive at least every {@link KEEPALIVE_MS}.
 * Position alone is predictable from the last state, so it does not count.
 */
import type { ShipState } from '../wire/types';

export const KEEPALIVE_MS = 500;
export const MIN_SEND_HZ = 5;
export const MAX_SEND_HZ = 60;

export interface SendMemory {
  /** When the last packet went out (ms). */
  at: number;
  /** Quantised state it carried. */
  key: string;
}

/** The parts of a state a receiver cannot extrapolate, rounded to what matters on screen. */
export function unpredictableKey(ship: ShipState | null): string {
  if (!ship) return 'none';
  const q = (v: number, step: number) => Math.round(v / step);
  const { vel, rot, angVel } = ship;
  return [
    q(vel.x, 0.01), q(vel.y, 0.01), q(vel.z, 0.01),
    q(rot.x, 1e-4), q(rot.y, 1e-4), q(rot.z, 1e-4), q(rot.w, 1e-4),
    q(angVel.x, 1e-3), q(angVel.y, 1e-3), q(angVel.z, 1e-3),
    Math.round(ship.energy), Math.round(ship.damage),
  ].join(',');
}

/**
 * Decides whether to send now. `sendHz` is clamped to 5..60. Returns the new
 * memory to keep when sending.
 */
export function sendDecision(
  memory: SendMemory,
  now: number,
  sendHz: number,
  ship: ShipState | null,
  eventsPending: boolean,
): { send: false } | { send: true; memory: SendMemory } {
  const hz = Math.min(MAX_SEND_HZ, Math.max(MIN_SEND_HZ, Number.isFinite(sendHz) ? sendHz : 20));
  // A little slack so a 20 Hz timer that fires at 49.9 ms still sends.
  if (now - memory.at < 1000 / hz - 1) return { send: false };
  const key = unpredictableKey(ship);
  if (!eventsPending && key === memory.key && now - memory.at < KEEPALIVE_MS) return { send: false };
  return { send: true, memory: { at: now, key } };
}
