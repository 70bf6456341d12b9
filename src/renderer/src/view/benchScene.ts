/**
 * A scripted scene for `npm run bench:page`: 16 ships, 300 projectiles (half
 * laser bolts, half missiles with their trails) and 20 explosions alive at
 * once, drawn by a SceneView of its own over the page for a number of
 * frames, with effects on or off. Each frame's time is the scene's render
 * plus the GPU finishing it (gl.finish), so SwiftShader's work is counted;
 * the figures compare effects on and off in the same scene, nothing else.
 * Installed on the page as `window.__starlaneBench` (read by bench/page.ts).
 */
import type { ObjectView } from '../../../shared/game/registry';
import type { ShipView, WorldView } from '../../../shared/game/view';
import { SceneView } from './scene';

export interface BenchSceneOptions {
  ships: number;
  projectiles: number;
  explosions: number;
  effects: boolean;
  frames: number;
}

export interface BenchSceneResult {
  frames: number;
  frameMsP50: number;
  frameMsP99: number;
  /** What the last frame drew. */
  drawn: { ships: number; lasers: number; missiles: number; particles: number; explosionsStarted: number };
}

declare global {
  interface Window {
    __starlaneBench?: { scene(options: BenchSceneOptions): Promise<BenchSceneResult> };
  }
}

/** An explosion's particles live up to 1.2 s: starting explosions at this rate keeps `n` going. */
const EXPLOSION_S = 1.2;

function ship(slot: number, t: number, n: number): ShipView {
  // Ship 0 (ours, the camera's) sits back on +Z facing the others; the rest circle ahead of it.
  const a = (slot / n) * 2 * Math.PI + t * 0.3;
  const pos = slot === 0 ? { x: 0, y: 0, z: 260 } : { x: 120 * Math.cos(a), y: 40 * Math.sin(a * 2), z: 120 * Math.sin(a) };
  const half = a / 2;
  const rot = slot === 0 ? { x: 0, y: 0, z: 0, w: 1 } : { x: 0, y: Math.sin(half), z: 0, w: Math.cos(half) };
  return { slot, pos, rot, vel: { x: -40 * Math.sin(a), y: 0, z: 40 * Math.cos(a) }, energy: 100, shield: 40 - (slot % 4) * 10, damage: (slot % 5) * 20, missiles: 3, mines: 2, laserLevel: 1, invulnerable: 0 };
}

function projectile(i: number, t: number, n: number): ObjectView {
  const missile = i % 2 === 1;
  const a = (i / n) * 2 * Math.PI;
  const r = 40 + ((i * 37) % 140);
  const dz = ((t * (missile ? 60 : 200) + i * 13) % 300) - 150;
  return { kind: missile ? 'missile' : 'laser', id: i, owner: 1 + (i % 15), pos: { x: r * Math.cos(a), y: ((i * 17) % 80) - 40, z: dz }, vel: { x: 0, y: 0, z: missile ? 60 : 200 }, ...(missile ? { type: -1 } : {}) };
}

function world(tick: number, o: BenchSceneOptions): WorldView {
  const t = tick / 40;
  return {
    tick,
    localSlot: 0,
    respawnSeconds: null,
    ships: Array.from({ length: o.ships }, (_, s) => ship(s, t, o.ships)),
    objects: Array.from({ length: o.projectiles }, (_, i) => projectile(i, t, o.projectiles)),
    asteroids: [],
    scores: [],
    match: { phase: 0, secondsLeft: null, killLimit: 0, timeLimitS: 0, round: 0 },
    lockedBy: [],
    bots: [],
    pings: [],
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** Draws the scripted scene for `o.frames` frames and returns the frame times. */
export async function runBenchScene(o: BenchSceneOptions): Promise<BenchSceneResult> {
  const box = document.createElement('div');
  box.style.cssText = 'position:fixed;inset:0;z-index:50';
  document.body.append(box);
  const view = new SceneView(box);
  view.setEffects(o.effects);
  const gl = view.renderer.getContext();
  const times: number[] = [];
  let prev = world(0, o);
  let started = 0;
  let owed = 0;
  let last = performance.now();
  const names = (slot: number) => `pilot ${slot}`;
  try {
    for (let f = 0; f < o.frames; f++) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      owed += (o.explosions / EXPLOSION_S) * Math.min(0.1, (now - last) / 1000);
      last = now;
      const curr = world(f + 1, o);
      for (; owed >= 1; owed--) {
        const s = curr.ships[1 + (started % (o.ships - 1))]!;
        view.explode(s.pos, now);
        started++;
      }
      const t0 = performance.now();
      view.render(prev, curr, 1, names, now);
      gl.finish();
      times.push(performance.now() - t0);
      prev = curr;
    }
    times.sort((a, b) => a - b);
    return {
      frames: times.length,
      frameMsP50: percentile(times, 0.5),
      frameMsP99: percentile(times, 0.99),
      drawn: { ships: prev.ships.length, lasers: prev.objects.filter((x) => x.kind === 'laser').length, missiles: prev.objects.filter((x) => x.kind === 'missile').length, particles: view.particles, explosionsStarted: started },
    };
  } finally {
    view.dispose();
    box.remove();
  }
}

window.__starlaneBench = { scene: runBenchScene };
