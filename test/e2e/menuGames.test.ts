/**
 * The main menu's ways into a game, as a player takes them (the browser
 * shell, LAN discovery kept on loopback): Play on LAN → Peer-to-peer starts
 * a game on the LAN when none answers and the menu closes; Leave game brings
 * the main menu back, offline; Host a game with a kill limit of 3 starts a
 * netgame server in the game, joined as player 0, whose world plays to that
 * limit.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { launchChromium } from '../support/browser';
import { startWebShell, type WebShellProcess } from '../support/webShellProcess';
import { waitMenu } from '../support/frontDoor';
import { consoleText, openGamePage, type, waitConsole } from './gamePage';

describe('starting games from the main menu', () => {
  let shell: WebShellProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  /** Opens a menu page from the console, as a script would, and closes the console. */
  async function menu(p: string): Promise<void> {
    await page.keyboard.press('Backquote');
    await type(page, `menu ${p}`);
    await page.keyboard.press('Backquote');
    await waitMenu(page, `menu-${p}`);
  }

  beforeAll(async () => {
    shell = await startWebShell(['--client-port', String(await freeUdpPorts(P2P_PORT_SPAN)), '--broadcast', '127.255.255.255']);
    browser = await launchChromium();
    page = await openGamePage(browser, shell.url, problems);
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.stop();
  });

  it('Play on LAN → Peer-to-peer: alone on the LAN, a new game starts with us in slot 0 and the menu closes', async () => {
    await menu('lan');
    await page.click('#lan-p2p');
    await waitMenu(page, 'off');
    await waitConsole(page, /connected to the peer-to-peer game as slot 0/, 20_000);
  });

  it('Esc, Leave game: the main menu, offline', async () => {
    await page.keyboard.press('Escape');
    await waitMenu(page, 'menu-pause');
    await page.click('#menu-leave');
    await waitMenu(page, 'menu-main');
    await page.keyboard.press('Backquote');
    await type(page, 'protocol');
    await waitConsole(page, /^protocol is offline/m);
    await page.keyboard.press('Backquote');
  });

  it('Host a game with a kill limit of 3: a netgame server in our game, joined, the limit on the HUD', async () => {
    await menu('host');
    await page.fill('#host-killlimit', '3');
    await page.click('#host-start');
    await waitMenu(page, 'off');
    await waitConsole(page, /^hosting netgame ".*" on tcp \d+/m, 20_000);
    expect((await consoleText(page)).replace(/\s+/g, ' ')).toContain('others join with protocol netgame');
    // The netgame's world (the server's, not the offline one before it) carries the limit.
    await waitConsole(page, /^in the netgame as slot 0 from frame \d+/m, 20_000);
    await page.keyboard.press('Backquote');
    await type(page, 'players');
    await waitConsole(page, /^netgame: frame \d+/m);
    await page.keyboard.press('Backquote');
    expect(await page.evaluate(() => window.__starlane!.world().match.killLimit)).toBe(3);
    expect(problems).toEqual([]);
  });
});
