import { ipcMain, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import { HOST_CHANNELS, parseCommandLine, parseFrame } from '../shared/host/contract';
import { isTrustedSender } from '../shared/host/trust';
import type { HostService } from '../node/host/hostService';
import { rendererUrl } from './window';

/**
 * Carries the host API over Electron IPC, one channel per message. Every
 * message must come from the game window's main frame at the game's URL;
 * anything else is dropped and counted, as is any malformed payload.
 */
export function wireHostIpc(host: HostService, win: BrowserWindow): () => void {
  const trusted = (event: IpcMainEvent | IpcMainInvokeEvent): boolean => {
    const frame = event.senderFrame;
    const isGameWindow = !win.isDestroyed() && event.sender === win.webContents;
    const ok = isTrustedSender(
      { isGameWindow, isMainFrame: isGameWindow && frame === win.webContents.mainFrame, frameUrl: frame?.url ?? null },
      rendererUrl(),
    );
    if (!ok) host.drop('ipc-untrusted-sender');
    return ok;
  };

  ipcMain.handle(HOST_CHANNELS.hello, (event) => {
    if (!trusted(event)) throw new Error('untrusted sender');
    return host.hello();
  });
  ipcMain.handle(HOST_CHANNELS.complete, (event, raw: unknown) => {
    if (!trusted(event)) throw new Error('untrusted sender');
    const line = parseCommandLine(raw);
    if (!line.ok) {
      host.drop(`ipc-${line.reason}`);
      return { line: '', candidates: [] };
    }
    return host.complete(line.value);
  });
  const onCommand = (event: IpcMainEvent, raw: unknown) => {
    if (!trusted(event)) return;
    const line = parseCommandLine(raw);
    if (line.ok) void host.command(line.value);
    else host.drop(`ipc-${line.reason}`);
  };
  const onFrame = (event: IpcMainEvent, raw: unknown) => {
    if (!trusted(event)) return;
    const batch = parseFrame(raw);
    if (batch.ok) host.frame(batch.value);
    else host.drop(`ipc-${batch.reason}`);
  };
  ipcMain.on(HOST_CHANNELS.command, onCommand);
  ipcMain.on(HOST_CHANNELS.frame, onFrame);
  const unsubscribe = host.onEvents((events) => {
    if (!win.isDestroyed()) win.webContents.send(HOST_CHANNELS.events, events);
  });

  return () => {
    unsubscribe();
    ipcMain.removeHandler(HOST_CHANNELS.hello);
    ipcMain.removeHandler(HOST_CHANNELS.complete);
    ipcMain.off(HOST_CHANNELS.command, onCommand);
    ipcMain.off(HOST_CHANNELS.frame, onFrame);
  };
}
