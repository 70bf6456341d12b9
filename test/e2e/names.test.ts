/**
 * One name per player on every screen (issue 23): two pages both named
 * "pilot" play one peer-to-peer game on loopback; the one who came later
 * plays as "pilot-2", and its page says so everywhere — the HUD's pilot
 * line, the player list, the scoreboard, the kill feed and the match-end
 * screen — with its own name marked "(you)" the one way on each. Alpha
 * (slot 0, "pilot") shoots bravo down with a kill limit of 1, flown by the
 * gamepad pilot that aims by the combat HUD (hudPilot.ts): it steers every
 * frame in proportion to where the target's mark sits, so a loaded machine
 * slows it down but does not throw its aim off, as timed key taps did.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoPlayersOnLoopback, type, waitConsole, waitTicks, type TwoPlayers } from './gamePage';
import { startHudPilot, stopHudPilot } from './hudPilot';
import { repoRoot } from '../support/webShellProcess';

const artifacts = join(repoRoot, 'test-artifacts');

const text = (page: Page, selector: string): Promise<string[]> => page.evaluate((sel) => Array.from(document.querySelectorAll(sel), (e) => e.textContent ?? ''), selector);
/** The rows of a ranking table, cells as shown; the ping column as '-' or 'ms' (its figure varies). */
const ranking = (page: Page, body: string): Promise<string[][]> =>
  page.evaluate((sel) => Array.from(document.querySelectorAll(`${sel} tr`), (tr) => Array.from(tr.children, (td, i) => (i === 4 && td.textContent !== '-' ? 'ms' : (td.textContent ?? '')))), body);

async function setConsole(page: Page, open: boolean): Promise<void> {
  if ((await page.isVisible('#console')) !== open) await page.keyboard.press('Backquote');
  await page.waitForSelector('#console', { state: open ? 'visible' : 'hidden' });
}

/** The kill-feed lines on `page`'s HUD, oldest first. */
const feed = (page: Page): Promise<string[]> => text(page, '#hud-feed .hud-line');

describe('one name per player on every screen (two pages named "pilot", p2p on loopback)', () => {
  let players: TwoPlayers | undefined;
  let alpha: Page;
  let bravo: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    players = await twoPlayersOnLoopback();
    ({ alpha, bravo, problems } = players);
    for (const page of [alpha, bravo]) {
      await setConsole(page, true);
      await type(page, 'protocol p2p');
      await waitConsole(page, /protocol offline -> p2p/);
    }
    await type(alpha, 'connect');
    await waitConsole(alpha, /connected to the peer-to-peer game as slot 0/);
    await type(bravo, 'connect');
    await waitConsole(bravo, /connected to the peer-to-peer game as slot 1/);
    // Alpha's gamepad pilot (hudPilot.ts): its stick acts from the centre out.
    await type(alpha, 'joy_deadzone 0');
  });

  afterAll(async () => {
    await players?.close();
  });

  it('the HUD and the player list: alpha is "pilot", bravo plays as "pilot-2", each marked "(you)" on its own page', async () => {
    await bravo.waitForFunction(() => document.getElementById('hud-name')?.textContent === 'pilot-2', undefined, { timeout: 10_000 });
    expect(await text(alpha, '#hud-name')).toEqual(['pilot']);
    await bravo.waitForFunction(() => document.querySelectorAll('#hud-players li').length === 2, undefined, { timeout: 10_000 });
    await alpha.waitForFunction(() => document.querySelectorAll('#hud-players li').length === 2, undefined, { timeout: 10_000 });
    await bravo.waitForFunction(() => Array.from(document.querySelectorAll('#hud-players li'), (e) => e.textContent).join('|') === '0 ● pilot|1 ● pilot-2 (you)', undefined, { timeout: 10_000 });
    await alpha.waitForFunction(() => Array.from(document.querySelectorAll('#hud-players li'), (e) => e.textContent).join('|') === '0 ● pilot (you)|1 ● pilot-2', undefined, { timeout: 10_000 });
    // Someone to play against: the match clock shows on both.
    for (const page of [alpha, bravo]) await page.waitForFunction(() => /^\d+:\d\d · first to 10 kills$/.test(document.getElementById('hud-match')?.textContent ?? ''), undefined, { timeout: 10_000 });
  });

  it('the scoreboard (Tab) lists both before anyone scored, bravo\'s row "pilot-2 (you)" (screenshot)', async () => {
    await type(alpha, 'killlimit 1');
    await waitConsole(alpha, /killlimit/);
    await bravo.waitForFunction(() => /first to 1 kill$/.test(document.getElementById('hud-match')?.textContent ?? ''), undefined, { timeout: 10_000 });
    for (const page of [alpha, bravo]) await setConsole(page, false);
    await bravo.bringToFront();
    await bravo.keyboard.down('Tab');
    await bravo.waitForFunction(() => window.__starlane!.overlays().scoreboard && document.querySelectorAll('#scoreboard-rows tr').length === 2, undefined, { timeout: 10_000 });
    expect(await ranking(bravo, '#scoreboard-rows')).toEqual([
      ['1', 'pilot', '0', '0', expect.stringMatching(/^(ms|-)$/)],
      ['2', 'pilot-2 (you)', '0', '0', '-'],
    ]);
    await bravo.screenshot({ path: join(artifacts, 'names-bravo-scoreboard.png') });
    await bravo.keyboard.up('Tab');
    await alpha.bringToFront();
    await alpha.keyboard.down('Tab');
    await alpha.waitForFunction(() => document.querySelectorAll('#scoreboard-rows tr').length === 2, undefined, { timeout: 10_000 });
    expect((await ranking(alpha, '#scoreboard-rows')).map((r) => r[1])).toEqual(['pilot (you)', 'pilot-2']);
    await alpha.keyboard.up('Tab');
  });

  it('alpha shoots bravo down: the kill feeds, and the match-end screens name pilot and pilot-2 the same way (screenshots)', async () => {
    // Alpha targets bravo (T) and its pilot flies by the HUD — the crosshair onto the lead
    // indicator, the trigger held there — until bravo's page tells its player (the pilot runs
    // on alpha's animation frames: alpha in front).
    await alpha.bringToFront();
    for (let i = 0; i < 5 && (await alpha.evaluate(() => window.__starlane!.overlays().target)) !== 1; i++) {
      await alpha.keyboard.press('KeyT');
      await waitTicks(alpha, 2);
    }
    expect(await alpha.evaluate(() => window.__starlane!.overlays().target)).toBe(1);
    await startHudPilot(alpha);
    await bravo.waitForFunction(() => document.querySelectorAll('#hud-feed .hud-line').length > 0, undefined, { timeout: 60_000, polling: 100 });
    await stopHudPilot(alpha);
    // Bravo's game decided the kill, so its line names the weapon; alpha hears of it by the kill event, which names it too (wire v9).
    expect(await feed(bravo)).toEqual(['pilot-2 (you) was shot down by pilot with a laser']);
    await alpha.waitForFunction(() => document.querySelectorAll('#hud-feed .hud-line').length > 0, undefined, { timeout: 10_000, polling: 50 });
    expect(await feed(alpha)).toEqual(['pilot-2 was shot down by pilot (you) with a laser']);
    // Alpha's screen saw its bolts meet bravo (its hit markers; bravo's game decided the hits).
    expect((await alpha.evaluate(() => window.__starlane!.hud())).hitMarkers).toBeGreaterThan(0);

    // A kill limit of 1: the match is over, and both pages show its end.
    // Each page in front in turn, as its player sees it (the overlays are drawn with the frames).
    for (const page of [alpha, bravo]) {
      await page.bringToFront();
      await page.waitForFunction(() => window.__starlane!.overlays().matchEnd && document.querySelectorAll('#match-end-rows tr').length === 2, undefined, { timeout: 10_000 });
    }
    expect(await text(bravo, '#match-end-winner')).toEqual(['pilot wins']);
    expect(await ranking(bravo, '#match-end-rows')).toEqual([
      ['1', 'pilot', '1', '0', expect.stringMatching(/^(ms|-)$/)],
      ['2', 'pilot-2 (you)', '0', '1', '-'],
    ]);
    expect(await text(alpha, '#match-end-winner')).toEqual(['pilot (you) wins']);
    expect((await ranking(alpha, '#match-end-rows')).map((r) => r.slice(0, 4))).toEqual([
      ['1', 'pilot (you)', '1', '0'],
      ['2', 'pilot-2', '0', '1'],
    ]);
    await bravo.screenshot({ path: join(artifacts, 'names-bravo-match-end.png') });
    await alpha.screenshot({ path: join(artifacts, 'names-alpha-match-end.png') });
    expect(problems).toEqual([]);
  });
});
