/**
 * The deterministic maths under the game (src/shared/game): units, PRNG,
 * vectors and quaternions, spawn points.
 */
export * from './types';
export * from './prng';
export * from './vec';
export * from './spawn';
