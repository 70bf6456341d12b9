/**
 * Slotserver conformance over raw TCP sockets, line by line, as a 1998
 * client would see it. Every client here runs on 127.0.0.1, so each one that
 * joins names its own UDP port (the `port:` extension); the first uses the
 * default 6526 and therefore appears with a plain address.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { LineClient } from '../support/lineClient';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { renderSlotserverStatus, startSlotserver, type Slotserver, type SlotserverOptions } from '../../src/node/servers/slot/slotserver';
import { tempDir } from '../support/testRun';

const SERVER = 'Test Server';
const WELCOME = ['Welcome to the test server.', 'No camping at the stargate.'];
const MESSAGES = [...WELCOME, '', ''];

/** A raw TCP client with the slotserver's join and a check that nothing more arrives. */
class Client extends LineClient {
  static async at(port: number, localAddress?: string): Promise<Client> {
    const client = new Client(await LineClient.connect(port, '127.0.0.1', localAddress));
    clients.push(client);
    return client;
  }

  /**
   * Asserts that nothing more has arrived: a line the server must answer (an invalid one, one harmless
   * strike) goes out, and its answer has to be the next line, since TCP keeps the server's lines in order.
   */
  async quiet(): Promise<void> {
    this.send('nothing more for me?');
    expect(await this.next()).toBe('you sent an invalid request');
  }

  /** Joins with `name` on UDP `port` (speaking protocol `version`) and returns the accept line after checking the four messages. */
  async join(name: string, port?: number, version = '1.0'): Promise<string> {
    this.send(`version: ${version} join me: ${name} os: test-os${port === undefined ? '' : ` port: ${port}`}`);
    const accept = await this.next();
    if (accept.startsWith('join from')) expect(await this.take(4)).toEqual(MESSAGES);
    return accept;
  }
}

const clients: Client[] = [];
const servers: Slotserver[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close('test over')));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function server(extra: Partial<SlotserverOptions> = {}): Promise<Slotserver> {
  const s = await startSlotserver({
    name: SERVER,
    host: '127.0.0.1',
    port: 0,
    maxPlayers: 4,
    welcome: WELCOME,
    // Every client here joins from 127.0.0.1 and speaks only TCP: one host may take every seat, and no UDP proof is asked (seatProof.test.ts has that).
    maxPerAddress: 8,
    proveUdpMs: 0,
    log: pino({ level: 'silent' }),
    ...extra,
  });
  servers.push(s);
  return s;
}

/** A server with `names` joined in order (ports 6526, 6527, …); returns the clients after all add lines arrived. */
async function withPlayers(names: string[], extra: Partial<SlotserverOptions> = {}): Promise<{ s: Slotserver; c: Client[] }> {
  const s = await server(extra);
  const c: Client[] = [];
  for (const [i, name] of names.entries()) {
    const client = await Client.at(s.ports.tcp ?? 0);
    expect(await client.join(name, 6526 + i)).toBe(`join from ${name} accepted, slot: ${i}, server name: ${SERVER}, time: ${s.ports.udp}`);
    await client.take(i); // the adds of everyone already here
    for (const earlier of c) await earlier.next(); // the add of the newcomer
    c.push(client);
  }
  return { s, c };
}

const at = (port: number) => (port === 6526 ? '127.0.0.1' : `127.0.0.1:${port}`);

describe('slotserver joins', () => {
  it('accepts a join with the slot, the server name and exactly four message lines', async () => {
    const s = await server();
    const a = await Client.at(s.ports.tcp ?? 0);
    a.send('version: 1.0 join me: ace os: linux-x64');
    expect(await a.next()).toBe(`join from ace accepted, slot: 0, server name: ${SERVER}, time: ${s.ports.udp}`);
    expect(await a.take(4)).toEqual(['Welcome to the test server.', 'No camping at the stargate.', '', '']);
    await a.quiet();
    expect(s.players()).toMatchObject([{ slot: 0, name: 'ace', address: '127.0.0.1', port: 6526, os: 'linux-x64' }]);
  });

  it('tells a newcomer about everyone already joined and everyone about the newcomer', async () => {
    const s = await server();
    const a = await Client.at(s.ports.tcp ?? 0);
    await a.join('ace');
    const b = await Client.at(s.ports.tcp ?? 0);
    expect(await b.join('bob', 6527)).toBe(`join from bob accepted, slot: 1, server name: ${SERVER}, time: ${s.ports.udp}`);
    expect(await b.next()).toBe('add ip: 127.0.0.1 name: ace in 0');
    expect(await a.next()).toBe('add ip: 127.0.0.1:6527 name: bob in 1');
    await Promise.all([a.quiet(), b.quiet()]);
  });

  it('takes names with spaces and gives the lowest free slot', async () => {
    const { s, c } = await withPlayers(['Red Baron', 'b', 'c']);
    c[1]?.socket.destroy();
    await c[0]?.next();
    const d = await Client.at(s.ports.tcp ?? 0);
    expect(await d.join('Snoopy Dog', 7000)).toBe(`join from Snoopy Dog accepted, slot: 1, server name: ${SERVER}, time: ${s.ports.udp}`);
    expect(await d.take(2)).toEqual(['add ip: 127.0.0.1 name: Red Baron in 0', 'add ip: 127.0.0.1:6528 name: c in 2']);
  });

  it('answers "server full" when every slot is taken and closes', async () => {
    const { s } = await withPlayers(['a', 'b'], { maxPlayers: 2 });
    const late = await Client.at(s.ports.tcp ?? 0);
    expect(await late.join('late', 7000)).toBe('server full');
    await late.closed;
    expect(s.playerCount()).toBe(2);
  });

  it('answers "you sent an invalid request" to junk and to a second join, keeping the connection', async () => {
    const s = await server();
    const a = await Client.at(s.ports.tcp ?? 0);
    a.send('GET / HTTP/1.0');
    expect(await a.next()).toBe('you sent an invalid request');
    await a.join('ace');
    a.send('version: 1.0 join me: again os: x port: 7000');
    expect(await a.next()).toBe('you sent an invalid request');
    a.send('version: 2.0 join me: again os: x');
    expect(await a.next()).toBe('you sent an invalid request');
    expect(s.players().map((p) => p.name)).toEqual(['ace']);
    expect(a.ended).toBe(false);
  });

  it('answers "server version incompatible" to another major version and closes', async () => {
    const s = await server();
    const a = await Client.at(s.ports.tcp ?? 0);
    a.send('version: 2.0 join me: ace os: x');
    expect(await a.next()).toBe('server version incompatible');
    await a.closed;
  });

  it('answers "you\'re banned from this server" to a banned address and closes, and lets others in', async () => {
    const dir = tempDir('slot');
    dirs.push(dir);
    const banFile = join(dir, 'bans.txt');
    writeFileSync(banFile, '# test\n127.0.0.2/32\n');
    const s = await server({ banFile });
    const banned = await Client.at(s.ports.tcp ?? 0, '127.0.0.2');
    banned.send('version: 1.0 join me: troll os: x');
    expect(await banned.next()).toBe("you're banned from this server");
    await banned.closed;
    const ok = await Client.at(s.ports.tcp ?? 0);
    expect(await ok.join('ace')).toMatch(/^join from ace accepted/);
  });

  it('refuses a join with a name already taken, ignoring case', async () => {
    const { s } = await withPlayers(['Maverick']);
    const b = await Client.at(s.ports.tcp ?? 0);
    expect(await b.join('maverick', 6527)).toBe('name already taken');
    expect(await b.join('goose', 6527)).toMatch(/^join from goose accepted, slot: 1/);
  });

  it('refuses a second join from an endpoint already joined', async () => {
    const { s } = await withPlayers(['ace']);
    const b = await Client.at(s.ports.tcp ?? 0);
    expect(await b.join('bob')).toBe('you sent an invalid request');
  });

  it('closes a connection that does not join in time', async () => {
    const s = await server({ joinTimeoutMs: 150 });
    const a = await Client.at(s.ports.tcp ?? 0);
    await a.closed;
  });
});

describe('slotserver renames and leaves', () => {
  it('accepts a new name and tells the others', async () => {
    const { c } = await withPlayers(['ace', 'bob', 'cat']);
    c[0]?.send('my new name: maverick');
    expect(await c[0]?.next()).toBe('new name accepted');
    expect(await c[1]?.next()).toBe('name ip: 127.0.0.1 name: maverick');
    expect(await c[2]?.next()).toBe('name ip: 127.0.0.1 name: maverick');
    await c[0]?.quiet();
  });

  it('refuses a taken name and an invalid one, and a rename before joining', async () => {
    const { s, c } = await withPlayers(['ace', 'bob']);
    c[1]?.send('my new name: ACE');
    expect(await c[1]?.next()).toBe('name already taken');
    c[1]?.send('my new name: this name is far too long');
    expect(await c[1]?.next()).toBe('you sent an invalid request');
    await c[0]?.quiet();
    const x = await Client.at(s.ports.tcp ?? 0);
    x.send('my new name: xavier');
    expect(await x.next()).toBe("you're not even joined");
  });

  it('answers "remove me" with "removing you", closes, and tells the others', async () => {
    const { s, c } = await withPlayers(['ace', 'bob', 'cat']);
    c[1]?.send('remove me');
    expect(await c[1]?.next()).toBe('removing you');
    await c[1]?.closed;
    expect(await c[0]?.next()).toBe(`remove ip: ${at(6527)}`);
    expect(await c[2]?.next()).toBe(`remove ip: ${at(6527)}`);
    expect(s.players().map((p) => p.slot)).toEqual([0, 2]);
  });

  it('tells 1.1 clients why a player left (its own words, or "lost connection"), and 1.0 clients the 1998 line', async () => {
    const s = await server();
    const c: Client[] = [];
    for (const [i, [name, version]] of ([['ace', '1.0'], ['bob', '1.1'], ['cat', '1.1'], ['dan', '1.1']] as const).entries()) {
      const client = await Client.at(s.ports.tcp ?? 0);
      expect(await client.join(name, 6526 + i, version)).toMatch(/^join from \w+ accepted/);
      await client.take(i);
      for (const earlier of c) await earlier.next();
      c.push(client);
    }
    c[2]?.send('remove me: switched to netgame');
    expect(await c[2]?.next()).toBe('removing you');
    expect(await c[0]?.next()).toBe(`remove ip: ${at(6528)}`);
    expect(await c[1]?.next()).toBe(`remove ip: ${at(6528)} left: switched to netgame`);
    expect(await c[3]?.next()).toBe(`remove ip: ${at(6528)} left: switched to netgame`);
    c[3]?.socket.resetAndDestroy();
    expect(await c[0]?.next()).toBe(`remove ip: ${at(6529)}`);
    expect(await c[1]?.next()).toBe(`remove ip: ${at(6529)} left: lost connection`);
    c[1]?.send('remove me');
    expect(await c[0]?.next()).toBe(`remove ip: ${at(6527)}`);
  });

  it('passes a 1.2 client\'s ship look to the other 1.2 clients (a newcomer hears it after the adds), never to 1.1 ones', async () => {
    const s = await server();
    const c: Client[] = [];
    for (const [i, [name, version]] of ([['ace', '1.2'], ['bob', '1.1'], ['cat', '1.2']] as const).entries()) {
      const client = await Client.at(s.ports.tcp ?? 0);
      expect(await client.join(name, 6526 + i, version)).toMatch(/^join from \w+ accepted/);
      await client.take(i);
      for (const earlier of c) await earlier.next();
      c.push(client);
      if (i === 0) client.send('my ship: manta pink');
    }
    // cat joined after ace chose: after its adds comes ace's look.
    expect(await c[2]?.next()).toBe('ship ip: 127.0.0.1 ship: manta pink');
    c[2]?.send('my ship: wasp auto');
    expect(await c[0]?.next()).toBe(`ship ip: ${at(6528)} ship: wasp auto`);
    await c[1]?.quiet();
    await c[2]?.quiet();
    const x = await Client.at(s.ports.tcp ?? 0);
    x.send('my ship: dart blue');
    expect(await x.next()).toBe("you're not even joined");
  });

  it('answers "remove me" before a join with "you\'re not even joined"', async () => {
    const s = await server();
    const a = await Client.at(s.ports.tcp ?? 0);
    a.send('remove me');
    expect(await a.next()).toBe("you're not even joined");
  });

  it('frees the slot of a client that drops without a word and tells the others', async () => {
    const changes: number[] = [];
    const { s, c } = await withPlayers(['ace', 'bob'], { onPlayersChanged: (n) => changes.push(n) });
    c[0]?.socket.resetAndDestroy();
    expect(await c[1]?.next()).toBe('remove ip: 127.0.0.1');
    expect(s.playerCount()).toBe(1);
    expect(changes).toEqual([1, 2, 1]);
    const d = await Client.at(s.ports.tcp ?? 0);
    expect(await d.join('dan')).toMatch(/^join from dan accepted, slot: 0/);
  });

  it('closes a connection that sends an over-long line and carries on with the others', async () => {
    const { s, c } = await withPlayers(['ace', 'bob']);
    c[0]?.send('my new name: ' + 'x'.repeat(400));
    await c[0]?.closed;
    expect(await c[1]?.next()).toBe('remove ip: 127.0.0.1');
    c[1]?.send('my new name: still here');
    expect(await c[1]?.next()).toBe('new name accepted');
    expect(s.players().map((p) => p.name)).toEqual(['still here']);
  });
});

describe('slotserver status and shutdown', () => {
  it('escapes client-sent names in the HTML page and keeps them verbatim in the JSON', async () => {
    const { s } = await withPlayers(['<img src=x>', '<b>x</b>']);
    const { html, json } = renderSlotserverStatus(s);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>x');
    expect(html).toContain('&#60;img src=x&#62;');
    expect(html).toContain('2 of 4 slots taken');
    const parsed = JSON.parse(json) as { name: string; maxPlayers: number; players: { name: string; slot: number; endpoint: string; os: string }[] };
    expect(parsed.name).toBe(SERVER);
    expect(parsed.maxPlayers).toBe(4);
    expect(parsed.players.map((p) => [p.slot, p.name, p.endpoint, p.os])).toEqual([
      [0, '<img src=x>', '127.0.0.1', 'test-os'],
      [1, '<b>x</b>', '127.0.0.1:6527', 'test-os'],
    ]);
  });

  it('says "removing you" to every client on close and frees everything', async () => {
    const { s, c } = await withPlayers(['ace', 'bob']);
    const idle = await Client.at(s.ports.tcp ?? 0);
    await s.close('maintenance');
    for (const client of [...c, idle]) {
      expect(await client.next()).toBe('removing you');
      await client.closed;
    }
    expect(s.players()).toEqual([]);
  });
});

describe('slotserver options', () => {
  it.each([
    ['a bad server name', { name: ' padded' }],
    ['five welcome lines', { welcome: ['1', '2', '3', '4', '5'] }],
    ['a welcome line with a line break', { welcome: ['two\nlines'] }],
    ['a welcome line that reads like a protocol line', { welcome: ['server full'] }],
    ['zero players', { maxPlayers: 0 }],
  ])('refuses to start with %s', async (_what, extra) => {
    await expect(server(extra)).rejects.toThrow(/slotserver:/);
  });

  it('refuses to start with a ban file that cannot be read', async () => {
    await expect(server({ banFile: join(tmpdir(), 'starlane-no-such-ban-file.txt') })).rejects.toThrow(/ENOENT/);
  });
});
