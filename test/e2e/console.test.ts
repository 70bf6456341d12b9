/**
 * What a new player meets in the console (issues 10 and 23): every glyph
 * drawn, long lines broken between words (and laid out again when the
 * window narrows), `help` ending with the way to the keys and `keys` listing
 * them, a reloaded page that opens on its newest line without repeating
 * itself, and the lost-connection banner in front of an open console.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/waitFor';
import { consoleText, openGamePage, type, waitConsole } from './gamePage';
import { launchChromium } from '../support/browser';
import { litRowsIn, type Box } from './pixels';
import { repoRoot, startWebShell, type WebShellProcess } from '../support/webShellProcess';

const artifacts = join(repoRoot, 'test-artifacts');

const consoleScreen = (page: Page) => page.evaluate(() => window.__starlane?.consoleScreen() ?? '');

/** What `help stats` says under its usage line. */
const STATS_HELP = 'show tick rate, frame rate, frame-time percentiles and packet counters; stats 1 keeps tick rate and fps on the HUD, stats 0 hides them';
/** The line `help` ends with. */
const KEYS_HINT = 'keys: type keys for the controls (fly, fire, missiles, mines, EMP, target, scoreboard, console)';

/** The console rows of the last `help stats` answer: those after its usage line, up to the prompt. */
async function statsHelpRows(page: Page): Promise<string[]> {
  const lines = (await consoleText(page)).split('\n');
  const from = lines.lastIndexOf('usage: stats [0|1]');
  const rows: string[] = [];
  for (const line of lines.slice(from + 1)) {
    if (line.startsWith(']')) break;
    rows.push(line);
  }
  return rows;
}

/** Whether `rows` hold `text` broken between words only: every row but the first indented, the words joined again are the text. */
function brokenBetweenWords(rows: string[], text: string, indent: string): boolean {
  return rows.length > 1 && rows.slice(1).every((r) => r.startsWith(indent) && r[indent.length] !== ' ') && rows.map((r) => r.trim()).join(' ') === text;
}

async function openConsole(page: Page): Promise<void> {
  if (!(await page.isVisible('#console'))) await page.keyboard.press('Backquote');
  await page.waitForFunction(() => !(document.getElementById('console') as HTMLElement).hidden);
}

/**
 * The box of one character cell on screen: column `column` of the console row
 * that reads `rowText` (the DOM renderer draws each row as a div of spans),
 * as tall as the row. Null while no such row is drawn.
 */
function cellBox(page: Page, rowText: string, column: number): Promise<Box | null> {
  return page.evaluate(
    ([text, col]) => {
      const rows = document.querySelectorAll('#console .xterm-rows > div');
      for (const row of Array.from(rows)) {
        if ((row.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd() !== text) continue;
        const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
        let offset = col as number;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const length = node.textContent?.length ?? 0;
          if (offset >= length) {
            offset -= length;
            continue;
          }
          const range = document.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + 1);
          const glyph = range.getBoundingClientRect();
          const line = row.getBoundingClientRect();
          return { x: glyph.x, y: line.y, width: glyph.width, height: line.height };
        }
      }
      return null;
    },
    [rowText, column] as const,
  );
}

describe('the console a new player sees (headless Chromium through the browser shell)', () => {
  let shell: WebShellProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    shell = await startWebShell();
    browser = await launchChromium();
    page = await openGamePage(browser, shell.url, problems);
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.stop();
  });

  it('draws underscores: cl_autojoin reads cl_autojoin, on screen and in the text', async () => {
    await openConsole(page);
    await type(page, 'cl_autojoin');
    await waitConsole(page, /^cl_autojoin is "1"/m);
    // Two echoed lines that differ only in column 3: an underscore, and a space.
    await type(page, 'x_x');
    await type(page, 'x x');
    await waitConsole(page, /unknown command "x"/);
    expect(await consoleText(page)).toMatch(/^\] cl_autojoin$/m);

    // The terminal's buffer has the lines at once; its rows are drawn on the next animation frame.
    const underscore = await waitFor('the row "] x_x" to be drawn', () => cellBox(page, '] x_x', 3));
    const space = await waitFor('the row "] x x" to be drawn', () => cellBox(page, '] x x', 3));
    const lit = await litRowsIn(page, underscore as Box);
    const blank = await litRowsIn(page, space as Box);
    await page.screenshot({ path: join(artifacts, 'console-underscore.png'), clip: { x: 0, y: 0, width: 1024, height: 290 } });

    // The space cell is background only; the underscore cell has lit pixels, all in its lower half.
    expect(blank.reduce((a, b) => a + b, 0)).toBe(0);
    const half = Math.floor(lit.length / 2);
    const lower = lit.slice(half).reduce((a, b) => a + b, 0);
    const upper = lit.slice(0, half).reduce((a, b) => a + b, 0);
    console.log(`underscore cell ${Math.round((underscore as Box).width)} x ${lit.length} px: ${lower} lit pixels in the lower half, ${upper} in the upper`);
    expect(lower).toBeGreaterThanOrEqual(3);
    expect(upper).toBe(0);
    expect(problems).toEqual([]);
  });

  it('breaks a long line between words, and again at the new width when the window narrows (screenshots)', async () => {
    await openConsole(page);
    await type(page, 'help stats');
    await waitConsole(page, /^usage: stats \[0\|1\]$/m);
    const wide = await waitFor('the help of stats, wrapped', async () => {
      const rows = await statsHelpRows(page);
      return brokenBetweenWords(rows, STATS_HELP, '    ') ? rows : null;
    });
    console.log(`help stats at 1024 px:\n${wide.join('\n')}`);
    await page.screenshot({ path: join(artifacts, 'console-wrap-wide.png'), clip: { x: 0, y: 0, width: 1024, height: 290 } });

    await page.setViewportSize({ width: 560, height: 640 });
    const narrow = await waitFor('the help of stats laid out again, narrower', async () => {
      const rows = await statsHelpRows(page);
      return rows.length > wide.length && brokenBetweenWords(rows, STATS_HELP, '    ') ? rows : null;
    });
    console.log(`help stats at 560 px:\n${narrow.join('\n')}`);
    const widest = Math.max(...narrow.map((r) => r.length));
    expect(widest).toBeLessThan(Math.max(...wide.map((r) => r.length)));
    // Nothing printed was lost or repeated by the new layout; the prompt is still last.
    expect((await consoleText(page)).match(/^usage: stats \[0\|1\]$/gm)).toHaveLength(1);
    await waitFor('the prompt below it', async () => /\n\]\s*$/.test(await consoleScreen(page)));
    await page.screenshot({ path: join(artifacts, 'console-wrap-narrow.png'), clip: { x: 0, y: 0, width: 560, height: 290 } });
    await page.setViewportSize({ width: 1024, height: 640 });
    await waitFor('the wide layout again', async () => (await statsHelpRows(page)).length === wide.length);
    expect(problems).toEqual([]);
  });

  it('help ends with the way to the keys, and keys lists them', async () => {
    await openConsole(page);
    await type(page, 'help');
    await waitFor('help\'s last line above the prompt', async () => (await consoleScreen(page)).trimEnd().endsWith(`\n${KEYS_HINT}\n]`));
    await type(page, 'keys');
    await waitConsole(page, /^ {2}` \(backquote\) {14}open or close this console$/m);
    const text = await consoleText(page);
    const keys = text.slice(text.lastIndexOf('keys (the bindings in settings.json; bind and unbind change them):')).split('\n').slice(0, 14);
    expect(keys).toEqual([
      'keys (the bindings in settings.json; bind and unbind change them):',
      '  W / S                      thrust / reverse',
      '  A / D                      yaw left / right',
      '  ↓ / ↑                      pitch up / down',
      '  Q / E                      roll left / right',
      '  Space, left mouse, pad RT  fire laser',
      '  Left Shift, pad LT         afterburner (burns energy)',
      '  F, right mouse, pad A      launch a missile (homing on the target when it can lock on)',
      '  G, pad B                   drop a proximity mine',
      '  R, pad Y                   EMP pulse (needs 75 energy)',
      '  T, pad X                   target the next other ship',
      '  Tab, pad Back (hold)       scoreboard',
      '  mouse                      yaw and pitch (click the view to capture it)',
      '  ` (backquote)              open or close this console',
    ]);
    await page.screenshot({ path: join(artifacts, 'console-keys.png'), clip: { x: 0, y: 0, width: 1024, height: 290 } });
  });

  it('after a reload the console shows the start-up lines once and opens on the newest line', async () => {
    await openConsole(page);
    // More output than the console has rows, so a view left at the top would hide the new lines.
    const lists = ((await consoleText(page)).match(/^commands:$/gm) ?? []).length;
    for (let i = 0; i < 3; i++) await type(page, 'help');
    await page.waitForFunction((n) => (window.__starlane?.consoleText().match(/^commands:$/gm) ?? []).length === n, lists + 3);
    const before = await consoleText(page);

    await page.reload();
    await page.waitForFunction(() => window.__starlane?.ready === true, undefined, { timeout: 20_000 });
    const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
    // xterm parses what it is given in time slices: the backlog is on screen once its last list is; it must then hold each once.
    const listed = count(before, /^commands:$/gm);
    await page.waitForFunction((n) => (window.__starlane?.consoleText().match(/^commands:$/gm) ?? []).length >= n, listed);
    const reloaded = await consoleText(page);
    expect(count(reloaded, /^Starlane [\d.]+ — press ` to open or close this console/gm)).toBe(1);
    expect(count(reloaded, /^commands:$/gm)).toBe(listed);

    await openConsole(page);
    // The view settles on the frame after the console opens: wait for it, then it must be the last lines.
    await waitFor('the view to open on the last lines of the backlog (help\'s, ending with the way to the keys)', async () => (await consoleScreen(page)).trimEnd().endsWith(`\n${KEYS_HINT}\n]`));
    await type(page, 'name reloaded');
    await waitFor('the reply on screen, above the prompt', async () => /you are now known as reloaded\n\]\s*$/.test(await consoleScreen(page)));
    await page.screenshot({ path: join(artifacts, 'console-reloaded.png'), clip: { x: 0, y: 0, width: 1024, height: 290 } });
    // Everything written by now: still each list once (the backlog was not printed twice).
    expect(count(await consoleText(page), /^commands:$/gm)).toBe(listed);
    expect(problems).toEqual([]);
  });

  // Last: it stops the browser shell.
  it('the lost-connection banner shows in front of an open console', async () => {
    await openConsole(page);
    await shell.stop();
    await page.waitForFunction(() => /^Lost connection to the Starlane host/.test(document.getElementById('banner')?.textContent ?? ''), undefined, { timeout: 10_000 });
    expect(await page.isVisible('#console'), 'the console is still open').toBe(true);
    // What is on top at the banner's centre and near its four corners (the console covers part of it).
    const seen = await page.evaluate(() => {
      const banner = document.getElementById('banner') as HTMLElement;
      const box = banner.getBoundingClientRect();
      const consoleBox = (document.getElementById('console') as HTMLElement).getBoundingClientRect();
      const points = [
        [box.x + box.width / 2, box.y + box.height / 2],
        [box.left + 3, box.top + 3],
        [box.right - 3, box.top + 3],
        [box.left + 3, box.bottom - 3],
        [box.right - 3, box.bottom - 3],
      ] as const;
      const hits = points.map(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return hit !== null && banner.contains(hit) ? 'banner' : `${hit?.tagName ?? 'nothing'}#${hit?.id ?? ''}.${hit?.className ?? ''}`;
      });
      return { hits, overlapsConsole: box.top < consoleBox.bottom };
    });
    await page.screenshot({ path: join(artifacts, 'console-lost-connection.png') });
    expect(seen.overlapsConsole, 'the banner sits where the open console is').toBe(true);
    expect(seen.hits, 'what is on top at the banner centre and corners').toEqual(['banner', 'banner', 'banner', 'banner', 'banner']);
  });
});
