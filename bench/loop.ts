/**
 * Loop benchmark (`npm run bench:loop`):
 *  (a) cost of one `stepWorld` on a busy world (4 ships turning and firing,
 *      24 asteroids), timed per step with process.hrtime.bigint();
 *  (b) a FixedStepClock driven by a real ~16 ms setTimeout "frame" timer for
 *      5 s: the achieved tick rate (target 40 Hz).
 * Exits by itself once the last timer has fired.
 */
import { FixedStepClock } from '../src/shared/loop/fixedStep';
import { nextFloat, seedRng, STEP_MS, TICK_HZ } from '../src/shared/sim';
import { createWorld, hashWorld, stepWorld } from '../src/shared/game';
import type { Inputs, World } from '../src/shared/game';
import { LoopMeter, percentile } from '../src/shared/util/stats';

const SHIPS = 4;
const WARMUP_STEPS = 2_000;
const MEASURED_STEPS = 20_000;
const TIMER_RUN_MS = 5_000;
const FRAME_MS = 16;

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

/** Seeded inputs: every ship turns pseudo-randomly and holds fire. */
function makeInputs(seed: number): () => Inputs {
  let rng = seedRng(seed);
  const f = (): number => {
    const [v, next] = nextFloat(rng);
    rng = next;
    return v * 2 - 1;
  };
  return () => new Map(Array.from({ length: SHIPS }, (_, slot) => [slot, { thrust: f(), yaw: f(), pitch: f(), roll: f(), fire: true }]));
}

function benchStep(): void {
  let world: World = createWorld(42, { ships: SHIPS, asteroids: 24 });
  const next = makeInputs(7);
  for (let i = 0; i < WARMUP_STEPS; i++) world = stepWorld(world, next());
  const micros: number[] = new Array<number>(MEASURED_STEPS);
  let lasers = 0;
  for (let i = 0; i < MEASURED_STEPS; i++) {
    const inputs = next();
    const t0 = process.hrtime.bigint();
    world = stepWorld(world, inputs);
    const t1 = process.hrtime.bigint();
    micros[i] = Number(t1 - t0) / 1000;
    lasers += world.objects.length;
  }
  const p50 = percentile(micros, 50);
  const p99 = percentile(micros, 99);
  const max = percentile(micros, 100);
  const budgetUs = STEP_MS * 1000;
  console.log(`[bench:loop] (a) stepWorld: ${MEASURED_STEPS} steps after ${WARMUP_STEPS} warm-up; ${SHIPS} ships firing, ${world.asteroids.length} asteroids, avg ${fmt(lasers / MEASURED_STEPS)} lasers live`);
  console.log(`[bench:loop] (a) step time  p50 ${fmt(p50, 2)} us | p99 ${fmt(p99, 2)} us | max ${fmt(max, 2)} us`);
  console.log(`[bench:loop] (a) share of the ${STEP_MS} ms step budget  p50 ${fmt((100 * p50) / budgetUs, 3)}% | p99 ${fmt((100 * p99) / budgetUs, 3)}% | max ${fmt((100 * max) / budgetUs, 3)}%`);
  console.log(`[bench:loop] (a) final tick ${world.tick}, hash ${hashWorld(world)}`);
}

function benchTimer(): Promise<void> {
  return new Promise((resolve) => {
    const clock = new FixedStepClock();
    const meter = new LoopMeter(5000);
    let world: World = createWorld(42, { ships: SHIPS, asteroids: 24 });
    const next = makeInputs(8);
    const start = performance.now();
    let last = start;
    let steps = 0;
    let dropped = 0;
    let frames = 0;
    clock.advance(start);
    meter.recordFrame(start, 0, 0);
    const frame = (): void => {
      const now = performance.now();
      const r = clock.advance(now);
      for (let i = 0; i < r.steps; i++) world = stepWorld(world, next());
      steps += r.steps;
      dropped += r.droppedMs;
      frames++;
      meter.recordFrame(now, now - last, r.steps);
      last = now;
      if (now - start < TIMER_RUN_MS) {
        setTimeout(frame, FRAME_MS);
        return;
      }
      const elapsedS = (now - start) / 1000;
      const snap = meter.snapshot(now);
      console.log(`[bench:loop] (b) timer loop: ${frames} frames of ~${FRAME_MS} ms over ${fmt(elapsedS, 3)} s, ${steps} steps, ${fmt(dropped)} ms dropped`);
      console.log(`[bench:loop] (b) achieved tick rate ${fmt(steps / elapsedS, 2)} Hz (target ${TICK_HZ} Hz), frame rate ${fmt(frames / elapsedS, 1)} fps`);
      console.log(`[bench:loop] (b) LoopMeter over ${fmt(snap.windowS, 2)} s: ${fmt(snap.tickHz, 2)} Hz, ${fmt(snap.fps, 1)} fps, frame interval p50 ${fmt(snap.frameMsP50, 2)} / p95 ${fmt(snap.frameMsP95, 2)} / p99 ${fmt(snap.frameMsP99, 2)} ms`);
      resolve();
    };
    setTimeout(frame, FRAME_MS);
  });
}

benchStep();
await benchTimer();
