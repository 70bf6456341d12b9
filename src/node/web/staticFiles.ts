import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * Serves files below `root` for GET/HEAD. Paths are decoded, normalised and
 * must stay inside `root`; anything else gets a plain 4xx. `headers` are added
 * to every answer (the content security policy).
 */
export function createStaticHandler(root: string, headers: Record<string, string>) {
  const base = normalize(root + sep);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (code: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(code, { ...headers, 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      return send(400, 'bad request');
    }
    if (pathname.includes('\0')) return send(400, 'bad request');
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = normalize(join(base, pathname));
    if (!file.startsWith(base)) return send(403, 'forbidden');
    try {
      const info = await stat(file);
      if (!info.isFile()) return send(404, 'not found');
      const body = await readFile(file);
      res.writeHead(200, {
        ...headers,
        'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
        'Content-Length': body.length,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      send(404, 'not found');
    }
  };
}
