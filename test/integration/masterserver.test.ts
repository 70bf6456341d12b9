import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startMasterserver, type Masterserver, type MasterserverOptions } from '../../src/node/servers/master/masterserver';
import { MasterRegistration } from '../../src/node/servers/master/masterClient';
import { VirtualClock } from '../support/virtualClock';
import { waitFor } from '../support/waitFor';

const JOIN = 'version: 1.0 join me: Gamma_Quadrant os: i586-pc-linux-gnu maxplayers: 16 url: http://gamma.example.org/';
const joinAs = (name: string, extra = '') => JOIN.replace('Gamma_Quadrant', name) + extra;

/** Log lines as parsed JSON objects, for asserting what a component said. */
function captureLog() {
  const records: { level: number; msg: string; [k: string]: unknown }[] = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void records.push(JSON.parse(s) as (typeof records)[number]) });
  return { log, records };
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function master(options: Partial<MasterserverOptions> = {}): Promise<Masterserver> {
  const m = await startMasterserver({ name: 'test-master', host: '127.0.0.1', port: 0, httpPort: 0, log: captureLog().log, ...options });
  running.push(m);
  return m;
}

/** A raw TCP client reading the masterserver's replies one line at a time. */
async function client(port: number, localAddress?: string) {
  const socket: Socket = connect({ host: '127.0.0.1', port, ...(localAddress ? { localAddress } : {}) });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buf = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    buf += d;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const w = waiting.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  running.push({ close: async () => void socket.destroy() });
  const next = () =>
    lines.length
      ? Promise.resolve(lines.shift() as string)
      : new Promise<string>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error('no reply within 2 s')), 2000);
          waiting.push((l) => (clearTimeout(t), resolve(l)));
        });
  /** Sends one line and resolves with the reply. */
  const ask = (line: string) => {
    socket.write(`${line}\n`);
    return next();
  };
  return { socket, ask, next, closed };
}

const until = (check: () => boolean | Promise<boolean>, ms = 3000): Promise<true> => waitFor('the masterserver', check, ms);
const getJson = async (m: Masterserver) => (await (await fetch(`http://127.0.0.1:${m.ports.http}/servers.json`)).json()) as { servers: Record<string, unknown>[] };
const getHtml = async (m: Masterserver) => (await fetch(`http://127.0.0.1:${m.ports.http}/`)).text();

describe('masterserver protocol conformance (raw TCP)', () => {
  it('accepts a join, lists the server with its connection address, and acknowledges players', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    expect(await c.ask(joinAs('Gamma_Quadrant', ' port: 6582 type: slotserver'))).toBe('join accepted');
    expect(m.servers()).toMatchObject([{ name: 'Gamma_Quadrant', address: '127.0.0.1', port: 6582, type: 'slotserver', players: 0, maxPlayers: 16 }]);
    expect(await c.ask('players: 3 max: 16')).toBe('players acknowledged.');
    expect(m.servers()[0]).toMatchObject({ players: 3, maxPlayers: 16 });
  });

  it('answers "masterserver full" once maxServers servers are listed', async () => {
    const m = await master({ maxServers: 2 });
    for (const name of ['one', 'two']) expect(await (await client(m.ports.tcp as number)).ask(joinAs(name))).toBe('join accepted');
    const third = await client(m.ports.tcp as number);
    expect(await third.ask(joinAs('three'))).toBe('masterserver full');
    expect(m.servers().map((s) => s.name)).toEqual(['one', 'two']);
  });

  it('answers "illegal request not processed" to junk and to a join with a bad URL, and lists nothing', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    expect(await c.ask('hello there')).toBe('illegal request not processed');
    expect(await c.ask(JOIN.replace('http://gamma.example.org/', 'javascript:alert(1)'))).toBe('illegal request not processed');
    expect(await c.ask(JOIN.replace('maxplayers: 16', 'maxplayers: 999'))).toBe('illegal request not processed');
    expect(m.servers()).toEqual([]);
  });

  it('answers "masterserver version incompatible" to version 2.0', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    expect(await c.ask(JOIN.replace('1.0', '2.0'))).toBe('masterserver version incompatible');
    expect(m.servers()).toEqual([]);
  });

  it('answers "removing you" to remove me, then "you\'re not even joined"', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    expect(await c.ask('remove me')).toBe("you're not even joined");
    expect(await c.ask(JOIN)).toBe('join accepted');
    expect(await c.ask('remove me')).toBe('removing you');
    expect(m.servers()).toEqual([]);
    expect(await c.ask('remove me')).toBe("you're not even joined");
    expect(await c.ask('players: 1 max: 16')).toBe("you're not even joined");
  });

  it('replaces the entry when the same connection joins again', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    expect(await c.ask(JOIN)).toBe('join accepted');
    expect(await c.ask(joinAs('Renamed'))).toBe('join accepted');
    expect(m.servers().map((s) => s.name)).toEqual(['Renamed']);
  });

  it('closes a connection whose line is over the limit', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    c.socket.write(`${'x'.repeat(600)}\n`);
    await c.closed;
    expect(c.socket.destroyed).toBe(true);
  });
});

describe('masterserver lists over HTTP', () => {
  it('shows "3/16" in the JSON and HTML lists after players: 3 max: 16', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    await c.ask(joinAs('Gamma_Quadrant', ' port: 6582 type: gameserver'));
    await c.ask('players: 3 max: 16');
    const json = await getJson(m);
    expect(json.servers).toEqual([
      { name: 'Gamma_Quadrant', players: 3, maxPlayers: 16, type: 'gameserver', host: '127.0.0.1', port: 6582, udp: null, fleet: null, os: 'i586-pc-linux-gnu', url: 'http://gamma.example.org/', lastHeardMs: expect.any(Number) },
    ]);
    const html = await getHtml(m);
    expect(html).toContain('<td>3/16</td>');
    expect(html).toContain('<td>127.0.0.1:6582</td>');
    expect(html).toContain('<a href="http://gamma.example.org/" rel="nofollow noopener">');
  });

  it('lists a server\'s fleet state (1.3) once it says one, answers it, and forgets it when the server joins again', async () => {
    const m = await master();
    const stranger = await client(m.ports.tcp as number);
    expect(await stranger.ask('fleet state: allocated')).toBe("you're not even joined");
    const c = await client(m.ports.tcp as number);
    await c.ask(joinAs('Fleet_One', ' port: 6581 type: gameserver'));
    expect((await getJson(m)).servers.map((s) => s.fleet)).toEqual([null]);
    expect(await c.ask('fleet state: ready')).toBe('fleet state acknowledged');
    expect(await c.ask('fleet state: allocated')).toBe('fleet state acknowledged');
    expect(await c.ask('fleet state: Allocated')).toBe('illegal request not processed');
    expect((await getJson(m)).servers.map((s) => s.fleet)).toEqual(['allocated']);
    expect(await getHtml(m)).toContain('<td>gameserver (allocated)</td>');
    expect(await c.ask(joinAs('Fleet_One', ' port: 6581 type: gameserver'))).toBe('join accepted');
    expect((await getJson(m)).servers.map((s) => s.fleet)).toEqual([null]);
  });

  it('links a server that registered its page at 0.0.0.0 at the address it joined from, and a named host as given', async () => {
    const m = await master();
    // 127.0.0.2 is loopback too (Linux), but not the masterserver's own address: the link must follow the join's source.
    const wildcard = await client(m.ports.tcp as number, '127.0.0.2');
    expect(await wildcard.ask(`${joinAs('Everywhere').replace('http://gamma.example.org/', 'http://0.0.0.0:8082/')} port: 6582`)).toBe('join accepted');
    const named = await client(m.ports.tcp as number);
    expect(await named.ask(joinAs('Named').replace('http://gamma.example.org/', 'http://vm:8083/'))).toBe('join accepted');
    const urls = Object.fromEntries((await getJson(m)).servers.map((s) => [s.name, s.url]));
    expect(urls).toEqual({ Everywhere: 'http://127.0.0.2:8082/', Named: 'http://vm:8083/' });
    const html = await getHtml(m);
    expect(html).toContain('<a href="http://127.0.0.2:8082/" rel="nofollow noopener">http://127.0.0.2:8082/</a>');
    expect(html).toContain('<td>127.0.0.2:6582</td>');
    expect(html).not.toContain('0.0.0.0');
  });

  it('escapes a server name that would be markup', async () => {
    const m = await master();
    const c = await client(m.ports.tcp as number);
    expect(await c.ask(joinAs('<img_src=x_onerror=alert(1)>'))).toBe('join accepted');
    const html = await getHtml(m);
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img_src=x_onerror=alert(1)&#62;');
  });

  it('serves only GET/HEAD on known paths, with security headers and no caching', async () => {
    const m = await master();
    const base = `http://127.0.0.1:${m.ports.http}`;
    const page = await fetch(`${base}/?x=1`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${base}/servers.json`)).headers.get('content-type')).toMatch(/^application\/json/);
    const head = await fetch(`${base}/servers.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/`, { method: 'POST', body: 'x' })).status).toBe(405);
  });
});

describe('masterserver expiry (on a virtual clock)', () => {
  // The default expiry, 90 s, passes in an instant: the sweep runs on the clock the test advances.
  const EXPIRE_MS = 90_000;

  it('expires a server that goes silent without remove me, and keeps it until then', async () => {
    const clock = new VirtualClock();
    const m = await master({ clock });
    const c = await client(m.ports.tcp as number);
    expect(await c.ask(JOIN)).toBe('join accepted');
    clock.advance(EXPIRE_MS - 1);
    expect(m.servers()).toHaveLength(1);
    clock.advance(1000); // the sweep runs at most a second apart
    expect(m.servers()).toEqual([]);
    await c.closed; // the silent connection is closed along with its entry
  });

  it('lets a server whose old connection is still open re-join in its old place over a new connection', async () => {
    const clock = new VirtualClock();
    const m = await master({ clock, expireMs: 400 });
    const first = await client(m.ports.tcp as number);
    expect(await first.ask(joinAs('Blip', ' port: 7000'))).toBe('join accepted');
    // The old connection is half-open (the server cannot know yet); the server comes back over a new one.
    const again = await client(m.ports.tcp as number);
    expect(await again.ask(joinAs('Blip', ' port: 7000'))).toBe('join accepted');
    expect(m.servers()).toMatchObject([{ name: 'Blip', connected: true }]);
    // The old connection closing no longer takes the entry, which now belongs to the new one.
    first.socket.destroy();
    await first.closed;
    expect(await again.ask('players: 1 max: 16')).toBe('players acknowledged.');
    expect(m.servers()).toMatchObject([{ name: 'Blip', players: 1 }]);
    // Heartbeats keep it listed past the expiry time: 4 × 150 ms, each answered.
    for (let i = 0; i < 4; i++) {
      clock.advance(150);
      expect(await again.ask('players: 1 max: 16')).toBe('players acknowledged.');
    }
    expect(m.servers()).toHaveLength(1);
    clock.advance(400);
    expect(m.servers()).toEqual([]);
  });
});

describe('MasterRegistration against a masterserver', () => {
  const options = (port: number, log = captureLog().log) => ({
    master: `127.0.0.1:${port}`,
    name: 'Reg',
    os: 'linux-x64',
    maxPlayers: 8,
    url: 'https://reg.example/',
    port: 6582,
    type: 'slotserver' as const,
    log,
    heartbeatMs: 100,
    retryMs: 50,
    maxRetryMs: 200,
  });

  it('joins, reports player counts, heartbeats, and removes itself on stop', async () => {
    // The masterserver's time moves only when a heartbeat (real, every 100 ms) has arrived at the current virtual time.
    const clock = new VirtualClock();
    const m = await master({ clock, expireMs: 400 });
    const reg = new MasterRegistration(options(m.ports.tcp as number));
    running.push({ close: () => reg.stop() });
    reg.start();
    await until(() => m.servers().length === 1);
    reg.update(5);
    await until(() => m.servers()[0]?.players === 5);
    for (let i = 0; i < 8; i++) {
      // Twice the expiry in all: each step waits for a heartbeat heard at the current time, then moves 100 ms on.
      await until(() => m.servers()[0]?.lastHeard === clock.now());
      clock.advance(100);
    }
    expect(m.servers()).toMatchObject([{ name: 'Reg', players: 5, maxPlayers: 8, type: 'slotserver', port: 6582 }]);
    await reg.stop();
    expect(m.servers()).toEqual([]);
    expect(reg.state).toBe('stopped');
  });

  it('keeps retrying while the masterserver is down or full, logging refusals as errors, and joins once it can', async () => {
    const probe = await startMasterserver({ name: 'probe', host: '127.0.0.1', port: 0, log: captureLog().log });
    const port = probe.ports.tcp as number;
    await probe.close();
    const { log, records } = captureLog();
    const reg = new MasterRegistration(options(port, log));
    running.push({ close: () => reg.stop() });
    reg.start();
    // Three failed attempts (the first logged as a warning, the next ones at debug level) while nothing listens.
    await until(() => records.filter((r) => /masterserver (connection lost|still unreachable)/.test(r.msg)).length >= 3);
    expect(reg.state).not.toBe('joined');
    const m = await master({ port, maxServers: 1 });
    const blocker = await client(port);
    expect(await blocker.ask(joinAs('Blocker'))).toBe('join accepted');
    await until(() => records.some((r) => r.level === 50 && r.reply === 'masterserver full'));
    expect(reg.state).not.toBe('joined');
    expect(await blocker.ask('remove me')).toBe('removing you');
    await until(() => m.servers().some((s) => s.name === 'Reg'));
    // The masterserver lists it as it accepts the join; the registration is joined once it has read the reply.
    await until(() => reg.state === 'joined');
    expect(m.servers().filter((s) => s.name === 'Reg')).toHaveLength(1);
  });

  it('reconnects when a masterserver stops answering heartbeats', async () => {
    const sockets: Socket[] = [];
    let connections = 0;
    // Answers the join on each connection, then goes quiet, like a master whose host hung.
    const mute = createServer((s) => {
      connections += 1;
      sockets.push(s);
      s.once('data', () => s.write('join accepted\n'));
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    running.push({ close: () => new Promise<void>((r) => (mute.close(() => r()), sockets.forEach((x) => x.destroy()))) });
    const reg = new MasterRegistration(options((mute.address() as AddressInfo).port));
    running.push({ close: () => reg.stop() });
    reg.start();
    await until(() => connections >= 2, 2000);
  });

  it('tells its fleet state once listed and again after a masterserver restart; a masterserver before 1.3 refusing it is no warning', async () => {
    const m1 = await startMasterserver({ name: 'm', host: '127.0.0.1', port: 0, log: captureLog().log });
    const port = m1.ports.tcp as number;
    const { log, records } = captureLog();
    const reg = new MasterRegistration(options(port, log));
    running.push({ close: () => reg.stop() });
    reg.fleetState('ready');
    reg.start();
    await until(() => m1.servers()[0]?.fleet === 'ready');
    reg.fleetState('allocated');
    await until(() => m1.servers()[0]?.fleet === 'allocated');
    await m1.close();
    const m2 = await master({ port });
    await until(() => m2.servers()[0]?.fleet === 'allocated');
    await reg.stop();
    // An older masterserver: it takes the join and the players, and refuses the line it does not know.
    const old = createServer((sock) => {
      sock.setEncoding('utf8');
      sock.on('data', (d: string) => {
        for (const line of d.split('\n').filter((l) => l !== '')) sock.write(line.startsWith('version:') ? 'join accepted\n' : line.startsWith('players:') ? 'players acknowledged.\n' : 'illegal request not processed\n');
      });
      sock.on('error', () => undefined);
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    running.push({ close: () => new Promise<void>((r) => old.close(() => r())) });
    const older = captureLog();
    const reg2 = new MasterRegistration(options((old.address() as AddressInfo).port, older.log));
    running.push({ close: () => reg2.stop() });
    reg2.fleetState('allocated');
    reg2.start();
    await until(() => older.records.some((r) => /older than 1\.3/.test(r.msg)));
    expect(older.records.filter((r) => r.level >= 40)).toEqual([]);
    expect(records.filter((r) => r.level >= 40 && !/connection lost/.test(r.msg))).toEqual([]);
  });

  it('re-joins after the masterserver restarts', async () => {
    const m1 = await startMasterserver({ name: 'm', host: '127.0.0.1', port: 0, log: captureLog().log });
    const port = m1.ports.tcp as number;
    const reg = new MasterRegistration(options(port));
    running.push({ close: () => reg.stop() });
    reg.start();
    await until(() => m1.servers().length === 1);
    await m1.close();
    const m2 = await master({ port });
    await until(() => m2.servers().length === 1);
  });
});
