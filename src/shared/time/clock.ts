/**
 * Time and timers for code that waits (expiries, silence timeouts, ticks): the
 * system clock in the game and the servers, a virtual one in tests, so a test
 * of a 90-second expiry runs in microseconds and exactly.
 *
 * `now()` is milliseconds on a clock that never goes backwards within a run
 * (its origin is arbitrary; only differences mean anything). Handles are
 * opaque and belong to the clock that made them.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Lets a process exit while the timer is pending (Node); nothing elsewhere. */
const unref = <T>(handle: T): T => {
  (handle as { unref?: () => void }).unref?.();
  return handle;
};

/**
 * The real clock: `performance.now()` and the global timers. Its timers do not
 * keep a Node process alive on their own (servers stay up through their sockets).
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => unref(globalThis.setTimeout(fn, ms)),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => unref(globalThis.setInterval(fn, ms)),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};
