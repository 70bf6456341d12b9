import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { _electron, type Page } from 'playwright-core';
import { launchChromium } from './browser';
import { repoRoot, startWebShell } from './webShellProcess';
import { tempDir } from './testRun';
import { passFrontDoor } from './frontDoor';

/** A running game to drive: its page and how to close everything it started. */
export interface GameTarget {
  kind: 'browser-shell' | 'electron';
  page: Page;
  close(): Promise<void>;
}

/** The Electron binary installed under node_modules/electron, if any. */
export function electronBinary(): string | null {
  try {
    const dir = join(repoRoot, 'node_modules', 'electron');
    const full = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim());
    return existsSync(full) ? full : null;
  } catch {
    return null;
  }
}

/**
 * Starts the game for the e2e suite. By default: the browser shell as a real
 * process and headless Chromium on its URL. With STARLANE_E2E=electron: the
 * real Electron app (needs the Electron binary and a display). Either way
 * the page is past the name prompt and the menu (frontDoor.ts).
 */
export async function openGame(viewport = { width: 1024, height: 640 }): Promise<GameTarget> {
  if (process.env.STARLANE_E2E === 'electron') {
    const executablePath = electronBinary();
    if (!executablePath) throw new Error('STARLANE_E2E=electron, but the Electron binary is not installed (node_modules/electron/dist)');
    const app = await _electron.launch({
      executablePath,
      args: [join(repoRoot, 'out', 'main', 'index.js')],
      env: { ...process.env, STARLANE_USER_DATA: tempDir('e2e'), STARLANE_LOG_LEVEL: 'warn' },
    });
    const page = await app.firstWindow();
    await page.setViewportSize(viewport);
    await passFrontDoor(page);
    return { kind: 'electron', page, close: () => app.close() };
  }
  const shell = await startWebShell();
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  await page.goto(shell.url);
  await passFrontDoor(page);
  return {
    kind: 'browser-shell',
    page,
    close: async () => {
      await browser.close();
      await shell.stop();
    },
  };
}
