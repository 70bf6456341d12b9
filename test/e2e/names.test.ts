/**
 * One name per player on every screen (issue 23): two pages both named
 * "pilot" play one peer-to-peer game on loopback; the one who came later
 * plays as "pilot-2", and its page says so everywhere — the HUD's pilot
 * line, the player list, the scoreboard, the kill feed and the match-end
 * screen — with its own name marked "(you)" the one way on each. Alpha
 * (slot 0, "pilot") shoots bravo down with a kill limit of 1.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoPlayersOnLoopback, type, waitConsole, waitTicks, type TwoPlayers } from './gamePage';
import { repoRoot } from '../support/webShellProcess';
import { waitFor } from '../support/waitFor';

const artifacts = join(repoRoot, 'test-artifacts');

const text = (page: Page, selector: string): Promise<string[]> => page.evaluate((sel) => Array.from(document.querySelectorAll(sel), (e) => e.textContent ?? ''), selector);
/** The rows of a ranking table, cells as shown; the ping column as '-' or 'ms' (its figure varies). */
const ranking = (page: Page, body: string): Promise<string[][]> =>
  page.evaluate((sel) => Array.from(document.querySelectorAll(`${sel} tr`), (tr) => Array.from(tr.children, (td, i) => (i === 4 && td.textContent !== '-' ? 'ms' : (td.textContent ?? '')))), body);

async function setConsole(page: Page, open: boolean): Promise<void> {
  if ((await page.isVisible('#console')) !== open) await page.keyboard.press('Backquote');
  await page.waitForSelector('#console', { state: open ? 'visible' : 'hidden' });
}

/**
 * One step of keeping the ship of `slot` on our nose, as a player would: a
 * tap of the yaw (and pitch) keys for one tick towards it when it is more
 * than a degree or so off, else a wait of two ticks (the body axes of the
 * rotation: right +X, up +Y, nose −Z). A turning ship drifts on a little
 * after the keys are up, so this is repeated while firing.
 */
async function steerAt(page: Page, slot: number): Promise<void> {
  const aim = await page.evaluate((target) => {
    const w = window.__starlane!.world();
    const us = w.ships.find((s) => s.slot === w.localSlot);
    const them = w.ships.find((s) => s.slot === target);
    if (!us || !them) return null;
    const q = us.rot;
    const rot = (x: number, y: number, z: number) => {
      const tx = 2 * (q.y * z - q.z * y);
      const ty = 2 * (q.z * x - q.x * z);
      const tz = 2 * (q.x * y - q.y * x);
      return { x: x + q.w * tx + (q.y * tz - q.z * ty), y: y + q.w * ty + (q.z * tx - q.x * tz), z: z + q.w * tz + (q.x * ty - q.y * tx) };
    };
    const d = { x: them.pos.x - us.pos.x, y: them.pos.y - us.pos.y, z: them.pos.z - us.pos.z };
    const dot = (a: { x: number; y: number; z: number }) => a.x * d.x + a.y * d.y + a.z * d.z;
    return { right: dot(rot(1, 0, 0)), up: dot(rot(0, 1, 0)), ahead: dot(rot(0, 0, -1)), dist: Math.hypot(d.x, d.y, d.z) };
  }, slot);
  if (aim === null || aim.ahead > 0.9995 * aim.dist) return waitTicks(page, 2);
  const keys = [aim.right >= 0 || aim.ahead < 0 ? 'KeyD' : 'KeyA'];
  if (Math.abs(aim.up) > 0.01 * aim.dist) keys.push(aim.up >= 0 ? 'ArrowDown' : 'ArrowUp');
  for (const k of keys) await page.keyboard.down(k);
  await waitTicks(page, 1);
  for (const k of keys) await page.keyboard.up(k);
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
    // Alpha fires with the trigger held, keeping bravo on its nose, until bravo's page tells its player.
    await alpha.keyboard.down('Space');
    await waitFor('bravo shot down, in bravo\'s kill feed', async () => {
      if ((await feed(bravo)).length > 0) return true;
      await steerAt(alpha, 1);
      return false;
    }, 60_000, 0);
    await alpha.keyboard.up('Space');
    // Bravo's game decided the kill, so its line names the weapon; alpha hears of it by the kill event, which does not carry one.
    expect(await feed(bravo)).toEqual(['pilot-2 (you) was shot down by pilot with a laser']);
    await alpha.waitForFunction(() => document.querySelectorAll('#hud-feed .hud-line').length > 0, undefined, { timeout: 10_000, polling: 50 });
    expect(await feed(alpha)).toEqual(['pilot-2 was shot down by pilot (you)']);
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
