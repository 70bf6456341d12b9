/**
 * Status pages under a flood of keep-alive connections from one address: the
 * per-address cap holds it to a few dozen, and a second address's request
 * is still answered.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startStatusHttp, type StatusHttp } from '../../src/node/servers/common/statusHttp';
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

  it('a request trickled a byte at a time is cut by the header deadline', async () => {
    // The header deadline (5 s by default) set to 1 s: the trickle must still outlast it by many bytes.
    const s = await startStatusHttp({ port: 0, host: '127.0.0.1', headersTimeoutMs: 1_000, routes: { '/': () => ({ type: 'json', body: '{}' }) } });
    servers.push(s);
    const sock = connect({ host: '127.0.0.1', port: s.port, localAddress: '127.0.0.2' });
    sock.on('error', () => undefined);
    const closed = new Promise<void>((r) => sock.once('close', () => r()));
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const text = 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(200);
    const t0 = Date.now();
    let sent = 0;
    const timer = setInterval(() => {
      if (!sock.destroyed && sent < text.length) sock.write(text[sent++] ?? 'a');
    }, 250);
    await closed;
    clearInterval(timer);
    const ms = Date.now() - t0;
    console.log(`status page: a 4-byte-a-second request closed after ${ms} ms / ${sent} bytes`);
    // Breakage guard: headers must be complete within 1 s here (checked every half second); bytes never extend it.
    expect(ms).toBeLessThan(15_000);
    expect(sent).toBeLessThan(text.length);
  });
});
