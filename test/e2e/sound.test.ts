/**
 * Sound in the game page (issue 25), in headless Chromium through the
 * browser shell: no AudioContext before the player's first key or click and
 * a line saying how to turn sound on; the first key starts it; a laser fired
 * in the host's world reaches the page as a cue and, rendered through the
 * page's own cue graph in an OfflineAudioContext, is loud — and silent with
 * s_mute 1; the settings screen's Sound section applies at once and its
 * buttons click; `subsystems` lists the sound kind, and `sound none` and back
 * keeps the game running while the cues stop and come back.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleText, holdAndCount, openGamePage, waitTicks } from './gamePage';
import { aimStep } from './hudAim';
import { launchChromium } from '../support/browser';
import { startWebShell, type WebShellProcess } from '../support/webShellProcess';
import { passFrontDoor, waitMenu } from '../support/frontDoor';
import type { SoundHookState } from '../../src/shared/host/soundHooks';

const sound = (page: Page): Promise<SoundHookState> => page.evaluate(() => window.__starlane!.sound());

/** Runs a console line (the console opened and closed again) and waits until the console shows `expected`. */
async function consoleLine(page: Page, line: string, expected: RegExp): Promise<void> {
  const from = (await consoleText(page)).length;
  await page.keyboard.press('Backquote');
  await page.waitForFunction(() => document.getElementById('console')?.hidden === false);
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await page.waitForFunction(([at, source, flags]) => new RegExp(source as string, flags as string).test((window.__starlane?.consoleText() ?? '').slice(Math.max(0, (at as number) - 100))), [from, expected.source, expected.flags] as const, { timeout: 10_000 });
  await page.keyboard.press('Backquote');
  await page.waitForFunction(() => document.getElementById('console')?.hidden === true);
}

describe('sound in the game page (headless Chromium through the browser shell)', () => {
  let shell: WebShellProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    shell = await startWebShell();
    browser = await launchChromium();
    // As a new player first sees it: the name prompt and the menu still up, no key pressed yet.
    page = await openGamePage(browser, shell.url, problems, { width: 1024, height: 640 }, false);
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.stop();
  });

  it('before any key or click there is no AudioContext, and the screen says how to turn sound on', async () => {
    // The host is sending its batches already: the page counts them, and plays nothing.
    await page.waitForFunction(() => window.__starlane!.sound().batches > 5);
    const s = await sound(page);
    expect(s).toMatchObject({ context: 'none', bound: 'webaudio', played: 0, hint: true });
    expect(await page.isVisible('#sound-hint')).toBe(true);
    expect(await page.textContent('#sound-hint')).toBe('Press any key or click for sound');
  });

  it('the first key press starts it: the context runs and the line goes', async () => {
    // The name prompt answered and the menu closed, by keys, as a player would.
    await passFrontDoor(page);
    await page.waitForFunction(() => window.__starlane!.sound().context === 'running', undefined, { timeout: 10_000 });
    expect(await page.isHidden('#sound-hint')).toBe(true);
    expect((await sound(page)).hint).toBe(false);
  });

  it('subsystems lists the sound kind with its choices', async () => {
    await consoleLine(page, 'subsystems', /sound\s+webaudio choices: webaudio, none/);
  });

  it('a laser fired reaches the page as a cue and renders loud through the page\'s cue graph; silent with s_mute 1', async () => {
    const before = await sound(page);
    const lasers = await holdAndCount(page, 'Space', 40);
    expect(lasers).toBeGreaterThan(0);
    await page.waitForFunction((n) => (window.__starlane!.sound().byType['laser'] ?? 0) > n, before.byType['laser'] ?? 0);
    const after = await sound(page);
    expect(after.played).toBeGreaterThan(before.played);
    const loud = await page.evaluate(() => window.__starlane!.soundRender('laser'));
    console.log(`e2e sound: ${(after.byType['laser'] ?? 0) - (before.byType['laser'] ?? 0)} laser cues for ${lasers} bolts seen flying at most; rendered offline at volume ${after.levels.volume}: peak ${loud!.peak.toFixed(3)}, rms ${loud!.rms.toFixed(4)} over ${loud!.seconds.toFixed(2)} s`);
    expect(loud).toMatchObject({ type: 'laser', positional: false });
    expect(loud!.peak).toBeGreaterThan(0.02);
    expect(loud!.rms).toBeGreaterThan(0.002);

    await consoleLine(page, 's_mute 1', /s_mute/);
    await page.waitForFunction(() => window.__starlane!.sound().levels.mute);
    const muted = await page.evaluate(() => window.__starlane!.soundRender('laser'));
    console.log(`e2e sound: the same laser with s_mute 1: peak ${muted!.peak}, rms ${muted!.rms}`);
    expect(muted!.peak).toBe(0);
    await consoleLine(page, 's_mute 0', /s_mute/);
    await page.waitForFunction(() => !window.__starlane!.sound().levels.mute);
  });

  it('the settings screen has a Sound section that applies at once; its buttons click', async () => {
    await consoleLine(page, 'menu settings', /./);
    await waitMenu(page, 'menu-settings');
    for (const cvar of ['volume', 's_effects', 's_engine', 's_mute']) expect(await page.isVisible(`#settings-sound [data-cvar="${cvar}"]`)).toBe(true);
    const clicks = (await sound(page)).clicks;
    await page.click('#settings-go-sound');
    await page.waitForFunction((n) => window.__starlane!.sound().clicks > n, clicks);
    await page.click('#settings-s_mute');
    await page.waitForFunction(() => window.__starlane!.sound().levels.mute);
    await page.click('#settings-s_mute');
    await page.waitForFunction(() => !window.__starlane!.sound().levels.mute);
    await page.fill('#settings-volume', '0.35');
    await page.press('#settings-volume', 'Enter');
    await page.waitForFunction(() => window.__starlane!.sound().levels.volume === 0.35);
    await consoleLine(page, 'menu off', /./);
    await waitMenu(page, 'off');
  });

  it('sound none and back keeps the game running: ticks go on, the ship flies and fires, the cues stop and come back', async () => {
    await consoleLine(page, 'sound none', /sound webaudio -> none/);
    await page.waitForFunction(() => window.__starlane!.sound().bound === 'none');
    // Every batch sent before the switch came before the switch's own event: none can follow it.
    const silent = await sound(page);
    expect(silent.hint).toBe(false);
    const lasers = await holdAndCount(page, 'Space', 40);
    expect(lasers).toBeGreaterThan(0);
    await page.keyboard.down('KeyW');
    await waitTicks(page, 40);
    const speed = await page.evaluate(() => window.__starlane!.ship().speed);
    await page.keyboard.up('KeyW');
    expect(speed).toBeGreaterThan(1);
    const still = await sound(page);
    expect([still.cues, still.batches, still.played]).toEqual([silent.cues, silent.batches, silent.played]);
    expect(still.context).toBe('suspended');

    await consoleLine(page, 'sound webaudio', /sound none -> webaudio/);
    await page.waitForFunction(() => window.__starlane!.sound().bound === 'webaudio' && window.__starlane!.sound().context === 'running');
    expect(await holdAndCount(page, 'Space', 40)).toBeGreaterThan(0);
    await page.waitForFunction((n) => window.__starlane!.sound().cues > n, still.cues);
    const back = await sound(page);
    console.log(`e2e sound: after sound none and back, ${back.cues - still.cues} cues and ${back.batches - still.batches} batches; played ${back.played} in all`);
    expect(back.played).toBeGreaterThan(still.played);
  });

  it('a bot\'s laser is heard where the bot is: placed in space, quieter than our own', async () => {
    const ours = await page.evaluate(() => window.__starlane!.soundRender('laser'));
    await consoleLine(page, 'practice 1 5', /./);
    await waitMenu(page, 'off');
    const local = await page.evaluate(() => window.__starlane!.world().localSlot);
    // We do not fire: the next laser cue is the bot's. We fly at it by the HUD (a bot 600 units out
    // collects extras before it fights; closing in brings it within its fighting range sooner).
    const botFired = () => page.evaluate((slot) => { const from = window.__starlane!.sound().lastFrom['laser']; return from !== undefined && from !== slot; }, local);
    for (let i = 0; i < 5 && (await page.evaluate(() => window.__starlane!.overlays().target)) < 0; i++) {
      await page.keyboard.press('KeyT');
      await waitTicks(page, 2);
    }
    await page.keyboard.down('KeyW');
    try {
      // A breakage guard only: 60 s of game time at most.
      const until = (await page.evaluate(() => window.__starlane!.tick())) + 2400;
      while (!(await botFired()) && (await page.evaluate(() => window.__starlane!.tick())) < until) await aimStep(page);
    } finally {
      await page.keyboard.up('KeyW');
    }
    expect(await botFired(), 'a laser cue from the bot').toBe(true);
    const theirs = await page.evaluate(() => window.__starlane!.soundRender('laser'));
    console.log(`e2e sound: a bot's laser ${theirs!.distance.toFixed(0)} units away: peak ${theirs!.peak.toFixed(3)} (ours ${ours!.peak.toFixed(3)}), rms ${theirs!.rms.toFixed(4)}`);
    expect(theirs!.positional).toBe(true);
    expect(theirs!.distance).toBeGreaterThan(0);
    expect(theirs!.peak).toBeGreaterThan(0);
    if (theirs!.distance > 120) expect(theirs!.peak).toBeLessThan(ours!.peak);
    expect(problems).toEqual([]);
  });
});
