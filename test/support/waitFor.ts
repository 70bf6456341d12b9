/**
 * Waiting for a condition, the one way tests wait: `check` is tried now and
 * then every `pollMs` until it returns something other than false, null or
 * undefined (which is returned); after `ms` the wait fails naming `what`.
 * The deadline is a breakage guard, not a speed target: keep it generous.
 */
export async function waitFor<T>(what: string, check: () => T | false | null | undefined | Promise<T | false | null | undefined>, ms = 10_000, pollMs = 20): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== false && v !== null && v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
