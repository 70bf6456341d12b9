/**
 * The connection-flood part of `npm run bench:hostile`: from one address,
 * many idle connections to every text-line TCP port at once; then, from
 * another address, one honest connection per port that must still get an
 * answer. Reports what each port held, what it closed at once and how long
 * the honest answer took.
 */
import type { Endpoint } from './hostile';
import { flood } from './connectionFlood';
import { LineClient } from './lineClient';

export interface TcpFloodResult {
  port: number;
  attempted: number;
  /** Flood connections still open when the honest client asked. */
  held: number;
  /** Flood connections the server closed (refused over a cap or the rate limit). */
  closed: number;
  /** Milliseconds until the honest client's first reply line, or -1 if none came within 5 s. */
  honestMs: number;
}

/**
 * Floods each of `targets` with `connections` idle connections from `from`,
 * then asks each from `honestFrom` (`list servers`: the masterserver lists,
 * a join server answers that it is an invalid request; any reply counts).
 * Closes everything it opened before resolving.
 */
export async function runTcpFlood(targets: Endpoint[], connections: number, from = '127.0.0.250', honestFrom = '127.0.0.251'): Promise<TcpFloodResult[]> {
  const results: TcpFloodResult[] = [];
  for (const t of targets) {
    const f = await flood(t.port, from, connections, undefined, t.host);
    try {
      const held = f.open();
      const t0 = Date.now();
      let honestMs = -1;
      const c = await LineClient.open(t.port, t.host, honestFrom).catch(() => undefined);
      if (c) {
        c.send('list servers');
        honestMs = await c.next(5000).then(
          () => Date.now() - t0,
          () => -1,
        );
        c.socket.destroy();
      }
      results.push({ port: t.port, attempted: connections, held, closed: f.closed(), honestMs });
    } finally {
      await f.end();
    }
  }
  return results;
}
