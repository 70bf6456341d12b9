import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DownMessage, HostEvent } from '../../src/shared/host/contract';
import { startWebShell, webEntry, type WebShellProcess } from '../support/webShellProcess';
import { waitFor } from '../support/waitFor';

/** Opens a WebSocket and resolves when open, or rejects with the HTTP status that refused it. */
function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function collect(ws: WebSocket): DownMessage[] {
  const got: DownMessage[] = [];
  ws.on('message', (d) => got.push(JSON.parse(d.toString()) as DownMessage));
  return got;
}

const until = <T>(what: () => T | undefined, ms = 5000): Promise<T> => waitFor('the shell', what, ms);

describe('browser shell command line', () => {
  it('--help lists the options and exits 0', () => {
    const r = spawnSync(process.execPath, [webEntry, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const flag of ['--port', '--client-port', '--user-data', '--broadcast', '--lan-interfaces']) expect(r.stdout).toContain(flag);
  });

  it('refuses a bad port with one clear line', () => {
    const r = spawnSync(process.execPath, [webEntry, '--port', '99999'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('must be a port number');
  });
});

describe('browser shell process', () => {
  let shell: WebShellProcess;
  const origin = () => `http://127.0.0.1:${shell.port}`;
  const wsUrl = (token?: string) => `ws://127.0.0.1:${shell.port}/host${token === undefined ? '' : `?token=${token}`}`;

  beforeAll(async () => {
    shell = await startWebShell();
  });
  afterAll(async () => {
    await shell?.stop();
  });

  it('serves the game page with a content security policy', async () => {
    const res = await fetch(shell.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await res.text()).toContain('<title>Starlane</title>');
    expect((await fetch(`${origin()}/../../package.json`)).status).toBeGreaterThanOrEqual(400);
  });

  it('refuses a WebSocket without the token, with a wrong token, or from another origin', async () => {
    await expect(open(wsUrl())).rejects.toThrow('HTTP 401');
    await expect(open(wsUrl('x'.repeat(shell.token.length)))).rejects.toThrow('HTTP 401');
    await expect(open(wsUrl(shell.token), { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
  });

  it('listens on 127.0.0.1 only (another loopback address is refused)', async () => {
    const reached = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.2', port: shell.port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    expect(reached).toBe(false);
  });

  it('answers hello, runs console commands and remembers the new name on disk', async () => {
    const ws = await open(wsUrl(shell.token), { Origin: origin() });
    const got = collect(ws);
    ws.send(JSON.stringify({ t: 'hello', id: 7 }));
    const hello = await until(() => got.find((m) => m.t === 'reply' && m.id === 7));
    expect(hello).toMatchObject({ ok: true, result: { shell: 'browser', subsystems: { packetapi: 'udp', protocol: 'offline' } } });

    ws.send(JSON.stringify({ t: 'command', line: 'name maverick' }));
    const events = () => got.flatMap((m) => (m.t === 'events' ? m.events : [])) as HostEvent[];
    await until(() => events().find((e) => e.kind === 'settings'));
    expect(events()).toContainEqual(expect.objectContaining({ kind: 'console', text: 'you are now known as maverick' }));
    await until(() => (JSON.parse(readFileSync(join(shell.userData, 'settings.json'), 'utf8')).playerName === 'maverick' ? true : undefined));
    ws.close();
  });

  it('drops malformed messages and keeps the connection serving', async () => {
    const ws = await open(wsUrl(shell.token), { Origin: origin() });
    const got = collect(ws);
    for (const junk of ['{', '[]', '{"t":"frame","batch":{"frame":-1}}', '{"t":"command","line":7}', JSON.stringify({ t: 'command', line: 'x'.repeat(5000) })]) {
      ws.send(junk);
    }
    ws.send(Buffer.from([1, 2, 3]));
    ws.send(JSON.stringify({ t: 'complete', id: 1, line: 'pack' }));
    const reply = await until(() => got.find((m) => m.t === 'reply' && m.id === 1));
    expect(reply).toMatchObject({ ok: true, result: { line: 'packetapi ' } });
    ws.close();
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const code = await shell.stop();
    expect(code).toBe(0);
    expect(shell.output()).toContain('Starlane browser shell stopped.');
  });
});
