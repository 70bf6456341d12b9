/**
 * Two players on one machine in a `protocol lockstep` game: two browser
 * shells (two hosts with their own UDP sockets) and two Chromium pages on
 * loopback. Every peer steps one shared world with every pilot's input; each
 * page shows that world.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoPlayersOnLoopback, type, waitConsole, type TwoPlayers } from './gamePage';
import { repoRoot } from '../support/webShellProcess';

const artifacts = join(repoRoot, 'test-artifacts');

type Vec = { x: number; y: number; z: number };

/** Waits until `page` draws the ship named `name` more than `dist` units from `from`; returns where. */
async function waitMovedFrom(page: Page, name: string, from: Vec, dist: number, timeout = 15_000): Promise<Vec> {
  const moved = await page.waitForFunction(
    ([n, f, d]) => {
      const p = window.__starlane?.remotes().find((r) => r.name === n)?.pos;
      return p !== undefined && Math.hypot(p.x - f.x, p.y - f.y, p.z - f.z) > d ? p : false;
    },
    [name, from, dist] as const,
    { timeout },
  );
  return (await moved.jsonValue()) as Vec;
}

describe('two players in a lockstep game in headless Chromium', () => {
  let alpha: Page;
  let bravo: Page;
  let players: TwoPlayers | undefined;
  let problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    players = await twoPlayersOnLoopback();
    ({ alpha, bravo, problems } = players);
  });

  afterAll(async () => {
    await players?.close();
  });

  it('alpha starts a lockstep game on the LAN and bravo joins it with alpha\'s state', async () => {
    for (const [page, name] of [[alpha, 'alpha'], [bravo, 'bravo']] as const) {
      await page.keyboard.press('Backquote');
      await type(page, `name ${name}`);
      await type(page, 'protocol lockstep');
      await waitConsole(page, /protocol offline -> lockstep/);
    }
    await type(alpha, 'connect');
    await waitConsole(alpha, /connected to the peer-to-peer game as slot 0/);
    await waitConsole(alpha, /no lockstep game running here: started one \(you are its lowest slot\)/);
    await type(bravo, 'connect');
    await waitConsole(bravo, /connected to the peer-to-peer game as slot 1/);
    await waitConsole(bravo, /joined the lockstep game at frame \d+: its state came from alpha \(\d+ bytes in \d+ datagrams\)/);
  });

  it('players on bravo lists alpha and the lockstep figures', async () => {
    await type(bravo, 'players');
    await waitConsole(bravo, /0\s+alpha\s+127\.0\.0\.1:\d+\s+(\?|\d+ ms)\s+joined/);
    await waitConsole(bravo, /1\s+bravo\s+127\.0\.0\.1:\d+\s+-\s+joined \(you\)/);
    // Only the line's head: the console wraps it at the page's width (consoleText keeps the wrap as a newline).
    await waitConsole(bravo, /^lockstep: frame [1-9]\d* \(epoch \d+\), input lead \d+, frames waited \d+/m);
  });

  it("bravo sees alpha's ship fly, and alpha sees bravo's ship", async () => {
    const start = await bravo.waitForFunction(() => window.__starlane?.remotes().find((r) => r.name === 'alpha')?.pos ?? false, undefined, { timeout: 10_000 });
    const from = (await start.jsonValue()) as Vec;
    await alpha.keyboard.press('Backquote'); // close alpha's console so W flies
    await alpha.keyboard.down('KeyW');
    await alpha.waitForFunction(() => (window.__starlane?.ship().speed ?? 0) > 20, undefined, { timeout: 10_000 });
    const to = await waitMovedFrom(bravo, 'alpha', from, 10);
    await alpha.keyboard.up('KeyW');
    console.log(`bravo drew alpha move from ${JSON.stringify(from)} to ${JSON.stringify(to)}`);
    const bravoAt = await alpha.waitForFunction(() => window.__starlane?.remotes().find((r) => r.slot === 1 && r.name === 'bravo')?.pos ?? false, undefined, { timeout: 10_000 });
    const seen = (await bravoAt.jsonValue()) as Vec;
    console.log(`alpha draws bravo at ${JSON.stringify(seen)}`);
    expect(Math.hypot(seen.x - to.x, seen.y - to.y, seen.z - to.z), 'bravo is not drawn on top of alpha').toBeGreaterThan(1);
    expect(problems).toEqual([]);
  });

  it('both pages show the same shared world frame, a few ticks apart at most', async () => {
    // The two ticks are read one after the other (a tick is 25 ms): polled until one reading is within 4 frames.
    await expect
      .poll(
        async () => {
          const [a, b] = (await Promise.all([alpha, bravo].map((p) => p.evaluate(() => window.__starlane?.tick() ?? -1)))) as [number, number];
          console.log(`world tick shown: alpha ${a}, bravo ${b}, gap ${Math.abs(a - b)}`);
          return a >= 0 && b >= 0 ? Math.abs(a - b) : Infinity;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBeLessThanOrEqual(4);
  });

  it('each page draws the game without errors (screenshots)', async () => {
    await bravo.keyboard.press('Backquote'); // bravo's console was open
    await Promise.all([alpha, bravo].map((p) => p.waitForSelector('#console', { state: 'hidden' })));
    // A few frames drawn with the consoles gone.
    await Promise.all(
      [alpha, bravo].map(async (p) => p.waitForFunction((from) => (window.__starlane?.rendered() ?? 0) > from + 5, await p.evaluate(() => window.__starlane?.rendered() ?? 0))),
    );
    await alpha.screenshot({ path: join(artifacts, 'lockstep-alpha.png') });
    await bravo.screenshot({ path: join(artifacts, 'lockstep-bravo.png') });
    expect(problems).toEqual([]);
  });
});
