/**
 * The game's sound cues: what a player should hear of one host tick, as plain
 * data the host sends to the page (the `sound` host kind's `webaudio`
 * implementation, src/node/subsystems/sound.ts) and the page plays through its
 * cue graph (src/renderer/src/sound). Derived from the previous and current
 * world view, what the tick did (ClientGame.events) and its notices, and our
 * own input (the engine): pure and deterministic, no clock, no randomness.
 *
 * Which source says what:
 * - a weapon fired (laser, missile, mine, EMP): an object that was not in
 *   the previous view — ours, a bot's, or a remote player's replica the
 *   moment it arrives — at its position; one cue per firer and kind a tick;
 * - a ship destroyed: the tick's `destroyed` notices (where it was shown);
 * - an asteroid broken: one of the previous view's asteroids gone in the
 *   same match round;
 * - our shield or hull hit, an EMP draining us, an extra taken: the tick's
 *   events on our slot (hits on our ship are decided by our game in every
 *   protocol: the victim decides).
 * Our own sounds carry no position (they play on the listener); everyone
 * else's carry a world position the page places relative to our ship.
 */
import { RULES } from './rules';
import { rotate } from '../sim/vec';
import type { GameNotice } from './clientTypes';
import type { WorldEvent } from './events';
import type { ObjectKind, Quat, ShipInput, Vec3 } from './types';
import type { WorldView } from './view';

/** Every cue a tick can raise (the page has one voice per type). */
export const SOUND_CUE_TYPES = ['laser', 'missile', 'mine', 'emp', 'explosion', 'break', 'shieldHit', 'hullHit', 'pickup', 'drained'] as const;
export type SoundCueType = (typeof SOUND_CUE_TYPES)[number];

/** Most cues one tick sends; what is left over is dropped (a state transfer full of new objects must not flood the page). */
export const MAX_CUES_PER_TICK = 16;

/** The source of a cue that is no player's (an asteroid, the match). */
export const NO_SOURCE = -1;

export interface SoundCue {
  type: SoundCueType;
  /** Where it sounds, world units; null: on our own ship (not positional). */
  at: Vec3 | null;
  /** The slot it comes from (the firer, the ship destroyed, whoever hit us), or NO_SOURCE. */
  from: number;
  /** How strong, 0 < strength ≤ 1 (bolts fired, damage taken), for the voice's loudness. */
  strength: number;
}

/** Our engine while our ship flies. */
export interface EngineSound {
  /** Thrust asked for, 0..1 (reverse counts as thrust too). */
  thrust: number;
  afterburner: boolean;
}

/** Where the listener is: our ship's pose (the chase camera looks along it). */
export interface ListenerPose {
  pos: Vec3;
  rot: Quat;
}

/** What the page hears of one host tick: the cues, and the sounds that last while a state does. */
export interface SoundBatch {
  tick: number;
  cues: SoundCue[];
  /** Null while we have no ship flying (destroyed, waiting to respawn). */
  engine: EngineSound | null;
  /** A homing missile is locked on our ship (WorldView.lockedBy): the lock warning sounds. */
  locked: boolean;
  /** Null while we have no ship flying: the page keeps the last pose. */
  listener: ListenerPose | null;
}

/** The batch that silences the page: no cue, no engine, no warning. */
export function silentBatch(tick: number): SoundBatch {
  return { tick, cues: [], engine: null, locked: false, listener: null };
}

const FIRED: Partial<Record<ObjectKind, SoundCueType>> = { laser: 'laser', missile: 'missile', mine: 'mine', emp: 'emp' };

/** A laser shot's loudness: one bolt, and what each parallel bolt adds (a level-3 laser sounds at full strength). */
const ONE_BOLT = 0.6;
const EXTRA_BOLT = (1 - ONE_BOLT) / (RULES.laser.maxLevel - 1);

const clamp01 = (v: number): number => (v > 1 ? 1 : v > 0 ? v : 0);

/** A hit's loudness: the damage over a missile's (the heaviest common blow). */
const hitStrength = (amount: number): number => clamp01(Math.max(0.15, amount / RULES.missile.damage));

const objectKey = (kind: string, owner: number, id: number): string => `${kind}:${owner}:${id}`;

/** One tick as the sound hears it: the views before and after, what the tick did, our input. */
export interface SoundTickInput {
  /** The view the last batch was derived from; null for the first tick after a (re)bind. */
  prev: WorldView | null;
  curr: WorldView;
  /** What the tick did (ClientGame.events); read only when the tick moved on from `prev`. */
  events: readonly WorldEvent[];
  notices: readonly GameNotice[];
  /** Our ship's input this tick. */
  input: ShipInput;
}

/**
 * The batch of one tick. Differences with `prev` count only when the world
 * moved on by a tick or more from it with our slot unchanged (a lockstep
 * frame that waited shows the same world and last frame's events again; a
 * world whose tick went back, or where we have another slot, is a new game,
 * not a volley of new objects).
 */
export function soundCues({ prev, curr, events, notices, input }: SoundTickInput): SoundBatch {
  const local = curr.localSlot;
  const ours = curr.respawnSeconds === null ? curr.ships.find((s) => s.slot === local) : undefined;
  const cues: SoundCue[] = [];
  const shipAt = (slot: number): Vec3 | null => curr.ships.find((s) => s.slot === slot)?.pos ?? null;

  for (const n of notices) {
    if (n.type !== 'destroyed') continue;
    if (n.local) cues.push({ type: 'explosion', at: null, from: n.slot, strength: 1 });
    else if (n.pos) cues.push({ type: 'explosion', at: { ...n.pos }, from: n.slot, strength: 1 });
  }

  if (prev !== null && curr.tick > prev.tick && curr.localSlot === prev.localSlot) {
    // What hit us this tick, summed per kind of blow; an EMP's drain; the extras taken.
    let shield = 0;
    let hull = 0;
    let shieldFrom = NO_SOURCE;
    let hullFrom = NO_SOURCE;
    for (const e of events) {
      if (e.type === 'hit' && e.slot === local) {
        if (e.shield > 0) {
          shield += e.shield;
          shieldFrom = e.by;
        }
        if (e.hull > 0) {
          hull += e.hull;
          hullFrom = e.by;
        }
      } else if (e.type === 'drained' && e.slot === local) {
        cues.push({ type: 'drained', at: null, from: e.by, strength: 1 });
      } else if (e.type === 'pickup') {
        const at = e.slot === local ? null : shipAt(e.slot);
        if (e.slot === local || at) cues.push({ type: 'pickup', at: at && { ...at }, from: e.slot, strength: 1 });
      }
    }
    if (shield > 0) cues.push({ type: 'shieldHit', at: null, from: shieldFrom, strength: hitStrength(shield) });
    if (hull > 0) cues.push({ type: 'hullHit', at: null, from: hullFrom, strength: hitStrength(hull) });

    // Weapons fired: objects new since the last view, one cue per firer and kind (three parallel bolts are one shot).
    const before = new Set(prev.objects.map((o) => objectKey(o.kind, o.owner, o.id)));
    const shots = new Map<string, SoundCue>();
    for (const o of curr.objects) {
      const type = FIRED[o.kind];
      if (!type || before.has(objectKey(o.kind, o.owner, o.id))) continue;
      const key = `${type}:${o.owner}`;
      const shot = shots.get(key);
      if (shot) shot.strength = clamp01(shot.strength + EXTRA_BOLT);
      else shots.set(key, { type, at: o.owner === local ? null : { ...o.pos }, from: o.owner, strength: type === 'laser' ? ONE_BOLT : 1 });
    }
    cues.push(...shots.values());
    // An asteroid broken by a laser (a new match brings the whole field back: not a break). One a tick: the nearest.
    if (curr.match.round === prev.match.round) {
      const left = new Set(curr.asteroids.map((a) => a.id));
      const gone = prev.asteroids.filter((a) => !left.has(a.id));
      const near = ours ?? null;
      const dist = (p: Vec3): number => (near ? (p.x - near.pos.x) ** 2 + (p.y - near.pos.y) ** 2 + (p.z - near.pos.z) ** 2 : 0);
      const nearest = gone.reduce<(typeof gone)[number] | null>((best, a) => (best === null || dist(a.pos) < dist(best.pos) ? a : best), null);
      if (nearest) cues.push({ type: 'break', at: { ...nearest.pos }, from: NO_SOURCE, strength: Math.max(0.2, clamp01(nearest.radius / 40)) });
    }
  }

  return {
    tick: curr.tick,
    cues: cues.slice(0, MAX_CUES_PER_TICK),
    engine: ours ? { thrust: clamp01(Math.abs(input.thrust)), afterburner: input.afterburner === true } : null,
    locked: ours !== undefined && curr.lockedBy.length > 0,
    listener: ours ? { pos: { ...ours.pos }, rot: { ...ours.rot } } : null,
  };
}

/**
 * Where `at` is as the listener at `pose` hears it: in the listener's own
 * axes (right +X, up +Y, ahead -Z, as a Web Audio listener that stands at the
 * origin with its default orientation), world units.
 */
export function heardFrom(pose: ListenerPose, at: Vec3): Vec3 {
  const d = { x: at.x - pose.pos.x, y: at.y - pose.pos.y, z: at.z - pose.pos.z };
  const q = pose.rot;
  // The inverse rotation (the conjugate of a unit quaternion) takes world axes to the listener's.
  return rotate({ x: -q.x, y: -q.y, z: -q.z, w: q.w }, d);
}
