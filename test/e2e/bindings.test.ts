/**
 * Rebinding in the game page: `bind j +fire` and `unbind space` in the
 * console, then a reload (the page starts again from the saved settings):
 * J fires our laser, Space no longer does, and a key bound to a console
 * command runs it when pressed.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleText, holdAndCount, watchedGameForTheseTests, ownLasers, type, waitConsole, waitTicks } from './gamePage';

describe('key bindings in the game page', () => {
  let page: Page;
  const problems: string[] = [];
  watchedGameForTheseTests(problems, (p) => (page = p));

  it('bind j +fire and unbind space survive a reload: J fires, Space does not, and a key bound to a command runs it', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'bind j +fire');
    await waitConsole(page, /^J \(KeyJ\) runs "\+fire"$/m);
    await type(page, 'unbind space');
    await waitConsole(page, /^Space \(Space\) unbound/m);
    await type(page, 'bind k "name keyed"');
    await waitConsole(page, /^K \(KeyK\) runs "name keyed"$/m);
    await page.reload();
    await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
    // Wait for the lasers of before the reload to be gone (a laser lives 40 ticks).
    await waitTicks(page, 60);
    expect(await ownLasers(page)).toBe(0);
    const withSpace = await holdAndCount(page, 'Space', 40);
    await waitTicks(page, 60);
    const withJ = await holdAndCount(page, 'KeyJ', 40);
    console.log(`e2e bindings after a reload: lasers flying while Space was held ${withSpace}, while J was held ${withJ}`);
    expect(withSpace).toBe(0);
    expect(withJ).toBeGreaterThan(0);
    expect(await consoleText(page)).not.toMatch(/you are now known as keyed/);
    await page.keyboard.press('KeyK');
    await waitConsole(page, /^you are now known as keyed$/m);
    expect(problems).toEqual([]);
  });
});
