/**
 * A stand-in standard-mapping gamepad for the game page (headless Chromium
 * has none): `navigator.getGamepads` answers one pad whose buttons the test
 * presses. Installed before the page's scripts run (on the next load).
 */
import type { Page } from 'playwright-core';
import { waitTicks } from './gamePage';

type Presser = { __press: (i: number, down: boolean) => void };

/** Puts the stand-in pad into every later load of `page` (navigate or reload after this). */
export async function installPadStandIn(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const buttons = Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 }));
    const pad = { id: 'Test Pad (STANDARD GAMEPAD)', index: 0, connected: true, mapping: 'standard', axes: [0, 0, 0, 0], buttons, timestamp: 0 };
    (window as unknown as Presser).__press = (i, down) => {
      buttons[i]!.pressed = down;
      buttons[i]!.value = down ? 1 : 0;
    };
    Object.defineProperty(navigator, 'getGamepads', { value: () => [pad, null, null, null] });
  });
}

/** One press of pad button `i` (standard mapping), held for a few ticks: the page reads the pad every 25 ms. */
export async function pressPad(page: Page, i: number): Promise<void> {
  await page.evaluate((b) => (window as unknown as Presser).__press(b, true), i);
  await waitTicks(page, 3);
  await page.evaluate((b) => (window as unknown as Presser).__press(b, false), i);
  await waitTicks(page, 3);
}
