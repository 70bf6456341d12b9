/**
 * Through a stargate to another server (headless Chromium through the
 * browser shell; a masterserver and two gameservers as real processes on
 * loopback, one universe key): the page joins Sol on one gameserver, flies
 * through the gate on the thrust key and arrives in Vega on the other, the
 * status line naming it; the masterserver's page shows the universe.
 * Screenshots (test-artifacts/): universe-arrived.png (the page in Vega),
 * universe-page.png (the masterserver's universe page).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatchedGame, type, waitConsole } from './gamePage';
import type { GameTarget } from '../support/gameTarget';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { repoRoot } from '../support/webShellProcess';
import { tempDir } from '../support/testRun';
import { waitFor } from '../support/waitFor';
import { writeUniverseKey } from '../../src/node/servers/common/universeKey';

const artifacts = join(repoRoot, 'test-artifacts');

describe('a jump to another server of the universe (the game page)', () => {
  let master: ServerProcess;
  let alpha: ServerProcess;
  let beta: ServerProcess;
  let game: GameTarget;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    const dir = tempDir('universe');
    const key = join(dir, 'universe.key');
    await writeUniverseKey(key);
    writeFileSync(join(dir, 'alpha.galaxy'), 'starlane galaxy 1\nsystem Sol\n  asteroids 0\n  gate Vega 0 0 -400\n');
    writeFileSync(join(dir, 'beta.galaxy'), 'starlane galaxy 1\nsystem Vega\n  seed 7\n  asteroids 12\n  radius 500\n  gate Sol 0 0 900\n');
    master = await startServer(['masterserver', '--name', 'E2E_Universe', '--port', '0', '--http-port', '0', '--universe-key', key]);
    const gameserver = (name: string, galaxy: string) => startServer(['gameserver', '--name', name, '--port', '0', '--udp-port', '0', '--http-port', '0', '--galaxy', join(dir, galaxy), '--master', `127.0.0.1:${master.tcp}`, '--universe-key', key]);
    alpha = await gameserver('Alpha', 'alpha.galaxy');
    beta = await gameserver('Beta', 'beta.galaxy');
    await waitFor('both servers in the universe', async () => {
      const u = (await (await fetch(`http://127.0.0.1:${master.http}/universe.json`)).json()) as { systems: { member: boolean }[] };
      return u.systems.length === 2 && u.systems.every((s) => s.member);
    });
    game = await openWatchedGame(problems, { width: 1024, height: 640 });
    page = game.page;
  });

  afterAll(async () => {
    await game?.close();
    stopServers();
  });

  it('flies through the gate in Sol and arrives in Vega on the other server, the status line naming it (screenshot)', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'name pilot');
    await type(page, 'protocol gameserver');
    await type(page, `connect 127.0.0.1:${alpha.tcp}`);
    await waitConsole(page, /joined gameserver "Alpha" as slot 0/, 20_000);
    await waitConsole(page, /in solar system Sol/);
    await page.keyboard.press('Backquote');
    await page.keyboard.down('KeyW');
    await page.waitForFunction(() => window.__starlane!.world().system?.name === 'Vega', undefined, { timeout: 30_000, polling: 'raf' });
    await page.keyboard.up('KeyW');
    await page.waitForFunction(() => /joined gameserver "Beta" .*, in solar system Vega$/.test(document.getElementById('hud-status')?.textContent ?? ''), undefined, { timeout: 10_000 });
    await page.waitForFunction(() => window.__starlane!.scene().gates.join() === 'Sol' && window.__starlane!.world().asteroids.length === 12, undefined, { timeout: 10_000 });
    await page.keyboard.press('Backquote');
    await waitConsole(page, /through the stargate to Vega on the gameserver at 127\.0\.0\.1:\d+…/);
    await waitConsole(page, /jumped to solar system Vega/);
    await page.keyboard.press('Backquote');
    await page.screenshot({ path: join(artifacts, 'universe-arrived.png') });
    const seats = (await (await fetch(`http://127.0.0.1:${beta.http}/status.json`)).json()) as { players: { name: string; system: string; career: { jumps: number } }[] };
    expect(seats.players.map((p) => [p.name, p.system, p.career.jumps])).toEqual([['pilot', 'Vega', 1]]);
    expect(problems).toEqual([]);
  });

  it("the masterserver's page shows the universe: each system, its server and where its gates lead (screenshot)", async () => {
    const browser = page.context().browser();
    if (!browser) throw new Error('no browser to open the masterserver page in');
    const context = await browser.newContext({ viewport: { width: 1024, height: 640 } });
    const other = await context.newPage();
    try {
      await other.goto(`http://127.0.0.1:${master.http}/`);
      const text = await other.textContent('body');
      expect(text).toContain('The universe');
      expect(text).toMatch(/SolAlpha:\d+yes0Vega/);
      expect(text).toMatch(/VegaBeta:\d+yes1Sol/);
      await other.screenshot({ path: join(artifacts, 'universe-page.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
