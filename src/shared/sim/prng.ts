/**
 * Seeded 32-bit PRNG (mulberry32) with its state held in a plain number.
 *
 * The state is a uint32 (an integer in [0, 2^32)) so it can live inside the
 * `World` as data: copy it, hash it, send it. Every function is pure: it takes
 * a state and returns the value together with the next state; nothing is
 * cached. Only integer operations (Math.imul, shifts, xor) are used, so the
 * sequence is bit-identical on every JavaScript engine.
 */

/** 2^32 as a number. */
const TWO_POW_32 = 4294967296;

/**
 * Turn any number into a well-mixed initial PRNG state (uint32).
 * Uses the integer part modulo 2^32; NaN and ±Infinity count as 0. Nearby
 * seeds (1, 2, 3…) give unrelated streams thanks to a murmur3 finaliser.
 */
export function seedRng(seed: number): number {
  let h = Number.isFinite(seed) ? Math.trunc(seed) >>> 0 : 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Next uniformly distributed uint32 in [0, 2^32) and the following state.
 * `state` must be a uint32 (as returned by {@link seedRng} or this function).
 */
export function nextU32(state: number): [value: number, next: number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = Math.imul(next ^ (next >>> 15), next | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [(t ^ (t >>> 14)) >>> 0, next];
}

/** Next float in [0, 1) (a multiple of 2^-32) and the following state. */
export function nextFloat(state: number): [value: number, next: number] {
  const [u, next] = nextU32(state);
  return [u / TWO_POW_32, next];
}

/**
 * Next float in [min, max) (may round to `max` for huge ranges) and the following state.
 * Deterministic: computed as min + f * (max - min) with f from {@link nextFloat}.
 */
export function nextRange(state: number, min: number, max: number): [value: number, next: number] {
  const [f, next] = nextFloat(state);
  return [min + f * (max - min), next];
}

/**
 * Next integer in [0, n) and the following state. `n` must be an integer in
 * [1, 2^21] (so the product f*n is exact); other `n` give 0.
 */
export function nextInt(state: number, n: number): [value: number, next: number] {
  const [f, next] = nextFloat(state);
  if (!(n >= 1 && n <= 2097152) || Math.floor(n) !== n) return [0, next];
  return [Math.floor(f * n), next];
}

/**
 * The same generator as a stateful stream, for tests and tools that want
 * `f()` → next float in [0, 1). Starts from `seed >>> 0` as is (not mixed by
 * {@link seedRng}), so a seed names the stream exactly.
 */
export function floatStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    const [value, next] = nextFloat(state);
    state = next;
    return value;
  };
}
