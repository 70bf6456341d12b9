/**
 * Public surface of the client game: plain-data world, the entity registry,
 * the pure step and hash, the ClientGame every client holds and the driver
 * that clocks it.
 */
export * from './types';
export * from './world';
export * from './step';
export * from './hash';
export * from './registry';
export * from './rules';
export * from './kinds/ship';
export * from './kinds/laser';
export * from './kinds/asteroid';
export * from './sweep';
export * from './clientGame';
export * from './gameDriver';
export * from './view';
