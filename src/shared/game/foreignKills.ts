/**
 * A `killObject` naming an object its sender does not own — the one kind
 * of word another player may say about someone else's object (ClientGame's
 * applyEvent): the victim's report that one of our shots hit its ship (its
 * game decided, and counted it: hitReports.ts), the claim of one of our
 * extras by the player who took it (extraClaims.ts), or a mine, laser or
 * missile of a third player spent on the sender's ship. Pure but for the
 * parts it is handed, which it updates in place; returns the world after.
 */
import type { ExtraClaims } from './extraClaims';
import type { ShotLog } from './hitReports';
import type { RemoteObjects } from './remoteObjects';
import type { World } from './types';
import { objectOwner } from '../wire/types';

export interface ForeignKillParts {
  world: World;
  /** Our network slot (null offline) and the slot our ship flies in. */
  netSlot: number | null;
  local: number;
  shotLog: ShotLog;
  remote: RemoteObjects;
  extraClaims: ExtraClaims;
}

/** `slot`'s kill of object `id` (not its own; `killerSlot` as the event says). */
export function foreignKill(p: ForeignKillParts, slot: number, id: number, killerSlot: number): World {
  const ours = objectOwner(id) === p.netSlot && killerSlot === slot;
  const shot = ours ? p.shotLog.keyOf(id) : undefined;
  if (shot !== undefined) {
    p.shotLog.counted(shot);
    // Spent on the victim's ship: it flies no further here either.
    const spent = p.world.objects.find((o) => o.owner === p.local && (o.kind === 'laser' || o.kind === 'missile') && (o.id & 0xffff) === (id & 0xffff));
    if (spent) p.remote.remove(spent.owner, spent.id);
    return p.world;
  }
  if (ours) return p.extraClaims.onClaim(p.world, slot, id & 0xffff);
  if (killerSlot === slot) {
    // A mine that went off under the sender's ship, or a laser or missile that hit it (its game decided): gone here too.
    const owner = objectOwner(id);
    const low = id & 0xffff;
    if (p.world.objects.some((o) => (o.kind === 'mine' || o.kind === 'laser' || o.kind === 'missile') && o.owner === owner && (o.id & 0xffff) === low)) p.remote.remove(owner, low);
  }
  return p.world;
}
