/**
 * Fullscreen in the browser shell, as in a desktop game: F11 and Alt+Enter
 * enter it and leave it again (the Fullscreen API; the Electron window does
 * the same through its menu and the page).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { watchedGameForTheseTests } from './gamePage';

const inFullscreen = (page: Page, want: boolean) => page.waitForFunction((w) => (document.fullscreenElement !== null) === w, want, { timeout: 10_000 });

describe('fullscreen from the keyboard (the game page)', () => {
  let page: Page;
  const problems: string[] = [];
  watchedGameForTheseTests(problems, (p) => (page = p));

  it('F11 enters and leaves fullscreen, and so does Alt+Enter', async () => {
    await page.keyboard.press('F11');
    await inFullscreen(page, true);
    await page.keyboard.press('F11');
    await inFullscreen(page, false);
    await page.keyboard.press('Alt+Enter');
    await inFullscreen(page, true);
    await page.keyboard.press('Alt+Enter');
    await inFullscreen(page, false);
    expect(problems).toEqual([]);
  });
});
