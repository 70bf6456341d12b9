/**
 * Public surface of the deterministic Starlane simulation: plain-data types,
 * world creation, the pure fixed-step `stepWorld`, hashing, PRNG and math.
 */
export * from './types';
export * from './prng';
export * from './vec';
export * from './world';
export * from './spawn';
export * from './step';
export * from './hash';
