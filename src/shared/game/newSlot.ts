/**
 * What becomes of the world when the network gives us another slot (a game
 * joined or left, a spectator's seat): our ship moves to the new slot — a
 * ship waiting to respawn keeps waiting there, a live one starts fresh on a
 * free spawn point, a spectator has none — and another game means another
 * match: a fresh scoreboard, clock and arena, and nothing of the last game
 * flying on (its shots, mines and extras would hit, or be claimed, in a game
 * that never saw them). Pure.
 */
import { createMatch, type MatchLimits } from './match';
import { createShip, withShip } from './kinds/ship';
import { freeSpawnPoint } from './spawnPoint';
import { MATCH_OWNER, type Ship, type World } from './types';
import { NO_SLOT } from '../wire/types';

/** The ships once our ship, in slot `local`, has moved to the network's slot `net` (null: offline, slot 0). */
export function shipsInNewSlot(ships: readonly Ship[], local: number, net: number | null, world: World): Ship[] {
  const mine = ships.find((s) => s.slot === local);
  const to = net ?? 0;
  let out = ships.filter((s) => s.slot !== local && s.slot !== to);
  if (net === NO_SLOT) out = out.filter((s) => s.slot !== NO_SLOT);
  else if (mine && net !== null && mine.respawnIn > 0) out = withShip(out, { ...mine, slot: to });
  else if (mine && net !== null) out = withShip(out, createShip(to, freeSpawnPoint(to, out, world.asteroids)));
  else if (mine) out = withShip(out, { ...mine, slot: to });
  return out;
}

/** `w` as another game begins in it: no scores, a new match under `limits`, the seed's asteroid field, only the arena's own fields left. */
export function anotherGame(w: World, limits: Partial<MatchLimits>): World {
  return { ...w, scores: [], match: createMatch(limits), asteroids: w.field.slice(), objects: w.objects.filter((o) => o.owner === MATCH_OWNER && o.kind !== 'extra') };
}
