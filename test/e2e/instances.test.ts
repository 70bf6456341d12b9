/**
 * README's LAN recipe as a player runs it: two browser shells on one machine
 * with one settings folder, a page on each. Each player names themselves in
 * the console; after both shells restart, each page shows its own name again.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGamePage } from './gamePage';
import { launchChromium } from '../support/browser';
import { tempDir } from '../support/testRun';
import { repoRoot, startWebShell, type WebShellProcess } from '../support/webShellProcess';

const artifacts = join(repoRoot, 'test-artifacts');

describe('two instances on one machine, each with a page', () => {
  let browser: Browser;
  const shells: WebShellProcess[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(shells.map((s) => s.stop()));
  });

  const open = (shell: WebShellProcess): Promise<Page> => openGamePage(browser, shell.url, problems, { width: 800, height: 500 });
  const hudName = (page: Page) => page.evaluate(() => document.getElementById('hud-name')?.textContent ?? '');

  async function rename(page: Page, name: string): Promise<void> {
    await page.keyboard.press('Backquote');
    await page.keyboard.type(`name ${name}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.getElementById('hud-name')?.textContent === n, name);
    await page.keyboard.press('Backquote');
  }

  it('keep separate names, before and after both restart', async () => {
    const userData = tempDir('e2e-instances');
    const alphaShell = await startWebShell([], userData);
    shells.push(alphaShell);
    const bravoShell = await startWebShell([], userData);
    shells.push(bravoShell);
    const [alpha, bravo] = [await open(alphaShell), await open(bravoShell)];
    expect(await hudName(alpha)).toBe('pilot');
    expect(await hudName(bravo), 'the second instance is told apart from the first').toBe('pilot-2');

    await rename(alpha, 'alpha');
    await rename(bravo, 'bravo');
    expect([await hudName(alpha), await hudName(bravo)]).toEqual(['alpha', 'bravo']);

    // Both quit; both start again in the same order, and each page shows its own player.
    await Promise.all([alpha.close(), bravo.close()]);
    await alphaShell.stop();
    await bravoShell.stop();
    const alphaAgain = await startWebShell([], userData);
    shells.push(alphaAgain);
    const bravoAgain = await startWebShell([], userData);
    shells.push(bravoAgain);
    const [alpha2, bravo2] = [await open(alphaAgain), await open(bravoAgain)];
    expect([await hudName(alpha2), await hudName(bravo2)]).toEqual(['alpha', 'bravo']);
    await bravo2.screenshot({ path: join(artifacts, 'instances-bravo.png') });
    expect(problems).toEqual([]);
  });
});
