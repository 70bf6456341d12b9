/**
 * Offline practice in the game page: `bot add 3` fills the offline game with
 * computer pilots that fight, and a match with a kill limit of 1 plays to its
 * end. Screenshots (test-artifacts/): a missile in flight, an extra, an
 * energy field, the scoreboard (Tab) and the match-end screen.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { watchedGameForTheseTests, type, waitConsole, waitTicks } from './gamePage';
import { repoRoot } from '../support/webShellProcess';
import { bearing } from './hudAim';

const artifacts = join(repoRoot, 'test-artifacts');

/**
 * Turns our ship until the nearest object of `kind` lies within a few degrees
 * of its nose, by holding the yaw and pitch keys a few ticks at a time, as a
 * player would. Returns the object's distance, or null if there is none.
 */
async function face(page: Page, kind: string): Promise<number | null> {
  for (let i = 0; i < 300; i++) {
    const seen = await page.evaluate((k) => {
      const w = window.__starlane!.world();
      const ship = w.ships.find((s) => s.slot === w.localSlot);
      if (!ship) return 'dead';
      return { us: { pos: ship.pos, rot: ship.rot }, objects: w.objects.filter((o) => o.kind === k).map((o) => ({ pos: o.pos })) };
    }, kind);
    if (seen === 'dead') {
      await waitTicks(page, 10);
      continue;
    }
    // The nearest one, in our ship's axes (hudAim.ts bearing).
    const aim = seen.objects.map((o) => bearing(seen.us, o)).reduce<ReturnType<typeof bearing> | null>((best, b) => (!best || b.dist < best.dist ? b : best), null);
    if (aim === null) return null;
    if (aim.ahead > 0.985 * aim.dist) return aim.dist;
    const keys = [aim.right >= 0 || aim.ahead < 0 ? 'KeyD' : 'KeyA', aim.up >= 0 ? 'ArrowDown' : 'ArrowUp'];
    for (const k of keys) await page.keyboard.down(k);
    await waitTicks(page, 2);
    for (const k of keys) await page.keyboard.up(k);
  }
  throw new Error(`could not turn towards a ${kind}`);
}

describe('offline practice against computer pilots (the game page)', () => {
  let page: Page;
  const problems: string[] = [];
  watchedGameForTheseTests(problems, (p) => (page = p));

  it('bot add 3 brings three computer pilots into the offline game', async () => {
    await page.keyboard.press('Backquote');
    await type(page, 'killlimit 1');
    await type(page, 'bot add 3 3');
    await waitConsole(page, /3 bots of skill 3 joined/);
    await page.keyboard.press('Backquote');
    await page.waitForFunction(() => window.__starlane!.world().ships.length === 4, undefined, { timeout: 10_000 });
  });

  it('Tab shows the scoreboard while held (screenshot)', async () => {
    await page.keyboard.down('Tab');
    await page.waitForFunction(() => window.__starlane!.overlays().scoreboard, undefined, { timeout: 5_000 });
    await page.screenshot({ path: join(artifacts, 'practice-scoreboard.png') });
    await page.keyboard.up('Tab');
    await page.waitForFunction(() => !window.__starlane!.overlays().scoreboard, undefined, { timeout: 5_000 });
  });

  it('a missile in flight: F launches one from our nose (screenshot)', async () => {
    await page.keyboard.down('KeyF');
    await page.waitForFunction(() => {
      const w = window.__starlane!.world();
      return w.objects.some((o) => o.kind === 'missile' && o.owner === w.localSlot);
    }, undefined, { timeout: 10_000, polling: 'raf' });
    await page.keyboard.up('KeyF');
    await waitTicks(page, 4);
    await page.screenshot({ path: join(artifacts, 'practice-missile.png') });
  });

  it('an energy field and an extra, turned towards (screenshots)', async () => {
    const field = await face(page, 'field');
    expect(field).not.toBeNull();
    await page.screenshot({ path: join(artifacts, 'practice-field.png') });
    // Extras spawn every 4 s while there are fewer than 12.
    await page.waitForFunction(() => window.__starlane!.world().objects.some((o) => o.kind === 'extra'), undefined, { timeout: 20_000 });
    const extra = await face(page, 'extra');
    console.log(`e2e practice: turned to a field ${field?.toFixed(0)} units and an extra ${extra?.toFixed(0)} units away`);
    await page.screenshot({ path: join(artifacts, 'practice-extra.png') });
  });

  it('the match plays to its kill limit and the match-end screen shows the ranking (screenshot)', async () => {
    const end = await page.waitForFunction(
      () => {
        const w = window.__starlane!.world();
        return w.match.phase === 1 && window.__starlane!.overlays().matchEnd ? w.scores : undefined;
      },
      undefined,
      { timeout: 150_000, polling: 250 },
    );
    const scores = (await end.jsonValue()) as { slot: number; kills: number; deaths: number }[];
    console.log(`e2e practice: match over, scores ${JSON.stringify(scores)}`);
    expect(Math.max(...scores.map((s) => s.kills))).toBe(1);
    await page.screenshot({ path: join(artifacts, 'practice-match-end.png') });
    expect(problems).toEqual([]);
  });
});
