/**
 * Leak checks: the process's active libuv resources (sockets, timers), so a
 * test can compare before and after disposing what it made.
 */

/** Active libuv resources by type name, e.g. { UDPWrap: 2, Timeout: 1 }. */
export function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

/** Open UDP sockets. */
export const udpHandles = (): number => resources()['UDPWrap'] ?? 0;

/** Pending timers. */
export const timers = (): number => resources()['Timeout'] ?? 0;
