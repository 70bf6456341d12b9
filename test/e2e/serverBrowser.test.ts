/**
 * The server browser page as a player uses it (headless Chromium through the
 * browser shell, real server processes on loopback): a masterserver lists a
 * gameserver of two solar systems with a bot in it, a slotserver, a netgame
 * server and a gameserver of one seat that a bot holds. The page lists all
 * four with their kind, their solar systems and a ping, Refresh shows its progress, a column header sorts
 * (again: the other way), the rows are reached by keys, Enter on the full
 * server says why it cannot be joined and what to do, a double click on the
 * gameserver joins it (the bot's ship is seen), the star keeps
 * a favourite and the Favourites filter shows only it, and with the
 * masterserver unreachable the page says so while the kept servers still
 * list. The page reads well at 1280×720 and 2560×1440; screenshots in
 * test-artifacts/menu-servers-*.png.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatchedGame, type, waitConsole } from './gamePage';
import { menuLayout } from './menuLayout';
import type { GameTarget } from '../support/gameTarget';
import { waitMenu } from '../support/frontDoor';
import { botsJoined, serverBot, stopBots, type BotWatch } from '../support/botProcess';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { repoRoot } from '../support/webShellProcess';
import { queryMaster } from '../../src/node/net/masterQuery';
import { waitFor } from '../support/waitFor';
import { tempDir } from '../support/testRun';

const artifacts = join(repoRoot, 'test-artifacts');

/** The table as the player reads it: one array of cell texts per row (star, name, kind, systems, players, ping, address). */
const tableRows = (page: Page): Promise<string[][]> =>
  page.$$eval('#servers-table tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent ?? '')));
const names = async (page: Page) => (await tableRows(page)).map((r) => r[1]);
const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? '');
const rowSelector = (name: string) => `#servers-table tbody tr:has(td:text-is("${name}"))`;

/** Runs console lines with the console opened and closed around them. */
async function consoleLines(page: Page, ...lines: string[]): Promise<void> {
  await page.keyboard.press('Backquote');
  for (const line of lines) await type(page, line);
  await page.keyboard.press('Backquote');
  await page.waitForFunction(() => document.getElementById('console')?.hidden === true);
}

describe('the server browser page (real servers on loopback)', () => {
  let master: ServerProcess;
  let arena: ServerProcess;
  let full: ServerProcess;
  const bots: BotWatch[] = [];
  let game: GameTarget;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    master = await startServer(['masterserver', '--name', 'browser-master', '--port', '0']);
    const registered = (name: string) => ['--name', name, '--port', '0', '--udp-port', '0', '--master', `127.0.0.1:${master.tcp}`, '--url', `http://${name}.example/`];
    const galaxy = join(tempDir('browser-galaxy'), 'arena.galaxy');
    writeFileSync(galaxy, 'starlane galaxy 1\nsystem Sol\n  gate Vega 0 0 -400\nsystem Vega\n  gate Sol 0 0 400\n');
    [arena, , , full] = await Promise.all([
      startServer(['gameserver', ...registered('Arena'), '--galaxy', galaxy]),
      startServer(['slotserver', ...registered('Slots')]),
      startServer(['netgame', ...registered('Netgame')]),
      startServer(['gameserver', ...registered('Full'), '--max-players', '1']),
    ]) as [ServerProcess, ServerProcess, ServerProcess, ServerProcess];
    bots.push(serverBot('gameserver', 'owl', `127.0.0.1:${arena.tcp}`, 21), serverBot('gameserver', 'squatter', `127.0.0.1:${full.tcp}`, 22));
    await botsJoined(bots);
    await waitFor('four servers listed, the gameservers with their solar systems', async () => {
      const listed = await queryMaster('127.0.0.1', master.tcp);
      return listed.length === 4 && listed.filter((s) => s.systems.length > 0).length === 2;
    });
    game = await openWatchedGame(problems, { width: 1280, height: 720 });
    page = game.page;
  });

  afterAll(async () => {
    await game?.close();
    await stopBots(bots);
    stopServers();
  });

  it('opened from the console, it asks at once and lists all four servers with their kind, solar systems, players and a ping', async () => {
    await consoleLines(page, `net_master 127.0.0.1:${master.tcp}`, 'menu servers');
    await waitMenu(page, 'menu-servers');
    await page.waitForFunction(() => document.getElementById('servers-status')?.textContent === '4 servers found', undefined, { timeout: 20_000 });
    const rows = await tableRows(page);
    // A gameserver without a galaxy file hosts the one system Sol; the other kinds host none.
    expect(rows.map((r) => [r[1], r[2], r[3], r[4]])).toEqual([
      ['Arena', 'gameserver', 'Sol, Vega', '1/64'],
      ['Full', 'gameserver', 'Sol', '1/1'],
      ['Netgame', 'netgame', '—', '0/8'],
      ['Slots', 'slotserver', '—', '0/8'],
    ]);
    for (const r of rows) {
      expect(r[5], `${r[1]}'s ping`).toMatch(/^\d+(\.\d)? ms$/);
      expect(r[6]).toMatch(/^127\.0\.0\.1:\d+$/);
    }
    console.log(`e2e server browser pings: ${rows.map((r) => `${r[1]} ${r[5]}`).join(', ')}`);
    expect(await page.isVisible('#servers-problem')).toBe(false);
    expect(await page.isVisible('#servers-empty')).toBe(false);
  });

  it('Refresh shows its progress (asking, pinging n of 4) and ends with the same four', async () => {
    // Every status line the page shows, in order.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __statuses: string[] }).__statuses = seen;
      const status = document.getElementById('servers-status')!;
      // Each text the page set (several events of one batch are rendered one after another).
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) seen.push(n.textContent ?? '');
      }).observe(status, { childList: true });
    });
    await page.click('#servers-refresh');
    await page.waitForFunction(() => (window as unknown as { __statuses: string[] }).__statuses.at(-1) === '4 servers found', undefined, { timeout: 20_000 });
    const seen = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
    expect(seen[0]).toBe('asking the masterserver and the LAN…');
    expect(seen.some((s) => /^pinging [0-4] of 4…$/.test(s))).toBe(true);
    expect(await names(page)).toEqual(['Arena', 'Full', 'Netgame', 'Slots']);
  });

  it('a column header sorts by that column, a second press the other way; rows are reached and selected by keys', async () => {
    await page.click('#servers-sort-players');
    expect(await names(page)).toEqual(['Netgame', 'Slots', 'Full', 'Arena']);
    expect(await text(page, '#servers-sort-players')).toBe('Players ▲');
    await page.click('#servers-sort-players');
    expect(await names(page)).toEqual(['Arena', 'Full', 'Netgame', 'Slots']);
    expect(await text(page, '#servers-sort-players')).toBe('Players ▼');
    await page.click('#servers-sort-kind');
    expect(await names(page)).toEqual(['Arena', 'Full', 'Netgame', 'Slots']);
    await page.click('#servers-sort-kind');
    expect(await names(page)).toEqual(['Slots', 'Netgame', 'Arena', 'Full']);
    // A click selects a row; Down moves to the next row and selects it.
    await page.click(`${rowSelector('Netgame')} td:nth-child(2)`);
    await page.keyboard.press('ArrowDown');
    const selected = await page.$$eval('#servers-table tbody tr[aria-selected="true"]', (rows) => rows.map((r) => r.querySelectorAll('td')[1]?.textContent));
    expect(selected).toEqual(['Arena']);
    expect(await page.evaluate(() => document.activeElement?.querySelectorAll('td')[1]?.textContent)).toBe('Arena');
    expect(await page.isEnabled('#servers-join')).toBe(true);
    // By solar system: Sol before Sol, Vega; servers hosting none last, in list order.
    await page.click('#servers-sort-systems');
    expect(await names(page)).toEqual(['Full', 'Arena', 'Netgame', 'Slots']);
    expect(await text(page, '#servers-sort-systems')).toBe('Systems ▲');
  });

  it('the page reads well at 1280×720 and 2560×1440', async () => {
    for (const size of [{ width: 1280, height: 720 }, { width: 2560, height: 1440 }]) {
      await page.setViewportSize(size);
      const report = await menuLayout(page);
      console.log(`e2e server browser at ${size.width}x${size.height}: ${report.controls} controls, smallest text ${report.smallestTextPx} px`);
      expect(report.problems, `${size.width}x${size.height}`).toEqual([]);
      await page.screenshot({ path: join(artifacts, `menu-servers-list-${size.width}x${size.height}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it('Enter on the full server (selected by a click) says why it cannot be joined and what to do; the browser stays', async () => {
    await page.click(`${rowSelector('Full')} td:nth-child(2)`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /server full/.test(document.getElementById('servers-message')?.textContent ?? ''), undefined, { timeout: 20_000 });
    expect(await text(page, '#servers-message')).toBe(`Could not join 127.0.0.1:${full.tcp}: server full — the server is full: try another server, or Refresh to see where a seat is free.`);
    expect(await page.evaluate(() => window.__starlane!.menu())).toBe('menu-servers');
    await page.screenshot({ path: join(artifacts, 'menu-servers-full.png') });
  });

  it('a double click on the gameserver joins it: the menu closes and the bot in it is seen', async () => {
    await page.dblclick(`${rowSelector('Arena')} td:nth-child(2)`);
    await waitMenu(page, 'off', 20_000);
    await page.waitForFunction(() => window.__starlane!.remotes().some((r) => r.name === 'owl'), undefined, { timeout: 20_000 });
    await waitConsole(page, /^joined gameserver "Arena" as slot \d+/m);
  });

  it('the star keeps a favourite; the Favourites and Recent filters show only those', async () => {
    await consoleLines(page, 'menu servers');
    await waitMenu(page, 'menu-servers');
    // The server just joined is the newest recent one.
    await page.click('#servers-show-recent');
    expect(await names(page)).toEqual(['Arena']);
    await page.click('#servers-show-all');
    await page.click(`${rowSelector('Slots')} td.servers-star`);
    await page.waitForFunction(() => [...document.querySelectorAll('#servers-table tbody tr')].some((r) => r.classList.contains('servers-favourite') && r.textContent?.includes('Slots')));
    expect((await tableRows(page)).find((r) => r[1] === 'Slots')?.[0]).toBe('★');
    await page.click('#servers-show-favourites');
    expect(await names(page)).toEqual(['Slots']);
    await page.click('#servers-show-all');
  });

  it('with the masterserver unreachable it says so and what to do, while the kept servers still list with their pings', async () => {
    await consoleLines(page, 'net_master 127.0.0.1:1');
    await page.click('#servers-refresh');
    await page.waitForFunction(() => document.getElementById('servers-status')?.textContent === '0 servers found, plus 2 of your favourite and recent ones', undefined, { timeout: 20_000 });
    expect(await text(page, '#servers-problem')).toBe(
      "The masterserver at 127.0.0.1:1 cannot be reached (nothing is listening at 127.0.0.1:1): only your LAN's servers and your favourite and recent ones are listed. Set the masterserver with net_master host:port in the console.",
    );
    await page.click('#servers-sort-name');
    const rows = await tableRows(page);
    expect(rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      ['☆', 'Arena', 'gameserver'],
      ['★', 'Slots', 'slotserver'],
    ]);
    for (const r of rows) expect(r[5]).toMatch(/^\d+(\.\d)? ms$/);
    await page.screenshot({ path: join(artifacts, 'menu-servers-unreachable.png') });
    expect(problems).toEqual([]);
  });
});
