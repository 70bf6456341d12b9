/**
 * A lost game in the game page is a dialog, not only a console line (a real
 * gameserver process): the server killed under a joined player shows
 * "Connection lost" with the reason and "Back to menu" / "Reconnect"; with
 * the server back on its port, Reconnect joins it again and the game has the
 * screen; the same server killed again, Back to menu opens the main menu
 * offline. Screenshot: test-artifacts/dialog-lost-connection.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { repoRoot } from '../support/webShellProcess';
import { waitMenu } from '../support/frontDoor';
import type { GameTarget } from '../support/gameTarget';
import { consoleText, openWatchedGame, type, waitConsole } from './gamePage';

const artifacts = join(repoRoot, 'test-artifacts');
const dialog = (page: Page) => page.evaluate(() => ({ title: document.querySelector('#menu-dialog h1')?.textContent ?? '', text: document.querySelector('#menu-dialog p')?.textContent ?? '', buttons: [...document.querySelectorAll('#menu-dialog button')].map((b) => b.textContent) }));
const joinedCount = async (page: Page) => ((await consoleText(page)).match(/joined gameserver "Outpost" as slot \d/g) ?? []).length;

describe('a lost connection in the game page', () => {
  let game: GameTarget;
  let page: Page;
  let server: ServerProcess;
  let ports: string[];
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer(['gameserver', '--name', 'Outpost', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    ports = ['--port', String(server.tcp), '--udp-port', String(server.udp), '--http-port', '0'];
    game = await openWatchedGame(problems);
    page = game.page;
    await page.keyboard.press('Backquote');
    await type(page, 'protocol gameserver');
    await waitConsole(page, /protocol offline -> gameserver/);
    await type(page, `connect 127.0.0.1:${server.tcp}`);
    await waitConsole(page, /joined gameserver "Outpost" as slot 0/, 20_000);
    await page.keyboard.press('Backquote');
  });

  afterAll(async () => {
    await game?.close();
    stopServers();
  });

  it('the server killed: a "Connection lost" dialog with the reason, Back to menu and Reconnect; the ship takes no keys (screenshot)', async () => {
    server.child.kill('SIGKILL');
    await server.exited;
    await waitMenu(page, 'menu-dialog', 30_000);
    const shown = await dialog(page);
    expect(shown.title).toBe('Connection lost');
    expect(shown.text).toMatch(/^lost connection to the gameserver at 127\.0\.0\.1:\d+/);
    expect(shown.buttons).toEqual(['Back to menu', 'Reconnect']);
    await page.screenshot({ path: join(artifacts, 'dialog-lost-connection.png') });
  });

  it('with the server back, Reconnect joins it again and closes the menu', async () => {
    server = await startServer(['gameserver', '--name', 'Outpost', ...ports]);
    const before = await joinedCount(page);
    await page.click('#menu-dialog button:has-text("Reconnect")');
    await waitMenu(page, 'off', 30_000);
    expect(await joinedCount(page)).toBe(before + 1);
  });

  it('killed again, Back to menu goes to the main menu, offline', async () => {
    server.child.kill('SIGKILL');
    await waitMenu(page, 'menu-dialog', 30_000);
    await page.click('#menu-dialog button:has-text("Back to menu")');
    await waitMenu(page, 'menu-main');
    await page.keyboard.press('Backquote');
    await type(page, 'protocol');
    await waitConsole(page, /^protocol is offline/m);
    expect(problems).toEqual([]);
  });
});
