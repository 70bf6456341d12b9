import { BrowserWindow, Menu, screen, type MenuItemConstructorOptions, type WebContents } from 'electron';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { placeWindow, type WindowState } from '../shared/settings/windowState';

/** Quiet time after the last move or resize before the window's state is saved. */
const SAVE_AFTER_MS = 500;

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const rendererFile = fileURLToPath(new URL('../renderer/index.html', import.meta.url));

/** The URL the game page is loaded from (dev server in `npm run dev`, the built file otherwise). */
export function rendererUrl(): string {
  return process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(rendererFile).href;
}

/**
 * The game window, locked down per Electron's security checklist: isolated,
 * sandboxed preload, no Node in the page, no navigation, no new windows. It
 * opens as the player left it (`saved`: size, position on a display that is
 * still there, maximised, fullscreen) and reports every change to `remember`.
 */
export function createGameWindow(saved: WindowState, remember: (state: WindowState) => void): BrowserWindow {
  const placed = placeWindow(saved, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    ...(placed.x !== undefined && placed.y !== undefined ? { x: placed.x, y: placed.y } : {}),
    width: placed.width,
    height: placed.height,
    minWidth: 640,
    minHeight: 400,
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
  win.once('ready-to-show', () => {
    if (placed.maximized) win.maximize();
    if (placed.fullscreen) win.setFullScreen(true);
    win.show();
  });
  rememberState(win, remember);
  void win.loadURL(rendererUrl());
  return win;
}

/** Reports the window's state after each change settles (the normal bounds, so a maximised window comes back to its size). */
function rememberState(win: BrowserWindow, remember: (state: WindowState) => void): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const report = () => {
    timer = null;
    if (win.isDestroyed()) return;
    const b = win.getNormalBounds();
    remember({ x: b.x, y: b.y, width: b.width, height: b.height, maximized: win.isMaximized(), fullscreen: win.isFullScreen() });
  };
  const later = () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(report, SAVE_AFTER_MS);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize', 'enter-full-screen', 'leave-full-screen'] as const) win.on(event as 'resize', later);
  win.on('close', () => {
    if (timer !== null) clearTimeout(timer);
    report();
  });
}

/**
 * A minimal application menu, as each platform expects: the app menu on
 * macOS, a Game menu with fullscreen (F11; Ctrl+Cmd+F on macOS; Alt+Enter is
 * the page's) and quit, and the window menu.
 */
export function installAppMenu(): void {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    { label: 'Game', submenu: [{ role: 'togglefullscreen' }, { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}
