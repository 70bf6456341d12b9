/**
 * Cross-engine determinism: the game page in headless Chromium runs the
 * golden run (src/shared/sim/goldenRun.ts) through `window.__starlane` and
 * must end on the hash Node pins in test/unit/sim/goldenRun.test.ts, and on
 * the hash Node computes when one input is changed.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGamePage } from './gamePage';
import { launchChromium } from '../support/browser';
import { startWebShell, type WebShellProcess } from '../support/webShellProcess';
import { GOLDEN_8_SHIPS_10000_TICKS, GOLDEN_RUN, goldenRun, type GoldenRunOptions, type GoldenRunResult } from '../../src/shared/game/goldenRun';

/** The golden run computed by the game page's engine. */
const pageGoldenRun = (page: Page, options: GoldenRunOptions): Promise<GoldenRunResult> =>
  page.evaluate((o) => {
    const hooks = window.__starlane;
    if (!hooks) throw new Error('the game page has no __starlane hooks');
    return hooks.goldenRun(o);
  }, options);

describe('the simulation in the game page (headless Chromium through the browser shell) computes what Node computes', () => {
  let shell: WebShellProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    shell = await startWebShell();
    browser = await launchChromium();
    page = await openGamePage(browser, shell.url, problems);
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.stop();
  });

  it('10,000 ticks of 8 scripted ships end on the hash pinned in Node, with the same figures', async () => {
    const inPage = await pageGoldenRun(page, { ...GOLDEN_RUN });
    const { hash, ...figures } = inPage;
    console.log(`golden run in Chromium ${browser.version()}: hash ${hash} (pinned ${GOLDEN_8_SHIPS_10000_TICKS}), ${JSON.stringify(figures)}`);
    expect(inPage.hash).toBe(GOLDEN_8_SHIPS_10000_TICKS);
    expect(inPage).toEqual(goldenRun(GOLDEN_RUN));
  });

  // (Ship 6's thrust at tick 2500 happens to leave no trace in the end: every match restart puts all ships afresh on their spawn points.)
  it('one changed input gives another hash in the page, the one Node computes for that change', async () => {
    const changed: GoldenRunOptions = { ...GOLDEN_RUN, change: { tick: 1000, ship: 3, field: 'thrust', value: -1 } };
    const inNode = goldenRun(changed);
    const inPage = await pageGoldenRun(page, changed);
    console.log(`golden run with ship 3's thrust at tick 1000 set to -1: Chromium ${inPage.hash}, Node ${inNode.hash}`);
    expect(inPage.hash).not.toBe(GOLDEN_8_SHIPS_10000_TICKS);
    expect(inPage.hash).toBe(inNode.hash);
  });

  it('the page reported no errors', () => {
    expect(problems).toEqual([]);
  });
});
