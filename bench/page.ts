/**
 * The game page's loop in a real browser (`npm run bench:page [-- --seconds N]`):
 * the built browser shell as a process, headless Chromium (the same one the
 * e2e tests choose: test/support/browser.ts) on its URL, then
 *  (a) the tick rate and frame rate over N seconds with the page visible,
 *  (b) the tick rate over N seconds with the page hidden (timer-driven, no
 *      frames drawn),
 *  (c) the frame time (p50, p99) of a scripted scene — 16 ships, 300
 *      projectiles, 20 explosions alive (view/benchScene.ts) — with effects
 *      off, then on, and their ratio against the target (p99 on ≤ 1.5× off),
 * each printed against its target. The e2e tests only guard that the loop
 * runs at about 40 Hz; the target lives here. WebGL2 through SwiftShader
 * makes the frame rate a software figure.
 */
import { Command, InvalidArgumentError } from 'commander';
import type { Page } from 'playwright-core';
import { launchChromium, chooseBrowser } from '../test/support/browser';
import { cleanUpFile } from '../test/support/testRun';
import { startWebShell } from '../test/support/webShellProcess';
import { passFrontDoor } from '../test/support/frontDoor';
import { TICK_HZ } from '../src/shared/sim';

const program = new Command('bench-page')
  .description('Tick and frame rate of the game page in headless Chromium, visible and hidden, against the 40 Hz target')
  .option('--frames <n>', 'frames of the scripted scene drawn with effects off and again on', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 10 || n > 10_000) throw new InvalidArgumentError('must be an integer from 10 to 10000');
    return n;
  }, 300)
  .option('--seconds <n>', 'seconds measured in each phase', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 600) throw new InvalidArgumentError('must be an integer from 1 to 600');
    return n;
  }, 10)
  .showHelpAfterError();

/**
 * Ticks and frames per second over `seconds` of the page's own clock, with the page visible or made to believe it
 * is hidden. (The script is text: tsx would otherwise wrap its functions in a helper the page does not have.)
 */
async function measure(page: Page, seconds: number, hidden: boolean): Promise<{ hz: number; fps: number }> {
  return page.evaluate(`(async () => {
    const hook = window.__starlane;
    if (!hook) throw new Error('the page has no __starlane hooks');
    if (${hidden}) {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    }
    const t0 = hook.tick(), f0 = hook.rendered(), start = performance.now();
    await new Promise((r) => setTimeout(r, ${seconds * 1000}));
    const elapsed = (performance.now() - start) / 1000;
    const result = { hz: (hook.tick() - t0) / elapsed, fps: (hook.rendered() - f0) / elapsed };
    if (${hidden}) {
      delete document.hidden;
      document.dispatchEvent(new Event('visibilitychange'));
    }
    return result;
  })()`);
}

interface SceneFigures {
  frames: number;
  frameMsP50: number;
  frameMsP99: number;
  drawn: { ships: number; lasers: number; missiles: number; particles: number; explosionsStarted: number };
}

/** The scripted scene drawn `frames` times with effects on or off (the page's window.__starlaneBench). */
async function scene(page: Page, frames: number, effects: boolean): Promise<SceneFigures> {
  return page.evaluate(`(async () => {
    const bench = window.__starlaneBench;
    if (!bench) throw new Error('the page has no __starlaneBench hook');
    return bench.scene({ ships: 16, projectiles: 300, explosions: 20, effects: ${effects}, frames: ${frames} });
  })()`);
}

async function main(): Promise<void> {
  program.parse();
  const { seconds, frames } = program.opts<{ seconds: number; frames: number }>();
  const choice = await chooseBrowser();
  const shell = await startWebShell();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
    await page.goto(shell.url);
    await passFrontDoor(page);
    const mark = (hz: number) => (Math.abs(hz - TICK_HZ) <= 1 ? 'meets' : 'MISSES');
    const visible = await measure(page, seconds, false);
    const hidden = await measure(page, seconds, true);
    process.stdout.write(`browser: ${choice.source} ${choice.executablePath} (Chromium ${browser.version()})\n`);
    process.stdout.write(`visible page: tick rate ${visible.hz.toFixed(2)} Hz (target ${TICK_HZ} ± 1: ${mark(visible.hz)}), ${visible.fps.toFixed(1)} frames/s drawn (SwiftShader)\n`);
    process.stdout.write(`hidden page:  tick rate ${hidden.hz.toFixed(2)} Hz (target ${TICK_HZ} ± 1: ${mark(hidden.hz)}), ${hidden.fps.toFixed(1)} frames/s drawn (target 0)\n`);
    const off = await scene(page, frames, false);
    const on = await scene(page, frames, true);
    const line = (name: string, f: SceneFigures) =>
      `scene, effects ${name}: frame ${f.frameMsP50.toFixed(2)} ms p50, ${f.frameMsP99.toFixed(2)} ms p99 over ${f.frames} frames; drew ${f.drawn.ships} ships, ${f.drawn.lasers} bolts, ${f.drawn.missiles} missiles, ${f.drawn.particles} particles, ${f.drawn.explosionsStarted} explosions started\n`;
    process.stdout.write(line('off', off));
    process.stdout.write(line('on ', on));
    const ratio = on.frameMsP99 / Math.max(0.001, off.frameMsP99);
    process.stdout.write(`effects cost: p99 on / off = ${ratio.toFixed(2)} (target ≤ 1.5: ${ratio <= 1.5 ? 'meets' : 'MISSES'}; SwiftShader, so compare the two only)\n`);
  } finally {
    await browser.close();
    await shell.stop();
    await cleanUpFile();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-page: ${(err as Error).message}\n`);
  process.exit(1);
});
