/**
 * A TCP server speaking newline-terminated text lines, as Parsec's slot-,
 * game- and masterservers do. It distrusts every byte: lines are capped in
 * length, a connection that sends nothing for `idleMs` (or never finishes a
 * line) is closed, connection attempts per address are rate limited, and a
 * handler that throws is counted and never takes the server down.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { RateLimiter } from '../../shared/util/rateLimit';
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
  /** Idle timeout in ms (default 60 s). */
  idleMs?: number;
  /** New connections allowed per address per minute (default 30). */
  connectsPerMinute?: number;
  /** Most simultaneous connections (default 1024). */
  maxConnections?: number;
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
    const allowed = connects.allow(address, Date.now());
    if (!allowed || open.size >= (options.maxConnections ?? 1024)) {
      count(!allowed ? 'rate-limited' : 'too-many-connections', address);
      socket.destroy();
      return;
    }
    let buffer = '';
    let closed = false;
    // Set by close(): lines already buffered behind the one that closed the connection are not handled.
    let ending = false;
    let closeReason = 'client closed';
    const conn: LineConnection = {
      address,
      port: socket.remotePort ?? 0,
      state: undefined,
      get closed() {
        return closed || ending;
      },
      send: (line) => {
        if (!closed && !ending && socket.writable) socket.write(`${line}\n`);
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
    socket.setTimeout(idleMs, () => {
      closeReason = 'idle timeout';
      count('idle-timeout', address);
      socket.destroy();
    });
    socket.on('data', (chunk: string) => {
      if (ending) return;
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (Buffer.byteLength(line) > maxLine) {
          count('line-too-long', address);
          closeReason = 'line too long';
          socket.destroy();
          return;
        }
        safe('line', () => handler.line(conn, line));
        if (closed || ending) return;
      }
      if (Buffer.byteLength(buffer) > maxLine) {
        count('line-too-long', address);
        closeReason = 'line too long';
        socket.destroy();
      }
    });
    socket.on('error', () => count('socket-error'));
    socket.on('close', () => {
      closed = true;
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
