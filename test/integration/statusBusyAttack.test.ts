/**
 * Status pages under the attack probe's load (issue 27): four addresses each
 * hold 64 keep-alive connections and keep every one busy with back-to-back
 * GETs of the page and its JSON, while a fifth address asks for 10 pages at
 * once. The gameserver runs with --expose-gc, as servers do in the hostile
 * bench (its status JSON then reports the live heap after a collection).
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { busyAttacker, type BusyAttacker } from '../support/busyKeepAlive';
import { startServer, stopServers, type ServerProcess } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const attackers: BusyAttacker[] = [];
afterEach(async () => {
  await Promise.all(attackers.splice(0).map((a) => a.end()));
  stopServers();
});

/** Breakage guard for one honest request: a browser or probe gives up long before this. */
const HONEST_TIMEOUT_MS = 10_000;

/** GET `path` from `localAddress` on a fresh connection: the status code (0 = failed: reset or given up) and how long it took. */
function get(port: number, localAddress: string, path: string): Promise<{ status: number; ms: number; error?: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent: false, timeout: HONEST_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Math.round(performance.now() - t0) }));
      res.on('error', (err) => resolve({ status: 0, ms: Math.round(performance.now() - t0), error: err.message }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, ms: Math.round(performance.now() - t0), error: err.code ?? err.message }));
    req.end();
  });
}

/** Starts a gameserver with --expose-gc (NODE_OPTIONS is put back at once). */
async function gcServer(): Promise<ServerProcess> {
  const nodeOptions = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${nodeOptions ?? ''} --expose-gc`.trim();
  try {
    return await startServer(['gameserver', '--name', 'Busy', '--port', '0', '--udp-port', '0', '--http-port', '0']);
  } finally {
    if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = nodeOptions;
  }
}

describe('status pages under busy keep-alive connections from four addresses', () => {
  it('a fifth address gets every one of 10 pages while 4 × 64 busy connections go on, and the attackers are held to their caps', { timeout: 90_000 }, async () => {
    const server = await gcServer();
    const http = server.http ?? 0;
    const json = (await (await fetch(`http://127.0.0.1:${http}/status.json`)).json()) as { memory: { live?: number } };
    expect(json.memory.live, 'the server runs with --expose-gc').toBeGreaterThan(0);

    const t0 = performance.now();
    attackers.push(...(await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((a) => busyAttacker(http, a, 64)))));
    const answered = () => attackers.reduce((n, a) => n + Object.values(a.answers()).reduce((x, y) => x + y, 0), 0);
    const held = () => attackers.reduce((n, a) => n + a.held(), 0);
    // Busy: every held connection has had a few answers and keeps asking.
    await waitFor('the attack is under way (3 answers per held connection)', () => answered() >= 3 * held(), 60_000);
    const before = answered();

    const honest = await Promise.all(Array.from({ length: 10 }, (_, i) => get(http, '127.0.0.6', i % 2 === 0 ? '/' : '/status.json')));
    const during = answered() - before;
    const elapsedS = (performance.now() - t0) / 1000;
    const figures = attackers.map((a) => `${a.address}: ${a.held()} held, answers ${JSON.stringify(a.answers())}`).join('; ');
    const latencies = honest.map((h) => (h.status === 200 ? `${h.ms}` : `${h.error ?? h.status}@${h.ms}`)).join(' ');
    console.log(
      `status page under 4 × 64 busy keep-alive connections (--expose-gc), ${elapsedS.toFixed(1)} s: ${figures}; ` +
        `${during} attacker answers while the honest GETs ran; 127.0.0.6: ${honest.filter((h) => h.status === 200).length}/10 answered, ms: ${latencies}`,
    );

    expect(honest.map((h) => h.status)).toEqual(Array<number>(10).fill(200));
    for (const a of attackers) {
      expect(a.held()).toBeLessThanOrEqual(64);
      // The default request rate (50 a second, bursts of 100) bounds the pages rendered for each attacker.
      expect(a.answers()[200] ?? 0).toBeLessThanOrEqual(100 + 50 * elapsedS + 1);
    }
    expect(held()).toBeLessThanOrEqual(256 - 10);
  });
});
