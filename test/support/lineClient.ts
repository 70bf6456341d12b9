/**
 * A raw TCP client for the servers' text-line protocols: reads the server's
 * lines one at a time, with clear failures when none comes or the
 * connection ends first.
 */
import { connect, type Socket } from 'node:net';

export class LineClient {
  readonly lines: string[] = [];
  private readonly waiters: (() => void)[] = [];
  private buffer = '';
  ended = false;
  /** Settles when the connection has closed (either side). */
  readonly closed: Promise<void>;

  constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, nl));
        this.buffer = this.buffer.slice(nl + 1);
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  /** Connects to `host:port` (from `localAddress`, when given). */
  static async open(port: number, host = '127.0.0.1', localAddress?: string): Promise<LineClient> {
    return new LineClient(await LineClient.connect(port, host, localAddress));
  }

  /** A connected socket to `host:port`, for {@link open} and subclasses. */
  protected static connect(port: number, host: string, localAddress?: string): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) });
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });
  }

  send(line: string): void {
    this.socket.write(`${line}\n`);
  }

  /** The next line the server sent (fails after `ms`, or when the connection ends first). */
  async next(ms = 10_000): Promise<string> {
    const deadline = Date.now() + ms;
    while (this.lines.length === 0) {
      if (this.ended) throw new Error('connection ended while waiting for a line');
      if (Date.now() > deadline) throw new Error('timed out waiting for a line');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
    return this.lines.shift() as string;
  }

  /** The next `n` lines. */
  async take(n: number): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(await this.next());
    return out;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
