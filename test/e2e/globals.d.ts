import type { PageHooks } from '../../src/shared/host/pageHooks';

/** The hooks the game page exposes (see src/shared/host/pageHooks.ts). */
declare global {
  interface Window {
    __starlane?: PageHooks;
  }
}

export {};
