import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startLineServer, type LineServer } from '../../src/node/servers/common/lineServer';
import { waitFor } from '../support/waitFor';

const servers: LineServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A raw client that collects lines and tells when the server closed it. */
function client(port: number): Promise<{ socket: Socket; lines: string[]; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const lines: string[] = [];
    let buf = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => resolve({ socket, lines, closed }));
    socket.once('error', reject);
  });
}

const until = (check: () => boolean, ms = 3000): Promise<true> => waitFor('the lines', check, ms, 10);

describe('line server', () => {
  it('delivers complete lines (CRLF or LF, split across packets) and answers', async () => {
    const counts: Record<string, number> = {};
    const server = await startLineServer(
      { line: (c, l) => c.send(`echo: ${l}`) },
      { port: 0, host: '127.0.0.1', count: (r) => void (counts[r] = (counts[r] ?? 0) + 1) },
    );
    servers.push(server);
    const c = await client(server.port);
    c.socket.write('hel');
    c.socket.write('lo\r\nwor');
    c.socket.write('ld\n');
    await until(() => c.lines.length === 2);
    expect(c.lines).toEqual(['echo: hello', 'echo: world']);
    c.socket.destroy();
  });

  it('closes a connection whose line is too long, with or without a line break, and keeps serving others', async () => {
    const server = await startLineServer({ line: (c, l) => c.send(l) }, { port: 0, host: '127.0.0.1', maxLineBytes: 64 });
    servers.push(server);
    const bad = await client(server.port);
    bad.socket.write('x'.repeat(100));
    await bad.closed;
    const good = await client(server.port);
    good.socket.write('fine\n');
    await until(() => good.lines.length === 1);
    good.socket.destroy();
  });

  it('closes idle connections', async () => {
    const server = await startLineServer({ line: () => undefined }, { port: 0, host: '127.0.0.1', idleMs: 150 });
    servers.push(server);
    const c = await client(server.port);
    const t0 = Date.now();
    await c.closed;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
  });

  it('bytes without a line break extend neither deadline: the idle timeout counts from the last complete line', async () => {
    const counts: string[] = [];
    // No line deadline: only the idle timeout can cut the trickle.
    const server = await startLineServer({ line: (c) => c.send('ok') }, { port: 0, host: '127.0.0.1', idleMs: 600, lineTimeoutMs: 0, count: (r) => void counts.push(r) });
    servers.push(server);
    const c = await client(server.port);
    c.socket.write('hello\n');
    await until(() => c.lines.length === 1);
    const t0 = Date.now();
    const timer = setInterval(() => c.socket.write('x'), 50);
    await c.closed;
    clearInterval(timer);
    expect(counts).toContain('idle-timeout');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('a line left unfinished past lineTimeoutMs closes the connection; complete lines keep it open', async () => {
    const counts: string[] = [];
    const server = await startLineServer({ line: (c) => c.send('ok') }, { port: 0, host: '127.0.0.1', idleMs: 60_000, lineTimeoutMs: 300, count: (r) => void counts.push(r) });
    servers.push(server);
    const c = await client(server.port);
    // Ten complete lines, 100 ms apart, each split in two: never a line open for 300 ms.
    for (let i = 0; i < 10; i++) {
      c.socket.write('pi');
      await until(() => c.lines.length === i, 1000);
      c.socket.write('ng\n');
      await until(() => c.lines.length === i + 1, 1000);
    }
    expect(c.socket.readyState).toBe('open');
    c.socket.write('never ends');
    await c.closed;
    expect(counts).toEqual(['line-timeout']);
  });

  it('closes a peer that does not read once its unsent replies pass maxOutputBytes', async () => {
    const counts: string[] = [];
    const reply = 'r'.repeat(200);
    const server = await startLineServer({ line: (c) => c.send(reply) }, { port: 0, host: '127.0.0.1', maxOutputBytes: 64 * 1024, count: (r) => void counts.push(r) });
    servers.push(server);
    const c = await client(server.port);
    c.socket.pause();
    const chunk = 'x\n'.repeat(10_000);
    const pump = () => {
      while (!c.socket.destroyed) if (!c.socket.write(chunk)) return void c.socket.once('drain', pump);
    };
    pump();
    await c.closed;
    expect(counts).toContain('output-overflow');
  });

  it('caps connections per address, keeping places for other addresses', async () => {
    const counts: string[] = [];
    const server = await startLineServer({ line: (c) => c.send('ok') }, { port: 0, host: '127.0.0.1', connectsPerMinute: 1000, maxConnectionsPerAddress: 3, count: (r) => void counts.push(r) });
    servers.push(server);
    const many = await Promise.all([1, 2, 3, 4, 5].map(() => client(server.port)));
    await until(() => counts.filter((r) => r === 'too-many-from-address').length === 2);
    await until(() => server.connections().length === 3);
    many.forEach((c) => c.socket.destroy());
    await until(() => server.connections().length === 0);
  });

  it('rate-limits connection attempts per address', async () => {
    let refused = 0;
    const server = await startLineServer({ line: () => undefined }, { port: 0, host: '127.0.0.1', connectsPerMinute: 3, count: (r) => void (r === 'rate-limited' && refused++) });
    servers.push(server);
    const clients = await Promise.all([1, 2, 3, 4, 5].map(() => client(server.port)));
    await until(() => refused === 2);
    clients.forEach((c) => c.socket.destroy());
  });

  it('a throwing handler is counted and the connection keeps working', async () => {
    const counts: string[] = [];
    const server = await startLineServer(
      {
        line: (c, l) => {
          if (l === 'boom') throw new Error('handler bug');
          c.send('ok');
        },
      },
      { port: 0, host: '127.0.0.1', count: (r) => void counts.push(r) },
    );
    servers.push(server);
    const c = await client(server.port);
    c.socket.write('boom\nnext\n');
    await until(() => c.lines.length === 1);
    expect(counts).toContain('handler-threw-line');
    c.socket.destroy();
  });

  it('close() says goodbye to every open connection and releases the port', async () => {
    const server = await startLineServer({ line: () => undefined }, { port: 0, host: '127.0.0.1' });
    const c = await client(server.port);
    await until(() => server.connections().length === 1);
    await server.close((conn) => conn.send('bye'));
    await c.closed;
    expect(c.lines).toEqual(['bye']);
  });
});
