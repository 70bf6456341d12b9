/**
 * Busy keep-alive HTTP connections from one loopback address (127.0.0.x
 * stands for a distinct host): each sends GETs back to back (the next one as
 * soon as an answer starts), alternating `paths`, for the status-page
 * fairness tests. Counts the answers by status code.
 */
import { connect, type Socket } from 'node:net';
import { waitFor } from './waitFor';

export interface BusyAttacker {
  readonly address: string;
  /** Connections open now (admitted, not closed by the server). */
  held(): number;
  /** Answers received so far by status code (e.g. { 200: 812, 429: 9031 }). */
  answers(): Record<number, number>;
  /** Stops sending, destroys every connection and waits until all have closed. */
  end(): Promise<void>;
}

/** Opens `n` connections from `localAddress` to 127.0.0.1:`port`; resolves once each has connected or closed. */
export async function busyAttacker(port: number, localAddress: string, n: number, paths: readonly string[] = ['/', '/status.json']): Promise<BusyAttacker> {
  const sockets: Socket[] = [];
  const answers: Record<number, number> = {};
  let settled = 0;
  let closed = 0;
  let stopped = false;
  let sent = 0;
  const send = (s: Socket) => {
    if (!stopped && !s.destroyed) s.write(`GET ${paths[sent++ % paths.length]} HTTP/1.1\r\nHost: x\r\n\r\n`);
  };
  for (let i = 0; i < n; i++) {
    const s = connect({ host: '127.0.0.1', port, localAddress });
    let done = false;
    const settle = () => {
      if (!done) settled += 1;
      done = true;
    };
    let tail = '';
    s.on('error', () => undefined);
    s.once('connect', () => {
      settle();
      send(s);
    });
    s.on('data', (d: Buffer) => {
      // Each answer starts with its status line; bodies are small JSON and HTML that never contain one.
      const text = tail + d.toString('latin1');
      for (const m of text.matchAll(/HTTP\/1\.1 (\d{3}) /g)) {
        const code = Number(m[1]);
        answers[code] = (answers[code] ?? 0) + 1;
        send(s);
      }
      tail = text.slice(-16);
    });
    s.once('close', () => {
      closed += 1;
      settle();
    });
    sockets.push(s);
  }
  await waitFor(`${n} connections from ${localAddress} settled`, () => settled >= n, 20_000);
  return {
    address: localAddress,
    held: () => sockets.filter((s) => !s.destroyed && s.readyState === 'open').length,
    answers: () => ({ ...answers }),
    async end() {
      stopped = true;
      for (const s of sockets) s.destroy();
      await waitFor(`connections from ${localAddress} closed`, () => closed >= n, 10_000);
    },
  };
}
