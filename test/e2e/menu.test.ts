/**
 * The front door as a new player meets it (headless Chromium through the
 * browser shell, a fresh settings folder): the name prompt first, then the
 * main menu over the game view; practice against two bots started from the
 * menu by keys alone; Esc in the game for the pause menu and its way back
 * to the main menu; the server browser reached by keys; the console over the
 * menu driving it (`menu settings`); the menu read well at 1280×720 and
 * 2560×1440; a gamepad moving through it. Screenshots in test-artifacts/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { repoRoot, startWebShell, type WebShellProcess } from '../support/webShellProcess';
import { menuLayer, waitMenu } from '../support/frontDoor';
import { menuLayout } from './menuLayout';
import { installPadStandIn, pressPad } from './padStandIn';
import { openGamePage, type, waitConsole, waitTicks } from './gamePage';

const artifacts = join(repoRoot, 'test-artifacts');

/** The text of the menu layer showing. */
const layerText = (page: Page) => page.evaluate(() => document.querySelector('#menu > section:not([hidden])')?.textContent ?? '');
/** The focused element's text (a button's label, or a field's id). */
const focused = (page: Page) => page.evaluate(() => (document.activeElement instanceof HTMLInputElement ? `#${document.activeElement.id}` : (document.activeElement?.textContent ?? '')));

describe('the main menu (a new player, keyboard and mouse)', () => {
  let shell: WebShellProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    shell = await startWebShell();
    browser = await launchChromium();
    // As a new player first sees it: the front door is what this test is about.
    page = await openGamePage(browser, shell.url, problems, { width: 1280, height: 720 }, false);
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.stop();
  });

  it('the first start asks for a pilot name, refuses an empty one with the reason, and then shows the main menu', async () => {
    expect(await menuLayer(page)).toBe('menu-name');
    expect(await page.isVisible('#menu-name-input')).toBe(true);
    await page.screenshot({ path: join(artifacts, 'menu-name.png') });
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /at least one character/.test(document.getElementById('menu-name-error')?.textContent ?? ''));
    expect(await menuLayer(page)).toBe('menu-name');
    await page.keyboard.type('Maverick');
    await page.keyboard.press('Enter');
    await waitMenu(page, 'menu-main');
    await page.waitForFunction(() => document.getElementById('hud-name')?.textContent === 'Maverick');
    const text = await layerText(page);
    for (const item of ['Practice', 'Play on LAN', 'Host a game', 'Server browser', 'Settings', 'Quit']) expect(text).toContain(item);
    // The game view runs behind the menu, and the first button has the keyboard.
    const from = await page.evaluate(() => window.__starlane!.rendered());
    await page.waitForFunction((n) => window.__starlane!.rendered() > n + 5, from);
    expect(await focused(page)).toBe('Practice');
    await page.screenshot({ path: join(artifacts, 'menu-main.png') });
  });

  it('reaches practice by keys alone and starts it against two bots; the ships are seen and the menu is gone', async () => {
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toBe('Practice');
    await page.keyboard.press('Enter');
    await waitMenu(page, 'menu-practice');
    expect(await focused(page)).toBe('#practice-bots');
    expect(await page.inputValue('#practice-bots')).toBe('2');
    // Left/Right step a number: 2 → 3 → 2.
    await page.keyboard.press('ArrowRight');
    expect(await page.inputValue('#practice-bots')).toBe('3');
    await page.keyboard.press('ArrowLeft');
    expect(await page.inputValue('#practice-bots')).toBe('2');
    await page.screenshot({ path: join(artifacts, 'menu-practice.png') });
    await page.keyboard.press('Enter');
    await waitMenu(page, 'off');
    await page.waitForFunction(() => window.__starlane!.world().bots.length === 2);
    await waitTicks(page, 40);
    const world = await page.evaluate(() => window.__starlane!.world());
    expect(world.ships.length).toBe(3);
    // The game has the keys again: W flies.
    await page.keyboard.down('KeyW');
    await page.waitForFunction(() => window.__starlane!.ship().speed > 20, undefined, { timeout: 10_000 });
    await page.keyboard.up('KeyW');
    await page.screenshot({ path: join(artifacts, 'menu-practice-fight.png') });
  });

  it('Esc opens the pause menu over the game (the pointer captured by a click is let go); Esc again resumes; Leave game goes back to the main menu without the bots', async () => {
    await page.mouse.click(640, 360);
    await page.waitForFunction(() => document.pointerLockElement?.tagName === 'CANVAS');
    await page.keyboard.press('Escape');
    await waitMenu(page, 'menu-pause');
    expect(await page.evaluate(() => document.pointerLockElement)).toBeNull();
    expect(await layerText(page)).toMatch(/Resume.*Settings.*Leave game.*Quit/);
    await page.screenshot({ path: join(artifacts, 'menu-pause.png') });
    // Keys steer no ship while the menu shows.
    const before = await page.evaluate(() => window.__starlane!.ship().speed);
    await page.keyboard.down('KeyW');
    await waitTicks(page, 20);
    await page.keyboard.up('KeyW');
    expect(await page.evaluate(() => window.__starlane!.ship().speed)).toBeLessThanOrEqual(before + 0.001);
    await page.keyboard.press('Escape');
    await waitMenu(page, 'off');
    await page.keyboard.press('Escape');
    await waitMenu(page, 'menu-pause');
    await page.click('#menu-leave');
    await waitMenu(page, 'menu-main');
    await page.waitForFunction(() => window.__starlane!.world().bots.length === 0);
  });

  it('reaches the server browser by keys alone, and Esc comes back', async () => {
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('Server browser');
    await page.keyboard.press('Enter');
    await waitMenu(page, 'menu-servers');
    await page.keyboard.press('Escape');
    await waitMenu(page, 'menu-main');
  });

  it('the console opens over the menu and drives it: menu settings, a page that does not exist refused, menu main', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'menu settings');
    await waitMenu(page, 'menu-settings');
    await type(page, 'menu');
    await waitConsole(page, /^menu: showing settings/m);
    await type(page, 'menu nowhere');
    await waitConsole(page, /^menu: no page "nowhere"/m);
    await type(page, 'menu main');
    await waitMenu(page, 'menu-main');
    await page.keyboard.press('Backquote');
    // Back from the console, the menu has the keyboard again.
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('Play on LAN');
  });

  it('a reload shows the menu page the game is on and asks no name again', async () => {
    await page.reload();
    await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
    expect(await menuLayer(page)).toBe('menu-main');
    expect(await layerText(page)).toContain('pilot: Maverick');
  });

  it('every page reads well at 1280×720 and 2560×1440: controls inside the window, none overlapping, text at least 12 px', async () => {
    const pages = ['main', 'practice', 'lan', 'host', 'servers', 'settings', 'pause'];
    for (const size of [{ width: 1280, height: 720 }, { width: 2560, height: 1440 }]) {
      await page.setViewportSize(size);
      for (const p of pages) {
        await page.keyboard.press('Backquote');
        await type(page, `menu ${p}`);
        await page.keyboard.press('Backquote');
        await waitMenu(page, `menu-${p}`);
        const report = await menuLayout(page);
        console.log(`e2e menu ${p} at ${size.width}x${size.height}: ${report.controls} controls, smallest text ${report.smallestTextPx} px`);
        expect(report.problems, `${p} at ${size.width}x${size.height}`).toEqual([]);
        expect(report.controls).toBeGreaterThan(0);
        // Every page as a player sees it at 1280×720; at 2560×1440 the main menu stands for the rest (a large software-rendered shot costs seconds).
        if (size.width === 1280 || p === 'main') await page.screenshot({ path: join(artifacts, `menu-${p}-${size.width}x${size.height}.png`) });
      }
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(problems).toEqual([]);
  });
});

describe('the main menu with a gamepad', () => {
  let shell: WebShellProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    shell = await startWebShell();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
    // A stand-in standard-mapping pad the test presses (headless Chromium has no pads).
    await installPadStandIn(page);
    await page.goto(shell.url);
    await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.stop();
  });

  it('the d-pad moves through the menu, A opens a page and B comes back', async () => {
    await page.fill('#menu-name-input', 'padder');
    await page.press('#menu-name-input', 'Enter');
    await waitMenu(page, 'menu-main');
    await pressPad(page, 13); // down
    expect(await focused(page)).toBe('Play on LAN');
    await pressPad(page, 0); // A
    await waitMenu(page, 'menu-lan');
    await pressPad(page, 1); // B
    await waitMenu(page, 'menu-main');
  });
});
