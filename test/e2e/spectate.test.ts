/**
 * Watching a game from the game page (headless Chromium through the browser
 * shell, real server processes on loopback): a masterserver lists a
 * gameserver where two bots fly; the server browser's Watch button takes a
 * spectator's seat there. The page shows both bots' ships, the camera
 * follows the first with its HUD and the status line says so; fire follows
 * the next bot; `camera free` flies the camera on the player's controls.
 * The gameserver lists the spectator apart from its two players.
 * Screenshots (test-artifacts/): spectator-follow.png, spectator-free.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatchedGame, type, waitConsole } from './gamePage';
import type { GameTarget } from '../support/gameTarget';
import { waitMenu } from '../support/frontDoor';
import { botsJoined, serverBot, stopBots, type BotWatch } from '../support/botProcess';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { repoRoot } from '../support/webShellProcess';
import { queryMaster } from '../../src/node/net/masterQuery';
import { waitFor } from '../support/waitFor';

const artifacts = join(repoRoot, 'test-artifacts');
const status = (page: Page): Promise<string> => page.evaluate(() => document.getElementById('hud-status')?.textContent ?? '');

describe('watching a gameserver from the server browser (the game page)', () => {
  let master: ServerProcess;
  let arena: ServerProcess;
  const bots: BotWatch[] = [];
  let game: GameTarget;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    master = await startServer(['masterserver', '--name', 'watch-master', '--port', '0']);
    arena = await startServer(['gameserver', '--name', 'Arena', '--port', '0', '--udp-port', '0', '--http-port', '0', '--master', `127.0.0.1:${master.tcp}`]);
    bots.push(serverBot('gameserver', 'owl', `127.0.0.1:${arena.tcp}`, 31), serverBot('gameserver', 'lark', `127.0.0.1:${arena.tcp}`, 32));
    await botsJoined(bots);
    await waitFor('the gameserver listed', async () => (await queryMaster('127.0.0.1', master.tcp)).length === 1);
    game = await openWatchedGame(problems, { width: 1280, height: 720 });
    page = game.page;
  });

  afterAll(async () => {
    await game?.close();
    await stopBots(bots);
    stopServers();
  });

  it('Watch on a row takes a spectator seat: both bots\' ships, the camera on the first with its HUD (screenshot)', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'name eye');
    await type(page, `net_master 127.0.0.1:${master.tcp}`);
    await type(page, 'menu servers');
    await page.keyboard.press('Backquote');
    await waitMenu(page, 'menu-servers');
    await page.waitForFunction(() => document.getElementById('servers-status')?.textContent === '1 server found', undefined, { timeout: 20_000 });
    await page.click('#servers-table tbody tr:has(td:text-is("Arena")) td:nth-child(2)');
    await page.click('#servers-watch');
    await page.waitForFunction(() => window.__starlane!.world().ships.length === 2, undefined, { timeout: 20_000 });
    await page.waitForFunction(() => /spectating gameserver "Arena" .*; watching, following (owl|lark)/.test(document.getElementById('hud-status')?.textContent ?? ''), undefined, { timeout: 20_000 });
    const world = await page.evaluate(() => window.__starlane!.world());
    expect(world.ships.map((s) => s.slot)).toContain(world.localSlot);
    const seats = (await (await fetch(`http://127.0.0.1:${arena.http}/status.json`)).json()) as { players: { name: string }[]; spectators: { list: { name: string }[] } };
    expect(seats.players.map((p) => p.name).sort()).toEqual(['lark', 'owl']);
    expect(seats.spectators.list.map((s) => s.name)).toEqual(['eye']);
    console.log(`e2e spectate: ${await status(page)}`);
    await page.screenshot({ path: join(artifacts, 'spectator-follow.png') });
  });

  it('fire follows the next bot; camera free flies the camera (screenshot)', async () => {
    const first = await page.evaluate(() => window.__starlane!.world().localSlot);
    await page.keyboard.down('Space');
    await page.waitForFunction((f) => window.__starlane!.world().localSlot !== f, first, { timeout: 5_000 });
    await page.keyboard.up('Space');
    const followed = await page.evaluate(() => window.__starlane!.world().localSlot);
    expect(await page.evaluate(() => window.__starlane!.world().ships.map((s) => s.slot))).toContain(followed);
    await page.keyboard.press('Backquote');
    await type(page, 'camera free');
    await waitConsole(page, /camera: free/);
    await page.keyboard.press('Backquote');
    await page.waitForFunction(() => window.__starlane!.world().camera !== undefined, undefined, { timeout: 5_000 });
    await page.waitForFunction(() => /watching, free camera/.test(document.getElementById('hud-status')?.textContent ?? ''), undefined, { timeout: 5_000 });
    await page.screenshot({ path: join(artifacts, 'spectator-free.png') });
    expect(problems).toEqual([]);
  });
});
