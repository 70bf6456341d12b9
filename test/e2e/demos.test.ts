/**
 * Demos in the game page (docs/DEMO.md): `record` during a practice fight,
 * `stop`, then the Demos page of the main menu plays it back through the
 * game view — the recorded ships move, the HUD says which demo plays and
 * where; `demo camera` follows another ship and flies a free camera; `stop`
 * goes back to the game. Screenshots (test-artifacts/): the playback, a
 * followed bot, the free camera, the Demos page.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleText, type, waitConsole, waitTicks, watchedGameForTheseTests } from './gamePage';
import { repoRoot } from '../support/webShellProcess';

const artifacts = join(repoRoot, 'test-artifacts');
const status = (page: Page): Promise<string> => page.evaluate(() => document.getElementById('hud-status')?.textContent ?? '');
const shipsAt = (page: Page) => page.evaluate(() => window.__starlane!.world().ships.map((s) => ({ slot: s.slot, x: s.pos.x, y: s.pos.y, z: s.pos.z })));

describe('recording a demo and playing it back (the game page)', () => {
  let page: Page;
  const problems: string[] = [];
  watchedGameForTheseTests(problems, (p) => (page = p));

  it('record during a practice fight, stop: the console says what was recorded', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'practice 2 3');
    await page.waitForFunction(() => window.__starlane!.world().ships.length === 3, undefined, { timeout: 10_000 });
    await type(page, 'record e2e-fight');
    await waitConsole(page, /recording demo e2e-fight \(offline\) into .*e2e-fight\.sldemo; stop ends it/);
    await waitTicks(page, 240);
    await type(page, 'stop');
    await waitConsole(page, /recorded demo e2e-fight: \d+\.\d s, \d+ chunks, \d+ KiB/);
    await type(page, 'demos');
    await waitConsole(page, /1 demo in .*demos:\n\s+e2e-fight {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}\d+\.\d s {2}offline {2}\d players?/);
  });

  it('the Demos page lists it and plays it: the recorded ships move, the HUD names the demo (screenshots)', async () => {
    await type(page, 'menu demos');
    await page.keyboard.press('Backquote');
    await page.waitForSelector('#demo-play-0', { state: 'visible', timeout: 10_000 });
    await page.screenshot({ path: join(artifacts, 'demos-page.png') });
    await page.click('#demo-play-0');
    await page.waitForFunction(() => /^demo e2e-fight: \d+ \/ \d+ s/.test(document.getElementById('hud-status')?.textContent ?? ''), undefined, { timeout: 10_000 });
    const before = await shipsAt(page);
    await waitTicks(page, 40);
    const after = await shipsAt(page);
    expect(after).toHaveLength(3);
    const moved = after.filter((s) => {
      const b = before.find((x) => x.slot === s.slot);
      return b !== undefined && Math.hypot(s.x - b.x, s.y - b.y, s.z - b.z) > 1;
    });
    console.log(`e2e demos: ${moved.length} of ${after.length} recorded ships moved in 40 ticks of playback; ${await status(page)}`);
    expect(moved.length).toBeGreaterThanOrEqual(2);
    expect(await consoleText(page)).toMatch(/playing demo e2e-fight: \d+\.\d s of a offline game recorded by /);
    await page.screenshot({ path: join(artifacts, 'demo-playback.png') });
  });

  it('demo camera follows a bot, then flies free; demo speed and pause show in the HUD (screenshots)', async () => {
    await page.keyboard.press('Backquote');
    const own = await page.evaluate(() => window.__starlane!.world().localSlot);
    await type(page, 'demo camera follow next');
    await page.waitForFunction((o) => window.__starlane!.world().localSlot !== o, own, { timeout: 5_000 });
    await waitConsole(page, /following /);
    await page.keyboard.press('Backquote');
    await waitTicks(page, 10);
    await page.screenshot({ path: join(artifacts, 'demo-follow.png') });
    await page.keyboard.press('Backquote');
    await type(page, 'demo camera free');
    await page.waitForFunction(() => window.__starlane!.world().camera !== undefined, undefined, { timeout: 5_000 });
    await type(page, 'demo speed 2');
    await type(page, 'demo pause');
    await page.waitForFunction(() => /×2, paused, free camera/.test(document.getElementById('hud-status')?.textContent ?? ''), undefined, { timeout: 5_000 });
    await page.keyboard.press('Backquote');
    await page.screenshot({ path: join(artifacts, 'demo-free-camera.png') });
  });

  it('stop goes back to the game', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'stop');
    await waitConsole(page, /demo e2e-fight stopped/);
    await page.waitForFunction(() => !/^demo /.test(document.getElementById('hud-status')?.textContent ?? '') && window.__starlane!.world().camera === undefined, undefined, { timeout: 5_000 });
    expect(problems).toEqual([]);
  });
});
