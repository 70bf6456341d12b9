/**
 * A TCP text-line connection from a client to a slot- or gameserver: connect
 * with a timeout, read lines (each capped in length), send lines, close. It
 * never throws into the caller's timers; every outcome arrives as a callback.
 */
import { connect, type Socket } from 'node:net';

export interface ServerLinkHandlers {
  connected(): void;
  line(line: string): void;
  /** The connection ended; `error` when it failed or broke, undefined when we closed it. */
  closed(error?: string): void;
}

const MAX_LINE = 1024;

export class ServerLink {
  private socket: Socket | null = null;
  private buffer = '';
  private closing = false;

  constructor(private readonly handlers: ServerLinkHandlers) {}

  open(host: string, port: number, timeoutMs = 5000): void {
    const socket = connect({ host, port });
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    const timer = setTimeout(() => socket.destroy(new Error(`no answer from ${host}:${port} within ${timeoutMs / 1000} s`)), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      if (!this.closing) this.safely(() => this.handlers.connected());
    });
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl).replace(/\r$/, '');
        this.buffer = this.buffer.slice(nl + 1);
        if (this.socket !== socket || this.closing) return;
        this.safely(() => this.handlers.line(line));
      }
      if (this.buffer.length > MAX_LINE) socket.destroy(new Error('the server sent an over-long line'));
    });
    let error: string | undefined;
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code === 'ECONNREFUSED' ? `nothing is listening at ${host}:${port}` : err.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (this.socket === socket) this.socket = null;
      const closedByUs = this.closing;
      this.closing = false;
      this.safely(() => this.handlers.closed(closedByUs ? undefined : (error ?? 'the server closed the connection')));
    });
  }

  /** The server's IP address as the connection sees it (IPv4-mapped IPv6 unwrapped), once connected. */
  get remoteAddress(): string | undefined {
    const a = this.socket?.remoteAddress;
    return a?.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
  }

  get isOpen(): boolean {
    return this.socket !== null;
  }

  send(line: string): void {
    if (this.socket?.writable) this.socket.write(`${line}\n`);
  }

  /** A handler fault must never escape a socket event (it would take the process down). */
  private safely(run: () => void): void {
    try {
      run();
    } catch {
      this.socket?.destroy();
    }
  }

  /** Closes (after flushing what was sent); no more lines are delivered, and `closed` is then called without an error. */
  close(): void {
    if (!this.socket) return;
    this.closing = true;
    this.socket.end();
    const s = this.socket;
    setTimeout(() => s.destroy(), 1000).unref();
  }
}
