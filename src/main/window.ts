import { BrowserWindow, type WebContents } from 'electron';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const rendererFile = fileURLToPath(new URL('../renderer/index.html', import.meta.url));

/** The URL the game page is loaded from (dev server in `npm run dev`, the built file otherwise). */
export function rendererUrl(): string {
  return process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(rendererFile).href;
}

/**
 * The game window, locked down per Electron's security checklist: isolated,
 * sandboxed preload, no Node in the page, no navigation, no new windows.
 */
export function createGameWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    title: 'Starlane',
    backgroundColor: '#000000',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // The simulation and network must keep real time when the window is hidden.
      backgroundThrottling: false,
    },
  });
  lockDown(win.webContents);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererUrl());
  return win;
}

function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}
