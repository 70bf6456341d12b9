/**
 * A TCP server speaking newline-terminated text lines, as Parsec's slot-,
 * game- and masterservers do. It distrusts every byte:
 * - lines are capped in length;
 * - a connection that completes no line for `idleMs` is closed, and a line
 *   once begun must be complete within `lineTimeoutMs`: bytes alone never
 *   extend either deadline, so a byte-a-second trickle is cut like silence;
 * - connection attempts per source are rate limited, and open connections are
 *   capped per source (IPv4 address or IPv6 /64) and overall, with room kept
 *   for new sources (connectionLimits.ts);
 * - a peer that does not read its replies is closed once `maxOutputBytes`
 *   wait unsent, so it never makes the server buffer without bound;
 * - a handler that throws is counted and never takes the server down.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { RateLimiter } from '../../../shared/util/rateLimit';
import { addressKey } from './addressKey';
import { ConnectionTable, DEFAULT_LINE_CAPS } from './connectionLimits';
import { listen } from './listen';

export interface LineConnection {
  /** Remote IP address as text (IPv4-mapped IPv6 unwrapped). */
  readonly address: string;
  readonly port: number;
  /** Sends one line (a newline is appended); ignored once closed. */
  send(line: string): void;
  /** Sends `finalLine` if given, then closes. */
  close(finalLine?: string): void;
  readonly closed: boolean;
  /** Per-connection state owned by the protocol handler. */
  state: unknown;
}

export interface LineHandler {
  /** A new connection; may refuse it by closing it. */
  open?(conn: LineConnection): void;
  /** One complete line (without the line break, trimmed of a trailing CR). */
  line(conn: LineConnection, line: string): void;
  /** The connection ended for any reason (client, idle timeout, server close). */
  close?(conn: LineConnection, reason: string): void;
}

export interface LineServerOptions {
  port: number;
  host?: string;
  /** Longest accepted line in bytes (default 512); a longer one closes the connection. */
  maxLineBytes?: number;
  /** Idle timeout in ms (default 60 s; 0 = none): the longest time without a complete line. */
  idleMs?: number;
  /** A line once begun must end within this many ms (default 10 s; 0 = no deadline). */
  lineTimeoutMs?: number;
  /** New connections allowed per source per minute (default 30). */
  connectsPerMinute?: number;
  /** Most simultaneous connections (default 1024); a quarter of them are kept for sources holding fewer than 4. */
  maxConnections?: number;
  /** Most simultaneous connections from one IPv4 address or IPv6 /64 (default 64). */
  maxConnectionsPerAddress?: number;
  /** Unsent reply bytes (socket.writableLength) past which a connection is closed (default 256 KiB). */
  maxOutputBytes?: number;
  /**
   * TCP keep-alive probe delay in ms (default 30 s; 0 = off), so a client
   * whose machine died without closing the connection is noticed even when
   * the idle timeout is off for joined players.
   */
  keepAliveMs?: number;
  /** Counter hook for drops and oddities (reason → +1), with the peer's address when known. */
  count?(reason: string, address?: string): void;
}

export interface LineServer {
  readonly port: number;
  connections(): LineConnection[];
  /** Stops accepting, calls `farewell` for each open connection (to say goodbye), then closes them. */
  close(farewell?: (conn: LineConnection) => void): Promise<void>;
}

export function unwrapAddress(address: string | undefined): string {
  if (!address) return '?';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** Starts a line server; resolves once it listens. */
export async function startLineServer(handler: LineHandler, options: LineServerOptions): Promise<LineServer> {
  const maxLine = options.maxLineBytes ?? 512;
  const idleMs = options.idleMs ?? 60_000;
  const lineMs = options.lineTimeoutMs ?? 10_000;
  const maxOutput = options.maxOutputBytes ?? 256 * 1024;
  const table = new ConnectionTable({
    max: options.maxConnections ?? DEFAULT_LINE_CAPS.max,
    perSource: options.maxConnectionsPerAddress ?? DEFAULT_LINE_CAPS.perSource,
  });
  const perMinute = options.connectsPerMinute ?? 30;
  const count = options.count ?? (() => undefined);
  const open = new Set<LineConnection>();
  // A token bucket per address (a minute's worth at once, then perMinute a minute), in a bounded table:
  // a flood of connection attempts neither gets through nor grows memory.
  const connects = new RateLimiter({ perSecond: perMinute / 60, burst: Math.max(1, perMinute), maxKeys: 4096 });
  const safe = (what: string, run: () => void) => {
    try {
      run();
    } catch {
      count(`handler-threw-${what}`);
    }
  };

  const server: Server = createServer((socket: Socket) => {
    const address = unwrapAddress(socket.remoteAddress);
    // A refused peer may already have gone; its reset must not become an unhandled error.
    socket.on('error', () => undefined);
    const allowed = connects.allow(addressKey(address), Date.now());
    const full = allowed ? table.admit(address) : null;
    if (!allowed || full) {
      count(full ?? 'rate-limited', address);
      socket.destroy();
      return;
    }
    let buffer = '';
    let closed = false;
    // Set by close() and cut(): lines already buffered behind the one that closed the connection are not handled.
    let ending = false;
    let closeReason = 'client closed';
    /** Closes at once, counting `counter`. */
    const cut = (reason: string, counter: string) => {
      if (closed) return;
      ending = true;
      closeReason = reason;
      count(counter, address);
      socket.destroy();
    };
    // Deadlines (ms since epoch): the last complete line, and when the unfinished line began.
    let lastLine = Date.now();
    let partialSince: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timerAt = Infinity;
    const deadline = () => Math.min(idleMs > 0 ? lastLine + idleMs : Infinity, partialSince !== undefined && lineMs > 0 ? partialSince + lineMs : Infinity);
    /** One timer per connection, re-armed lazily: deadlines that moved later are found when it fires. */
    const arm = () => {
      const at = deadline();
      if (at >= timerAt) return;
      clearTimeout(timer);
      timerAt = at;
      timer = at === Infinity ? undefined : setTimeout(expire, Math.max(0, at - Date.now()));
    };
    const expire = () => {
      timer = undefined;
      timerAt = Infinity;
      if (closed || ending) return;
      const now = Date.now();
      if (partialSince !== undefined && lineMs > 0 && now >= partialSince + lineMs) return cut('line timeout', 'line-timeout');
      if (idleMs > 0 && now >= lastLine + idleMs) return cut('idle timeout', 'idle-timeout');
      arm();
    };
    const conn: LineConnection = {
      address,
      port: socket.remotePort ?? 0,
      state: undefined,
      get closed() {
        return closed || ending;
      },
      send: (line) => {
        if (closed || ending || !socket.writable) return;
        socket.write(`${line}\n`);
        // A peer that does not read its replies is cut off rather than buffered for.
        if (socket.writableLength > maxOutput) cut('replies not read', 'output-overflow');
      },
      close: (finalLine) => {
        if (closed || ending) return;
        ending = true;
        if (finalLine !== undefined && socket.writable) socket.write(`${finalLine}\n`);
        closeReason = 'closed by server';
        socket.end();
        // A peer that never reads must not keep the socket forever.
        setTimeout(() => socket.destroy(), 2000).unref();
      },
    };
    open.add(conn);
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    const keepAlive = options.keepAliveMs ?? 30_000;
    if (keepAlive > 0) socket.setKeepAlive(true, keepAlive);
    arm();
    socket.on('data', (chunk: string) => {
      if (ending) return;
      buffer += chunk;
      let nl: number;
      let lines = 0;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (Buffer.byteLength(line) > maxLine) return cut('line too long', 'line-too-long');
        lines += 1;
        safe('line', () => handler.line(conn, line));
        if (closed || ending) return;
      }
      if (Buffer.byteLength(buffer) > maxLine) return cut('line too long', 'line-too-long');
      const now = Date.now();
      if (lines > 0) {
        lastLine = now;
        partialSince = undefined;
      }
      if (buffer.length > 0 && partialSince === undefined) {
        partialSince = now;
        arm();
      }
    });
    socket.on('error', () => count('socket-error'));
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      table.release(address);
      open.delete(conn);
      safe('close', () => handler.close?.(conn, closeReason));
    });
    safe('open', () => handler.open?.(conn));
  });

  const port = await listen(server, options.port, options.host);
  // Forget addresses whose buckets are full again, so the table holds only recent ones.
  const sweeper = setInterval(() => connects.prune(Date.now()), 60_000);
  sweeper.unref();

  return {
    port,
    connections: () => [...open],
    close: async (farewell) => {
      clearInterval(sweeper);
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const conn of [...open]) {
        if (farewell) safe('farewell', () => farewell(conn));
        conn.close();
      }
      await done;
    },
  };
}
