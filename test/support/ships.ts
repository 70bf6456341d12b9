import type { ShipState } from '../../src/shared/wire/types';

/** A plausible ship state for tests: at the origin, unrotated, flying along −Z at 50 units/s, full energy; `over` replaces fields. */
export const shipState = (over: Partial<ShipState> = {}): ShipState => ({
  pos: { x: 0, y: 0, z: 0 },
  rot: { x: 0, y: 0, z: 0, w: 1 },
  vel: { x: 0, y: 0, z: -50 },
  angVel: { x: 0, y: 0, z: 0 },
  energy: 100,
  damage: 0,
  ...over,
});
