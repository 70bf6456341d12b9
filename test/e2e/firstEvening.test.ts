/**
 * A new player's first minutes offline (issue 23), in the game page: alone
 * there is no match clock and no tick rate or fps on the HUD; `stats 1`
 * shows those, `netgraph 1` too, and the net graph's text stays inside its
 * panel (which grows to hold it) even on a fully faked link in a lockstep game; `bot add 2` starts a match and the two
 * bots come in far away, so a player sitting still is not hit in the first
 * five seconds. Screenshots in test-artifacts/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { watchedGameForTheseTests, type, waitConsole, waitTicks } from './gamePage';
import { repoRoot } from '../support/webShellProcess';
import { RULES } from '../../src/shared/game/rules';
import { JOIN_DISTANCE } from '../../src/shared/game/spawnPoint';

const artifacts = join(repoRoot, 'test-artifacts');

/** The text of a HUD element, or null while it is hidden. */
const shown = (page: Page, id: string): Promise<string | null> =>
  page.evaluate((el) => {
    const e = document.getElementById(el) as HTMLElement | null;
    return e && !e.hidden && e.offsetParent !== null ? (e.textContent ?? '') : null;
  }, id);

async function setConsole(page: Page, open: boolean): Promise<void> {
  if ((await page.isVisible('#console')) !== open) await page.keyboard.press('Backquote');
  await page.waitForSelector('#console', { state: open ? 'visible' : 'hidden' });
}

describe('a new player offline (the game page)', () => {
  let page: Page;
  const problems: string[] = [];
  watchedGameForTheseTests(problems, (p) => (page = p));

  it('alone: the HUD has our name and speed, no match clock and no tick rate or fps', async () => {
    await waitTicks(page, 80);
    expect(await shown(page, 'hud-name')).toBe('pilot');
    expect(await shown(page, 'hud-match')).toBeNull();
    expect(await shown(page, 'hud-stats')).toBeNull();
    expect(await page.evaluate(() => window.__starlane!.world().match.secondsLeft)).toBe(600);
    await page.screenshot({ path: join(artifacts, 'first-evening-alone.png') });
  });

  it('stats 1 puts tick rate and fps on the HUD, stats 0 takes them off', async () => {
    await setConsole(page, true);
    await type(page, 'stats 1');
    await waitConsole(page, /^tick rate and fps are on the HUD \(stats 0 hides them\)$/m);
    await page.waitForFunction(() => /^tick [1-9][\d.]* Hz fps [1-9]\d*$/.test(document.getElementById('hud-stats')?.textContent?.replace(/\s+/g, ' ').trim() ?? ''), undefined, { timeout: 10_000 });
    await type(page, 'stats 0');
    await waitConsole(page, /^tick rate and fps are off the HUD \(stats 1 shows them\)$/m);
    await page.waitForSelector('#hud-stats', { state: 'hidden' });
  });

  it('netgraph 1 shows tick rate and fps too, and every row of its text fits the panel on a fully faked link in a lockstep game (screenshot)', async () => {
    await type(page, 'net_fakelag 2000');
    await type(page, 'net_fakejitter 1000');
    await type(page, 'net_fakeloss 100');
    await type(page, 'net_fakedup 100');
    await type(page, 'net_fakereorder 100');
    await type(page, 'netgraph 1');
    await page.waitForSelector('#hud-stats', { state: 'visible' });
    // A lockstep game of our own adds the longest line, its sync figures.
    await type(page, 'protocol lockstep');
    // A line typed runs once the one before has: `connect` waits for the switch (typed at once it found us still offline).
    await waitConsole(page, /protocol offline -> lockstep/);
    await type(page, 'connect');
    await page.waitForFunction(() => (document.getElementById('netgraph')?.dataset.rows ?? '').includes('reorder 100%') && (document.getElementById('netgraph')?.dataset.rows ?? '').includes('lockstep frame'), undefined, { timeout: 20_000 });
    // Each drawn row measured in the panel's own font (the canvas context keeps it) against the panel's width.
    const fit = await page.evaluate(() => {
      const panel = document.getElementById('netgraph') as HTMLElement;
      const g = panel.querySelector('canvas')!.getContext('2d')!;
      const rows = JSON.parse(panel.dataset.rows ?? '[]') as string[];
      return { font: g.font, panel: panel.clientWidth, rows: rows.map((text) => ({ text, width: g.measureText(text).width })) };
    });
    console.log(`net graph rows (${fit.font}, panel ${fit.panel} px): ${fit.rows.map((r) => `${r.width.toFixed(0)} px "${r.text}"`).join('; ')}`);
    expect(fit.font).toMatch(/11px/);
    expect(fit.rows.map((r) => r.text)).toContain('fake link: lag 2000 ms ± 1000 ms, loss 100%,');
    expect(fit.rows.map((r) => r.text)).toContain('  duplicates 100%, reorder 100%');
    expect(fit.rows.length).toBeGreaterThan(5);
    // The text starts 6 px in from the panel's left edge and must end 6 px before its right.
    for (const r of fit.rows) expect(6 + r.width, `"${r.text}"`).toBeLessThanOrEqual(fit.panel - 6);
    await setConsole(page, false);
    await page.waitForFunction(() => window.__starlane!.rendered() > 0);
    await page.screenshot({ path: join(artifacts, 'first-evening-netgraph.png') });
    await page.screenshot({ path: join(artifacts, 'first-evening-netgraph-panel.png'), clip: await page.evaluate(() => {
      const b = document.getElementById('netgraph')!.getBoundingClientRect();
      return { x: b.x - 4, y: b.y - 4, width: b.width + 8, height: b.height + 8 };
    }) });
    await setConsole(page, true);
    await type(page, 'protocol offline');
    await waitConsole(page, /protocol lockstep -> offline/);
    for (const cvar of ['net_fakelag', 'net_fakejitter', 'net_fakeloss', 'net_fakedup', 'net_fakereorder', 'netgraph']) await type(page, `${cvar} 0`);
    await waitConsole(page, /link no longer conditioned/);
    await page.waitForSelector('#netgraph', { state: 'hidden' });
    await page.waitForSelector('#hud-stats', { state: 'hidden' });
  });

  it('bot add 2 starts a match against two bots that come in 600 units out; a player sitting still is not hit for 5 s (screenshot)', async () => {
    await type(page, 'bot add 2');
    await waitConsole(page, /^2 bots of skill 3 joined \(slot 1, slot 2\); 2 flying, bot kick sends the last one home\nthey come in 600 units away, weapons ready in 5 s; a new match begins$/m);
    const joinedAt = await page.waitForFunction(() => {
      const w = window.__starlane!.world();
      return w.ships.length === 3 ? w.tick : false;
    }, undefined, { timeout: 10_000 });
    const t0 = (await joinedAt.jsonValue()) as number;
    const spread = await page.evaluate(() => {
      const w = window.__starlane!.world();
      const us = w.ships.find((s) => s.slot === w.localSlot)!;
      return w.ships.filter((s) => s.slot !== w.localSlot).map((s) => Math.hypot(s.pos.x - us.pos.x, s.pos.y - us.pos.y, s.pos.z - us.pos.z));
    });
    console.log(`bot add 2: bots ${spread.map((d) => d.toFixed(0)).join(' and ')} units away`);
    for (const d of spread) expect(d).toBeGreaterThanOrEqual(JOIN_DISTANCE - 1);
    await setConsole(page, false);
    // A fresh match against them: the clock shows, from the top.
    await page.waitForFunction(() => /^(10:00|9:5\d) · first to 10 kills$/.test(document.getElementById('hud-match')?.textContent ?? ''), undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => window.__starlane!.world().match.round)).toBe(1);
    // Five seconds of game ticks from the bots' arrival, our ship untouched.
    await page.waitForFunction((end) => window.__starlane!.tick() >= end, t0 + RULES.joinGraceTicks - 10, { timeout: 30_000 });
    const ours = await page.evaluate(() => {
      const w = window.__starlane!.world();
      const s = w.ships.find((x) => x.slot === w.localSlot);
      return s ? { shield: s.shield, damage: s.damage } : null;
    });
    expect(ours).toEqual({ shield: RULES.shield.max, damage: 0 });
    expect(await page.evaluate(() => Array.from(document.querySelectorAll('#hud-feed .hud-line'), (e) => e.textContent))).toEqual([]);
    await page.screenshot({ path: join(artifacts, 'first-evening-bots.png') });
    expect(problems).toEqual([]);
  });
});
