/**
 * The game of a headless bot: the same pure simulation the renderer runs,
 * stepped at 40 Hz with a scripted pilot, reporting its ship and lasers to
 * the protocol exactly as a game view would.
 */
import { GameCodeInterface } from '../../shared/net/gameCode';
import type { NetDelivery } from '../../shared/net/gameLink';
import type { ProtocolGame } from '../../shared/net/protocol';
import { createWorld } from '../../shared/sim/world';
import { chooseSpawnPoint } from '../../shared/sim/spawn';
import { SHIP_RADIUS } from '../../shared/sim/step';
import { stepWorld } from '../../shared/sim/step';
import { STEP_MS, type ShipInput, type World } from '../../shared/sim/types';
import type { ShipState } from '../../shared/wire/types';

export type Pilot = 'circle' | 'idle';

export interface BotGameOptions {
  name: string;
  sendFrequency: number;
  pilot: Pilot;
  seed: number;
  onDeliver(delivery: NetDelivery): void;
}

export class BotGame implements ProtocolGame {
  readonly events = new GameCodeInterface();
  private world: World;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly started = performance.now();
  private seenLasers = new Set<number>();
  private spawnSlot: number | null = null;
  /** The other players' ships where their last states put them (a spawn point one of them sits on is not taken). */
  private readonly others = new Map<number, ShipState['pos']>();

  constructor(private readonly options: BotGameOptions) {
    this.world = createWorld(options.seed, { ships: 1 });
  }

  /** Starts stepping the simulation (fixed 25 ms steps, catching up after timer jitter). */
  start(): void {
    let due = this.now();
    this.timer = setInterval(() => {
      const now = this.now();
      // Catch up at most 8 steps, like the renderer's loop.
      for (let i = 0; i < 8 && due <= now; i++, due += STEP_MS) this.step();
      if (due <= now) due = now;
    }, STEP_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private input(): ShipInput {
    if (this.options.pilot === 'idle') return { thrust: 0, yaw: 0, pitch: 0, roll: 0, fire: false };
    const t = this.world.tick;
    return { thrust: 0.6, yaw: 0.35, pitch: 0.05, roll: 0, fire: t % 80 < 2 };
  }

  private step(): void {
    this.world = stepWorld(this.world, [this.input()]);
    const me = this.world.ships[0];
    for (const laser of this.world.lasers) {
      if (me && laser.owner === me.id && !this.seenLasers.has(laser.id)) {
        this.events.createLaser(laser.id & 0xffff, laser.pos, laser.vel, laser.ttl, this.now());
      }
    }
    this.seenLasers = new Set(this.world.lasers.map((l) => l.id));
  }

  localShip(): ShipState | null {
    const s = this.world.ships[0];
    return s ? { pos: s.pos, rot: s.rot, vel: s.vel, angVel: s.angVel, energy: s.energy, damage: s.damage } : null;
  }

  deliver(delivery: NetDelivery): void {
    if (delivery.kind === 'state') this.others.set(delivery.slot, delivery.state.pos);
    if (delivery.kind === 'players') {
      const present = new Set(delivery.players.map((p) => p.slot));
      for (const slot of [...this.others.keys()]) if (!present.has(slot) || slot === delivery.localSlot) this.others.delete(slot);
    }
    // Like a game view, fly from a free spawn point, our slot's own unless a ship or an asteroid is there.
    if (delivery.kind === 'players' && delivery.localSlot !== null && delivery.localSlot !== this.spawnSlot) {
      this.spawnSlot = delivery.localSlot;
      const obstacles = [...this.others.values()].map((pos) => ({ pos, radius: SHIP_RADIUS }));
      for (const a of this.world.asteroids) obstacles.push({ pos: a.pos, radius: a.radius });
      const pos = chooseSpawnPoint(delivery.localSlot, obstacles);
      this.world = { ...this.world, ships: this.world.ships.map((s) => ({ ...s, pos })) };
    }
    this.options.onDeliver(delivery);
  }

  playerName(): string {
    return this.options.name;
  }

  sendFrequency(): number {
    return this.options.sendFrequency;
  }

  autoJoin(): boolean {
    return true;
  }

  now(): number {
    return performance.now() - this.started;
  }
}
