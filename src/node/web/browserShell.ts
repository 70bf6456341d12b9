import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  HOST_CONTRACT_VERSION,
  parseUpMessage,
  type DownMessage,
  type HostEvent,
} from '../../shared/host/contract';
import type { HostService } from '../host/hostService';
import { createStaticHandler } from './staticFiles';

/** Path of the host WebSocket endpoint. */
export const HOST_WS_PATH = '/host';
/** Largest WebSocket message accepted from the page, in bytes. */
export const MAX_WS_MESSAGE = 64 * 1024;

export interface BrowserShellOptions {
  host: HostService;
  /** Folder with the built renderer (index.html and assets). */
  rendererDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** Fixed token (tests); by default 24 random bytes per run. */
  token?: string;
}

export interface BrowserShell {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Number of pages currently connected. */
  clients(): number;
  close(): Promise<void>;
}

/**
 * The browser shell: serves the built renderer and carries the host API over
 * a WebSocket on 127.0.0.1 only. The page gets the per-run token in its URL
 * and must present it when it opens the socket; a connection without it, from
 * another origin, or to another path is refused before the upgrade.
 */
export async function startBrowserShell(options: BrowserShellOptions): Promise<BrowserShell> {
  const { host } = options;
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  let origin = '';
  const csp = () =>
    [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src 'self' ws://127.0.0.1:${server.address() ? (server.address() as AddressInfo).port : 0}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
  const serveStatic = createStaticHandler(options.rendererDir, {});
  const server: Server = createServer((req, res) => {
    res.setHeader('Content-Security-Policy', csp());
    void serveStatic(req, res);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE });
  server.on('upgrade', (req, socket, head) => {
    const refuse = (code: number, reason: string) => {
      host.drop(`ws-refused-${reason}`);
      socket.end(`HTTP/1.1 ${code} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return refuse(400, 'bad-url');
    }
    if (url.pathname !== HOST_WS_PATH) return refuse(404, 'bad-path');
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    if (given.length !== tokenBytes.length || !timingSafeEqual(given, tokenBytes)) return refuse(401, 'bad-token');
    if (req.headers.origin !== undefined && req.headers.origin !== origin) return refuse(403, 'bad-origin');
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    const send = (msg: DownMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
    };
    const unsubscribe = host.onEvents((events: HostEvent[]) => send({ t: 'events', events }));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return host.drop('ws-binary');
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        return host.drop('ws-bad-json');
      }
      const parsed = parseUpMessage(raw);
      if (!parsed.ok) return host.drop(`ws-${parsed.reason}`);
      const msg = parsed.value;
      switch (msg.t) {
        case 'hello':
          return send({ t: 'reply', id: msg.id, ok: true, result: host.hello() });
        case 'command':
          void host.command(msg.line);
          return;
        case 'complete':
          return send({ t: 'reply', id: msg.id, ok: true, result: host.complete(msg.line) });
        case 'frame':
          host.frame(msg.batch);
          return;
      }
    });
    ws.on('close', unsubscribe);
    ws.on('error', (err) => host.log.debug({ err }, 'browser shell socket error'));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  host.log.info({ port, contract: HOST_CONTRACT_VERSION }, 'browser shell listening');

  return {
    url: `${origin}/?token=${token}`,
    port,
    token,
    clients: () => wss.clients.size,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
