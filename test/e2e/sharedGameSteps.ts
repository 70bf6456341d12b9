/**
 * Steps the e2e tests of the shared-world games (lockstep, netgame) take
 * alike with two pages, alpha and bravo: alpha flies and each draws the
 * other; both show the same frame within a few ticks; screenshots with the
 * consoles closed. itSharesOneWorld makes the three tests of them.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { TwoPlayers } from './gamePage';
import { repoRoot } from '../support/webShellProcess';

const artifacts = join(repoRoot, 'test-artifacts');

export type Vec = { x: number; y: number; z: number };

/** Waits until `page` draws the ship named `name` more than `dist` units from `from`; returns where. */
export async function waitMovedFrom(page: Page, name: string, from: Vec, dist: number, timeout = 15_000): Promise<Vec> {
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

/** Alpha (console open) closes its console and flies; bravo draws it move; alpha draws bravo elsewhere. */
export async function alphaFliesAndBothSeeEachOther(alpha: Page, bravo: Page): Promise<void> {
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
}

/** The two pages' shown ticks, read one after the other (a tick is 25 ms), polled until one reading is within 4 frames. */
export async function sameFrameWithinFour(alpha: Page, bravo: Page, label: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const [a, b] = (await Promise.all([alpha, bravo].map((p) => p.evaluate(() => window.__starlane?.tick() ?? -1)))) as [number, number];
        console.log(`${label} tick shown: alpha ${a}, bravo ${b}, gap ${Math.abs(a - b)}`);
        return a >= 0 && b >= 0 ? Math.abs(a - b) : Infinity;
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBeLessThanOrEqual(4);
}

/** Bravo closes its console; a few frames drawn with both consoles gone; `<prefix>-alpha.png` and `-bravo.png`. */
export async function screenshotsWithConsolesClosed(alpha: Page, bravo: Page, prefix: string): Promise<void> {
  await bravo.keyboard.press('Backquote'); // bravo's console was open
  await Promise.all([alpha, bravo].map((p) => p.waitForSelector('#console', { state: 'hidden' })));
  await Promise.all(
    [alpha, bravo].map(async (p) => p.waitForFunction((from) => (window.__starlane?.rendered() ?? 0) > from + 5, await p.evaluate(() => window.__starlane?.rendered() ?? 0))),
  );
  await alpha.screenshot({ path: join(artifacts, `${prefix}-alpha.png`) });
  await bravo.screenshot({ path: join(artifacts, `${prefix}-bravo.png`) });
}

/**
 * The three tests lockstep and netgame both run on their pages (`players`, once
 * open), in this order: alpha flies and each draws the other, with no page
 * errors; both show one frame within four ticks (test `frame.test`, logged as
 * `frame.label`); screenshots `<shots.prefix>-alpha.png` and `-bravo.png`
 * (test `shots.test`), with no page errors.
 */
export function itSharesOneWorld(
  players: () => Pick<TwoPlayers, 'alpha' | 'bravo' | 'problems'>,
  frame: { test: string; label: string },
  shots: { test: string; prefix: string },
): void {
  it("bravo sees alpha's ship fly, and alpha sees bravo's ship", async () => {
    const { alpha, bravo, problems } = players();
    await alphaFliesAndBothSeeEachOther(alpha, bravo);
    expect(problems).toEqual([]);
  });

  it(frame.test, async () => {
    const { alpha, bravo } = players();
    await sameFrameWithinFour(alpha, bravo, frame.label);
  });

  it(shots.test, async () => {
    const { alpha, bravo, problems } = players();
    await screenshotsWithConsolesClosed(alpha, bravo, shots.prefix);
    expect(problems).toEqual([]);
  });
}
