/**
 * The local game: the pure 40 Hz world plus what the network needs from it —
 * the local ship's state and the events of each frame (lasers fired, own
 * destruction), remote players' lasers replicated into the world, and death
 * and respawn of the local ship.
 *
 * Parsec's ownership model: this client owns its ship and its lasers; other
 * players' lasers are simulated here from their creation events, and hits on
 * the local ship are decided here (the victim decides).
 */
import type { LocalGameEvent, LocalGameUpdate } from '../../../shared/net/gameLink';
import { MAX_LOCAL_EVENTS } from '../../../shared/net/gameLink';
import { MAX_COORD } from '../../../shared/net/gameLinkParse';
import { stepWorld } from '../../../shared/sim/step';
import { NO_INPUT, TICK_HZ, type Laser, type ShipInput, type Vec3, type World } from '../../../shared/sim/types';
import { createShip, createWorld } from '../../../shared/sim/world';
import { chooseSpawnPoint, type SpawnObstacle } from '../../../shared/sim/spawn';
import { SHIP_RADIUS } from '../../../shared/sim/step';
import { MAX_WIRE_SLOTS, NO_SLOT, type ShipState } from '../../../shared/wire/types';

/**
 * Id of a replicated remote laser in the local world: this base + its wire
 * object id (objectId(slot, localId) ≤ 0xffffff). Local ids come from
 * `World.nextId`, which would need 16.7 million shots to get here.
 */
export const REMOTE_LASER_ID_BASE = 0x1000000;
/**
 * `owner` of a replicated remote laser: this base + the shooter's slot. Local
 * ship ids are small world ids, so a ship's `lastHitBy` in
 * [REMOTE_OWNER_BASE, REMOTE_OWNER_BASE + MAX_WIRE_SLOTS) names the killer's slot.
 */
export const REMOTE_OWNER_BASE = 0x1000;
/** Ticks between the local ship's destruction and its respawn (3 s). */
export const RESPAWN_TICKS = 3 * TICK_HZ;
/** Damage at which a ship is destroyed. */
export const DESTROYED_DAMAGE = 100;
/** Most replicated lasers alive at once (a flooding peer cannot make every tick expensive). */
export const MAX_REMOTE_LASERS = 256;
/** Longest ttl (ticks) a replicated laser gets, whatever its creator claims. */
export const MAX_REMOTE_LASER_TTL = 4 * TICK_HZ;

/** The slot whose laser last hit a ship with this `lastHitBy`, or NO_SLOT (never hit, or not by a remote player). */
export function killerSlotOf(lastHitBy: number): number {
  const slot = lastHitBy - REMOTE_OWNER_BASE;
  return Number.isInteger(slot) && slot >= 0 && slot < MAX_WIRE_SLOTS ? slot : NO_SLOT;
}

const clampCoord = (v: number): number => (v > MAX_COORD ? MAX_COORD : v < -MAX_COORD ? -MAX_COORD : v);
// The host rejects a whole frame with an out-of-range coordinate; a ship far out is clamped instead.
const wireVec = (v: Vec3): Vec3 => ({ x: clampCoord(v.x), y: clampCoord(v.y), z: clampCoord(v.z) });

/** A remote laser creation as delivered (a `createLaser` remote event). */
export interface RemoteLaser {
  id: number;
  pos: Vec3;
  vel: Vec3;
  ttl: number;
}

/**
 * Owns the local World. Call {@link step} once per tick, {@link takeUpdate}
 * once per frame (for FrameUp.game), and feed replicated objects in with
 * {@link addRemoteLaser} / {@link removeRemoteObject} as they arrive.
 */
export class LocalGame {
  private prevWorld: World;
  private currWorld: World;
  /** World id of the local ship (kept across respawns, so its lasers keep one owner). */
  readonly shipId: number;
  /** Highest local laser id already reported; world ids only grow, so newer lasers are above it. */
  private reportedLaserId = 0;
  private readonly pending: LocalGameEvent[] = [];
  private readonly incoming: Laser[] = [];
  private readonly removals = new Set<number>();
  private respawnAt = -1;
  private spawnSlot = 0;
  /** The network slot we play in, null offline. */
  private netSlot: number | null = null;

  /** Runs once per death of the local ship, with where it happened and the killer's slot (NO_SLOT if unknown). */
  onDestroyed: (pos: Vec3, killerSlot: number) => void = () => {};
  /** Where the other players' ships are now (a spawn point they occupy is not taken). */
  otherShips: () => readonly Vec3[] = () => [];

  /** The offline world of `seed` with the local ship at slot 0's spawn point. */
  constructor(seed: number) {
    this.currWorld = createWorld(seed);
    this.prevWorld = this.currWorld;
    this.shipId = this.currWorld.ships[0]?.id ?? 0;
    this.reportedLaserId = this.currWorld.nextId - 1;
  }

  /** The world before the last step (for interpolation). */
  get prev(): World {
    return this.prevWorld;
  }
  /** The world now. */
  get curr(): World {
    return this.currWorld;
  }
  /** True while the local ship is destroyed and waiting to respawn. */
  get dead(): boolean {
    return this.respawnAt >= 0;
  }
  /** Whole seconds until the respawn (0 when alive), for the HUD. */
  get respawnSeconds(): number {
    return this.dead ? Math.ceil((this.respawnAt - this.currWorld.tick) / TICK_HZ) : 0;
  }

  /**
   * The network's slot for us (null offline). Entering a game (a new slot)
   * puts the ship, fresh, on a free spawn point — its slot's own unless a
   * ship or an asteroid is there (chooseSpawnPoint) — so two players never
   * start on one spot; respawns choose the same way.
   */
  setSpawnSlot(slot: number | null): void {
    const valid = slot !== null && Number.isInteger(slot) && slot >= 0 && slot < MAX_WIRE_SLOTS ? slot : null;
    if (valid === this.netSlot) return;
    this.netSlot = valid;
    this.spawnSlot = valid ?? 0;
    if (valid === null || this.dead) return;
    const fresh = { ...createShip(this.shipId, 0), pos: this.freeSpawnPoint() };
    this.currWorld = { ...this.currWorld, ships: [fresh] };
    this.prevWorld = this.currWorld;
  }

  /** The spawn point for our slot with the others' ships and the asteroids as they are now. */
  private freeSpawnPoint(): Vec3 {
    const obstacles: SpawnObstacle[] = this.otherShips().map((pos) => ({ pos, radius: SHIP_RADIUS }));
    for (const a of this.currWorld.asteroids) obstacles.push({ pos: a.pos, radius: a.radius });
    return chooseSpawnPoint(this.spawnSlot, obstacles);
  }

  /** One 25 ms tick with `input` for the local ship (ignored while it is destroyed). */
  step(input: ShipInput): void {
    let world = this.currWorld;
    if (this.incoming.length > 0 || this.removals.size > 0) world = this.applyReplicas(world);
    this.prevWorld = world;
    world = stepWorld(world, this.dead ? [NO_INPUT] : [input]);
    // Diffed every tick, not every frame: a laser can be born and die inside one frame's steps.
    for (const l of world.lasers) {
      if (l.owner !== this.shipId || l.id <= this.reportedLaserId) continue;
      this.reportedLaserId = l.id;
      this.pending.push({ type: 'laser', localId: l.id & 0xffff, pos: wireVec(l.pos), vel: l.vel, ttl: l.ttl });
    }
    const ship = world.ships[0];
    if (ship && ship.damage >= DESTROYED_DAMAGE) {
      const killerSlot = killerSlotOf(ship.lastHitBy);
      this.pending.push({ type: 'destroyed', killerSlot });
      // Out of the world while dead: nothing can hit it, nothing steers it, nothing draws it.
      world = { ...world, ships: [] };
      this.respawnAt = world.tick + RESPAWN_TICKS;
      this.onDestroyed(ship.pos, killerSlot);
    } else if (this.dead && world.tick >= this.respawnAt) {
      const fresh = { ...createShip(this.shipId, 0), pos: this.freeSpawnPoint() };
      world = { ...world, ships: [fresh] };
      this.respawnAt = -1;
    }
    this.currWorld = world;
  }

  /**
   * This frame's report for the network: the ship's state (null while
   * destroyed) and the events since the last call, at most MAX_LOCAL_EVENTS
   * (the rest wait for the next frame, so nothing is dropped).
   */
  takeUpdate(): LocalGameUpdate {
    const ship = this.currWorld.ships[0];
    let state: ShipState | null = null;
    if (ship && !this.dead) {
      state = {
        pos: wireVec(ship.pos),
        rot: ship.rot,
        vel: ship.vel,
        angVel: ship.angVel,
        energy: ship.energy,
        damage: Math.min(DESTROYED_DAMAGE, ship.damage),
      };
    }
    const events = this.pending.length <= MAX_LOCAL_EVENTS ? this.pending.splice(0) : this.pending.splice(0, MAX_LOCAL_EVENTS);
    return { tick: this.currWorld.tick, ship: state, events };
  }

  /**
   * Replicates a laser fired by the player in `slot`; it joins the world at
   * the next tick and is then moved (and hits the local ship) by the local
   * simulation. Duplicates of a laser still alive and lasers beyond
   * MAX_REMOTE_LASERS are ignored.
   */
  addRemoteLaser(slot: number, laser: RemoteLaser): void {
    if (!(slot >= 0 && slot < MAX_WIRE_SLOTS) || !(laser.ttl >= 1)) return;
    const id = REMOTE_LASER_ID_BASE + (laser.id & 0xffffff);
    let remote = this.incoming.length;
    for (const l of this.currWorld.lasers) {
      if (l.id === id) return;
      if (l.id >= REMOTE_LASER_ID_BASE) remote++;
    }
    if (remote >= MAX_REMOTE_LASERS || this.incoming.some((l) => l.id === id)) return;
    this.removals.delete(id);
    this.incoming.push({
      id,
      owner: REMOTE_OWNER_BASE + slot,
      pos: { x: laser.pos.x, y: laser.pos.y, z: laser.pos.z },
      vel: { x: laser.vel.x, y: laser.vel.y, z: laser.vel.z },
      ttl: Math.min(MAX_REMOTE_LASER_TTL, Math.floor(laser.ttl)),
    });
  }

  /** Removes a replicated object by its wire object id (a `killObject` for something other than a ship). */
  removeRemoteObject(wireId: number): void {
    this.removals.add(REMOTE_LASER_ID_BASE + (wireId & 0xffffff));
  }

  private applyReplicas(world: World): World {
    const lasers = world.lasers.concat(this.incoming);
    this.incoming.length = 0;
    const removals = this.removals;
    const kept = removals.size > 0 ? lasers.filter((l) => !removals.has(l.id)) : lasers;
    removals.clear();
    return { ...world, lasers: kept };
  }
}
