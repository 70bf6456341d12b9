import type { Completion, DownMessage, FrameUp, HostApi, HostEvent, HostSnapshot, UpMessage } from '../../../shared/host/contract';

/**
 * The host API over the browser shell's WebSocket. Opens the socket with the
 * page's token; requests are matched to replies by id. `onClose` tells the
 * page when the host went away so it can say so instead of freezing.
 */
export function connectWebSocketHost(url: string, onClose: (reason: string) => void): Promise<HostApi> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const listeners = new Set<(events: HostEvent[]) => void>();
    const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
    let nextId = 1;
    let open = false;

    const send = (msg: UpMessage) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    };
    const request = <T>(make: (id: number) => UpMessage): Promise<T> =>
      new Promise<T>((res, rej) => {
        const id = nextId++;
        waiting.set(id, { resolve: res as (v: unknown) => void, reject: rej });
        send(make(id));
      });

    ws.addEventListener('message', (ev) => {
      let msg: DownMessage;
      try {
        msg = JSON.parse(String(ev.data)) as DownMessage;
      } catch {
        return;
      }
      if (msg.t === 'events' && Array.isArray(msg.events)) {
        for (const l of listeners) l(msg.events);
      } else if (msg.t === 'reply') {
        const w = waiting.get(msg.id);
        if (!w) return;
        waiting.delete(msg.id);
        if (msg.ok) w.resolve(msg.result);
        else w.reject(new Error(msg.error));
      }
    });
    ws.addEventListener('open', () => {
      open = true;
      resolve({
        hello: () => request<HostSnapshot>((id) => ({ t: 'hello', id })),
        command: (line) => send({ t: 'command', line }),
        complete: (line) => request<Completion>((id) => ({ t: 'complete', id, line })),
        frame: (batch: FrameUp) => send({ t: 'frame', batch }),
        onEvents: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      });
    });
    ws.addEventListener('close', (ev) => {
      for (const w of waiting.values()) w.reject(new Error('host connection closed'));
      waiting.clear();
      if (open) onClose(ev.reason || `connection closed (code ${ev.code})`);
      else reject(new Error('could not connect to the Starlane host (is the browser shell still running, and is the token in the URL right?)'));
    });
  });
}
