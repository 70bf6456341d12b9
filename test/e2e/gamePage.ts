/**
 * Driving the game page in the e2e tests: console lines in and out, and the
 * game's own clock (its simulation ticks) to wait on instead of time.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../support/browser';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { repoRoot, startWebShell } from '../support/webShellProcess';
import { openGame, type GameTarget } from '../support/gameTarget';
import { passFrontDoor } from '../support/frontDoor';

/** Plain text of the page's console, scroll-back included. */
export const consoleText = (page: Page): Promise<string> => page.evaluate(() => window.__starlane?.consoleText() ?? '');

/** Types a line into the (open) console and presses Enter. */
export async function type(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** Waits until the console text matches `pattern`; a timeout says what the console showed instead (its last lines). */
export async function waitConsole(page: Page, pattern: RegExp, timeout = 10_000): Promise<void> {
  try {
    await page.waitForFunction(([s, f]) => new RegExp(s as string, f as string).test(window.__starlane?.consoleText() ?? ''), [pattern.source, pattern.flags] as const, { timeout });
  } catch (err) {
    const shown = await page.evaluate(() => window.__starlane?.consoleText() ?? '(no console)').catch(() => '(the page did not answer)');
    const tail = shown.split('\n').slice(-15).join('\n');
    throw new Error(`the console never matched ${String(pattern)} within ${timeout} ms; its last lines:\n${tail}`, { cause: err });
  }
}

/** Waits until the simulation has run `n` more ticks (40 a second). */
export async function waitTicks(page: Page, n: number): Promise<void> {
  const from = await page.evaluate(() => window.__starlane?.tick() ?? 0);
  await page.waitForFunction((target) => (window.__starlane?.tick() ?? 0) >= target, from + n, { timeout: 60_000 });
}

/**
 * Opens the game page at `url` in a new tab of `browser` and waits until it is
 * ready and past the name prompt and the menu (frontDoor.ts; with `frontDoor`
 * false, as a new player first sees it); console errors and page errors go
 * into `problems` for the tests to check.
 */
export async function openGamePage(browser: Browser, url: string, problems: string[], viewport = { width: 1024, height: 640 }, frontDoor = true): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  if (frontDoor) await passFrontDoor(page);
  else await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
  return page;
}

/** Two players on one machine: two browser shells on one UDP port range (so LAN discovery finds both) and a page on each, in one Chromium. */
export interface TwoPlayers {
  alpha: Page;
  bravo: Page;
  /** Page errors and console errors of either page. */
  problems: string[];
  close(): Promise<void>;
}

export async function twoPlayersOnLoopback(viewport = { width: 800, height: 500 }): Promise<TwoPlayers> {
  const port = String(await freeUdpPorts(P2P_PORT_SPAN));
  const shells = [await startWebShell(['--client-port', port]), await startWebShell(['--client-port', port])];
  const browser = await launchChromium();
  const problems: string[] = [];
  const [alpha, bravo] = (await Promise.all(shells.map((shell) => openGamePage(browser, shell.url, problems, viewport)))) as [Page, Page];
  return {
    alpha,
    bravo,
    problems,
    close: async () => {
      await browser.close();
      await Promise.all(shells.map((s) => s.stop()));
    },
  };
}

/**
 * Two players on loopback (twoPlayersOnLoopback) for the tests of the calling
 * describe: opened before them all, with test-artifacts/ made for their
 * screenshots, and handed to `take`; closed after them all.
 */
export function twoPlayersForTheseTests(take: (players: TwoPlayers) => void): void {
  let players: TwoPlayers | undefined;
  beforeAll(async () => {
    mkdirSync(join(repoRoot, 'test-artifacts'), { recursive: true });
    players = await twoPlayersOnLoopback();
    take(players);
  });
  afterAll(async () => {
    await players?.close();
  });
}

/** Each page opens its console, takes its name (alpha, bravo) and goes from offline play to `protocol`. */
export async function bothNamedOn(alpha: Page, bravo: Page, protocol: string): Promise<void> {
  for (const [page, name] of [[alpha, 'alpha'], [bravo, 'bravo']] as const) {
    await page.keyboard.press('Backquote');
    await type(page, `name ${name}`);
    await type(page, `protocol ${protocol}`);
    await waitConsole(page, new RegExp(`protocol offline -> ${protocol}`));
  }
}

/**
 * Opens the game (the browser shell, or the Electron app: gameTarget.ts),
 * sends its console errors and page errors to `problems` for the tests to
 * check, and waits until it is ready.
 */
export async function openWatchedGame(problems: string[], viewport = { width: 1024, height: 640 }): Promise<GameTarget> {
  const game = await openGame(viewport);
  game.page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  game.page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await game.page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
  return game;
}

/**
 * The game (openWatchedGame) for the tests of the calling describe: opened
 * before them all, with test-artifacts/ made for their screenshots, and its
 * page handed to `take`; closed after them all.
 */
export function watchedGameForTheseTests(problems: string[], take: (page: Page) => void): void {
  let game: GameTarget | undefined;
  beforeAll(async () => {
    mkdirSync(join(repoRoot, 'test-artifacts'), { recursive: true });
    game = await openWatchedGame(problems);
    take(game.page);
  });
  afterAll(async () => {
    await game?.close();
  });
}

/** Lasers of ours flying now. */
export const ownLasers = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const w = window.__starlane!.world();
    return w.objects.filter((o) => o.owner === w.localSlot && o.kind === 'laser').length;
  });

/** Holds `key` for `ticks` game ticks (console closed); returns the most of our lasers seen flying meanwhile. */
export async function holdAndCount(page: Page, key: string, ticks: number): Promise<number> {
  await page.keyboard.down(key);
  let most = 0;
  for (let i = 0; i < ticks; i += 4) {
    await waitTicks(page, 4);
    most = Math.max(most, await ownLasers(page));
  }
  await page.keyboard.up(key);
  return most;
}
