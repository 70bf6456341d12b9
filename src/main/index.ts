/**
 * Electron entry: window and IPC wiring only. The game host itself
 * (console, settings, subsystems) is src/node/host, shared with the browser shell.
 */
import { app } from 'electron';
import { createHost } from '../node/host/createHost';
import { defaultUserDataDir } from '../node/settings/userDataDir';
import { APP_VERSION } from '../node/version';
import type { HostService } from '../node/host/hostService';
import { createGameWindow, installAppMenu } from './window';
import { DEFAULT_WINDOW } from '../shared/settings/windowState';
import { wireHostIpc } from './ipc';

app.setPath('userData', defaultUserDataDir());

let host: HostService | null = null;
let unwire: (() => void) | null = null;

app.whenReady().then(async () => {
  host = await createHost({
    shell: 'electron',
    appVersion: APP_VERSION,
    userDataDir: app.getPath('userData'),
    onQuit: () => setTimeout(() => app.quit(), 100),
  });
  installAppMenu();
  const h = host;
  const win = createGameWindow(h.settings.get().window ?? { ...DEFAULT_WINDOW }, (state) => {
    h.settings.update((s) => {
      s.window = state;
    });
  });
  unwire = wireHostIpc(host, win);
  win.on('closed', () => app.quit());
});

let disposed = false;
app.on('will-quit', (event) => {
  if (disposed || !host) return;
  event.preventDefault();
  disposed = true;
  unwire?.();
  void host.dispose().finally(() => app.quit());
});
