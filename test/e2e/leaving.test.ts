/**
 * What the console says when the game moves under a player (the game page,
 * a real gameserver process): a switch to a model with no server at that
 * host is one line with the way back, and switching back rejoins; a server
 * that shuts down says it closed and why (in the console, and in a dialog
 * over the game); `quit` ends with "Starlane has
 * quit", never a lost-connection banner. Screenshots (test-artifacts/):
 * the console after the switch, and after the server shut down.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { repoRoot, startWebShell, type WebShellProcess } from '../support/webShellProcess';
import { consoleText, openGamePage, type, waitConsole } from './gamePage';

const artifacts = join(repoRoot, 'test-artifacts');

describe('leaving a game, in words a player reads (the game page)', () => {
  let shell: WebShellProcess;
  let browser: Browser;
  let page: Page;
  let server: ServerProcess;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    server = await startServer(['gameserver', '--name', 'Evening', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    shell = await startWebShell();
    browser = await launchChromium();
    page = await openGamePage(browser, shell.url, problems);
    await page.keyboard.press('Backquote');
  });

  afterAll(async () => {
    await browser?.close();
    if (shell?.child.exitCode === null) await shell.stop();
    stopServers();
  });

  it('a switch to netgame with no netgame server there is one line with the way back; switching back rejoins (screenshot)', async () => {
    await type(page, 'protocol gameserver');
    await waitConsole(page, /protocol offline -> gameserver/);
    await type(page, `connect 127.0.0.1:${server.tcp}`);
    await waitConsole(page, /joined gameserver "Evening" as slot 0/, 20_000);
    await type(page, 'protocol netgame');
    // The line's head: the console wraps a long line at the page's width (the whole line is asserted in test/integration/switchAndReasons.test.ts).
    await waitConsole(page, /^no netgame server at 127\.0\.0\.1 \(nothing is listening/m, 20_000);
    expect((await consoleText(page)).replace(/\s+/g, ' ')).toContain('protocol gameserver takes you back to "Evening"');
    await page.screenshot({ path: join(artifacts, 'console-after-switch.png') });
    await type(page, 'protocol gameserver');
    await page.waitForFunction(() => (window.__starlane?.consoleText().match(/joined gameserver "Evening" as slot 0/g) ?? []).length === 2, undefined, { timeout: 20_000 });
  });

  it('a server shut down by its admin says so, with no way to "join again" (screenshot)', async () => {
    server.child.kill('SIGTERM');
    await waitConsole(page, /^the gameserver "Evening" closed: shut down by its/m, 20_000);
    expect((await consoleText(page)).replace(/\s+/g, ' ')).toContain('closed: shut down by its admin (SIGTERM).');
    expect(await server.exited).toBe(0);
    await page.screenshot({ path: join(artifacts, 'console-after-server-shutdown.png') });
    expect(await consoleText(page)).not.toMatch(/removed you|to join again/);
    // Over the game, a dialog says the same, with the way to the menu and no Reconnect (the server is gone by its admin's will).
    await page.waitForFunction(() => window.__starlane?.menu() === 'menu-dialog');
    const dialog = await page.evaluate(() => ({ title: document.querySelector('#menu-dialog h1')?.textContent, text: document.querySelector('#menu-dialog p')?.textContent, buttons: [...document.querySelectorAll('#menu-dialog button')].map((b) => b.textContent) }));
    expect(dialog).toEqual({ title: 'The server closed', text: 'the gameserver "Evening" closed: shut down by its admin (SIGTERM).', buttons: ['Back to menu'] });
  });

  it('quit ends with "Starlane has quit", not a lost connection', async () => {
    await type(page, 'quit');
    const exited = new Promise((resolve) => shell.child.once('exit', resolve));
    await page.waitForFunction(() => document.body.dataset['host'] === 'closed', undefined, { timeout: 20_000 });
    await exited;
    const shown = await page.evaluate(() => document.getElementById('banner')?.textContent ?? '');
    expect(shown).toBe('Starlane has quit. You can close this window.');
    expect(problems.filter((p) => !/WebSocket|ERR_CONNECTION/.test(p))).toEqual([]);
  });
});
