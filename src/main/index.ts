/**
 * Electron entry: window and IPC wiring only. The game host itself
 * (console, settings, subsystems) is src/node/host, shared with the browser shell.
 */
import { app } from 'electron';
import { createHost } from '../node/host/createHost';
import { defaultUserDataDir } from '../node/settings/userDataDir';
import { APP_VERSION } from '../node/version';
import type { HostService } from '../node/host/hostService';
import { createGameWindow } from './window';
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
  const win = createGameWindow();
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
