/**
 * Fake network conditions for the link conditioner (see
 * `conditionedPacketApi.ts`): what the `net_fake*` cvars of the host and the
 * bot's `--fake-*` options describe, their limits, and how they read on the
 * console. Each condition applies to each direction on its own.
 */

/** Fake network conditions; each applies to each direction on its own. */
export interface LinkConditions {
  /** One-way extra delay, ms (0..{@link MAX_FAKE_LAG_MS}). */
  lagMs: number;
  /** Uniform ± spread around the lag, ms (0..{@link MAX_FAKE_JITTER_MS}). */
  jitterMs: number;
  /** Chance that a datagram is lost, % (0..100). */
  lossPct: number;
  /** Chance that a datagram arrives twice, % (0..100). */
  dupPct: number;
  /** Chance that a datagram is held back so later ones overtake it, % (0..100). */
  reorderPct: number;
}

/** A clean link: the wrapper passes everything straight through. */
export const NO_CONDITIONS: LinkConditions = Object.freeze({ lagMs: 0, jitterMs: 0, lossPct: 0, dupPct: 0, reorderPct: 0 });

/** Largest lag the conditioner applies (larger values are clamped), ms. */
export const MAX_FAKE_LAG_MS = 2000;
/** Largest jitter the conditioner applies, ms. */
export const MAX_FAKE_JITTER_MS = 1000;

/** True when `c` asks for anything at all (NaN and negative values count as 0). */
export function isConditioned(c: LinkConditions): boolean {
  return c.lagMs > 0 || c.jitterMs > 0 || c.lossPct > 0 || c.dupPct > 0 || c.reorderPct > 0;
}

const clampTo = (value: number, max: number): number => (value > 0 ? Math.min(value, max) : 0);

/** `c` with every field finite and in range (NaN and negatives → 0, too large → the limit). */
export function sanitizeConditions(c: LinkConditions): LinkConditions {
  return {
    lagMs: clampTo(c.lagMs, MAX_FAKE_LAG_MS),
    jitterMs: clampTo(c.jitterMs, MAX_FAKE_JITTER_MS),
    lossPct: clampTo(c.lossPct, 100),
    dupPct: clampTo(c.dupPct, 100),
    reorderPct: clampTo(c.reorderPct, 100),
  };
}

/** One line for the console: `lag 200 ms ± 20 ms, loss 5%` (or `none`). */
export function describeConditions(raw: LinkConditions): string {
  const c = sanitizeConditions(raw);
  const parts: string[] = [];
  if (c.lagMs > 0 || c.jitterMs > 0) parts.push(`lag ${c.lagMs} ms${c.jitterMs > 0 ? ` ± ${c.jitterMs} ms` : ''}`);
  if (c.lossPct > 0) parts.push(`loss ${c.lossPct}%`);
  if (c.dupPct > 0) parts.push(`duplicates ${c.dupPct}%`);
  if (c.reorderPct > 0) parts.push(`reorder ${c.reorderPct}%`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}
