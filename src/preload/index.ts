/**
 * The narrow bridge between the sandboxed game page and the main process:
 * one method per host-API message, no raw ipcRenderer, nothing else.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { HOST_CHANNELS, type Completion, type FrameUp, type HostApi, type HostEvent, type HostSnapshot } from '../shared/host/contract';

const bridge: HostApi = {
  hello: () => ipcRenderer.invoke(HOST_CHANNELS.hello) as Promise<HostSnapshot>,
  command: (line: string) => ipcRenderer.send(HOST_CHANNELS.command, String(line)),
  complete: (line: string) => ipcRenderer.invoke(HOST_CHANNELS.complete, String(line)) as Promise<Completion>,
  frame: (batch: FrameUp) => ipcRenderer.send(HOST_CHANNELS.frame, batch),
  onEvents: (listener: (events: HostEvent[]) => void) => {
    const wrapped = (_event: IpcRendererEvent, events: HostEvent[]) => listener(events);
    ipcRenderer.on(HOST_CHANNELS.events, wrapped);
    return () => {
      ipcRenderer.off(HOST_CHANNELS.events, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('starlane', bridge);
