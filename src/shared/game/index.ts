/**
 * Public surface of the client game: plain-data world, the entity registry,
 * the pure step and hash, and the ClientGame every client holds (the driver
 * that clocks it is beside the protocol contract, protocol/gameDriver.ts).
 */
export * from './types';
export * from './world';
export * from './step';
export * from './hash';
export * from './registry';
export * from './rules';
export * from './combat';
export * from './match';
export * from './matchSync';
export * from './extraClaims';
export * from './authorityVoice';
export * from './arena';
export * from './spawnPoint';
export * from './events';
export * from './kinds/ship';
export * from './kinds/laser';
export * from './kinds/missile';
export * from './kinds/mine';
export * from './kinds/emp';
export * from './kinds/extra';
export * from './kinds/field';
export * from './kinds/asteroid';
export * from './sweep';
export * from './clientGame';
export * from './clientMatch';
export * from './remoteObjects';
export * from './view';
