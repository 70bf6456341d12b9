/**
 * Other players' objects as one client game takes them in (clientGame.ts):
 * a creation event becomes its object (moved on by its age) and a removal is
 * noted; both wait for the next tick, which joins them to the world. A live
 * or waiting duplicate, and any object beyond MAX_REMOTE_OBJECTS, is ignored.
 */
import { kindCreatedBy } from './registry';
import { MATCH_OWNER, type GameObject, type World } from './types';
import type { RemoteEvent } from '../wire/types';

/** Most replicated objects alive at once (a flooding peer cannot make every tick expensive). */
export const MAX_REMOTE_OBJECTS = 256;

const objectKey = (owner: number, id: number): number => owner * 0x100000000 + id;

export class RemoteObjects {
  private readonly incoming: GameObject[] = [];
  private readonly removals = new Set<number>();

  /** Whether anything waits for the next tick. */
  get waiting(): boolean {
    return this.incoming.length > 0 || this.removals.size > 0;
  }

  /** Object `id` (16 bits) of `owner` leaves the world at the next tick. */
  remove(owner: number, id: number): void {
    this.removals.add(objectKey(owner, id));
  }

  /** The object `ev` creates, `id` (16 bits) of `slot`, joins at the next tick (`world`: now; `local`: our slot). */
  create(world: World, slot: number, id: number, ev: RemoteEvent, ageMs: number, local: number): void {
    const kind = kindCreatedBy(ev);
    if (!kind) return;
    const key = objectKey(slot, id);
    let remote = this.incoming.length;
    for (const o of world.objects) {
      if (o.owner === slot && o.id === id) return;
      if (o.owner !== local && o.owner !== MATCH_OWNER) remote++;
    }
    if (remote >= MAX_REMOTE_OBJECTS || this.incoming.some((o) => o.owner === slot && o.id === id)) return;
    const object = kind.fromEvent(ev, slot, id, ageMs);
    if (!object) return;
    this.removals.delete(key);
    this.incoming.push(object);
  }

  /** The tick: what arrived joins `world`, what was removed leaves it. */
  joinTo(world: World): World {
    const objects = world.objects.concat(this.incoming);
    this.incoming.length = 0;
    const removals = this.removals;
    const kept = removals.size > 0 ? objects.filter((o) => !removals.has(objectKey(o.owner, o.id))) : objects;
    removals.clear();
    return { ...world, objects: kept };
  }

  /** Another game: nothing of the last one waits. */
  clear(): void {
    this.incoming.length = 0;
    this.removals.clear();
  }
}
