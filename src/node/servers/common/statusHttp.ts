/**
 * The small HTTP server behind every Starlane server's status pages
 * (the masterserver list, a slotserver's player table). Read-only: GET and
 * HEAD on a fixed set of paths; bodies are rendered fresh on every request
 * and never cached.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ConnectionTable, DEFAULT_HTTP_CAPS, type ConnectionCaps } from './connectionLimits';
import { listen } from './listen';
import { RateLimiter, type RateLimitOptions } from '../../../shared/util/rateLimit';
import { addressKey } from './addressKey';

/** A rendered route: an HTML page or a JSON document. */
export interface StatusBody {
  type: 'html' | 'json';
  body: string;
}

/** Options of {@link startStatusHttp}. */
export interface StatusHttpOptions {
  /** TCP port; 0 = any free port. */
  port: number;
  /** Address to listen on (default 0.0.0.0). */
  host?: string;
  /** Exact request paths (query strings ignored) → renderer, called on every request. */
  routes: Record<string, () => StatusBody>;
  /** Connection caps overall and per IPv4 address or IPv6 /64 (default 256 and 64); a quarter of the overall cap is kept for new sources. */
  caps?: ConnectionCaps;
  /** How long an idle keep-alive connection is kept (default 2,000 ms). */
  keepAliveMs?: number;
  /**
   * How long a request's headers may take from its first byte (default
   * 5,000 ms); a connection that never sends a byte is cut after 80 % of it.
   */
  headersTimeoutMs?: number;
  /**
   * Requests per IPv4 address or IPv6 /64 (default 50 a second, bursts of
   * 100); past it a request is answered 429 without rendering anything.
   */
  requestRate?: Pick<RateLimitOptions, 'perSecond' | 'burst'>;
}

/** Requests per source of the status pages: a browser loads a page and its JSON, and 8 watchers behind one address polling each second fit many times. */
export const DEFAULT_STATUS_REQUEST_RATE = { perSecond: 50, burst: 100 } as const;

/** A running status server. */
export interface StatusHttp {
  /** The port actually bound. */
  readonly port: number;
  /** Stops listening and drops every open connection (keep-alive included). */
  close(): Promise<void>;
}

/** Bytes of memory a status JSON reports; `live` only when the process runs with --expose-gc. */
export interface MemoryStatus {
  rss: number;
  heapUsed: number;
  /**
   * heapUsed right after a full garbage collection: what the process really
   * keeps alive. heapUsed alone includes garbage not yet collected, which an
   * idle process may keep for a long time. Only with `node --expose-gc` (a
   * diagnostic mode: status requests then cost a collection, at most about
   * a tenth of the process's time, see {@link LIVE_COLLECTION_SPACING}; a
   * request soon after a collection reports that one's figures).
   */
  live?: number;
  /** V8 heap reserved (used or not). */
  heapTotal: number;
  /** Memory of C++ objects bound to JavaScript ones, and of Buffers and ArrayBuffers (part of `external`). */
  external: number;
  arrayBuffers: number;
  /** Resident set size right after that full collection (with --expose-gc only). */
  liveRss?: number;
}

/**
 * The last full collection {@link processStatus} ran: when (performance.now()
 * ms), how long it took, and what it left. A collection stops the whole
 * process for milliseconds (tens with a big heap), so one per status request
 * would let anyone holding a few connections spend the server's CPU on them.
 */
let lastCollection: { at: number; tookMs: number; heap: number; rss: number } | undefined;

/**
 * At most this share of the process's time goes to the collections behind
 * `memory.live`: a new one only once the last is this many times its own
 * duration old; requests in between report the last one's figures.
 */
export const LIVE_COLLECTION_SPACING = 10;

/** The live heap and RSS after a full collection, fresh unless one ran too recently (see {@link LIVE_COLLECTION_SPACING}); undefined without --expose-gc. */
function liveMemory(): { heap: number; rss: number } | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return undefined;
  const now = performance.now();
  if (lastCollection && now - lastCollection.at < lastCollection.tookMs * LIVE_COLLECTION_SPACING) return lastCollection;
  gc();
  const after = process.memoryUsage();
  const end = performance.now();
  lastCollection = { at: end, tookMs: end - now, heap: after.heapUsed, rss: after.rss };
  return lastCollection;
}

/** What every server's status JSON says about its own process: `{ memory: { rss, heapUsed[, live] } (bytes), cpu: { userMs, systemMs }, uptimeSeconds }`. */
export function processStatus(): { memory: MemoryStatus; cpu: { userMs: number; systemMs: number }; uptimeSeconds: number } {
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  const live = liveMemory();
  return {
    memory: { rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, ...(live === undefined ? {} : { live: live.heap, liveRss: live.rss }) },
    cpu: { userMs: Math.round(cpu.user / 1000), systemMs: Math.round(cpu.system / 1000) },
    uptimeSeconds: Math.round(process.uptime()),
  };
}

/** `json` (an object's JSON text) with {@link processStatus}'s fields added, for status builders that do not add them themselves. */
export function withProcessStatus(json: string): string {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return json;
  return JSON.stringify({ ...parsed, ...processStatus() });
}

// Pages carry inline styles and nothing else; JSON never renders anything.
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'";
const JSON_CSP = "default-src 'none'";

/**
 * Starts the status server; resolves once it listens. Unknown paths get 404,
 * methods other than GET/HEAD 405, a renderer that throws 500 (without
 * details, which could leak internals).
 */
export async function startStatusHttp(options: StatusHttpOptions): Promise<StatusHttp> {
  const routes = new Map(Object.entries(options.routes));
  const plain = (res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Security-Policy': JSON_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      ...extra,
    });
    res.end(text);
  };
  const headersMs = options.headersTimeoutMs ?? 5_000;
  // Connections are capped per source (below), but a few sources' connections kept busy with back-to-back or
  // pipelined requests would still have pages rendered for them as fast as they ask, and everyone else waits
  // behind them: past its rate a source gets a 429, which costs no rendering.
  // A token bucket per IPv4 address or IPv6 /64, as the connection caps count them (the table holds at most 4,096 sources).
  const rate = new RateLimiter({ ...(options.requestRate ?? DEFAULT_STATUS_REQUEST_RATE), maxKeys: 4096 });
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, headersMs / 2), maxHeaderSize: 8192 }, (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    // Only the path selects a route; a malformed target simply matches nothing.
    const path = (req.url ?? '').split('?')[0] ?? '';
    const render = routes.get(path);
    if (!render) return plain(res, 404, 'not found\n');
    if (!rate.allow(addressKey(req.socket.remoteAddress ?? '?'), performance.now())) return plain(res, 429, 'too many requests\n', { 'Retry-After': '1' });
    let page: StatusBody;
    try {
      page = render();
    } catch {
      return plain(res, 500, 'internal error\n');
    }
    const body = Buffer.from(page.body, 'utf8');
    res.writeHead(200, {
      'Content-Type': page.type === 'html' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
      'Content-Security-Policy': page.type === 'html' ? HTML_CSP : JSON_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      // Server URLs in the lists are third-party links; do not tell them where the visitor came from.
      'Referrer-Policy': 'no-referrer',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  // A status page is tiny; slow or stuck clients must not hold sockets for long. Node checks these
  // deadlines every connectionsCheckingInterval (set above: 1 s, or half a shorter headersTimeout), so a
  // connection that never sends a request is cut within about headersTimeout + 1 s.
  server.requestTimeout = 10_000;
  server.headersTimeout = headersMs;
  // Short: a page and its JSON are fetched at once, and held-open idle connections only cost places.
  server.keepAliveTimeout = options.keepAliveMs ?? 2_000;
  server.maxHeadersCount = 50;
  // Status pages need few connections; a flood of them is refused rather than held, and one source
  // (address or IPv6 /64) cannot take them all: past the per-source cap, or into the places kept for
  // new sources, its further connections are closed at once.
  const table = new ConnectionTable(options.caps ?? DEFAULT_HTTP_CAPS);
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '?';
    socket.on('error', () => undefined);
    if (table.admit(address) !== null) {
      socket.destroy();
      return;
    }
    socket.once('close', () => table.release(address));
  });
  // The deadlines above only start with a request's first byte; a connection that never sends one is idle and
  // cut by this socket timeout. It must stay below headersTimeout: in Node 20 a longer one never fires on a
  // connection that has sent nothing (measured), leaving half-open connections open for ever.
  server.setTimeout(Math.round(headersMs * 0.8));
  const port = await listen(server, options.port, options.host, 'HTTP');
  let closing: Promise<void> | undefined;
  return {
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
