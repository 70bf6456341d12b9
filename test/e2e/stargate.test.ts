/**
 * Through a stargate from the game page (headless Chromium through the
 * browser shell, a real gameserver process with a galaxy file): the page
 * joins the first solar system, sees the gate to the other ahead (drawn and
 * on the radar), flies through it on the thrust key and arrives in the other
 * system, whose gate back it then sees; flying on through a gate to a
 * system no server has, it is refused (the reason on the HUD) and stays.
 * Screenshots (test-artifacts/): stargate.png (the gate ahead),
 * stargate-arrived.png (the other system), stargate-refused.png.
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

const artifacts = join(repoRoot, 'test-artifacts');

// Slot 0 starts at the centre, nose along -Z: the gate to Vega stands ahead, nothing in the way.
const GALAXY = `starlane galaxy 1
galaxy E2E
system Sol
  asteroids 0
  gate Vega 0 0 -400
system Vega
  seed 7
  asteroids 12
  radius 500
  gate Sol 0 0 900
  gate Kappa 0 0 450
`;

const ownShip = (page: Page) =>
  page.evaluate(() => {
    const w = window.__starlane!.world();
    return w.ships.find((s) => s.slot === w.localSlot) ?? null;
  });

describe('flying through a stargate (the game page)', () => {
  let server: ServerProcess;
  let game: GameTarget;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    const file = join(tempDir('galaxy'), 'e2e.galaxy');
    writeFileSync(file, GALAXY);
    server = await startServer(['gameserver', '--name', 'Gates', '--port', '0', '--udp-port', '0', '--galaxy', file]);
    game = await openWatchedGame(problems, { width: 1024, height: 640 });
    page = game.page;
  });

  afterAll(async () => {
    await game?.close();
    stopServers();
  });

  it('joins Sol and sees the gate to Vega ahead, drawn and on the radar (screenshot)', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'name pilot');
    await type(page, 'protocol gameserver');
    await type(page, `connect 127.0.0.1:${server.tcp}`);
    await waitConsole(page, /joined gameserver "Gates" as slot 0/, 20_000);
    await waitConsole(page, /in solar system Sol/);
    await page.keyboard.press('Backquote');
    await page.waitForFunction(() => window.__starlane!.world().system?.name === 'Sol' && window.__starlane!.scene().gates.join() === 'Vega', undefined, { timeout: 10_000 });
    await page.keyboard.down('KeyW');
    await page.waitForFunction(() => {
      const w = window.__starlane!.world();
      return (w.ships.find((s) => s.slot === w.localSlot)?.pos.z ?? 0) < -150;
    }, undefined, { timeout: 20_000, polling: 'raf' });
    await page.screenshot({ path: join(artifacts, 'stargate.png') });
    expect(await page.evaluate(() => window.__starlane!.world().system?.gates)).toEqual([{ to: 'Vega', pos: { x: 0, y: 0, z: -400 } }]);
  });

  it('flies through it and arrives in Vega, beyond the gate back, whose gate it then sees (screenshot)', async () => {
    await page.waitForFunction(() => window.__starlane!.world().system?.name === 'Vega', undefined, { timeout: 20_000, polling: 'raf' });
    await page.keyboard.up('KeyW');
    const ship = await ownShip(page);
    // Arrived beyond the gate back to Sol (z 900), on the side of the centre.
    expect(ship?.pos.z).toBeLessThan(900);
    expect(ship?.pos.z).toBeGreaterThan(600);
    await page.waitForFunction(() => window.__starlane!.scene().gates.join() === 'Sol,Kappa' && window.__starlane!.world().asteroids.length === 12, undefined, { timeout: 10_000 });
    await page.keyboard.press('Backquote');
    await waitConsole(page, /jumped to solar system Vega/);
    await page.keyboard.press('Backquote');
    await page.screenshot({ path: join(artifacts, 'stargate-arrived.png') });
    expect(problems).toEqual([]);
  });

  it('flying on through the gate to Kappa, which no server has, is refused: the reason on the HUD, the ship still in Vega (screenshot)', async () => {
    await page.keyboard.down('KeyW');
    await page.waitForFunction(() => window.__starlane!.chat().some((l) => /^server: The stargate to Kappa leads nowhere: no server has that solar system\.$/.test(l)), undefined, { timeout: 20_000, polling: 'raf' });
    await page.keyboard.up('KeyW');
    await page.screenshot({ path: join(artifacts, 'stargate-refused.png') });
    expect(await page.evaluate(() => window.__starlane!.world().system?.name)).toBe('Vega');
    const ship = await ownShip(page);
    // Through the gate's ring (z 450) or at it: the ship flew on, still in Vega.
    expect(ship?.pos.z).toBeLessThan(500);
    expect(problems).toEqual([]);
  });
});
