/**
 * Many idle TCP connections from one loopback address (127.0.0.x stands for
 * a distinct host), for the connection-fairness tests: how many the server
 * kept and how many it closed at once.
 */
import { connect, type Socket } from 'node:net';
import { waitFor } from './waitFor';

export interface Flood {
  sockets: Socket[];
  /** Connections that have connected and not (yet) been closed. */
  open(): number;
  /** Connections closed (refused by the server, or failed). */
  closed(): number;
  /** Destroys every socket and waits until all have closed. */
  end(): Promise<void>;
}

/**
 * Opens `n` connections to `host:port` (default 127.0.0.1) from `localAddress`
 * (in batches, so the listen backlog is not the limit) and resolves once
 * every one has connected or closed. `onConnect` may write to each.
 */
export async function flood(port: number, localAddress: string, n: number, onConnect?: (s: Socket) => void, host = '127.0.0.1'): Promise<Flood> {
  const sockets: Socket[] = [];
  let closed = 0;
  let settled = 0;
  const openOne = () => {
    const s = connect({ host, port, localAddress });
    let done = false;
    const settle = () => {
      if (!done) settled += 1;
      done = true;
    };
    s.on('error', () => undefined);
    s.once('connect', () => {
      settle();
      onConnect?.(s);
    });
    s.once('close', () => {
      closed += 1;
      settle();
    });
    sockets.push(s);
  };
  for (let i = 0; i < n; i += 200) {
    for (let j = i; j < Math.min(n, i + 200); j++) openOne();
    await waitFor(`${Math.min(n, i + 200)} connections from ${localAddress} settled`, () => settled >= Math.min(n, i + 200), 20_000);
  }
  return {
    sockets,
    open: () => sockets.filter((s) => !s.destroyed && s.readyState === 'open').length,
    closed: () => closed,
    async end() {
      for (const s of sockets) s.destroy();
      await waitFor('flood sockets closed', () => closed >= sockets.length, 10_000);
    },
  };
}
