/**
 * Status pages under a flood of keep-alive connections from one address: the
 * per-address cap holds it to a few dozen, and a second address's request
 * is still answered.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startStatusHttp, type StatusHttp } from '../../src/node/servers/statusHttp';
import { flood, type Flood } from '../support/connectionFlood';
import { waitFor } from '../support/waitFor';

const servers: StatusHttp[] = [];
const floods: Flood[] = [];
afterEach(async () => {
  await Promise.all(floods.splice(0).map((f) => f.end()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** GET `path` from `localAddress` on a fresh connection: the status code and body. */
function get(port: number, localAddress: string, path = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('status page fairness', () => {
  it('500 keep-alive connections from one address do not stop a second address’s request', async () => {
    // A long keep-alive, so the flood stays open for the whole test: the per-address cap alone must do it.
    const s = await startStatusHttp({ port: 0, host: '127.0.0.1', keepAliveMs: 30_000, routes: { '/': () => ({ type: 'json', body: '{"ok":true}' }) } });
    servers.push(s);
    let answered = 0;
    const attack = await flood(s.port, '127.0.0.2', 500, (sock) => {
      sock.on('data', () => (answered += 1));
      sock.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    });
    floods.push(attack);
    await waitFor('the connections over the cap closed', () => attack.closed() >= 500 - 64, 10_000);
    await waitFor('the held connections answered', () => answered >= attack.open(), 10_000);
    const held = attack.open();
    const results = await Promise.all(Array.from({ length: 10 }, () => get(s.port, '127.0.0.3')));
    console.log(`status page: 500 keep-alive connections from 127.0.0.2: ${held} held, ${attack.closed()} closed at once; 127.0.0.3: ${results.filter((r) => r.status === 200).length}/10 requests answered`);
    expect(held).toBeLessThanOrEqual(64);
    expect(results.every((r) => r.status === 200 && r.body === '{"ok":true}')).toBe(true);
  });
});
