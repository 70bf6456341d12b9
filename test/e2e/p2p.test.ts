/**
 * Two players on one machine: two browser shells (two hosts with their own
 * UDP sockets) and two Chromium pages, connected peer-to-peer over loopback.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bothNamedOn, consoleText, twoPlayersForTheseTests, type, waitConsole } from './gamePage';
import { repoRoot } from '../support/webShellProcess';

const artifacts = join(repoRoot, 'test-artifacts');

describe('two players peer-to-peer in headless Chromium', () => {
  let alpha: Page;
  let bravo: Page;
  let problems: string[] = [];
  twoPlayersForTheseTests((players) => ({ alpha, bravo, problems } = players));

  it('both connect and see each other in the player table', async () => {
    await bothNamedOn(alpha, bravo, 'p2p');
    await type(alpha, 'connect');
    await waitConsole(alpha, /connected to the peer-to-peer game as slot 0/);
    await type(bravo, 'connect');
    await waitConsole(bravo, /connected to the peer-to-peer game as slot 1/);
    await type(bravo, 'players');
    await waitConsole(bravo, /0\s+alpha\s+127\.0\.0\.1:\d+\s+(\?|\d+ ms)\s+joined/);
  });

  it("each sees the other's ship move, with its name", async () => {
    await alpha.keyboard.press('Backquote'); // close alpha's console so W flies
    await alpha.keyboard.down('KeyW');
    const moved = await bravo.waitForFunction(
      () => {
        const r = window.__starlane?.remotes().find((x) => x.name === 'alpha');
        return r && Math.hypot(r.pos.x, r.pos.y, r.pos.z) > 15 ? r : false;
      },
      undefined,
      { timeout: 15_000 },
    );
    expect(await moved.jsonValue()).toMatchObject({ slot: 0, name: 'alpha' });
    await alpha.keyboard.up('KeyW');
    await alpha.waitForFunction(() => window.__starlane?.remotes().some((x) => x.name === 'bravo'), undefined, { timeout: 10_000 });
  });

  it('the two ships did not start on one spot: bravo (slot 1) sits on its own spawn point, 40 units from alpha\'s', async () => {
    const bravoAt = await alpha.waitForFunction(() => window.__starlane?.remotes().find((x) => x.name === 'bravo')?.pos, undefined, { timeout: 10_000 });
    const pos = (await bravoAt.jsonValue()) as { x: number; y: number; z: number };
    // Bravo has not moved since it entered the game at spawn point 1, (40, 0, 0); alpha began at the origin.
    expect(Math.hypot(pos.x - 40, pos.y, pos.z)).toBeLessThan(1);
  });

  it("each sees the other's chat, in the console and on the HUD", async () => {
    await type(bravo, 'hello alpha');
    await alpha.waitForFunction(() => window.__starlane?.chat().some((l) => l === 'bravo: hello alpha'), undefined, { timeout: 10_000 });
    expect(await consoleText(alpha)).toContain('bravo: hello alpha');
    await alpha.keyboard.press('Backquote');
    await type(alpha, 'say hi bravo');
    await bravo.waitForFunction(() => window.__starlane?.chat().some((l) => l === 'alpha: hi bravo'), undefined, { timeout: 10_000 });
    await alpha.keyboard.press('Backquote');
    await bravo.keyboard.press('Backquote');
    await Promise.all([alpha, bravo].map((p) => p.waitForSelector('#console', { state: 'hidden' })));
    await alpha.screenshot({ path: join(artifacts, 'p2p-alpha.png') });
    await bravo.screenshot({ path: join(artifacts, 'p2p-bravo.png') });
    expect(problems).toEqual([]);
  });

  it('a page reloaded mid-game lists both players and draws the other ship again, and its ship flies on', async () => {
    await bravo.reload();
    await bravo.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
    await waitConsole(bravo, /connected to the peer-to-peer game as slot 1/); // from the backlog
    await bravo.waitForFunction(
      () => {
        const rows = Array.from(document.querySelectorAll('#hud-players li'), (li) => li.textContent ?? '');
        return rows.some((r) => /^0 ● alpha$/.test(r)) && rows.some((r) => /^1 ● bravo \(you\)$/.test(r));
      },
      undefined,
      { timeout: 10_000 },
    );
    await bravo.waitForFunction(() => /^connected as slot 1, 2 players$/.test(document.getElementById('hud-status')?.textContent ?? ''), undefined, { timeout: 10_000 });
    await bravo.waitForFunction(() => window.__starlane?.remotes().some((r) => r.slot === 0 && r.name === 'alpha'), undefined, { timeout: 10_000 });

    // The host takes the reloaded page's frames (its ticks start again from 0): alpha sees bravo fly.
    await bravo.keyboard.down('KeyW');
    await bravo.waitForFunction(() => (window.__starlane?.ship().speed ?? 0) > 20, undefined, { timeout: 10_000 });
    const start = await alpha.evaluate(() => window.__starlane?.remotes().find((r) => r.name === 'bravo')?.pos ?? null);
    expect(start, 'alpha draws bravo').not.toBeNull();
    await alpha.waitForFunction(
      (from) => {
        const p = window.__starlane?.remotes().find((r) => r.name === 'bravo')?.pos;
        return p !== undefined && Math.hypot(p.x - from.x, p.y - from.y, p.z - from.z) > 10;
      },
      start as { x: number; y: number; z: number },
      { timeout: 15_000 },
    );
    await bravo.keyboard.up('KeyW');
    await bravo.screenshot({ path: join(artifacts, 'p2p-bravo-reloaded.png') });
    expect(problems).toEqual([]);
  });
});
