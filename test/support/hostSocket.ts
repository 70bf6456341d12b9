import WebSocket from 'ws';
import type { DownMessage, HostEvent, HostSnapshot } from '../../src/shared/host/contract';
import type { WebShellProcess } from './webShellProcess';

/** The host API of a running browser shell, spoken over its WebSocket the way the game page does. */
export interface HostSocket {
  hello(): Promise<HostSnapshot>;
  /** Sends a console line (no reply; output comes as console events). */
  command(line: string): void;
  /** Resolves with the first console line from now on that matches; rejects after `ms`. */
  nextConsole(pattern: RegExp, ms?: number): Promise<string>;
  close(): void;
}

/** Opens the shell's host socket with its token and the page's origin. */
export async function openHostSocket(shell: WebShellProcess): Promise<HostSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${shell.port}/host?token=${shell.token}`, { headers: { Origin: `http://127.0.0.1:${shell.port}` } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`host socket refused: HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  const replies = new Map<number, (result: unknown) => void>();
  const watchers = new Set<(event: HostEvent) => void>();
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString()) as DownMessage;
    if (msg.t === 'reply' && msg.ok) replies.get(msg.id)?.(msg.result);
    if (msg.t === 'events') for (const e of msg.events) for (const w of watchers) w(e);
  });
  let nextId = 1;
  return {
    hello: () =>
      new Promise<HostSnapshot>((resolve) => {
        const id = nextId++;
        replies.set(id, (r) => resolve(r as HostSnapshot));
        ws.send(JSON.stringify({ t: 'hello', id }));
      }),
    command: (line) => ws.send(JSON.stringify({ t: 'command', line })),
    nextConsole: (pattern, ms = 10_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`no console line matching ${pattern} within ${ms} ms`));
        }, ms);
        const watch = (e: HostEvent) => {
          if (e.kind !== 'console' || !pattern.test(e.text)) return;
          clearTimeout(timer);
          watchers.delete(watch);
          resolve(e.text);
        };
        watchers.add(watch);
      }),
    close: () => ws.close(),
  };
}
