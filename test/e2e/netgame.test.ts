/**
 * Two players on one machine in a netgame hosted by one of them: two browser
 * shells (two hosts with their own sockets) and two Chromium pages on
 * loopback. alpha's `host netgame` starts a netgame server inside alpha's own
 * host process and joins it as slot 0; bravo connects to it by address as
 * slot 1. Both pages show the game the server runs; when alpha leaves, the
 * server closes and bravo is told and plays offline again.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleText, twoPlayersOnLoopback, type, waitConsole, type TwoPlayers } from './gamePage';
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

/**
 * The TCP port in alpha's `hosting netgame` line. The console wraps long lines
 * at the terminal's width (a wrap is a newline in consoleText, and a space at
 * the wrap is trimmed), so the text is read with the newlines taken out and
 * the spaces around the port optional.
 */
async function hostedPort(page: Page): Promise<number> {
  const found = await page.waitForFunction(
    () => /hosting netgame "alpha's netgame" on ?tcp ?(\d+), ?udp ?\d+/.exec((window.__starlane?.consoleText() ?? '').replace(/\n/g, ''))?.[1] ?? false,
    undefined,
    { timeout: 10_000 },
  );
  return Number(await found.jsonValue());
}

/** How many lines of `page`'s console are exactly `line`. */
async function countLines(page: Page, line: string): Promise<number> {
  return (await consoleText(page)).split('\n').filter((l) => l === line).length;
}

describe('two players in a netgame hosted by one of them, in headless Chromium', () => {
  let alpha: Page;
  let bravo: Page;
  let players: TwoPlayers | undefined;
  let problems: string[] = [];
  let port = 0;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    players = await twoPlayersOnLoopback();
    ({ alpha, bravo, problems } = players);
  });

  afterAll(async () => {
    await players?.close();
  });

  it('alpha hosts a netgame in its own game and is its slot 0', async () => {
    await alpha.keyboard.press('Backquote');
    await type(alpha, 'name alpha');
    await type(alpha, 'host netgame');
    port = await hostedPort(alpha);
    console.log(`alpha hosts its netgame on tcp ${port}`);
    expect(port).toBeGreaterThan(0);
    await waitConsole(alpha, /joined netgame "alpha's netgame" as slot 0/);
    await waitConsole(alpha, /in the netgame as slot 0 from frame \d+/);
  });

  it("bravo joins alpha's netgame by address as slot 1", async () => {
    await bravo.keyboard.press('Backquote');
    await type(bravo, 'name bravo');
    await type(bravo, 'protocol netgame');
    await waitConsole(bravo, /protocol offline -> netgame/);
    await type(bravo, `connect 127.0.0.1:${port}`);
    await waitConsole(bravo, /joined netgame "alpha's netgame" as slot 1/);
    await waitConsole(bravo, /in the netgame as slot 1 from frame \d+/);
  });

  it('players on bravo lists alpha as slot 0 and the netgame figures', async () => {
    // Both ships are in the game bravo shows. bravo's own row says joined only once its clock is synchronised
    // with the server (the session's join), which may come a little after its ship entered the netgame.
    await bravo.waitForFunction(() => window.__starlane?.world().ships.map((s) => s.slot).sort().join() === '0,1', undefined, { timeout: 10_000 });
    await waitConsole(bravo, /^clock synchronised with /m);
    await type(bravo, 'players');
    await waitConsole(bravo, /^0\s+alpha\s+127\.0\.0\.1:\d+\s+(\?|\d+ ms)\s+joined/m);
    await waitConsole(bravo, /^1\s+bravo\s+\S+\s+-\s+joined \(you\)/m);
    // Only the line's head: the console wraps it at the page's width.
    await waitConsole(bravo, /^netgame: frame \d+, server -?\d+ frames ahead, control lead \d+/m);
    console.log(`bravo's players:\n${(await consoleText(bravo)).split('\n').filter((l) => /^(slot|\d+ |netgame:)/.test(l)).join('\n')}`);
  });

  it("bravo sees alpha's ship fly, and alpha sees bravo's ship", async () => {
    const start = await bravo.waitForFunction(() => window.__starlane?.remotes().find((r) => r.name === 'alpha')?.pos ?? false, undefined, { timeout: 10_000 });
    const from = (await start.jsonValue()) as Vec;
    await alpha.keyboard.press('Backquote'); // close alpha's console so W flies
    await alpha.waitForSelector('#console', { state: 'hidden' });
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

  it('both pages show the netgame frame a few ticks apart at most', async () => {
    // The two ticks are read one after the other (a tick is 25 ms): polled until one reading is within 4 frames.
    await expect
      .poll(
        async () => {
          const [a, b] = (await Promise.all([alpha, bravo].map((p) => p.evaluate(() => window.__starlane?.tick() ?? -1)))) as [number, number];
          console.log(`netgame tick shown: alpha ${a}, bravo ${b}, gap ${Math.abs(a - b)}`);
          return a >= 0 && b >= 0 ? Math.abs(a - b) : Infinity;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBeLessThanOrEqual(4);
  });

  it('each page draws the netgame without errors (screenshots)', async () => {
    await bravo.keyboard.press('Backquote'); // bravo's console was open
    await Promise.all([alpha, bravo].map((p) => p.waitForSelector('#console', { state: 'hidden' })));
    // A few frames drawn with the consoles gone.
    await Promise.all(
      [alpha, bravo].map(async (p) => p.waitForFunction((from) => (window.__starlane?.rendered() ?? 0) > from + 5, await p.evaluate(() => window.__starlane?.rendered() ?? 0))),
    );
    await alpha.screenshot({ path: join(artifacts, 'netgame-alpha.png') });
    await bravo.screenshot({ path: join(artifacts, 'netgame-bravo.png') });
    expect(problems).toEqual([]);
  });

  it('when alpha disconnects, bravo is told the server removed it and plays offline again', async () => {
    await alpha.keyboard.press('Backquote');
    await alpha.waitForSelector('#console', { state: 'visible' });
    await type(alpha, 'disconnect');
    await waitConsole(alpha, /^disconnected from the netgame$/m);
    await waitConsole(bravo, /disconnected from the netgame: the server removed you/);
    // Offline again: bravo's game no longer shows alpha's ship, and `players` says it is not connected.
    await bravo.waitForFunction(() => window.__starlane?.remotes().every((r) => r.name !== 'alpha') ?? false, undefined, { timeout: 10_000 });
    const before = await countLines(bravo, 'not connected');
    await bravo.keyboard.press('Backquote');
    await bravo.waitForSelector('#console', { state: 'visible' });
    await type(bravo, 'players');
    await bravo.waitForFunction(
      ([n]) => (window.__starlane?.consoleText() ?? '').split('\n').filter((l) => l === 'not connected').length > n,
      [before] as const,
      { timeout: 10_000 },
    );
    const view = await bravo.evaluate(() => {
      const w = window.__starlane?.world();
      return { localSlot: w?.localSlot, ships: w?.ships.map((s) => s.slot), remotes: window.__starlane?.remotes().map((r) => `${r.slot}:${r.name}`) };
    });
    console.log(`bravo after alpha left: ${JSON.stringify(view)}`);
    expect(view.remotes, 'no other ship in bravo\'s offline game').toEqual([]);
    expect(problems).toEqual([]);
  });
});
