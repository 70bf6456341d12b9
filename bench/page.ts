/**
 * The game page's loop in a real browser (`npm run bench:page [-- --seconds N]`):
 * the built browser shell as a process, headless Chromium (the same one the
 * e2e tests choose: test/support/browser.ts) on its URL, then
 *  (a) the tick rate and frame rate over N seconds with the page visible,
 *  (b) the tick rate over N seconds with the page hidden (timer-driven, no
 *      frames drawn),
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

async function main(): Promise<void> {
  program.parse();
  const { seconds } = program.opts<{ seconds: number }>();
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
