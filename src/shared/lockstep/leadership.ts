/**
 * Who leads a lockstep world and whose state a peer takes (engine.ts): the
 * leader is the lowest slot of the world still in the slot table; it adds
 * newcomers, removes leavers and answers a desync with a state transfer. A
 * complete transfer is taken without a world, from a slot below our leader,
 * or from our leader as a newer epoch (16-bit, wrapping).
 */
import type { World } from '../game/types';

/** The lowest slot of `world` that is still among `joined`, or null (no world, or none of it joined). */
export function leaderOf(world: World | null, joined: readonly number[]): number | null {
  if (!world) return null;
  let low: number | null = null;
  for (const s of world.ships) if (joined.includes(s.slot) && (low === null || s.slot < low)) low = s.slot;
  return low;
}

/** Whether a complete transfer of epoch `epoch` from `slot` is taken, our world being `world` at epoch `ours`, led by `leader`. */
export function mayAdopt(world: World | null, leader: number | null, ours: number, slot: number, epoch: number): boolean {
  if (!world || leader === null) return true;
  if (slot < leader) return true;
  return slot === leader && epoch !== ours && ((epoch - ours) & 0xffff) < 0x8000;
}

/** Whether two worlds hold the same pilots (a transfer between them is a resync, not a roster change). */
export function sameRoster(a: World, b: World): boolean {
  return a.ships.length === b.ships.length && a.ships.every((s) => b.ships.some((x) => x.slot === s.slot));
}
