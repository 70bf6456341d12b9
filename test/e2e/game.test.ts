import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleText, waitTicks } from './gamePage';
import { openGame, type GameTarget } from '../support/gameTarget';
import { repoRoot } from '../support/webShellProcess';
import type { ObjectView, ShipView } from '../../src/shared/game/view';

const artifacts = join(repoRoot, 'test-artifacts');

/** Types a console line and waits until `expected` appears in the console text. */
async function run(page: Page, line: string, expected: string | RegExp): Promise<string> {
  const before = await consoleText(page);
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  const handle = await page.waitForFunction(
    ([prefixLength, source, flags]) => {
      const text = window.__starlane?.consoleText() ?? '';
      const tail = text.slice(Math.max(0, prefixLength - 200));
      return new RegExp(source as string, flags as string).test(tail) ? tail : false;
    },
    [before.length, typeof expected === 'string' ? expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : expected.source, typeof expected === 'string' ? '' : expected.flags] as const,
    { timeout: 10_000 },
  );
  return (await handle.jsonValue()) as string;
}

describe(`the game (${process.env.STARLANE_E2E === 'electron' ? 'Electron app' : 'headless Chromium through the browser shell'})`, () => {
  let game: GameTarget;
  let page: Page;
  const problems: string[] = [];
  let loadedTick = 0;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    game = await openGame();
    page = game.page;
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
    loadedTick = await page.evaluate(() => window.__starlane?.tick() ?? 0);
  });

  afterAll(async () => {
    await game?.close();
  });

  it('loads with a WebGL view and no console errors', async () => {
    const gl = await page.evaluate(() => {
      const canvas = document.querySelector('#view canvas') as HTMLCanvasElement | null;
      return canvas !== null && canvas.getContext('webgl2') !== null;
    });
    expect(gl).toBe(true);
    expect(problems).toEqual([]);
  });

  it('shows the start-up lines printed before the page connected', async () => {
    expect(await consoleText(page)).toMatch(/Starlane [\d.]+ — press ` to open or close this console/);
  });

  it('opens the console with the backquote key and closes it again', async () => {
    await expect(page.isVisible('#console')).resolves.toBe(false);
    await page.keyboard.press('Backquote');
    await expect(page.isVisible('#console')).resolves.toBe(true);
    await page.keyboard.press('Backquote');
    await expect(page.isVisible('#console')).resolves.toBe(false);
    await page.keyboard.press('Backquote');
    await expect(page.isVisible('#console')).resolves.toBe(true);
  });

  it('name maverick changes the name on the HUD', async () => {
    await run(page, 'name maverick', 'you are now known as maverick');
    await page.waitForFunction(() => document.getElementById('hud-name')?.textContent === 'maverick');
    await page.screenshot({ path: join(artifacts, 'console.png') });
  });

  it('Tab completes a command and ArrowUp recalls the previous line', async () => {
    await page.keyboard.type('subsys');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => /\] subsystems ?$/m.test(window.__starlane?.consoleText() ?? ''));
    await page.keyboard.press('Control+U');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => /\] name maverick$/m.test(window.__starlane?.consoleText() ?? ''));
    await page.keyboard.press('Control+U');
  });

  it('with the console closed the ship flies on W and fires on Space; screenshot saved', async () => {
    await page.keyboard.press('Backquote');
    await expect(page.isVisible('#console')).resolves.toBe(false);
    await page.keyboard.down('KeyW');
    await page.waitForFunction(() => (window.__starlane?.ship().speed ?? 0) > 20, undefined, { timeout: 10_000 });
    await page.keyboard.up('KeyW');
    await page.keyboard.down('Space');
    await page.waitForFunction(() => (window.__starlane?.ship().lasers ?? 0) >= 2, undefined, { timeout: 10_000 });
    await page.screenshot({ path: join(artifacts, 'game.png') });
    await page.keyboard.up('Space');
    await page.keyboard.press('Backquote');
    await expect(page.isVisible('#console')).resolves.toBe(true);
  });

  it('keys held while the console is open do not steer the ship', async () => {
    const before = await page.evaluate(() => window.__starlane?.ship().speed ?? -1);
    expect(before).toBeLessThan(110); // below top speed, so leaked thrust would show
    await page.keyboard.down('KeyW');
    // Twenty simulation ticks with the key held (half a second at 40 Hz).
    await waitTicks(page, 20);
    await page.keyboard.up('KeyW');
    // Drag only slows the ship; thrust reaching the game would have sped it up.
    expect(await page.evaluate(() => window.__starlane?.ship().speed ?? -1)).toBeLessThanOrEqual(before);
    await page.keyboard.press('Control+U');
  });

  it('stats reports the tick rate measured over at least 5 s: the 40 Hz loop runs (figure printed; npm run bench:page holds it to 40)', async () => {
    // The stats window needs five seconds of ticks since the page loaded: 240 ticks is six at 40 Hz.
    await page.waitForFunction((n) => (window.__starlane?.tick() ?? 0) >= n, loadedTick + 240, { timeout: 60_000 });
    const text = await run(page, 'stats', /tick rate [\d.]+ Hz.*over [\d.]+ s/);
    const m = /tick rate ([\d.]+) Hz.*over ([\d.]+) s/.exec(text);
    expect(m).not.toBeNull();
    const [hz, seconds] = [Number(m?.[1]), Number(m?.[2])];
    console.log(`e2e stats: tick rate ${hz} Hz over ${seconds} s`);
    expect(seconds).toBeGreaterThanOrEqual(5);
    // A guard only breakage trips (a loop tied to slow frames, or stepping twice): about 40, not 4 or 80.
    expect(hz).toBeGreaterThan(20);
    expect(hz).toBeLessThan(60);
  });

  it('keeps the simulation running at about 40 Hz while the page is hidden (timer-driven, no rendering)', async () => {
    const { rate, drawn } = await page.evaluate(async () => {
      const hook = window.__starlane;
      if (!hook) return { rate: -1, drawn: -1 };
      // Headless pages are never really hidden; make the loop believe it and take its hidden path.
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
      const t0 = hook.tick();
      const f0 = hook.rendered();
      const start = performance.now();
      // Measure over 80 ticks (2 s at 40 Hz), or 10 s if the loop is far slower than it should be.
      while (hook.tick() - t0 < 80 && performance.now() - start < 10_000) await new Promise((r) => setTimeout(r, 50));
      const hz = (hook.tick() - t0) / ((performance.now() - start) / 1000);
      const frames = hook.rendered() - f0;
      delete (document as unknown as { hidden?: boolean }).hidden;
      document.dispatchEvent(new Event('visibilitychange'));
      return { rate: hz, drawn: frames };
    });
    console.log(`e2e hidden-page tick rate: ${rate.toFixed(1)} Hz, frames drawn while hidden: ${drawn}`);
    expect(drawn).toBe(0);
    // Breakage guards only (the rate's target, 40 Hz, is bench:page's to print): a loop that stopped
    // while hidden, or one that ran its steps unthrottled, is far outside these.
    expect(rate).toBeGreaterThan(4);
    expect(rate).toBeLessThan(400);
    await page.waitForFunction((n) => (window.__starlane?.rendered() ?? 0) > n + 5, await page.evaluate(() => window.__starlane?.rendered() ?? 0));
  });

  it('a laser fired after the page was hidden for a second starts at the ship\'s nose at its own tick', async () => {
    // Hidden while the host's game runs on for 40 ticks (a second), the page drawing nothing: waited for by the ticks, not the clock.
    const ticks = await page.evaluate(async () => {
      const hook = window.__starlane!;
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
      const t0 = hook.tick();
      const start = performance.now();
      // A breakage guard only: a loop that stopped while hidden gives up after 20 s.
      while (hook.tick() - t0 < 40 && performance.now() - start < 20_000) await new Promise((r) => setTimeout(r, 25));
      delete (document as unknown as { hidden?: boolean }).hidden;
      document.dispatchEvent(new Event('visibilitychange'));
      return hook.tick() - t0;
    });
    expect(ticks).toBeGreaterThanOrEqual(40);
    await page.keyboard.press('Backquote');
    await expect(page.isVisible('#console')).resolves.toBe(false);
    const known = await page.evaluate(() => window.__starlane!.world().objects.map((o) => o.id));
    await page.keyboard.down('Space');
    // The first view that shows the new laser: its ttl says how many ticks ago it was fired, and it is
    // exactly that far from the nose (8 units ahead of the ship, then 600 units/s faster than it).
    const seen = await page.waitForFunction((old: number[]) => {
      const w = window.__starlane!.world();
      const laser = w.objects.find((o) => o.owner === w.localSlot && !old.includes(o.id));
      const ship = w.ships.find((s) => s.slot === w.localSlot);
      return laser && ship ? { laser, ship, tick: w.tick } : undefined;
    }, known, { timeout: 10_000, polling: 'raf' });
    await page.keyboard.up('Space');
    await page.keyboard.press('Backquote');
    const { laser, ship } = (await seen.jsonValue()) as { laser: ObjectView; ship: ShipView };
    const rel = Math.hypot(laser.pos.x - ship.pos.x, laser.pos.y - ship.pos.y, laser.pos.z - ship.pos.z);
    const closing = Math.hypot(laser.vel.x - ship.vel.x, laser.vel.y - ship.vel.y, laser.vel.z - ship.vel.z);
    const flownTicks = (rel - 8) / (closing * 0.025);
    console.log(`e2e laser after a hidden second: ${ticks} host ticks while hidden; first drawn ${flownTicks.toFixed(2)} ticks after it was fired (${rel.toFixed(1)} units from the ship)`);
    // Fired at its own tick and drawn from there: a whole number of ticks of flight, and only a few.
    expect(Math.abs(flownTicks - Math.round(flownTicks))).toBeLessThan(0.05);
    expect(flownTicks).toBeLessThan(4);
  });

  it('switches the packet API to udp6 and back, and subsystems shows each binding', async () => {
    await run(page, 'packetapi udp6', /packetapi udp -> udp6: listening on port \d+/);
    await run(page, 'subsystems', /packetapi\s+udp6/);
    await run(page, 'packetapi udp', /packetapi udp6 -> udp: listening/);
    await run(page, 'subsystems', /packetapi\s+udp\s/);
  });

  it('answers an unknown command with one clear line', async () => {
    await run(page, 'warp 9', /unknown command "warp"/);
    expect(problems).toEqual([]);
  });
});
