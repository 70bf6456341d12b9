/**
 * The entity registry: every object kind (lasers, missiles, mines, EMP
 * pulses, extras, energy fields) declares in one place how it steps, what
 * the hash covers, which wire event creates it and how it is drawn. stepWorld, hashWorld, the
 * game driver (wire out), ClientGame (wire in) and the renderer's view go
 * through this table, so a new kind is one file in kinds/ plus one line here
 * (and its members in the GameObject union of types.ts) — see
 * docs/ARCHITECTURE.md, "Adding an object kind".
 */
import type { GameCodeInterface } from '../net/gameCode';
import type { RemoteEvent } from '../wire/types';
import type { Hasher } from './hasher';
import { empKind } from './kinds/emp';
import { extraKind } from './kinds/extra';
import { fieldKind } from './kinds/field';
import { laserKind } from './kinds/laser';
import { mineKind } from './kinds/mine';
import { missileKind } from './kinds/missile';
import type { WorldEvent } from './events';
import type { Asteroid, GameObject, ObjectKind, Ship, Vec3, World } from './types';

/** What a kind's step may look at and change: the world of one tick in the making. */
export interface StepContext {
  /** The world at the start of the tick (positions before this tick's motion). */
  readonly before: World;
  /** Ships after their own step, in slot order (index-aligned with `before.ships`); a kind replaces an entry to damage it. */
  readonly ships: Ship[];
  /** Asteroids after their own step (index-aligned with `before.asteroids`); a kind replaces an entry to change it. */
  readonly asteroids: Asteroid[];
  /** The PRNG state: read it, draw from it, write it back. */
  rng: number;
  /** Whether this world decides what happens to the ship of `slot`: hits, drains, pickups (the victim decides: see ClientGame). */
  decidesHitsOn(slot: number): boolean;
  /** What happened this tick, in order (hits, pickups, kills…): see events.ts. */
  readonly events: WorldEvent[];
  /**
   * The rules' one way to hurt a ship: `amount` damage to `ships[index]` by
   * `attacker` with object `cause` (shield first, then hull; see combat.ts),
   * recorded as a `hit` event (with the object's id when it is one).
   */
  hit(index: number, amount: number, attacker: number, cause: ObjectKind | 'asteroid', objectId?: number): void;
}

/** How the renderer draws an object: a shape it knows, the object's motion, and for some kinds a size or a type. */
export interface ObjectView {
  kind: ObjectKind;
  id: number;
  owner: number;
  pos: Vec3;
  vel: Vec3;
  /** Spheres (EMP pulses, energy fields): their radius. */
  radius?: number;
  /** Extras: the EXTRA_KINDS index. Missiles: the targeted slot (NO_TARGET for a dumb one). */
  type?: number;
}

/** One object kind. */
export interface EntityKind<O extends GameObject> {
  readonly kind: O['kind'];
  /** The remote event type that creates this kind on other nodes. */
  readonly createdBy: RemoteEvent['type'];
  /** For events several kinds share (createObject, particleObject): the event's `kind` byte that means this kind. */
  readonly wireCode?: number;
  /** One tick of the object; null when it is gone (hit something, ran out of time). */
  step(o: O, ctx: StepContext): O | null;
  /** Feeds every field of `o` to the hash, in a fixed order. */
  hash(h: Hasher, o: O): void;
  /** Queues the creation of `o` (fired at host time `at`) for the other players. */
  send(o: O, events: GameCodeInterface, at: number): void;
  /**
   * The object an incoming creation event from `owner` describes, moved on by
   * `ageMs` of game time (finite and ≥ 0: ClientGame cleans it); null when
   * the event is implausible. `id` is the owner-local id of the object.
   */
  fromEvent(ev: RemoteEvent, owner: number, id: number, ageMs: number): O | null;
  /** What the renderer needs to draw it. */
  view(o: O): ObjectView;
}

/** Every kind, by name. */
export const KINDS: { readonly [K in ObjectKind]: EntityKind<Extract<GameObject, { kind: K }>> } = {
  laser: laserKind,
  missile: missileKind,
  mine: mineKind,
  emp: empKind,
  extra: extraKind,
  field: fieldKind,
};

/** The kind of `o` (one typed lookup instead of a cast at every call site). */
export function kindOf(o: GameObject): EntityKind<GameObject> {
  return KINDS[o.kind] as EntityKind<GameObject>;
}

/** The kind a remote event creates, or null when it creates no object this game knows. */
export function kindCreatedBy(ev: RemoteEvent): EntityKind<GameObject> | null {
  for (const k of Object.values(KINDS) as EntityKind<GameObject>[]) {
    if (k.createdBy !== ev.type) continue;
    if (k.wireCode === undefined || ('kind' in ev && ev.kind === k.wireCode)) return k;
  }
  return null;
}
