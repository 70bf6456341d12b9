/**
 * The one way every e2e test (and the page benchmark) gets a freshly opened
 * game page past the front door: the first start's name prompt answered as a
 * player would (the suggested name or one typed, then Enter), and the menu closed with `menu off`
 * typed in the console, the way a script drives the game without the menu.
 * A page that opens with the menu already closed (a reload mid-game) is left
 * as it is.
 */
import type { Page } from 'playwright-core';

// This file is typed without the DOM (the node project): the page's globals as far as it reads them.
type PageGlobals = { __starlane?: { ready?: boolean; menu(): string }; document: { getElementById(id: string): { hidden: boolean } | null } };

/** The menu layer showing: `menu-name`, `menu-main`, … or `off`. */
export const menuLayer = (page: Page): Promise<string> => page.evaluate(() => (globalThis as unknown as PageGlobals).__starlane?.menu() ?? 'not ready');

/** Waits until the menu shows `layer` (an element id such as `menu-main`, or `off`). */
export async function waitMenu(page: Page, layer: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction((want) => (globalThis as unknown as PageGlobals).__starlane?.menu() === want, layer, { timeout });
}

/**
 * Waits for the page to be ready, then answers the name prompt (if it asks)
 * with `name`, or without one with the name it suggests (`pilot` on a fresh
 * profile, `pilot-2` in a second instance's), and closes the menu.
 */
export async function passFrontDoor(page: Page, name?: string): Promise<void> {
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__starlane?.ready === true, undefined, { timeout: 20_000 });
  if ((await menuLayer(page)) === 'menu-name') {
    if (name !== undefined) await page.fill('#menu-name-input', name);
    await page.press('#menu-name-input', 'Enter');
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__starlane?.menu() !== 'menu-name', undefined, { timeout: 10_000 });
  }
  if ((await menuLayer(page)) === 'off') return;
  await page.keyboard.press('Backquote');
  await page.keyboard.type('menu off');
  await page.keyboard.press('Enter');
  await waitMenu(page, 'off');
  await page.keyboard.press('Backquote');
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('console')?.hidden === true, undefined, { timeout: 10_000 });
}
