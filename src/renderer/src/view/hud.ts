import type { Ship } from '../../../shared/sim/types';
import type { LoopStatsSnapshot } from '../../../shared/util/stats';

/**
 * The small heads-up display: player name, speed, tick rate, fps, energy.
 * Numbers are written a few times a second, not every frame, so the DOM
 * work stays off the hot path.
 */
export class Hud {
  private readonly name = byId('hud-name');
  private readonly speed = byId('hud-speed');
  private readonly tick = byId('hud-tick');
  private readonly fps = byId('hud-fps');
  private readonly energy = byId('hud-energy');

  setName(name: string): void {
    this.name.textContent = name;
  }

  setShip(ship: Ship | undefined): void {
    if (!ship) return;
    const v = ship.vel;
    this.speed.textContent = Math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z).toFixed(0);
    this.energy.textContent = ship.energy.toFixed(0);
  }

  setStats(stats: LoopStatsSnapshot): void {
    this.tick.textContent = stats.tickHz.toFixed(1);
    this.fps.textContent = stats.fps.toFixed(0);
  }
}

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page is missing #${id}`);
  return el;
}
