/**
 * The settings screen as a player uses it (headless Chromium through the
 * browser shell): opened from the console, Fire laser rebound to J by
 * clicking its key and pressing J, Esc cancelling a wait for a key, a key
 * used elsewhere named with the choice to replace it or cancel, a mouse
 * button bound, a cvar set on the screen and read back in the console (and
 * a wrong value refused with the reason), the pilot's name, UI scale and
 * quality applied at once, every control reached by Up/Down, the page kept
 * across a reload and J firing in flight, and the layout at 1280×720 and
 * 2560×1440. A gamepad button binds too. Screenshots in test-artifacts/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameTarget } from '../support/gameTarget';
import { menuLayer, waitMenu } from '../support/frontDoor';
import { repoRoot } from '../support/webShellProcess';
import { holdAndCount, openWatchedGame, ownLasers, type, waitConsole, waitTicks } from './gamePage';
import { installPadStandIn, pressPad } from './padStandIn';
import { menuLayout } from './menuLayout';

const artifacts = join(repoRoot, 'test-artifacts');

/** Runs `line` in the console (opened and closed again around it). */
async function consoleLine(page: Page, line: string): Promise<void> {
  await page.keyboard.press('Backquote');
  await type(page, line);
  await page.keyboard.press('Backquote');
  await page.waitForFunction(() => document.getElementById('console')?.hidden === true);
}

/** Lasers of ours flying now. */
/** The inputs the screen shows for an action (the ids of its key buttons). */
const boundTo = (page: Page, action: string): Promise<string[]> =>
  page.evaluate((a) => [...document.querySelectorAll<HTMLElement>(`#bind-${a} .settings-chip`)].map((b) => b.id.slice(`bind-${a}-`.length)), action);

/** Waits until the screen shows exactly `inputs` for `action`, in that order (keys, mouse buttons, pad buttons). */
async function waitBound(page: Page, action: string, inputs: string[]): Promise<void> {
  await page.waitForFunction(
    ([a, want]) => JSON.stringify([...document.querySelectorAll<HTMLElement>(`#bind-${a} .settings-chip`)].map((b) => b.id.slice(`bind-${a}-`.length))) === JSON.stringify(want),
    [action, inputs] as const,
  );
}

const modalText = (page: Page) => page.evaluate(() => document.getElementById('settings-modal')?.textContent ?? '');

describe('the settings screen (keyboard and mouse)', () => {
  let game: GameTarget;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    game = await openWatchedGame(problems, { width: 1280, height: 720 });
    page = game.page;
  });

  afterAll(async () => {
    await game?.close();
  });

  it('opens from the console with every section and the saved values', async () => {
    await consoleLine(page, 'menu settings');
    await waitMenu(page, 'menu-settings');
    const text = await page.evaluate(() => document.getElementById('menu-settings')?.textContent ?? '');
    for (const part of ['Pilot', 'Controls', 'Network', 'Match limits', 'Display', 'Fire laser', 'Mouse sensitivity', 'Gamepad dead zone', 'Send rate', 'Kill limit', 'UI scale', 'Quality']) expect(text).toContain(part);
    expect(await page.inputValue('#settings-name')).toBe('pilot');
    expect(await page.inputValue('#settings-sensitivity')).toBe('1');
    expect(await page.inputValue('#settings-timelimit')).toBe('10');
    expect(await boundTo(page, 'fire')).toEqual(['Space', 'Mouse1', 'PadRT']);
    // The cvar's help and range, from the host, as the hint.
    expect(await page.textContent('[data-cvar="sendfreq"]')).toMatch(/game packets sent per second while joined \(5–60, default 20\)/);
    await page.screenshot({ path: join(artifacts, 'menu-settings.png') });
  });

  it('rebinds Fire laser from Space to J by clicking Space and pressing J; the press neither fires nor moves the menu', async () => {
    await page.click('#bind-fire-Space');
    await page.waitForSelector('#settings-modal', { state: 'visible' });
    expect(await modalText(page)).toContain('Press the key, mouse button or gamepad button for Fire laser');
    await page.screenshot({ path: join(artifacts, 'menu-settings-capture.png') });
    await page.keyboard.press('KeyJ');
    await waitBound(page, 'fire', ['KeyJ', 'Mouse1', 'PadRT']);
    // The focus is on the new key's button, and no laser flew.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bind-fire-KeyJ');
    expect(await ownLasers(page)).toBe(0);
    await page.keyboard.press('Backquote');
    await waitConsole(page, /^Space \(Space\) unbound \(it ran "\+fire"\)$/m);
    await waitConsole(page, /^J \(KeyJ\) runs "\+fire"$/m);
    await page.keyboard.press('Backquote');
    expect(await menuLayer(page)).toBe('menu-settings');
    expect(await page.isHidden('#settings-modal')).toBe(true);
  });

  it('Esc cancels waiting for a key and the page stays; an arrow key while waiting is bound, not a move', async () => {
    await page.click('#bind-thrust-add');
    await page.waitForSelector('#settings-modal', { state: 'visible' });
    await page.keyboard.press('Escape');
    await page.waitForSelector('#settings-modal', { state: 'hidden' });
    expect(await menuLayer(page)).toBe('menu-settings');
    expect(await boundTo(page, 'thrust')).toEqual(['KeyW']);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bind-thrust-add');
    // An arrow key while waiting is the key to bind, not a move through the menu: it is named as Pitch down's.
    await page.keyboard.press('Enter');
    await page.waitForSelector('#settings-modal', { state: 'visible' });
    await page.keyboard.press('ArrowUp');
    await page.waitForSelector('#settings-modal-ok', { state: 'visible' });
    expect(await modalText(page)).toContain('↑ is bound to Pitch down. Bind it to Thrust instead?');
    // The modal keeps the keyboard (the page behind it is inert): Up and Down go between its two buttons; Esc cancels.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('settings-modal-cancel');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('settings-modal-ok');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('settings-modal-cancel');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#settings-modal', { state: 'hidden' });
    expect(await menuLayer(page)).toBe('menu-settings');
    expect(await boundTo(page, 'thrust')).toEqual(['KeyW']);
    expect(await boundTo(page, 'pitchDown')).toEqual(['ArrowUp']);
  });

  it('a key bound to another action is named: Cancel keeps it, Replace moves it', async () => {
    await page.click('#bind-fire-add');
    await page.keyboard.press('KeyG');
    await page.waitForSelector('#settings-modal-ok', { state: 'visible' });
    expect(await modalText(page)).toContain('G is bound to Drop mine. Bind it to Fire laser instead?');
    await page.screenshot({ path: join(artifacts, 'menu-settings-conflict.png') });
    await page.click('#settings-modal-cancel');
    await page.waitForSelector('#settings-modal', { state: 'hidden' });
    expect(await boundTo(page, 'mine')).toEqual(['KeyG', 'PadB']);
    expect(await boundTo(page, 'fire')).toEqual(['KeyJ', 'Mouse1', 'PadRT']);

    await page.click('#bind-emp-add');
    await page.keyboard.press('KeyT');
    await page.waitForSelector('#settings-modal-ok', { state: 'visible' });
    expect(await modalText(page)).toContain('T is bound to Target next ship');
    await page.click('#settings-modal-ok');
    await waitBound(page, 'emp', ['KeyR', 'KeyT', 'PadY']);
    await waitBound(page, 'target', ['PadX']);
  });

  it('a mouse button pressed while waiting is bound, and × frees an input', async () => {
    await page.click('#bind-missile-add');
    await page.waitForSelector('#settings-modal', { state: 'visible' });
    await page.mouse.move(300, 300);
    await page.mouse.down({ button: 'middle' });
    await page.mouse.up({ button: 'middle' });
    await waitBound(page, 'missile', ['KeyF', 'Mouse2', 'Mouse3', 'PadA']);
    expect(await menuLayer(page)).toBe('menu-settings');
    await page.click('#bind-missile-Mouse3-clear');
    await waitBound(page, 'missile', ['KeyF', 'Mouse2', 'PadA']);
    await page.keyboard.press('Backquote');
    await waitConsole(page, /^middle mouse \(Mouse3\) unbound \(it ran "\+missile"\)$/m);
    await page.keyboard.press('Backquote');
  });

  it('a cvar set on the screen is what the console reads; a value out of range is refused with the reason', async () => {
    await page.fill('#settings-sensitivity', '2.5');
    await page.press('#settings-sensitivity', 'Enter');
    await page.keyboard.press('Backquote');
    await type(page, 'sensitivity');
    await waitConsole(page, /^sensitivity is "2\.5" \(default "1", range 0\.1 to 10/m);
    await page.keyboard.press('Backquote');
    await page.fill('#settings-sensitivity', '50');
    await page.press('#settings-sensitivity', 'Enter');
    await page.waitForSelector('#settings-sensitivity-error', { state: 'visible' });
    expect(await page.textContent('#settings-sensitivity-error')).toBe('Not changed: sensitivity must be a number from 0.1 to 10 (got 50)');
    // Left/Right step it from the keyboard, and that is set at once too.
    await page.fill('#settings-sensitivity', '2.5');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => (document.getElementById('settings-sensitivity') as HTMLInputElement).value === '2.6' && document.getElementById('settings-sensitivity-error')?.hidden === true);
    await page.click('#settings-m_invert');
    await page.waitForFunction(() => document.getElementById('settings-m_invert')?.textContent === 'on');
    await page.fill('#settings-timelimit', '5');
    await page.press('#settings-timelimit', 'Enter');
    await page.keyboard.press('Backquote');
    await type(page, 'sensitivity; m_invert; timelimit');
    await waitConsole(page, /^sensitivity is "2\.6"/m);
    await waitConsole(page, /^m_invert is "1"/m);
    await waitConsole(page, /^timelimit is "300"/m);
    await page.keyboard.press('Backquote');
  });

  it('the pilot name is set with name, and an empty one is refused', async () => {
    await page.fill('#settings-name', '');
    await page.press('#settings-name', 'Enter');
    await page.waitForSelector('#settings-name-error', { state: 'visible' });
    expect(await page.textContent('#settings-name-error')).toBe('That name cannot be used: a name needs at least one character.');
    await page.fill('#settings-name', 'Ace Pilot');
    await page.click('#settings-rename');
    await page.waitForFunction(() => document.getElementById('hud-name')?.textContent === 'Ace Pilot');
    await waitConsole(page, /^you are now known as Ace Pilot$/m);
  });

  it('UI scale, quality and fullscreen apply at once', async () => {
    const titleSize = () => page.evaluate(() => document.querySelector('#menu-settings .menu-title')!.getBoundingClientRect().height);
    const before = await titleSize();
    await page.fill('#settings-ui_scale', '1.5');
    await page.press('#settings-ui_scale', 'Enter');
    await page.waitForFunction((h) => document.querySelector('#menu-settings .menu-title')!.getBoundingClientRect().height > h * 1.3, before);
    await page.screenshot({ path: join(artifacts, 'menu-settings-scaled.png') });
    await page.fill('#settings-ui_scale', '1');
    await page.press('#settings-ui_scale', 'Enter');
    await page.waitForFunction((h) => Math.abs(document.querySelector('#menu-settings .menu-title')!.getBoundingClientRect().height - h) < 1, before);
    // Low quality draws fewer pixels: the canvas's own size shrinks while its place on the page stays.
    const full = await page.evaluate(() => (document.querySelector('#view canvas') as HTMLCanvasElement).width);
    await page.click('#settings-r_quality-low');
    await page.waitForFunction((w) => (document.querySelector('#view canvas') as HTMLCanvasElement).width <= Math.ceil(w * 0.75), full);
    expect(await page.getAttribute('#settings-r_quality-low', 'aria-pressed')).toBe('true');
    await page.click('#settings-r_quality-high');
    await page.waitForFunction((w) => (document.querySelector('#view canvas') as HTMLCanvasElement).width === w, full);
    // Fullscreen: the window's, as F11 and Alt+Enter switch it; the button says which it is.
    await page.click('#settings-fullscreen');
    await page.waitForFunction(() => document.fullscreenElement !== null && document.getElementById('settings-fullscreen')?.textContent === 'on');
    await page.click('#settings-fullscreen');
    await page.waitForFunction(() => document.fullscreenElement === null && document.getElementById('settings-fullscreen')?.textContent === 'off');
  });

  it('Up and Down reach every control of the page, in order and round again', async () => {
    await page.focus('#settings-go-pilot');
    const controls = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('#menu-settings button, #menu-settings input')].filter((e) => e.offsetParent !== null).map((e) => e.id));
    const seen: string[] = [];
    for (let i = 0; i < controls.length; i++) {
      seen.push(await page.evaluate(() => document.activeElement?.id ?? ''));
      await page.keyboard.press('ArrowDown');
    }
    expect(seen).toEqual(controls);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('settings-go-pilot');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('settings-back-bottom');
    console.log(`e2e settings: ${controls.length} controls reached by Down`);
  });

  it('a reload shows the settings page again; with the menu closed J fires in flight and Space does not', async () => {
    await page.reload();
    await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
    await waitMenu(page, 'menu-settings');
    await waitBound(page, 'fire', ['KeyJ', 'Mouse1', 'PadRT']);
    await consoleLine(page, 'menu off');
    await waitMenu(page, 'off');
    const withSpace = await holdAndCount(page, 'Space', 40);
    await waitTicks(page, 60);
    const withJ = await holdAndCount(page, 'KeyJ', 40);
    console.log(`e2e settings after a reload: lasers flying while Space was held ${withSpace}, while J was held ${withJ}`);
    expect(withSpace).toBe(0);
    expect(withJ).toBeGreaterThan(0);
  });

  it('reads well at 1280×720 and 2560×1440: inside the window, nothing overlapping, text at least 12 px', async () => {
    await consoleLine(page, 'menu settings');
    await waitMenu(page, 'menu-settings');
    for (const size of [{ width: 1280, height: 720 }, { width: 2560, height: 1440 }]) {
      await page.setViewportSize(size);
      const report = await menuLayout(page);
      console.log(`e2e settings at ${size.width}x${size.height}: ${report.controls} controls, smallest text ${report.smallestTextPx} px`);
      expect(report.problems, `${size.width}x${size.height}`).toEqual([]);
      await page.screenshot({ path: join(artifacts, `menu-settings-${size.width}x${size.height}.png`) });
      // The page scrolls inside its panel: its end (network, match limits, display) reads as well.
      await page.evaluate(() => document.getElementById('menu-settings')!.scrollTo({ top: 1e6 }));
      expect((await menuLayout(page)).problems, `${size.width}x${size.height}, scrolled to the end`).toEqual([]);
      await page.screenshot({ path: join(artifacts, `menu-settings-${size.width}x${size.height}-end.png`) });
      await page.evaluate(() => document.getElementById('menu-settings')!.scrollTo({ top: 0 }));
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    // The largest UI scale at 1280×720: the page still fits the window and scrolls inside its panel.
    await consoleLine(page, 'ui_scale 2');
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--ui-scale') === '2');
    const scaled = await menuLayout(page);
    expect(scaled.problems, 'ui_scale 2 at 1280x720').toEqual([]);
    await page.screenshot({ path: join(artifacts, 'menu-settings-1280x720-scale2.png') });
    await consoleLine(page, 'ui_scale 1');
  });

  it('Reset controls to defaults asks first; Reset brings every default binding back', async () => {
    await page.click('#settings-bindreset');
    await page.waitForSelector('#settings-modal-ok', { state: 'visible' });
    expect(await modalText(page)).toContain('Put every key, mouse button and gamepad button back as it was at the first start?');
    await page.click('#settings-modal-ok');
    await waitBound(page, 'fire', ['Space', 'Mouse1', 'PadRT']);
    await waitBound(page, 'target', ['KeyT', 'PadX']);
    await page.keyboard.press('Backquote');
    await waitConsole(page, /^bindings reset to the defaults/m);
    await page.keyboard.press('Backquote');
    expect(problems).toEqual([]);
  });
});

describe('the settings screen with a gamepad', () => {
  let game: GameTarget;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    game = await openWatchedGame(problems, { width: 1280, height: 720 });
    page = game.page;
    // A stand-in standard-mapping pad the test presses (headless Chromium has no pads), from the next load on.
    await installPadStandIn(page);
    await page.reload();
    await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
  });

  afterAll(async () => {
    await game?.close();
  });

  it('A on + waits for a button; the pad button pressed then is bound (and not taken as the menu\'s B)', async () => {
    await consoleLine(page, 'menu settings');
    await waitMenu(page, 'menu-settings');
    await page.focus('#bind-target-add');
    await pressPad(page, 0); // A: opens the wait
    await page.waitForSelector('#settings-modal', { state: 'visible' });
    await pressPad(page, 9); // Start: unbound, so it is bound at once
    await waitBound(page, 'target', ['KeyT', 'PadX', 'PadStart']);
    await page.focus('#bind-scoreboard-add');
    await pressPad(page, 0);
    await page.waitForSelector('#settings-modal', { state: 'visible' });
    await pressPad(page, 1); // B: the mine's button, not the menu's Back while waiting
    await page.waitForSelector('#settings-modal-ok', { state: 'visible' });
    expect(await modalText(page)).toContain('pad B is bound to Drop mine');
    expect(await menuLayer(page)).toBe('menu-settings');
    await pressPad(page, 1); // B now cancels the question and stays on the page
    await page.waitForSelector('#settings-modal', { state: 'hidden' });
    expect(await menuLayer(page)).toBe('menu-settings');
    expect(await boundTo(page, 'mine')).toEqual(['KeyG', 'PadB']);
    await pressPad(page, 1); // and B again goes back
    await waitMenu(page, 'menu-main');
    expect(problems).toEqual([]);
  });
});
